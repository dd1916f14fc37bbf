package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A jvm-parallel Voronoi batch with {@code accelgeom.voronoi.oneThreadPerInput}: the inputs computed on one thread
 * each write the same bytes as every input on all threads (the output does not depend on the threads), the mode is
 * used for all but the last inputs, and a bad input in the middle is reported on its one line.
 */
class VoronoiOneThreadBatchTest {

    @TempDir
    Path dir;

    /** {@code n} random balls at protein density (0.05 per cubic Å), radii in [1.5, 1.9], as 'x y z r' lines. */
    private static String balls(int n, long seed) {
        Random rnd = new Random(seed);
        double side = Math.cbrt(n / 0.05);
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < n; k++) {
            b.append(String.format(Locale.ROOT, "%.3f %.3f %.3f %.2f%n", rnd.nextDouble() * side, rnd.nextDouble() * side,
                    rnd.nextDouble() * side, 1.5 + 0.4 * rnd.nextDouble()));
        }
        return b.toString();
    }

    private Path inputs(boolean withBad) throws IOException {
        Path in = Files.createDirectories(dir.resolve("in"));
        for (int k = 0; k < 6; k++) {
            Files.writeString(in.resolve("b" + k + ".xyzr"), balls(200 + 60 * k, 7 + k));
        }
        if (withBad) {
            Files.writeString(in.resolve("b2bad.xyzr"), "0 0 0 1\n1 0 0 NaN\n"); // sorts between b2 and b3
        }
        return in;
    }

    private MainTest.Run batch(Path in, Path out, boolean oneThread) {
        String key = "accelgeom.voronoi.oneThreadPerInput";
        String old = System.setProperty(key, Boolean.toString(oneThread));
        try {
            return MainTest.run("voronoi", "--input", in.toString(), "--output", out.toString(), "--backend",
                    "jvm-parallel", "--threads", "2", "--quiet");
        } finally {
            if (old == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, old);
            }
        }
    }

    private static List<Path> files(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.sorted().toList();
        }
    }

    @Test
    void oneThreadPerInputWritesTheSameBytesAsAllThreads() throws Exception {
        Path in = inputs(false);
        int before = VoronoiCommand.ONE_THREAD_INPUTS.get();
        MainTest.Run on = batch(in, dir.resolve("on"), true);
        int used = VoronoiCommand.ONE_THREAD_INPUTS.get() - before;
        MainTest.Run off = batch(in, dir.resolve("off"), false);
        assertEquals(0, on.exit(), on.err());
        assertEquals(0, off.exit(), off.err());
        // 6 inputs, 2 threads: while 2 or more remain (inputs 1-5) one thread each, the last on both threads
        assertEquals(5, used);
        assertEquals(used, VoronoiCommand.ONE_THREAD_INPUTS.get() - before, "the switch off computes none alone");
        List<Path> a = files(dir.resolve("on"));
        List<Path> b = files(dir.resolve("off"));
        assertEquals(6, a.size());
        assertEquals(a.stream().map(Path::getFileName).toList(), b.stream().map(Path::getFileName).toList());
        for (int k = 0; k < a.size(); k++) {
            assertTrue(Files.size(a.get(k)) > 0);
            assertArrayEquals(Files.readAllBytes(b.get(k)), Files.readAllBytes(a.get(k)), a.get(k).toString());
        }
        assertTrue(on.out().contains("batch: 6 done, 0 failed"), on.out());
    }

    @Test
    void aBadInputInTheMiddleIsReportedAndTheOthersWritten() throws Exception {
        Path in = inputs(true);
        MainTest.Run r = batch(in, dir.resolve("out"), true);
        assertEquals(Main.EXIT_FAILURE, r.exit());
        List<String> errors = r.err().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, errors.size(), r.err());
        assertTrue(errors.get(0).startsWith("accelgeom: error: ") && errors.get(0).contains("b2bad.xyzr"), r.err());
        assertEquals(6, files(dir.resolve("out")).size());
        assertTrue(r.out().contains("batch: 6 done, 1 failed"), r.out());
        int first = r.out().indexOf("b1.xyzr");
        int bad = r.out().indexOf("b2bad.xyzr");
        int next = r.out().indexOf("b3.xyzr");
        assertTrue(first >= 0 && first < bad && bad < next, "reports in input order: " + r.out());
    }
}
