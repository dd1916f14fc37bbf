package org.accelgeom.cli.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.TreeSet;

import org.accelgeom.cli.Main;
import org.accelgeom.hull.RandomPoints;
import org.accelgeom.io.DcdWriter;
import org.accelgeom.io.Formats;
import org.accelgeom.io.Mesh;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --devices} on the tornado backend. POCL has one device, so {@code --devices 0,0} runs two workers on it:
 * the same path as two GPUs (two worker processes by default, or two threads with
 * {@code -Daccelgeom.devices.workers=threads}; two sessions, dynamic hand-out, ordered output). Every result file equals
 * the one-device run's byte for byte, the reports come in input order, a bad input is one line and the batch goes
 * on; one input split over the workers (the hull) equals the one-device hull; a device TornadoVM lacks is one line.
 */
@Tag("tornado")
class MultiDeviceTornadoTest {

    @TempDir
    Path dir;

    @Test
    void hullBatchAndSplitEqualTheOneDeviceRun() throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        Formats.writePoints(in.resolve("a.xyz"), RandomPoints.ball(3000, 1));
        Files.writeString(in.resolve("b.xyz"), "0 0 0\n1 0 0\nnot a number\n");
        Formats.writePoints(in.resolve("c.xyz"), RandomPoints.gauss(3000, 2));
        Formats.writePoints(in.resolve("d.xyz"), RandomPoints.sphere(3000, 3));
        String[] one = run("hull", "--input", in.toString(), "--output", dir.resolve("one").toString(), "--backend",
                "tornado", "--quiet");
        String[] two = run("hull", "--input", in.toString(), "--output", dir.resolve("two").toString(), "--backend",
                "tornado", "--devices", "0,0", "--quiet");
        assertEquals("1", one[0], one[2]);
        assertEquals("1", two[0], two[2]);
        assertEquals(one[2], two[2], "the same one error line");
        assertTrue(two[2].startsWith("accelgeom: error: " + in.resolve("b.xyz") + ": "), two[2]);
        assertEquals(headers(one[1]), headers(two[1]), "reports in input order");
        assertEquals(reports(one[1]), reports(two[1].replace(dir.resolve("two").toString(), dir.resolve("one").toString())),
                "the worker processes' reports, but for times and devices");
        assertTrue(two[1].contains("batch: 3 done, 1 failed,"), two[1]);
        assertTrue(two[1].matches("(?s).*, 2 workers \\(device 0: \\d inputs?, device 0: \\d inputs?\\), one process each"
                + ", 3 inputs in flight each; ms per input [0-9.]+, [0-9.]+\n"), two[1]);
        for (String name : List.of("a", "c", "d")) {
            assertArrayEquals(Files.readAllBytes(dir.resolve("one/" + name + ".ply")),
                    Files.readAllBytes(dir.resolve("two/" + name + ".ply")), name);
        }
        assertFalse(Files.exists(dir.resolve("two/b.ply")));

        // one input split in two parts on the two workers: the jvm reference's file, byte for byte
        Path big = dir.resolve("big.ply");
        Formats.writePoints(big, RandomPoints.ball(20_000, 4));
        String[] split = run("hull", "--input", big.toString(), "--output", dir.resolve("split.ply").toString(),
                "--backend", "tornado", "--devices", "0,0", "--timings", "--quiet");
        assertEquals("0", split[0], split[2]);
        assertTrue(split[1].contains("tornado (devices 0,0)"), split[1]);
        assertTrue(split[1].contains("parts in 2 worker processes"), split[1]);
        assertTrue(split[1].contains("part 1 (device 0, 10000 points): read (its byte range)"), split[1]);
        String[] ref = run("hull", "--input", big.toString(), "--output", dir.resolve("ref.ply").toString(), "--backend",
                "jvm", "--quiet");
        assertEquals("0", ref[0], ref[2]);
        assertArrayEquals(Files.readAllBytes(dir.resolve("ref.ply")), Files.readAllBytes(dir.resolve("split.ply")));
        assertTrue(canonical(Formats.readMesh(dir.resolve("ref.ply"))).length() > 0);
        // random points, each worker process generating its part (the same part sizes: the kernel cache's plans)
        String[] random = run("hull", "--random", "20000", "--seed", "4", "--output", dir.resolve("random.ply").toString(),
                "--backend", "tornado", "--devices", "0,0", "--timings", "--quiet", "--save-points",
                dir.resolve("saved.ply").toString());
        assertEquals("0", random[0], random[2]);
        assertArrayEquals(Files.readAllBytes(big), Files.readAllBytes(dir.resolve("saved.ply")), "the parent's points");
        assertTrue(random[1].contains("part 0 (device 0, 10000 points): generate (generated)"), random[1]);
        assertArrayEquals(Files.readAllBytes(dir.resolve("ref.ply")), Files.readAllBytes(dir.resolve("random.ply")),
                "RandomPoints.ball(20000, 4) in two parts");
        // the same split as worker threads of one process
        System.setProperty("accelgeom.devices.workers", "threads");
        try {
            String[] threads = run("hull", "--input", big.toString(), "--output", dir.resolve("threads.ply").toString(),
                    "--backend", "tornado", "--devices", "0,0", "--timings", "--quiet");
            assertEquals("0", threads[0], threads[2]);
            assertTrue(threads[1].contains("hulls of 2 parts"), threads[1]);
        } finally {
            System.clearProperty("accelgeom.devices.workers");
        }
        assertArrayEquals(Files.readAllBytes(dir.resolve("ref.ply")), Files.readAllBytes(dir.resolve("threads.ply")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"processes", "threads"})
    void voronoiFilesModelsAndFramesEqualTheOneDeviceRun(String workers) throws Exception {
        String before = System.getProperty("accelgeom.devices.workers");
        System.setProperty("accelgeom.devices.workers", workers);
        try {
            voronoiFilesAndFrames(workers.equals("processes"));
        } finally {
            if (before == null) {
                System.clearProperty("accelgeom.devices.workers");
            } else {
                System.setProperty("accelgeom.devices.workers", before);
            }
        }
    }

    private void voronoiFilesAndFrames(boolean processes) throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        List<String> base;
        try (var s = MultiDeviceTornadoTest.class.getResourceAsStream("/voronoi/1ubq.xyzr")) {
            base = new String(s.readAllBytes()).lines().filter(l -> !l.isBlank() && !l.startsWith("#")).limit(200).toList();
        }
        Files.write(in.resolve("a.xyzr"), base);
        Random rnd = new Random(11);
        List<List<String>> jiggled = new ArrayList<>();
        for (String name : List.of("b.xyzr", "c.xyzr")) {
            List<String> j = base.stream().map(l -> jiggle(l, rnd)).toList();
            jiggled.add(j);
            Files.write(in.resolve(name), j);
        }
        // files (with worker processes: the hull test's batch; each child JVM builds its kernels on POCL, slowly)
        if (!processes) {
            String[] one = run("voronoi", "--input", in.toString(), "--output", dir.resolve("one").toString(), "--backend",
                    "tornado", "--quiet");
            String[] two = run("voronoi", "--input", in.toString(), "--output", dir.resolve("two").toString(), "--backend",
                    "tornado", "--devices", "0,0", "--quiet");
            assertEquals("0", one[0], one[2]);
            assertEquals("0", two[0], two[2]);
            assertEquals(headers(one[1]), headers(two[1]));
            assertEquals(processes, two[1].contains("one process each"), two[1]);
            assertEquals(reports(one[1]), reports(two[1].replace(dir.resolve("two").toString(), dir.resolve("one").toString())),
                    "the same reports, but for times and devices");
            for (String name : List.of("a", "b", "c")) {
                assertArrayEquals(Files.readAllBytes(dir.resolve("one/" + name + ".vertices")),
                        Files.readAllBytes(dir.resolve("two/" + name + ".vertices")), name);
            }
        }
        // a DCD trajectory of the three as frames, four times over: each worker holds several frames at once, and a
        // worker process must still get its frames' numbers in increasing order (it reads them in turn)
        int n = base.size();
        int count = 12;
        float[][][] frames = new float[count][3][n];
        List<List<String>> all = List.of(base, jiggled.get(0), jiggled.get(1));
        for (int f = 0; f < count; f++) {
            for (int i = 0; i < n; i++) {
                String[] t = all.get(f % 3).get(i).trim().split("\\s+");
                for (int a = 0; a < 3; a++) {
                    frames[f][a][i] = Float.parseFloat(t[a]);
                }
            }
        }
        Path dcd = Files.write(dir.resolve("t.dcd"), DcdWriter.write(ByteOrder.LITTLE_ENDIAN, true, false, 0, frames, n));
        String[] fOne = run("voronoi", "--input", in.resolve("a.xyzr").toString(), "--trajectory", dcd.toString(),
                "--output", dir.resolve("f1.vertices").toString(), "--backend", "tornado", "--quiet");
        String[] fTwo = run("voronoi", "--input", in.resolve("a.xyzr").toString(), "--trajectory", dcd.toString(),
                "--output", dir.resolve("f2.vertices").toString(), "--backend", "tornado", "--devices", "0,0", "--quiet");
        assertEquals("0", fOne[0], fOne[2]);
        assertEquals("0", fTwo[0], fTwo[2]);
        assertEquals(lines(fOne[1], "frame "), lines(fTwo[1], "frame "), "frame reports in frame order");
        assertTrue(fTwo[1].contains("frames:           " + count), fTwo[1]);
        assertTrue(fTwo[1].contains("items in flight each"), fTwo[1]);
        assertTrue(fTwo[1].contains("2 workers (device 0: "), fTwo[1]);
        assertEquals(processes, fTwo[1].contains("one process each"), fTwo[1]);
        assertFalse(fTwo[1].contains("total time:       0.000 ms"), "the workers' times: " + fTwo[1]);
        for (int f = 1; f <= count; f++) {
            assertArrayEquals(Files.readAllBytes(dir.resolve("f1-frame" + f + ".vertices")),
                    Files.readAllBytes(dir.resolve("f2-frame" + f + ".vertices")), "frame " + f);
        }
        // --all-models goes through the same item path as the frames (VoronoiCommand.runItems); its jvm test covers it
    }

    @Test
    void aDeviceTornadoLacksIsOneLine() {
        String[] r = run("hull", "--random", "100", "--backend", "tornado", "--devices", "0,9");
        assertEquals("1", r[0], r[2]);
        assertEquals(1, r[2].lines().count(), r[2]);
        assertTrue(r[2].startsWith("accelgeom: error: --devices 0,9: no device 9, TornadoVM has "), r[2]);
        String[] bad = run("hull", "--random", "100", "--backend", "tornado", "--devices", "zero");
        assertEquals(String.valueOf(Main.EXIT_USAGE), bad[0], bad[2]);
        assertEquals(1, bad[2].lines().count(), bad[2]);
    }

    /**
     * A batch over worker processes: the parent does not start TornadoVM for a list of indices, so the child of the
     * missing device finds it missing and ends; the run ends with status 1, in one line of the parent's.
     */
    @Test
    void aBatchOnADeviceTornadoLacksEndsTheRun() throws Exception {
        Path in = Files.createDirectories(dir.resolve("in9"));
        Formats.writePoints(in.resolve("a.xyz"), RandomPoints.ball(2000, 1));
        Formats.writePoints(in.resolve("b.xyz"), RandomPoints.ball(2000, 2));
        String[] r = run("hull", "--input", in.toString(), "--output", dir.resolve("o9").toString(), "--backend", "tornado",
                "--devices", "0,9", "--quiet");
        assertEquals("1", r[0], r[2]);
        // the child's own line ("--devices 0,9: no device 9, TornadoVM has 1 (...)") goes to the process's stderr
        assertTrue(r[2].startsWith("accelgeom: error: the worker process of device 9 ended (exit status 1)"), r[2]);
        assertEquals(1, r[2].lines().count(), r[2]);
    }

    /**
     * Worker threads: the device check runs beside the first inputs (they compute while TornadoVM starts), yet a
     * device TornadoVM lacks still ends the run with its one error line and no report on stdout. The inputs are
     * dealt largest first: the small ones (host-only diagrams, no kernel to build on POCL) last.
     */
    @Test
    void aBatchInWorkerThreadsOnADeviceTornadoLacksIsOneLine() throws Exception {
        Path in = Files.createDirectories(dir.resolve("in9t"));
        List<String> base;
        try (var s = MultiDeviceTornadoTest.class.getResourceAsStream("/voronoi/1ubq.xyzr")) {
            base = new String(s.readAllBytes()).lines().filter(l -> !l.isBlank() && !l.startsWith("#")).limit(60).toList();
        }
        Files.write(in.resolve("a.xyzr"), base.subList(0, 40));
        Files.write(in.resolve("b.xyzr"), base);
        String before = System.getProperty("accelgeom.devices.workers");
        System.setProperty("accelgeom.devices.workers", "threads");
        String[] r;
        String[] frames;
        try {
            r = run("voronoi", "--input", in.toString(), "--output", dir.resolve("o9t").toString(), "--backend", "tornado",
                    "--devices", "0,9", "--quiet");
            float[][][] xyz = new float[2][3][40]; // two frames of a.xyzr's 40 balls (their own coordinates)
            for (int f = 0; f < 2; f++) {
                for (int i = 0; i < 40; i++) {
                    String[] t = base.get(i).trim().split("\\s+");
                    for (int a = 0; a < 3; a++) {
                        xyz[f][a][i] = Float.parseFloat(t[a]) + f * 0.01f;
                    }
                }
            }
            Path dcd = Files.write(dir.resolve("t9.dcd"), DcdWriter.write(ByteOrder.LITTLE_ENDIAN, true, false, 0, xyz, 40));
            frames = run("voronoi", "--input", in.resolve("a.xyzr").toString(), "--trajectory", dcd.toString(), "--output",
                    dir.resolve("f9.vertices").toString(), "--backend", "tornado", "--devices", "0,9", "--quiet");
        } finally {
            if (before == null) {
                System.clearProperty("accelgeom.devices.workers");
            } else {
                System.setProperty("accelgeom.devices.workers", before);
            }
        }
        assertEquals("1", r[0], r[2]);
        assertTrue(r[2].startsWith("accelgeom: error: --devices 0,9: no device 9, TornadoVM has "), r[2]);
        assertEquals(1, r[2].lines().count(), r[2]);
        assertFalse(r[1].contains("== "), "no report before the device check: " + r[1]);
        // the frames of a trajectory likewise compute while TornadoVM starts, and end the same way
        assertEquals("1", frames[0], frames[2]);
        assertTrue(frames[2].startsWith("accelgeom: error: --devices 0,9: no device 9, TornadoVM has "), frames[2]);
        assertEquals(1, frames[2].lines().count(), frames[2]);
        assertFalse(frames[1].contains("frame "), "no frame report before the device check: " + frames[1]);
    }

    /** A batch's report lines less those that vary from run to run (times, backend and device, the summary). */
    private static List<String> reports(String out) {
        return out.lines().filter(l -> !l.contains(" ms") && !l.startsWith("backend:") && !l.startsWith("batch:")).toList();
    }

    /** The "== input (k/n)" lines of a batch. */
    private static List<String> headers(String out) {
        return lines(out, "== ");
    }

    /** The lines starting with {@code prefix}, without their times (the last field, "... ms"). */
    private static List<String> lines(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).map(l -> l.replaceAll(", [0-9.]+ ms$", "")).toList();
    }

    /** A mesh as text independent of face order, starting corner and vertex numbering. */
    private static String canonical(Mesh m) {
        TreeSet<String> faces = new TreeSet<>();
        for (int f = 0; f < m.faceCount(); f++) {
            List<String> loop = new ArrayList<>();
            for (int k = 0; k < m.faceSize(f); k++) {
                int v = m.faceVertex(f, k);
                loop.add("(" + m.x()[v] + "," + m.y()[v] + "," + m.z()[v] + ")");
            }
            int first = loop.indexOf(loop.stream().min(String::compareTo).orElseThrow());
            List<String> rotated = new ArrayList<>(loop.subList(first, loop.size()));
            rotated.addAll(loop.subList(0, first));
            faces.add(String.join(" ", rotated));
        }
        assertTrue(faces.size() > 100, "a real hull: " + faces.size());
        return m.vertexCount() + "\n" + String.join("\n", faces);
    }

    private static String jiggle(String line, Random rnd) {
        String[] f = line.trim().split("\\s+");
        return String.format(Locale.ROOT, "%.4f %.4f %.4f %s", Double.parseDouble(f[0]) + 0.2 * rnd.nextGaussian(),
                Double.parseDouble(f[1]) + 0.2 * rnd.nextGaussian(), Double.parseDouble(f[2]) + 0.2 * rnd.nextGaussian(), f[3]);
    }

    /** The CLI in this JVM: exit status, stdout, stderr. */
    static String[] run(String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        var cl = Main.commandLine(args);
        cl.setOut(new PrintWriter(o, true));
        cl.setErr(new PrintWriter(e, true));
        int exit = Main.execute(cl, args);
        return new String[] {Integer.toString(exit), o.toString(), e.toString()};
    }
}
