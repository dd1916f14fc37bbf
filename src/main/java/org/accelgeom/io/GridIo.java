package org.accelgeom.io;

import java.awt.image.BufferedImage;
import java.awt.image.DataBuffer;
import java.awt.image.Raster;
import java.awt.image.WritableRaster;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import javax.imageio.ImageIO;

/** Grids as raw float32 and as grey PNG heightmaps. */
final class GridIo {
    private GridIo() {
    }

    /** Raw float32 samples, row-major, no header: the data must be exactly nx*ny*4 bytes. */
    static Grid readRaw(String file, byte[] data, int nx, int ny, ByteOrder order) {
        if (nx <= 0 || ny <= 0) {
            throw new org.accelgeom.engine.AccelGeomException("grid dimensions must be positive, got " + nx + " x " + ny);
        }
        long expected = 4L * nx * ny;
        if (data.length != expected) {
            throw new FormatException(file + ": byte 0: expected " + expected + " bytes (" + nx + " x " + ny
                    + " float32), found " + data.length);
        }
        float[] v = new float[nx * ny];
        ByteBuffer.wrap(data).order(order).asFloatBuffer().get(v);
        return new Grid(nx, ny, v);
    }

    static void writeRaw(OutputStream out, Grid g, ByteOrder order) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(1 << 16).order(order);
        for (float f : g.values()) {
            if (!b.hasRemaining()) {
                out.write(b.array(), 0, b.position());
                b.clear();
            }
            b.putFloat(f);
        }
        out.write(b.array(), 0, b.position());
    }

    /**
     * A grey PNG: 16-bit samples (0..65535) or 8-bit (0..255) as they are stored, taken from the first band
     * of the raster (never through an RGB conversion). Colour images are rejected.
     */
    static Grid readPng(String file, byte[] data) throws IOException {
        BufferedImage img = ImageIO.read(new ByteArrayInputStream(data));
        if (img == null) {
            throw new FormatException(file + ": byte 0: expected a PNG image, found data javax.imageio cannot decode");
        }
        Raster r = img.getRaster();
        int bands = r.getNumBands();
        if (bands > 2 || img.getColorModel().getColorSpace().getType() != java.awt.color.ColorSpace.TYPE_GRAY) {
            throw new FormatException(file + ": byte 0: expected a grey heightmap PNG, found a colour image with "
                    + bands + " bands");
        }
        int nx = img.getWidth();
        int ny = img.getHeight();
        float[] v = new float[nx * ny];
        int[] row = new int[nx];
        for (int y = 0; y < ny; y++) {
            r.getSamples(0, y, nx, 1, 0, row);
            for (int x = 0; x < nx; x++) {
                v[y * nx + x] = row[x];
            }
        }
        return new Grid(nx, ny, v);
    }

    /**
     * A 16-bit grey PNG. Samples are mapped linearly from [lo, hi] to [0, 65535] and rounded (clamped
     * outside); with lo = 0 and hi = 65535 integer samples are stored as they are.
     */
    static void writePng16(OutputStream out, Grid g, double lo, double hi) throws IOException {
        if (!(hi > lo)) {
            throw new org.accelgeom.engine.AccelGeomException("heightmap range needs hi > lo, got " + lo + " .. " + hi);
        }
        BufferedImage img = new BufferedImage(Math.max(1, g.nx()), Math.max(1, g.ny()), BufferedImage.TYPE_USHORT_GRAY);
        WritableRaster r = img.getRaster();
        double scale = 65535 / (hi - lo);
        int[] row = new int[g.nx()];
        for (int y = 0; y < g.ny(); y++) {
            for (int x = 0; x < g.nx(); x++) {
                double s = Math.rint((g.values()[y * g.nx() + x] - lo) * scale);
                row[x] = (int) Math.max(0, Math.min(65535, Double.isNaN(s) ? 0 : s));
            }
            r.setSamples(0, y, g.nx(), 1, 0, row);
        }
        if (r.getDataBuffer().getDataType() != DataBuffer.TYPE_USHORT) {
            throw new IllegalStateException("no 16-bit raster");
        }
        if (!ImageIO.write(img, "png", out)) {
            throw new IOException("no PNG writer in javax.imageio");
        }
    }
}
