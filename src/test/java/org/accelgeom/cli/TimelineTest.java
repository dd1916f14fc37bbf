package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The process timeline of --timings: consecutive rows from the launch, which sum to the time until the table. */
class TimelineTest {

    @TempDir
    Path dir;

    /** Launch at 1,000 ms, the JVM at 1,300 ms, main at 1,450 ms (epoch); nanoTime reads 50,000 ns at main. */
    private static Timeline timeline(long launchMs) {
        return new Timeline(launchMs * 1_000_000L, 1_300_000_000L, 1_450_000_000L, 50_000L);
    }

    @Test
    void rowsStartAtTheLaunchAndSumToTheTimeOfTheLastMark() {
        Timeline t = timeline(1_000);
        long main = 50_000L;
        t.mark("reading", main + 200_000_000L);
        t.mark("computing", main + 700_000_000L, "(its phase table: 480.0 ms)");
        t.mark("reading", main + 750_000_000L); // a batch: a second input's read adds to the row
        List<Timeline.Row> rows = t.rows();
        assertEquals(List.of(300_000_000L, 150_000_000L, 250_000_000L, 500_000_000L),
                rows.stream().map(Timeline.Row::nanos).toList());
        assertEquals(2, rows.get(2).count());
        long sum = rows.stream().mapToLong(Timeline.Row::nanos).sum();
        assertEquals(sum, t.total());
        assertEquals(1_000_000_000L + sum, t.lastEpochNanos(), "the table's time is the launch plus the rows");
        String table = t.format();
        assertTrue(table.contains("total, until this table"), table);
        assertTrue(table.contains("1200.0 ms"), table);
        assertTrue(table.contains("(x2)"), table);
        assertTrue(table.contains("(its phase table: 480.0 ms)"), table);
        // the numbers of the rows add up to the total line's, as printed
        double printed = table.lines().filter(l -> !l.contains("total")).mapToDouble(TimelineTest::millis).sum();
        assertEquals(1200.0, printed, 1e-6);
    }

    @Test
    void withoutALaunchTimeItStartsAtTheJvm() {
        Timeline t = timeline(0);
        assertEquals(1, t.rows().size());
        assertEquals(150_000_000L, t.total());
        assertTrue(t.rows().get(0).name().startsWith("JVM start"));
        Timeline late = timeline(1_400); // a launch after the JVM's start is not believed
        assertEquals(150_000_000L, late.total());
    }

    @Test
    void aMarkBeforeThePreviousOneCountsZero() {
        Timeline t = timeline(1_000);
        t.mark("a", 10_000L);
        assertEquals(0L, t.rows().get(2).nanos());
        assertEquals(450_000_000L, t.total());
    }

    @Test
    void theTableTimeGoesToTheScriptsFile() throws Exception {
        Path f = dir.resolve("end");
        Timeline.writeEnd(f.toString(), 1_234_567_890_123L);
        assertEquals("1234567890123", Files.readString(f));
        Timeline.writeEnd(null, 5L); // no file asked for: nothing happens
        Timeline.writeEnd(dir.resolve("no/such/dir/end").toString(), 5L); // cannot write: ignored
        assertEquals("1234567890123", Files.readString(f));
    }

    private static double millis(String line) {
        String[] w = line.trim().split("\\s+");
        for (int k = w.length - 1; k > 0; k--) {
            if (w[k].equals("ms")) {
                return Double.parseDouble(w[k - 1]);
            }
        }
        return 0;
    }
}
