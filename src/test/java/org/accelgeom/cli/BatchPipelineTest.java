package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.hull.RandomPoints;
import org.accelgeom.io.Formats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The batch pipeline ({@link Batch#inFlight}): inputs in flight at once, reports in input order, memory respected, and
 * a pipelined hull batch equal to one input at a time, byte for byte.
 */
class BatchPipelineTest {

    @TempDir
    Path dir;

    /** A body whose k-th input's work runs {@code work.apply(k)} (its status); input 2 fails to start. */
    private static Batch.InFlight body(int inFlight, long footprint, java.util.function.IntFunction<Callable<Integer>> work) {
        return new Batch.InFlight() {
            private final AtomicInteger started = new AtomicInteger();

            @Override
            public int inFlight() {
                return inFlight;
            }

            @Override
            public long footprint(Path input) {
                return footprint;
            }

            @Override
            public Callable<Batch.Body> start() {
                int k = started.getAndIncrement();
                if (k == 2) {
                    throw new AccelGeomException("input 2 fails to start");
                }
                Callable<Integer> w = work.apply(k);
                return () -> {
                    int status = w.call();
                    return () -> status;
                };
            }
        };
    }

    private long[] run(Batch.InFlight body, int n, StringWriter out, StringWriter err) throws Exception {
        List<Path> inputs = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            inputs.add(dir.resolve("in" + k));
        }
        CommonOptions common = new CommonOptions();
        return Batch.inFlight(body, common, inputs, null, null, new HashSet<>(), new PrintWriter(out, true),
                new PrintWriter(err, true));
    }

    @Test
    void inputsRunAtOnceAndReportInInputOrder() throws Exception {
        int n = 9;
        CyclicBarrier three = new CyclicBarrier(3); // each of the first three works waits until three run at once
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        long[] counts = run(body(3, 0, k -> () -> {
            if (k < 2 || k == 3) {
                three.await(20, TimeUnit.SECONDS); // fails (BrokenBarrier/Timeout) unless inputs 0, 1 and 3 run together
            }
            Thread.sleep(k == 0 ? 200 : 0); // the first ends last: the others' reports wait for it
            return k == 5 ? Main.EXIT_FAILURE : 0;
        }), n, out, err);
        assertEquals(7, counts[0], out.toString() + err);
        assertEquals(2, counts[1], out.toString() + err); // input 2 failed to start, input 5's work said so
        int at = -1;
        for (int k = 0; k < n; k++) {
            int h = out.toString().indexOf("== " + dir.resolve("in" + k) + " (" + (k + 1) + "/" + n + ")");
            assertTrue(h > at, "input " + k + " in order:\n" + out);
            at = h;
        }
        assertTrue(err.toString().contains("in2: input 2 fails to start"), err.toString());
    }

    @Test
    void inputsLargerThanHalfTheHeapRunOneAtATime() throws Exception {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        long big = Runtime.getRuntime().maxMemory() / 3; // two would pass half the heap
        long[] counts = run(body(4, big, k -> () -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            Thread.sleep(20);
            running.decrementAndGet();
            return 0;
        }), 6, new StringWriter(), new StringWriter());
        assertEquals(5, counts[0]);
        assertEquals(1, most.get());
    }

    /** Six point files (one garbage in the middle), hull batches with 3 in flight and with 1 are the same. */
    @Test
    void pipelinedHullBatchEqualsOneAtATime() throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        Formats.writePoints(in.resolve("a.xyz"), RandomPoints.ball(4000, 1));
        Formats.writePoints(in.resolve("b.xyz"), RandomPoints.gauss(3000, 2));
        Files.writeString(in.resolve("c.xyz"), "0 0 0\n1 0 0\n2 x 1\n");
        Formats.writePoints(in.resolve("d.xyz"), RandomPoints.sphere(800, 3));
        Formats.writePoints(in.resolve("e.xyz"), RandomPoints.cube(5000, 4));
        Files.writeString(in.resolve("f.xyz"), "0 0 0\n1 0 0\n0 1 0\n");
        MainTest.Run one = hullBatch(in, dir.resolve("one"), "1");
        MainTest.Run three = hullBatch(in, dir.resolve("three"), "3");
        assertEquals(1, one.exit(), one.err());
        assertEquals(1, three.exit(), three.err());
        assertEquals(one.err(), three.err());
        assertTrue(three.err().startsWith("accelgeom: error: " + in.resolve("c.xyz") + ": "), three.err());
        assertTrue(three.err().contains("c.xyz:3: "), three.err());
        assertEquals(withoutTimes(one.out()).replace(dir.resolve("one").toString(), "OUT"),
                withoutTimes(three.out()).replace(dir.resolve("three").toString(), "OUT"));
        assertTrue(three.out().contains("batch: 5 done, 1 failed,"), three.out());
        for (String name : List.of("a", "b", "d", "e", "f")) {
            assertArrayEquals(Files.readAllBytes(dir.resolve("one/" + name + ".ply")),
                    Files.readAllBytes(dir.resolve("three/" + name + ".ply")), name);
        }
    }

    private static MainTest.Run hullBatch(Path in, Path out, String inFlight) throws IOException {
        String old = System.setProperty("accelgeom.batch.inFlight", inFlight);
        try {
            return MainTest.run("hull", "--input", in.toString(), "--output", out.toString(), "--backend", "jvm-parallel",
                    "--threads", "2", "--quiet");
        } finally {
            if (old == null) {
                System.clearProperty("accelgeom.batch.inFlight");
            } else {
                System.setProperty("accelgeom.batch.inFlight", old);
            }
        }
    }

    /** The report without its times (the total time line and the summary's figures). */
    private static String withoutTimes(String out) {
        return out.replaceAll("(?m)^total time: .*$", "total time")
                .replaceAll("(?m)^batch: (\\d+ done, \\d+ failed),.*$", "batch: $1");
    }
}
