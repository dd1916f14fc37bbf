package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;

import org.accelgeom.engine.Tuning;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The background TornadoVM start and the hull's compile ahead ({@code accelgeom.prewarm}, on by default) change nothing
 * in the results: the hull of a file on tornado with them on and off, byte for byte, and the jvm reference's hull; a
 * file that fails after the compile ahead was queued still gets its one error line.
 */
@Tag("tornado")
class PrewarmTest {

    @TempDir
    Path dir;

    @Test
    void hullOfAFileIsTheSameWithAndWithoutTheBackgroundStart() throws Exception {
        Path points = dir.resolve("p.xyz");
        String[] made = run("hull", "--random", "3000", "--distribution", "ball", "--seed", "5", "--backend", "jvm",
                "--quiet", "--save-points", points.toString());
        assertEquals("0", made[0], made[2]);
        String property = Tuning.PREWARM.property();
        String before = System.getProperty(property);
        try {
            for (String on : new String[] {"true", "false"}) {
                System.setProperty(property, on);
                String[] r = run("hull", "--input", points.toString(), "--backend", "tornado", "--quiet", "--output",
                        dir.resolve("t-" + on + ".ply").toString());
                assertEquals("0", r[0], r[2]);
            }
        } finally {
            if (before == null) {
                System.clearProperty(property);
            } else {
                System.setProperty(property, before);
            }
        }
        String[] ref = run("hull", "--input", points.toString(), "--backend", "jvm", "--quiet", "--output",
                dir.resolve("jvm.ply").toString());
        assertEquals("0", ref[0], ref[2]);
        byte[] jvm = Files.readAllBytes(dir.resolve("jvm.ply"));
        assertArrayEquals(jvm, Files.readAllBytes(dir.resolve("t-true.ply")), "prewarm on");
        assertArrayEquals(jvm, Files.readAllBytes(dir.resolve("t-false.ply")), "prewarm off");
    }

    @Test
    void aBadFileIsReportedInOneLineWithTheCompileAheadQueued() throws Exception {
        Path flat = dir.resolve("flat.xyz");
        Files.writeString(flat, "1 2\n3 4\n5 6\n"); // a guess of 3 points queues the compile ahead; the file is 2D
        String[] r = run("hull", "--input", flat.toString(), "--backend", "tornado", "--quiet");
        assertEquals("1", r[0], r[2]);
        assertEquals("accelgeom: error: " + flat + ": the points have 2 coordinates each; the convex hull needs 3D "
                + "points (x y z)", r[2].lines().filter(l -> l.startsWith("accelgeom:")).findFirst().orElse(r[2]));
    }

    @Test
    void aFileTheReaderRejectsBesideTheStartGivesTheSameLineAsOnTheJvm() throws Exception {
        Path bad = dir.resolve("bad.xyz");
        Files.writeString(bad, "1 2 3\n4 5 6\n7 8 nine\n1 1 1\n"); // the read fails in the pool beside the start
        String[] t = run("hull", "--input", bad.toString(), "--backend", "tornado", "--quiet");
        String[] j = run("hull", "--input", bad.toString(), "--backend", "jvm", "--quiet");
        assertEquals("1", t[0], t[2]);
        assertEquals("1", j[0], j[2]);
        assertEquals(errorLine(j[2]), errorLine(t[2]));
    }

    /**
     * The read begun first thing in main (as {@link Main} calls {@link Prewarm#startEarly}): the command takes it (the
     * early start's file is taken), and its file is the same as on the JVM; a file the reader rejects there gives the
     * JVM run's error line.
     */
    @Test
    void theReadBegunInMainGivesTheSameFileAndTheSameErrors() throws Exception {
        Path points = dir.resolve("e.xyz");
        String[] made = run("hull", "--random", "3000", "--distribution", "sphere", "--seed", "6", "--backend", "jvm",
                "--quiet", "--save-points", points.toString());
        assertEquals("0", made[0], made[2]);
        String[] args = {"hull", "--input", points.toString(), "--backend", "tornado", "--quiet", "--output",
            dir.resolve("early.ply").toString()};
        Prewarm.startEarly(args);
        Prewarm p = Prewarm.pending();
        assertEquals(points.toString(), p.earlyInput(), "read from the start of main");
        String[] t = run(args);
        assertEquals("0", t[0], t[2]);
        assertEquals(null, p.earlyInput(), "the command took the early read");
        String[] j = run("hull", "--input", points.toString(), "--backend", "jvm", "--quiet", "--output",
                dir.resolve("jvm.ply").toString());
        assertEquals("0", j[0], j[2]);
        assertArrayEquals(Files.readAllBytes(dir.resolve("jvm.ply")), Files.readAllBytes(dir.resolve("early.ply")));

        Path bad = dir.resolve("bad-early.xyz");
        Files.writeString(bad, "1 2 3\n4 5 6\n7 8 nine\n1 1 1\n");
        String[] badArgs = {"hull", "--input", bad.toString(), "--backend", "tornado", "--quiet"};
        Prewarm.startEarly(badArgs);
        assertEquals(bad.toString(), Prewarm.pending().earlyInput());
        String[] tb = run(badArgs);
        String[] jb = run("hull", "--input", bad.toString(), "--backend", "jvm", "--quiet");
        assertEquals("1", tb[0], tb[2]);
        assertEquals(errorLine(jb[2]), errorLine(tb[2]));
    }

    private static String errorLine(String err) {
        return err.lines().filter(l -> l.startsWith("accelgeom:")).findFirst().orElse(err);
    }

    /** exit status, stdout, stderr (as strings, for the assertions' messages). */
    private static String[] run(String... args) {
        MainTest.Run r = MainTest.run(args);
        return new String[] {Integer.toString(r.exit()), r.out(), r.err()};
    }
}
