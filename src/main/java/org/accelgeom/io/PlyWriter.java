package org.accelgeom.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteOrder;

/**
 * Writes PLY, ASCII or binary little endian. Coordinates are written as {@code double} properties, so both
 * encodings read back exactly. Optional per-vertex colours ({@code 0xRRGGBB}, written as uchar
 * {@code red green blue}) and an optional {@code edge} element ({@code vertex1 vertex2}, for polylines and
 * wireframes) follow the conventions other tools read. The stream is flushed, not closed.
 */
public final class PlyWriter {
    private PlyWriter() {
    }

    /**
     * A point cloud of dimension 2 or 3 (a 2D cloud gets no z property).
     *
     * @param rgb per-point colour {@code 0xRRGGBB}, or null
     */
    public static void writePoints(OutputStream out, PointCloud p, boolean binary, int[] rgb) throws IOException {
        if (p.dimension() != 2 && p.dimension() != 3) {
            throw new IllegalArgumentException("PLY holds 2D or 3D points, got dimension " + p.dimension());
        }
        double[] z = p.dimension() == 3 ? p.z() : null;
        write(out, p.x(), p.y(), z, rgb, null, null, null, binary);
    }

    /**
     * A mesh, its faces as a {@code vertex_indices} list (uchar count, int indices; int counts when a face has
     * more than 255 vertices).
     *
     * @param rgb   per-vertex colour {@code 0xRRGGBB}, or null
     * @param edges vertex index pairs {@code (edges[2e], edges[2e+1])} written as an {@code edge} element, or null
     */
    public static void writeMesh(OutputStream out, Mesh m, boolean binary, int[] rgb, int[] edges) throws IOException {
        write(out, m.x(), m.y(), m.z(), rgb, m.faceStart(), m.faceIndex(), edges, binary);
    }

    private static void write(OutputStream out, double[] x, double[] y, double[] z, int[] rgb, int[] faceStart,
            int[] faceIndex, int[] edges, boolean binary) throws IOException {
        int n = x.length;
        if (rgb != null && rgb.length != n) {
            throw new IllegalArgumentException("need one colour per vertex: " + rgb.length + " for " + n);
        }
        if (edges != null && edges.length % 2 != 0) {
            throw new IllegalArgumentException("edges must be index pairs, got " + edges.length + " indices");
        }
        int faces = faceStart == null ? 0 : faceStart.length - 1;
        boolean bigFaces = false;
        for (int f = 0; f < faces; f++) {
            bigFaces |= faceStart[f + 1] - faceStart[f] > 255;
        }
        TextOutput t = new TextOutput(out);
        t.text("ply\nformat ").text(binary ? "binary_little_endian" : "ascii").text(" 1.0\n");
        t.text("comment written by accelgeom\n");
        t.text("element vertex ").num(n).nl();
        t.text("property double x\nproperty double y\n");
        if (z != null) {
            t.text("property double z\n");
        }
        if (rgb != null) {
            t.text("property uchar red\nproperty uchar green\nproperty uchar blue\n");
        }
        if (faceStart != null) {
            t.text("element face ").num(faces).nl();
            t.text("property list ").text(bigFaces ? "int" : "uchar").text(" int vertex_indices\n");
        }
        if (edges != null) {
            t.text("element edge ").num(edges.length / 2).nl();
            t.text("property int vertex1\nproperty int vertex2\n");
        }
        t.text("end_header\n");
        if (!binary) {
            for (int i = 0; i < n; i++) {
                t.num(x[i]).ch(' ').num(y[i]);
                if (z != null) {
                    t.ch(' ').num(z[i]);
                }
                if (rgb != null) {
                    t.ch(' ').num((rgb[i] >> 16) & 0xff).ch(' ').num((rgb[i] >> 8) & 0xff).ch(' ').num(rgb[i] & 0xff);
                }
                t.nl();
            }
            for (int f = 0; f < faces; f++) {
                t.num(faceStart[f + 1] - faceStart[f]);
                for (int k = faceStart[f]; k < faceStart[f + 1]; k++) {
                    t.ch(' ').num(faceIndex[k]);
                }
                t.nl();
            }
            for (int e = 0; edges != null && e < edges.length; e += 2) {
                t.num(edges[e]).ch(' ').num(edges[e + 1]).nl();
            }
            t.flush();
            return;
        }
        t.flush();
        BinaryOutput b = new BinaryOutput(out, ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
            b.f64(x[i]);
            b.f64(y[i]);
            if (z != null) {
                b.f64(z[i]);
            }
            if (rgb != null) {
                b.u8(rgb[i] >> 16);
                b.u8(rgb[i] >> 8);
                b.u8(rgb[i]);
            }
        }
        for (int f = 0; f < faces; f++) {
            int size = faceStart[f + 1] - faceStart[f];
            if (bigFaces) {
                b.i32(size);
            } else {
                b.u8(size);
            }
            for (int k = faceStart[f]; k < faceStart[f + 1]; k++) {
                b.i32(faceIndex[k]);
            }
        }
        for (int e = 0; edges != null && e < edges.length; e++) {
            b.i32(edges[e]);
        }
        b.flush();
    }
}
