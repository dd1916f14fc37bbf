package org.accelgeom.cli.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.accelgeom.io.DcdWriter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Trajectory frames in flight on the tornado backend ({@code accelgeom.voronoi.framesInFlight}): 1UBQ's frames stay on
 * the host cores (each alone on its thread); with {@code accelgeom.voronoi.hostBelow=64} their levels go to the device
 * and the frames in flight take turns on the session's one device search. Either way every frame file equals the
 * one-at-a-time tornado run's and the jvm-parallel run's byte for byte, and the reports are the same, in frame order.
 */
@Tag("tornado")
class FramesInFlightTornadoTest {

    @TempDir
    Path dir;

    @Test
    void framesInFlightEqualOneAtATimeOnAndOffTheDevice() throws Exception {
        Path balls = dir.resolve("1ubq.xyzr");
        try (var in = FramesInFlightTornadoTest.class.getResourceAsStream("/voronoi/1ubq.xyzr")) {
            Files.copy(in, balls);
        }
        List<String> lines = Files.readAllLines(balls);
        int n = lines.size();
        float[][][] frames = new float[4][3][n];
        Random rnd = new Random(3);
        for (int f = 0; f < frames.length; f++) {
            for (int i = 0; i < n; i++) {
                String[] t = lines.get(i).trim().split("\\s+");
                for (int a = 0; a < 3; a++) {
                    frames[f][a][i] = Float.parseFloat(t[a]) + (float) (0.1 * rnd.nextGaussian());
                }
            }
        }
        Path dcd = Files.write(dir.resolve("t.dcd"), DcdWriter.write(ByteOrder.LITTLE_ENDIAN, true, false, 0, frames, n));
        String[] reference = run(balls, dcd, "jvm-parallel", 1, null);
        for (String hostBelow : new String[] {null, "64"}) {
            String[] one = run(balls, dcd, "tornado", 1, hostBelow);
            String[] three = run(balls, dcd, "tornado", 3, hostBelow);
            assertEquals("0", one[0], one[2]);
            assertEquals("0", three[0], three[2]);
            assertEquals(masked(one[1]), masked(three[1]), "hostBelow " + hostBelow);
            assertEquals(List.of("frame 1:", "frame 2:", "frame 3:", "frame 4:"),
                    three[1].lines().filter(l -> l.startsWith("frame ")).map(l -> l.substring(0, l.indexOf(':') + 1)).toList());
            assertSameFiles(dir.resolve(reference[3]), dir.resolve(one[3]));
            assertSameFiles(dir.resolve(reference[3]), dir.resolve(three[3]));
        }
    }

    /** The trajectory with {@code k} frames in flight: exit status, stdout, stderr and the output directory's name. */
    private String[] run(Path balls, Path dcd, String backend, int k, String hostBelow) throws Exception {
        String name = backend + "-" + k + "-" + hostBelow;
        Path o = Files.createDirectories(dir.resolve(name));
        String[] args = {"voronoi", "--input", balls.toString(), "--trajectory", dcd.toString(), "--output",
            o.resolve("v.vertices").toString(), "--backend", backend, "--quiet"};
        String oldK = System.setProperty("accelgeom.voronoi.framesInFlight", Integer.toString(k));
        String oldH = hostBelow == null ? null : System.setProperty("accelgeom.voronoi.hostBelow", hostBelow);
        try {
            String[] r = MultiDeviceTornadoTest.run(args);
            return new String[] {r[0], r[1], r[2], name};
        } finally {
            restore("accelgeom.voronoi.framesInFlight", oldK);
            if (hostBelow != null) {
                restore("accelgeom.voronoi.hostBelow", oldH);
            }
        }
    }

    private static void restore(String key, String old) {
        if (old == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, old);
        }
    }

    /** Stdout with the times masked. */
    private static String masked(String out) {
        return out.replaceAll("[0-9]+\\.[0-9]+ ms", "T ms");
    }

    private static void assertSameFiles(Path a, Path b) throws Exception {
        List<Path> fa, fb;
        try (Stream<Path> s = Files.list(a); Stream<Path> t = Files.list(b)) {
            fa = s.sorted().toList();
            fb = t.sorted().toList();
        }
        assertEquals(4, fa.size());
        assertEquals(fa.stream().map(Path::getFileName).toList(), fb.stream().map(Path::getFileName).toList());
        for (int k = 0; k < fa.size(); k++) {
            assertTrue(Files.size(fa.get(k)) > 0);
            assertArrayEquals(Files.readAllBytes(fa.get(k)), Files.readAllBytes(fb.get(k)), fa.get(k).toString());
        }
    }
}
