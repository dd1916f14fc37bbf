package org.accelgeom.io;

import static org.accelgeom.io.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.awt.image.BufferedImage;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Random;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GridTest {
    @TempDir
    Path dir;

    private static Grid random(int nx, int ny, long seed, boolean integers) {
        Random r = new Random(seed);
        float[] v = new float[nx * ny];
        for (int i = 0; i < v.length; i++) {
            v[i] = integers ? r.nextInt(65536) : (float) r.nextGaussian() * 1000;
        }
        return new Grid(nx, ny, v);
    }

    @Test
    void rawFloat32RoundTripsInBothByteOrders() {
        Grid g = random(7, 5, 1, false);
        for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            for (String name : new String[] {"g.f32", "g.f32.gz"}) {
                Path p = dir.resolve(name);
                Formats.writeGrid(p, g, order);
                assertEquals(g, Formats.readGrid(p, 7, 5, order));
            }
        }
        Path p = dir.resolve("g.raw");
        Formats.writeGrid(p, g, ByteOrder.BIG_ENDIAN);
        Grid swapped = Formats.readGrid(p, 7, 5, ByteOrder.LITTLE_ENDIAN);
        assertEquals(Float.intBitsToFloat(Integer.reverseBytes(Float.floatToRawIntBits(g.values()[3]))),
                swapped.values()[3]);
    }

    @Test
    void rawOfTheWrongSizeNamesBothSizes() {
        FormatException e = TestFiles.assertFormatError("bad_raw.f32", "expected 16 bytes",
                () -> Formats.readGrid(file("bad_raw.f32"), 2, 2, ByteOrder.LITTLE_ENDIAN));
        assertEquals(true, e.getMessage().contains("found 10"));
    }

    @Test
    void sixteenBitPngRoundTripsRawSamples() throws Exception {
        Grid g = random(9, 4, 2, true);
        Path p = dir.resolve("h.png");
        Formats.writeHeightmapPng(p, g);
        BufferedImage img = ImageIO.read(p.toFile());
        assertEquals(16, img.getColorModel().getPixelSize());
        assertEquals(g, Formats.readHeightmapPng(p));
    }

    @Test
    void sixteenBitPngWithScaling() {
        Grid g = new Grid(2, 1, new float[] {100, 300});
        Path p = dir.resolve("s.png");
        Formats.writeHeightmapPng(p, g, 100, 300);
        assertArrayEquals(new float[] {0, 65535}, Formats.readHeightmapPng(p).values());
    }

    @Test
    void eightBitGreyPng() throws Exception {
        BufferedImage img = new BufferedImage(3, 2, BufferedImage.TYPE_BYTE_GRAY);
        int[] samples = {0, 17, 255, 128, 1, 2};
        img.getRaster().setPixels(0, 0, 3, 2, samples);
        Path p = dir.resolve("g8.png");
        Formats.writePng(p, img);
        Grid g = Formats.readHeightmapPng(p);
        assertEquals(3, g.nx());
        assertArrayEquals(new float[] {0, 17, 255, 128, 1, 2}, g.values());
    }

    @Test
    void colourPngIsRejected() {
        Path p = dir.resolve("rgb.png");
        Formats.writePng(p, new BufferedImage(2, 2, BufferedImage.TYPE_INT_RGB));
        TestFiles.assertFormatError("rgb.png", "grey", () -> Formats.readHeightmapPng(p));
        assertThrows(IllegalArgumentException.class, () -> new Grid(2, 2, new float[3]));
    }
}
