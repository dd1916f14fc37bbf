package org.accelgeom.cli;

import static org.accelgeom.cli.MainTest.assertOneLineError;
import static org.accelgeom.cli.MainTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.imageio.ImageIO;

import org.accelgeom.io.Formats;
import org.accelgeom.io.Mesh;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code accelgeom ridge} as a user runs it. */
class RidgeCommandTest {

    @Test
    void generatedSpiralGivesOneCurveAndItsQuality(@TempDir Path dir) throws IOException {
        Path ply = dir.resolve("curve.ply");
        Path png = dir.resolve("curve.png");
        MainTest.Run r = run("ridge", "--generate", "spiral2d", "--n", "6000", "--quiet", "--output", ply.toString(),
                "--picture", png.toString(), "--timings");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("polylines:        1 "), r.out());
        assertTrue(r.out().contains("Hausdorff:"), r.out());
        assertTrue(r.out().contains("choose"), "phases printed:\n" + r.out());
        Mesh curve = Formats.readMesh(ply);
        assertTrue(curve.vertexCount() >= 3, "representatives in the PLY");
        assertEquals(1000, ImageIO.read(png.toFile()).getWidth(), "the picture is a readable PNG");
    }

    @Test
    void csvHasOneRowPerPolylinePointInAnyDimension(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("curve.csv");
        MainTest.Run r = run("ridge", "--generate", "segment", "--dim", "5", "--n", "3000", "--sigma", "1", "--r1", "3",
                "--quiet", "--output", csv.toString());
        assertEquals(0, r.exit(), r.err());
        List<String> lines = Files.readAllLines(csv);
        assertEquals("polyline,closed,representative,x1,x2,x3,x4,x5", lines.get(0));
        assertEquals(8, lines.get(1).split(",").length);
        long reps = r.value("representatives");
        assertTrue(reps > 0);
    }

    @Test
    void bruteForceOverSeveralDevicesIsOneLine() {
        // one input over several devices splits the tiles; brute force has one tile (checked before TornadoVM starts)
        MainTest.Run r = run("ridge", "--generate", "spiral2d", "--n", "1000", "--backend", "tornado", "--devices", "0,1",
                "--quiet");
        assertOneLineError(r);
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--devices 0,1 on one input: ridge detection splits across devices by tiles, and "
                + "brute force evolves one tile: use the tiled version (--tiled) or one device"), r.err());
    }

    @Test
    void extendedTilesBeyondAnArrayAreOneLineBeforeTheyAreStored() {
        // 16D, R1 over the whole cloud, tiles of at most 10 points: every point in ~5000 margins, 16 x ~2.3e8
        // coordinates; counted (as ranges of leaves) and refused before any margin is stored
        String ones = String.join(",", java.util.Collections.nCopies(16, "1"));
        MainTest.Run r = run("ridge", "--generate", "segment", "--dim", "16", "--n", "40000", "--r1", "1000", "--tiled",
                "--tiles", ones, "--tile-capacity", "10", "--quiet", "--no-order");
        assertOneLineError(r);
        assertTrue(r.err().contains("points with margins") && r.err().contains("raise --tile-capacity"), r.err());
        assertEquals(1, r.exit());
    }

    @Test
    void tiledAndFloatRun(@TempDir Path dir) {
        MainTest.Run r = run("ridge", "--generate", "spiral3d", "--n", "5000", "--tiled", "--tiles", "2",
                "--tile-capacity", "1500", "--precision", "float", "--quiet");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("version:          tiled:"), r.out());
        assertTrue(r.out().contains("float"), r.out());
    }

    @Test
    void fileInputNeedsR1AndBadValuesAreUsageErrors(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("pts.xyz");
        Files.writeString(f, "0 0\n1 1\n2 2\n3 3\n");
        for (String[] args : new String[][] {{"ridge", "--input", f.toString()},
            {"ridge", "--generate", "helix"}, {"ridge", "--generate", "spiral2d", "--r1", "-1"},
            {"ridge", "--generate", "spiral2d", "--r1", "NaN"}, {"ridge", "--generate", "segment", "--dim", "17"},
            {"ridge", "--generate", "spiral2d", "--precision", "half"}, {"ridge", "--generate", "spiral2d", "--n", "2"},
            {"ridge", "--generate", "spiral2d", "--tiles", "3"},
            {"ridge", "--generate", "spiral2d", "--tiled", "--tiles", "3,3,3"},
            {"ridge", "--input", f.toString(), "--generate", "spiral2d"}}) {
            MainTest.Run r = run(args);
            assertOneLineError(r);
            assertEquals(2, r.exit(), String.join(" ", args) + ": " + r.err());
        }
    }

    @Test
    void mixedDimensionsAndNonFiniteCoordinatesAreClearErrors(@TempDir Path dir) throws IOException {
        Path mixed = dir.resolve("mixed.xyz");
        Files.writeString(mixed, "0 0\n1 1 1\n2 2\n");
        MainTest.Run r = run("ridge", "--input", mixed.toString(), "--r1", "1");
        assertOneLineError(r);
        assertTrue(r.err().contains("mixed.xyz:2"), r.err());
        Path nan = dir.resolve("nan.xyz");
        Files.writeString(nan, "0 0\n1 1\nnan 2\n3 3\n");
        r = run("ridge", "--input", nan.toString(), "--r1", "1");
        assertOneLineError(r);
        assertEquals(1, r.exit());
    }

    @Test
    void plyOfAFiveDimensionalCurveIsRefusedBeforeTheWork(@TempDir Path dir) {
        MainTest.Run r = run("ridge", "--generate", "segment", "--dim", "5", "--n", "2000", "--r1", "3", "--quiet",
                "--output", dir.resolve("c.ply").toString());
        assertOneLineError(r);
        assertTrue(r.err().contains(".csv"), r.err());
    }
}
