package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The point count guessed before the read ({@link PointCountGuess}) and the argument scan of the early start. */
class PointCountGuessTest {

    @TempDir
    Path dir;

    @Test
    void aSmallTextFileIsCountedExactly() throws Exception {
        Path f = dir.resolve("p.xyz");
        Files.writeString(f, "# comment\n1 2 3\n-4.5 6 7\n\n.5 +1 2\n8 9 10"); // no newline at the end
        assertEquals(4, PointCountGuess.points(f.toString()));
    }

    @Test
    void aLargeFileIsEstimatedFromItsStart() throws Exception {
        Random r = new Random(7);
        StringBuilder b = new StringBuilder("x,y,z\n");
        int n = 40_000;
        for (int i = 0; i < n; i++) {
            b.append(String.format(Locale.ROOT, "%.17g,%.17g,%.17g%n", r.nextGaussian(), r.nextGaussian() * 1e3,
                    r.nextDouble()));
        }
        Path f = dir.resolve("p.csv");
        Files.writeString(f, b);
        assertTrue(Files.size(f) > 2 * PointCountGuess.SAMPLE);
        long guess = PointCountGuess.points(f.toString());
        assertTrue(Math.abs(guess - n) < n / 50, "guess " + guess + " for " + n);
    }

    @Test
    void aPlyHeaderGivesTheCount() throws Exception {
        Path f = dir.resolve("p.ply");
        Files.write(f, ("ply\nformat binary_little_endian 1.0\nelement vertex 123456\nproperty float x\n"
                + "property float y\nproperty float z\nend_header\n").getBytes(StandardCharsets.US_ASCII));
        assertEquals(123456, PointCountGuess.points(f.toString()));
    }

    @Test
    void noGuessWhereThereIsNone() throws Exception {
        Path obj = dir.resolve("m.obj");
        Files.writeString(obj, "v 1 2 3\n");
        assertEquals(-1, PointCountGuess.points(obj.toString()));
        assertEquals(-1, PointCountGuess.points("-"));
        assertEquals(-1, PointCountGuess.points(dir.resolve("missing.xyz").toString()));
        Path words = dir.resolve("w.txt");
        Files.writeString(words, "no numbers here\n");
        assertEquals(-1, PointCountGuess.points(words.toString()));
    }

    @Test
    void theEarlyStartIsForHullAndVoronoiOnTornadoOnly() {
        assertTrue(Prewarm.asksForTornado("hull", "--input", "a.xyz", "--backend", "tornado"));
        assertTrue(Prewarm.asksForTornado("voronoi", "--backend=TORNADO", "--input", "x.pdb"));
        assertFalse(Prewarm.asksForTornado("hull", "--backend", "tornado", "--backend", "jvm"), "the last one wins");
        assertFalse(Prewarm.asksForTornado("hull", "--input", "a.xyz"), "jvm-parallel by default");
        assertTrue(Prewarm.asksForTornado("ridge", "--generate", "spiral3d", "--tiled", "--backend", "tornado"));
        assertFalse(Prewarm.asksForTornado("ridge", "--generate", "spiral3d", "--backend", "jvm"));
        assertFalse(Prewarm.asksForTornado("kdtree", "build", "--backend", "tornado"));
        assertFalse(Prewarm.asksForTornado("hull", "--backend", "tornado", "--help"));
        assertFalse(Prewarm.asksForTornado("hull", "--backend"));
        assertFalse(Prewarm.asksForTornado());
    }

    @Test
    void theVoronoiWarmUpIsForVoronoiOnSeveralCores() {
        assertTrue(Prewarm.warmsVoronoi("voronoi", "--input", "x.pdb"), "jvm-parallel by default");
        assertTrue(Prewarm.warmsVoronoi("voronoi", "--backend=TORNADO", "--input", "x.pdb"));
        assertTrue(Prewarm.warmsVoronoi("voronoi", "--backend", "jvm-parallel", "--input", "x.pdb"));
        assertFalse(Prewarm.warmsVoronoi("voronoi", "--backend", "jvm", "--input", "x.pdb"), "one thread: no idle core");
        assertFalse(Prewarm.warmsVoronoi("voronoi", "--backend", "tornado", "-h"));
        assertFalse(Prewarm.warmsVoronoi("hull", "--backend", "tornado"));
        assertFalse(Prewarm.warmsVoronoi());
    }
}
