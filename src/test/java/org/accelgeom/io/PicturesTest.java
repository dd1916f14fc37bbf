package org.accelgeom.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PicturesTest {
    @TempDir
    Path dir;

    private static final int WHITE = 0xffffff;

    private static Mesh cube() {
        return Formats.readMesh(TestFiles.file("cube.off"));
    }

    private static int px(BufferedImage img, int x, int y) {
        return img.getRGB(x, y) & 0xffffff;
    }

    @Test
    void cubeFillsTheMiddleAndLeavesTheCornersEmpty() {
        for (boolean perspective : new boolean[] {false, true}) {
            BufferedImage img = new MeshPicture(120, 80).perspective(perspective).wireframe(true).render(cube());
            assertEquals(120, img.getWidth());
            assertEquals(80, img.getHeight());
            assertNotEquals(WHITE, px(img, 60, 40), "the cube covers the centre");
            assertEquals(WHITE, px(img, 0, 0));
            assertEquals(WHITE, px(img, 119, 79));
        }
    }

    @Test
    void visibleFacesAreShadedDifferently() {
        // looking at a corner, three faces are visible with three different brightnesses
        BufferedImage img = new MeshPicture(200, 200).viewFrom(1, 1, 1).supersample(1).render(cube());
        java.util.Set<Integer> colours = new java.util.HashSet<>();
        for (int y = 0; y < 200; y++) {
            for (int x = 0; x < 200; x++) {
                colours.add(px(img, x, y));
            }
        }
        assertEquals(4, colours.size(), "background and three flat-shaded faces");
    }

    @Test
    void highlightedPointsInFrontAreDrawnInTheirColour() {
        PointCloud p = PointCloud.of(new double[] {0.5, 0.5}, new double[] {0.5, 0.5}, new double[] {0.5, 3});
        // viewed from +z, the highlighted point at z = 3 is in front of the cube and in the image centre
        BufferedImage img = new MeshPicture(101, 101).viewFrom(0, 0, 1).supersample(1).points(p, new boolean[] {false, true})
                .pointStyle(0x00ff00, 0xff0000, 3).render(cube());
        assertEquals(0xff0000, px(img, 50, 50));
    }

    @Test
    void pointsOnlyEmptyAndSampling() {
        PointCloud p = RoundTripTest.awkward(1000, 3, 1).withoutNonFinite();
        PointCloud small = PointCloud.of(new double[] {0, 1}, new double[] {0, 1}, new double[] {0, 1});
        BufferedImage img = new MeshPicture(50, 50).points(small, null).maxPoints(1).render(null);
        int dark = 0;
        for (int y = 0; y < 50; y++) {
            for (int x = 0; x < 50; x++) {
                dark += px(img, x, y) != WHITE ? 1 : 0;
            }
        }
        assertTrue(dark > 0);
        BufferedImage empty = new MeshPicture(10, 10).render(null);
        assertEquals(WHITE, px(empty, 5, 5));
        new MeshPicture(30, 30).points(p, null).render(null); // wild coordinates must not throw
    }

    @Test
    void writesAReadablePng() throws Exception {
        Path f = dir.resolve("cube.png");
        new MeshPicture(64, 48).title("cube").writePng(f, cube());
        BufferedImage back = ImageIO.read(f.toFile());
        assertEquals(64, back.getWidth());
        assertNotEquals(WHITE, back.getRGB(32, 24) & 0xffffff);
    }

    @Test
    void plotTicksAndDrawing() throws Exception {
        assertArrayEquals(new double[] {0, 0.2, 0.4, 0.6, 0.8, 1.0}, Plot2D.ticks(-0.05, 1.05, 5), 1e-12);
        assertArrayEquals(new double[] {-500, 0, 500, 1000}, Plot2D.ticks(-700, 1100, 4), 1e-12);
        Path f = dir.resolve("plot.png");
        new Plot2D(300, 200).title("square").polyline(new double[] {0, 1, 1, 0}, new double[] {0, 0, 1, 1}, true, 0xff0000, 3)
                .points(new double[] {0.5}, new double[] {0.5}, 0x0000ff, 4).writePng(f);
        BufferedImage img = ImageIO.read(f.toFile());
        int red = 0;
        int blue = 0;
        for (int y = 0; y < 200; y++) {
            for (int x = 0; x < 300; x++) {
                int c = img.getRGB(x, y) & 0xffffff;
                red += c == 0xff0000 ? 1 : 0;
                blue += c == 0x0000ff ? 1 : 0;
            }
        }
        assertTrue(red > 100, "the square's outline");
        assertTrue(blue > 10, "the dot");
    }
}
