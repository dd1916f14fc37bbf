package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.accelgeom.io.Formats;
import org.accelgeom.io.Mesh;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code accelgeom cbt} and {@code accelgeom terrain} end to end, and their errors. */
class CbtCommandTest {

    @Test
    void inspectionShowsTheLeavesOfTheArticlesExample() {
        MainTest.Run r = MainTest.run("cbt", "--depth", "4", "--init", "1", "--split", "3,7");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("leaves L = 4"), r.out());
        assertTrue(r.out().contains("[2, 6, 14, 15]"), r.out());
        assertTrue(r.out().contains("  1      0           7      5      4"), "root at bit 7, 5 bits, 4 leaves:\n" + r.out());
    }

    @Test
    void benchRowsAndMemoryTable() {
        MainTest.Run r = MainTest.run("cbt", "--bench", "decode,cycle,scan", "--depths", "8", "--backend", "jvm-parallel",
                "--thread-counts", "1,2", "--reps", "2", "--warmup", "0", "--memory");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("| decode | 8 | packed | jvm-parallel (2 threads) | 256 |"), r.out());
        assertTrue(r.out().contains("| cycle | 8 |"), r.out());
        assertTrue(r.out().contains("| 8 | 128 B | 2 KiB |"), r.out());
    }

    @Test
    void badCbtArgumentsAreOneLineErrors() {
        MainTest.assertOneLineError(MainTest.run("cbt", "--bench", "nonsense", "--depths", "8"));
        MainTest.assertOneLineError(MainTest.run("cbt", "--depths", "31", "--memory"));
        MainTest.assertOneLineError(MainTest.run("cbt", "--depth", "4", "--init", "1", "--merge", "2")); // 2 is a leaf
    }

    @Test
    void terrainWritesAConformingMeshAndPictures(@TempDir Path dir) {
        Path obj = dir.resolve("frame.obj");
        Path top = dir.resolve("top.png");
        Path shaded = dir.resolve("shaded.png");
        MainTest.Run r = MainTest.run("terrain", "--fractal", "5", "--max-depth", "12", "--frames", "3", "--quiet", "--backend", "jvm",
                "--output", obj.toString(), "--picture", top.toString(), "--shaded", shaded.toString(), "--width", "320", "--height", "240");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("conforming (no T-junctions)"), r.out());
        Mesh m = Formats.readMesh(obj);
        assertTrue(m.faceCount() > 50, "faces " + m.faceCount());
        assertTrue(Files.isRegularFile(top) && Files.isRegularFile(shaded));
    }

    @Test
    void badTerrainArgumentsAreOneLineErrors(@TempDir Path dir) throws Exception {
        MainTest.assertOneLineError(MainTest.run("terrain", "--max-depth", "30"));
        Path raw = dir.resolve("dem.f32");
        Files.write(raw, new byte[16]);
        MainTest.assertOneLineError(MainTest.run("terrain", "--input", raw.toString()));
        MainTest.assertOneLineError(MainTest.run("terrain", "--input", raw.toString(), "--nx", "3", "--ny", "3"));
    }
}
