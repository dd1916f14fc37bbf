package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.accelgeom.io.DcdWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Frames and models in flight ({@code accelgeom.voronoi.framesInFlight}, {@link FramesInFlight}): K at once writes the
 * same files and prints the same reports, in frame order, as one at a time, on jvm and jvm-parallel; a bad frame in
 * the middle is reported on its one line in its turn, a file that ends inside a frame ends the run after the frames
 * before it, as one at a time.
 */
class VoronoiFramesInFlightTest {

    @TempDir
    Path dir;

    /** 1UBQ's 602 balls. */
    private Path balls() throws IOException {
        Path balls = dir.resolve("1ubq.xyzr");
        if (!Files.exists(balls)) {
            try (var in = VoronoiFramesInFlightTest.class.getResourceAsStream("/voronoi/1ubq.xyzr")) {
                Files.copy(in, balls);
            }
        }
        return balls;
    }

    /**
     * A DCD of {@code count} frames of 1UBQ, each jiggled (0.1 Å, seeded); frame {@code bad} (from 1, 0: none) has one
     * atom far out of the supported range.
     */
    private Path trajectory(String name, int count, int bad) throws IOException {
        List<String> lines = Files.readAllLines(balls());
        int n = lines.size();
        float[][][] frames = new float[count][3][n];
        Random rnd = new Random(5);
        for (int f = 0; f < count; f++) {
            for (int i = 0; i < n; i++) {
                String[] t = lines.get(i).trim().split("\\s+");
                for (int a = 0; a < 3; a++) {
                    frames[f][a][i] = Float.parseFloat(t[a]) + (float) (0.1 * rnd.nextGaussian());
                }
            }
        }
        if (bad > 0) {
            frames[bad - 1][0][7] = 1e12f;
        }
        return Files.write(dir.resolve(name), DcdWriter.write(ByteOrder.LITTLE_ENDIAN, true, false, 0, frames, n));
    }

    /** The command with {@code accelgeom.voronoi.framesInFlight} set to {@code k}. */
    private static MainTest.Run inFlight(int k, String... args) {
        String key = "accelgeom.voronoi.framesInFlight";
        String old = System.setProperty(key, Integer.toString(k));
        try {
            return MainTest.run(args);
        } finally {
            if (old == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, old);
            }
        }
    }

    /** Stdout with the times masked (the one thing that may differ between runs). */
    static String masked(String out) {
        return out.replaceAll("[0-9]+\\.[0-9]+ ms", "T ms");
    }

    private static List<Path> files(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.sorted().toList();
        }
    }

    /** Every file of {@code a} has the bytes of the file of the same name in {@code b}, and the names are the same. */
    static void assertSameFiles(Path a, Path b) throws IOException {
        List<Path> fa = files(a), fb = files(b);
        assertEquals(fa.stream().map(Path::getFileName).toList(), fb.stream().map(Path::getFileName).toList());
        for (int k = 0; k < fa.size(); k++) {
            assertTrue(Files.size(fa.get(k)) > 0, fa.get(k).toString());
            assertArrayEquals(Files.readAllBytes(fa.get(k)), Files.readAllBytes(fb.get(k)), fa.get(k).toString());
        }
    }

    /** The frame numbers of the report lines, in the order printed. */
    private static int[] frameOrder(String out, String what) {
        return out.lines().filter(l -> l.startsWith(what + " ")).mapToInt(l -> Integer.parseInt(l.substring(what.length() + 1,
                l.indexOf(':')))).toArray();
    }

    private MainTest.Run frames(int k, Path dcd, String out, String backend) throws IOException {
        Path o = Files.createDirectories(dir.resolve(out));
        return inFlight(k, "voronoi", "--input", balls().toString(), "--trajectory", dcd.toString(), "--output",
                o.resolve("v.vertices").toString(), "--edges", o.resolve("e.csv").toString(), "--backend", backend,
                "--threads", "2", "--quiet");
    }

    @Test
    void framesInFlightWriteAndPrintWhatOneAtATimeDoes() throws Exception {
        Path dcd = trajectory("t.dcd", 9, 4);
        for (String backend : List.of("jvm-parallel", "jvm")) {
            int alone = VoronoiCommand.FRAMES_ALONE.get();
            MainTest.Run one = frames(1, dcd, backend + "-1", backend);
            assertEquals(alone, VoronoiCommand.FRAMES_ALONE.get(), "one at a time: every frame on the session's threads");
            MainTest.Run four = frames(4, dcd, backend + "-4", backend);
            int framesAlone = VoronoiCommand.FRAMES_ALONE.get() - alone;
            // frame 4 is bad: reported on one line, the others computed and written
            assertEquals(Main.EXIT_FAILURE, one.exit(), one.err());
            assertEquals(Main.EXIT_FAILURE, four.exit(), four.err());
            assertEquals(1, four.err().lines().count(), four.err());
            assertTrue(four.err().startsWith("accelgeom: error: " + dcd + ", frame 4: ball "), four.err());
            assertEquals(one.err(), four.err());
            assertEquals(masked(one.out()), masked(four.out()));
            assertArrayEquals(new int[] {1, 2, 3, 5, 6, 7, 8, 9}, frameOrder(four.out(), "frame"), four.out());
            assertTrue(four.out().contains("frames:           9 (1 failed)"), four.out());
            assertSameFiles(dir.resolve(backend + "-1"), dir.resolve(backend + "-4"));
            assertEquals(16, files(dir.resolve(backend + "-4")).size());
            // jvm-parallel on 2 threads: the frames while 2 or more remain (1-8) each on one thread, frame 9 on both
            assertEquals(backend.equals("jvm") ? 0 : 8, framesAlone, backend);
        }
    }

    @Test
    void aTrajectoryEndingInsideAFrameFailsAfterTheFramesBeforeIt() throws Exception {
        Path dcd = trajectory("cut.dcd", 6, 0);
        byte[] all = Files.readAllBytes(dcd);
        Files.write(dcd, Arrays.copyOf(all, all.length - 100)); // frame 6 cut short
        MainTest.Run one = frames(1, dcd, "cut-1", "jvm-parallel");
        MainTest.Run three = frames(3, dcd, "cut-3", "jvm-parallel");
        assertEquals(Main.EXIT_FAILURE, one.exit(), one.err());
        assertEquals(one.exit(), three.exit());
        assertEquals(1, three.err().lines().count(), three.err());
        assertTrue(three.err().contains("truncated"), three.err());
        assertEquals(one.err(), three.err());
        assertEquals(masked(one.out()), masked(three.out()));
        assertArrayEquals(new int[] {1, 2, 3, 4, 5}, frameOrder(three.out(), "frame"), three.out());
        assertSameFiles(dir.resolve("cut-1"), dir.resolve("cut-3"));
        assertEquals(10, files(dir.resolve("cut-3")).size());
    }

    @Test
    void modelsInFlightWriteAndPrintWhatOneAtATimeDoes() throws Exception {
        Path pdb = Files.writeString(dir.resolve("ens.pdb"), VoronoiCommandTest.modelsPdb(7, 11));
        for (String backend : List.of("jvm-parallel", "jvm")) {
            MainTest.Run[] runs = new MainTest.Run[2];
            int[] ks = {1, 3};
            for (int j = 0; j < 2; j++) {
                Path o = Files.createDirectories(dir.resolve("m-" + backend + "-" + ks[j]));
                runs[j] = inFlight(ks[j], "voronoi", "--input", pdb.toString(), "--all-models", "--output",
                        o.resolve("m.vertices").toString(), "--backend", backend, "--threads", "2", "--quiet");
                assertEquals(0, runs[j].exit(), runs[j].err());
            }
            assertEquals(masked(runs[0].out()), masked(runs[1].out()));
            assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6, 7}, frameOrder(runs[1].out(), "model"), runs[1].out());
            assertSameFiles(dir.resolve("m-" + backend + "-1"), dir.resolve("m-" + backend + "-3"));
            assertEquals(7, files(dir.resolve("m-" + backend + "-3")).size());
        }
    }
}
