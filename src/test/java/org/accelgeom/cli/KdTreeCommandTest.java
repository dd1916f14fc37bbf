package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code accelgeom kdtree build} and {@code accelgeom render}, run in-process. */
class KdTreeCommandTest {

    @Test
    void buildPrintsTheSameTreeForEveryJvmBuilder() {
        MainTest.Run a = MainTest.run("kdtree", "build", "--scene", "random:2000", "--backend", "jvm", "--quiet");
        MainTest.Run b = MainTest.run("kdtree", "build", "--scene", "random:2000", "--backend", "jvm", "--variant", "nlogn", "--quiet");
        MainTest.Run c = MainTest.run("kdtree", "build", "--scene", "random:2000", "--backend", "jvm-parallel", "--timings", "--quiet");
        assertEquals(0, a.exit(), a.err());
        assertEquals(2000, a.value("triangles"));
        String tree = line(a.out(), "tree:");
        assertTrue(tree.contains("SAH cost"), a.out());
        assertEquals(tree, line(b.out(), "tree:"));
        assertEquals(tree, line(c.out(), "tree:"));
        assertTrue(c.out().contains("phases:"), c.out());
    }

    @Test
    void rootStepsReportTheFourKernels() {
        MainTest.Run r = MainTest.run("kdtree", "build", "--scene", "random:3000", "--backend", "jvm", "--steps", "2", "--quiet");
        assertEquals(0, r.exit(), r.err());
        for (String k : new String[] {"K1 events", "K2 counts", "K3 SAH", "K4 arg-min"}) {
            assertTrue(r.out().contains(k), r.out());
        }
    }

    @Test
    void aMeshFileIsBuiltAndRendered(@TempDir Path dir) throws IOException {
        // a tetrahedron and a degenerate face
        Path obj = dir.resolve("tet.obj");
        Files.writeString(obj, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 2 2 2\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\nf 1 1 5\n");
        MainTest.Run b = MainTest.run("kdtree", "build", "--input", obj.toString(), "--quiet");
        assertEquals(0, b.exit(), b.err());
        assertTrue(b.out().contains("triangles:    4 (skipped 1 degenerate: 1 zero-area"), b.out());
        Path png = dir.resolve("tet.png");
        MainTest.Run r = MainTest.run("render", "--input", obj.toString(), "--width", "40", "--height", "30", "--output",
                png.toString(), "--quiet");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("Mrays/s"), r.out());
        var img = ImageIO.read(png.toFile());
        assertEquals(40, img.getWidth());
        assertEquals(30, img.getHeight());
        int lit = 0;
        for (int y = 0; y < 30; y++) {
            for (int x = 0; x < 40; x++) {
                lit += (img.getRGB(x, y) & 0xffffff) != 0 ? 1 : 0;
            }
        }
        assertTrue(lit > 50, "the tetrahedron should be in view: " + lit + " pixels");
    }

    @Test
    void badInputIsAOneLineError() {
        MainTest.assertOneLineError(MainTest.run("kdtree", "build", "--scene", "random:10", "--input", "x.obj"));
        MainTest.assertOneLineError(MainTest.run("kdtree", "build"));
        MainTest.assertOneLineError(MainTest.run("kdtree", "build", "--scene", "cube:10"));
        MainTest.assertOneLineError(MainTest.run("kdtree", "build", "--scene", "random:10", "--variant", "fast"));
        MainTest.assertOneLineError(MainTest.run("kdtree", "build", "--scene", "random:10", "--max-depth", "99"));
        MainTest.assertOneLineError(MainTest.run("kdtree", "build", "--input", "/nonexistent/mesh.obj"));
        MainTest.assertOneLineError(MainTest.run("render", "--scene", "sphere:100", "--eye", "1,2"));
        MainTest.assertOneLineError(MainTest.run("render", "--scene", "sphere:100", "--output", "x.jpg"));
        MainTest.assertOneLineError(MainTest.run("render", "--scene", "sphere:100", "--backend", "tornado", "--width", "4",
                "--height", "4"));
        MainTest.assertOneLineError(MainTest.run("kdtree"));
    }

    private static String line(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).findFirst().orElse("");
    }
}
