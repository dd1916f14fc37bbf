package org.accelgeom.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.accelgeom.engine.PhaseTimings.Kind;
import org.junit.jupiter.api.Test;

/** The total is the sum of the top-level rows, parts of an enclosing phase are not counted twice, columns align. */
class PhaseTimingsTest {

    private static final long MS = 1_000_000L;

    @Test
    void workersPhasesMergeUnderTheirPrefixWithCountsAndParents() {
        // the ridge split's parts: each part's table under "part k (device d): ", twice (two rounds), in a region
        PhaseTimings t = new PhaseTimings();
        for (int round = 0; round < 2; round++) {
            try (PhaseTimings.Region r = t.enclose("evolve, 2 parts", Kind.KERNEL)) {
                for (int k = 0; k < 2; k++) {
                    PhaseTimings part = new PhaseTimings();
                    PhaseTimings.Region inner = part.enclose("executions", Kind.HOST);
                    part.add("kernels", Kind.KERNEL, 2 * MS);
                    part.add("kernels", Kind.KERNEL, 3 * MS);
                    inner.close();
                    t.addAll(part, "part " + k + ": ");
                }
            }
        }
        PhaseTimings.Phase kernels = t.phases().stream().filter(p -> p.name().equals("part 1: kernels")).findFirst()
                .orElseThrow();
        assertEquals(4, kernels.count(), "2 adds a round, 2 rounds");
        assertEquals(10 * MS, kernels.nanos());
        assertEquals("part 1: executions", t.parent("part 1: kernels"), "the part's own region, prefixed");
        assertEquals("evolve, 2 parts", t.parent("part 0: executions"), "the part's top rows under the region");
        assertNull(t.parent("evolve, 2 parts"));
        long region = t.phases().stream().filter(p -> p.name().equals("evolve, 2 parts")).findFirst().orElseThrow().nanos();
        assertEquals(region, t.total(), "only the region counts");
    }

    @Test
    void partsOfAnEnclosingPhaseAreNotCountedAgain() {
        PhaseTimings t = new PhaseTimings();
        t.add("read", Kind.HOST, 5 * MS);
        PhaseTimings.Region r = t.enclose("build nodes", Kind.HOST);
        t.add("find planes", Kind.HOST, 2 * MS);
        t.add("upload", Kind.UPLOAD, 1 * MS);
        PhaseTimings worker = new PhaseTimings(); // a worker thread's own, merged under the lock
        worker.add("K1 events (kernel)", Kind.KERNEL, 3 * MS);
        t.addAll(worker);
        sleep(12); // the region's wall time: at least 12 ms, more than its parts (6 ms)
        r.close("build nodes (7 levels)");
        t.add("statistics", Kind.HOST, 4 * MS);

        assertEquals("build nodes (7 levels)", t.parent("find planes"));
        assertEquals("build nodes (7 levels)", t.parent("K1 events (kernel)"));
        assertNull(t.parent("statistics"));
        long build = t.phases().stream().filter(p -> p.name().equals("build nodes (7 levels)")).findFirst().orElseThrow().nanos();
        assertTrue(build >= 12 * MS, "" + build);
        assertEquals(5 * MS + build + 4 * MS, t.total());
        // the parts fit in the region: their kinds count as theirs, the rest as the region's
        assertEquals(1 * MS, t.total(Kind.UPLOAD));
        assertEquals(3 * MS, t.total(Kind.KERNEL));
        assertEquals(t.total(), t.total(Kind.HOST) + t.total(Kind.UPLOAD) + t.total(Kind.KERNEL) + t.total(Kind.DOWNLOAD));

        String table = t.format();
        List<String> lines = table.lines().toList();
        assertEquals(7, lines.size(), table);
        assertTrue(lines.get(2).startsWith("    find planes"), table); // parts indented below their phase
        // the total line equals the sum of the top-level rows as printed
        double sum = 0;
        for (String line : lines.subList(0, lines.size() - 1)) {
            if (!line.startsWith("    ")) {
                sum += millis(line);
            }
        }
        assertEquals(millis(lines.get(lines.size() - 1)), sum, 0.0015, table);
        // aligned: every row's "ms" in one column
        int col = lines.get(0).indexOf(" ms");
        for (String line : lines) {
            assertEquals(col, line.indexOf(" ms"), table);
        }
    }

    @Test
    void partsOnSeveralThreadsMayExceedTheirPhaseAndStillAreNotSummed() {
        PhaseTimings t = new PhaseTimings();
        try (PhaseTimings.Region r = t.enclose("build nodes", Kind.HOST)) {
            t.add("find planes (cpu time, all threads)", Kind.KERNEL, 500 * MS); // cpu time of many threads
        }
        long build = t.phases().stream().filter(p -> p.name().equals("build nodes")).findFirst().orElseThrow().nanos();
        assertEquals(build, t.total());
        assertEquals(build, t.total(Kind.HOST)); // the parts do not fit: the whole phase counts as its own kind
        assertEquals(0, t.total(Kind.KERNEL));
    }

    @Test
    void longNamesKeepTheColumnsAligned() {
        PhaseTimings t = new PhaseTimings();
        t.add("x", Kind.HOST, MS);
        t.add("small nodes: subtrees of the small roots, bit masks and a very long name", Kind.KERNEL, 12_345 * MS);
        t.add("upload", Kind.UPLOAD, MS);
        t.add("x", Kind.HOST, MS);
        List<String> lines = t.format().lines().toList();
        int col = lines.get(0).indexOf(" ms");
        for (String line : lines) {
            assertEquals(col, line.indexOf(" ms"), t.format());
        }
        assertTrue(lines.get(0).endsWith("(x2)"), lines.get(0));
        assertEquals(12_348.0, millis(lines.get(lines.size() - 1)), 1e-9);
    }

    private static double millis(String line) {
        Matcher m = Pattern.compile("([\\d,]+\\.\\d{3}) ms").matcher(line);
        assertTrue(m.find(), line);
        return Double.parseDouble(m.group(1).replace(",", ""));
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
