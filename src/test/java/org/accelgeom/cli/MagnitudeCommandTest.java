package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 16, item 1, from the command line: the hull at ±1e308, and Voronoi's stated range. */
class MagnitudeCommandTest {

    @TempDir
    Path dir;

    @Test
    void hullOfCubeAtPlusMinus1e308() throws Exception {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            s.append((i & 1) == 0 ? "-1e308" : "1e308").append(' ').append((i & 2) == 0 ? "-1e308" : "1e308").append(' ')
                    .append((i & 4) == 0 ? "-1e308" : "1e308").append('\n');
        }
        s.append("1e-300 0 5e-324\n");
        Path f = dir.resolve("cube.xyz");
        Files.writeString(f, s);
        for (String backend : new String[] {"jvm", "jvm-parallel"}) {
            MainTest.Run r = MainTest.run("hull", "--input", f.toString(), "--backend", backend, "--quiet");
            assertEquals(0, r.exit(), r.err());
            assertEquals(8, r.value("hull vertices"), r.out());
            assertEquals(6, r.value("facets"), r.out());
        }
    }

    @Test
    void voronoiRejectsABallBeyondItsRangeInOneLine() throws Exception {
        StringBuilder s = new StringBuilder();
        java.util.Random rnd = new java.util.Random(1);
        for (int i = 0; i < 50; i++) {
            s.append(20 * rnd.nextDouble()).append(' ').append(20 * rnd.nextDouble()).append(' ')
                    .append(20 * rnd.nextDouble()).append(" 1.5\n");
        }
        Path ok = dir.resolve("ok.xyzr");
        Files.writeString(ok, s);
        MainTest.Run r = MainTest.run("voronoi", "--input", ok.toString(), "--backend", "jvm", "--quiet");
        assertEquals(0, r.exit(), r.err());
        Path far = dir.resolve("far.xyzr");
        Files.writeString(far, s + "1e200 10 10 1.5\n");
        r = MainTest.run("voronoi", "--input", far.toString(), "--backend", "jvm", "--quiet");
        MainTest.assertOneLineError(r);
        assertEquals(Main.EXIT_FAILURE, r.exit());
        assertTrue(r.err().contains("outside the supported range"), r.err());
    }
}
