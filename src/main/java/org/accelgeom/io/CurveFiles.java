package org.accelgeom.io;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

import org.accelgeom.engine.AccelGeomException;

/**
 * Files of a curve made of d-dimensional points (a ridge detection's representatives, {@code s[k * d + c]}) joined
 * into polylines: PLY (vertices and edges), CSV (one row per polyline point), PNG pictures. The arrays are those of
 * {@code ridge.RidgeResult} and its order (this package does not depend on the algorithms): {@code edges[i]} a
 * pair of points, {@code polylines[l]} the points of polyline l in order and {@code closed[l]} whether it closes;
 * null polylines (no order) write every point as polyline 0. Every file is written atomically ({@link AtomicOutput}).
 */
public final class CurveFiles {

    /** At most this many cloud points are drawn in a picture (a regular subsample). */
    public static final int PICTURE_POINTS = 200_000;

    private CurveFiles() {
    }

    /** The curve as PLY (a name ending in .ply: 2D or 3D points) or CSV (any other name). */
    public static void write(Path file, int d, double[] s, int[][] edges, int[][] polylines, boolean[] closed) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".ply")) {
            writePly(file, d, s, edges);
        } else {
            AtomicOutput.write(file, out -> writeCsv(out, d, s, polylines, closed));
        }
    }

    /** The representatives as PLY vertices (z = 0 in 2D) and the order's edges as an edge element. */
    private static void writePly(Path file, int d, double[] s, int[][] e) {
        if (d > 3) {
            throw new AccelGeomException("PLY holds 2D or 3D curves; this one has dimension " + d + ": write .csv");
        }
        int ns = s.length / d;
        double[][] xyz = new double[3][ns];
        for (int k = 0; k < ns; k++) {
            for (int c = 0; c < d; c++) {
                xyz[c][k] = s[k * d + c];
            }
        }
        int m = e == null ? 0 : e.length;
        int[] edges = new int[2 * m];
        for (int i = 0; i < m; i++) {
            edges[2 * i] = e[i][0];
            edges[2 * i + 1] = e[i][1];
        }
        Mesh vertices = new Mesh(xyz[0], xyz[1], xyz[2], new int[] {0}, new int[0]);
        AtomicOutput.write(file, out -> PlyWriter.writeMesh(out, vertices, false, null, edges));
    }

    /** {@code polyline,closed,index,x1,...,xd}: the polylines' points in order (all points as polyline 0 without order). */
    private static void writeCsv(OutputStream stream, int d, double[] s, int[][] polylines, boolean[] closed)
            throws IOException {
        BufferedWriter w = new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), 1 << 16);
        try {
            StringBuilder h = new StringBuilder("polyline,closed,representative");
            for (int c = 1; c <= d; c++) {
                h.append(",x").append(c);
            }
            w.write(h.append('\n').toString());
            int[][] lines = polylines != null ? polylines : new int[][] {java.util.stream.IntStream.range(0, s.length / d).toArray()};
            for (int l = 0; l < lines.length; l++) {
                boolean closes = polylines != null && closed[l];
                for (int k : lines[l]) {
                    StringBuilder row = new StringBuilder().append(l).append(',').append(closes ? 1 : 0)
                            .append(',').append(k);
                    for (int c = 0; c < d; c++) {
                        row.append(',').append(s[k * d + c]);
                    }
                    w.write(row.append('\n').toString());
                }
            }
            w.flush();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * The cloud (grey, subsampled) and the curve (polylines in red, representatives as dots). 2D: as is; 3D: an
     * oblique projection (azimuth 30°, elevation 25°); higher dimensions: the first two coordinates.
     */
    public static void picture(Path file, PointCloud cloud, int d, double[] s, int[][] polylines, boolean[] closed) {
        int n = cloud.size();
        int ns = s.length / d;
        int step = Math.max(1, (n + PICTURE_POINTS - 1) / PICTURE_POINTS);
        int m = (n + step - 1) / step;
        double[] px = new double[m];
        double[] py = new double[m];
        double[] x = new double[d];
        double[] uv = new double[2];
        for (int j = 0; j < m; j++) {
            for (int c = 0; c < d; c++) {
                x[c] = cloud.coords()[c][j * step];
            }
            project(x, uv);
            px[j] = uv[0];
            py[j] = uv[1];
        }
        String title = String.format(Locale.ROOT, "%d points, |S| = %d%s", n, ns,
                d == 3 ? " (projection)" : d > 3 ? " (first two coordinates)" : "");
        Plot2D plot = new Plot2D(1000, 1000).title(title).equalAspect(d <= 3).points(px, py, 0xB0B0B0, 1.0);
        double[] sx = new double[ns];
        double[] sy = new double[ns];
        for (int k = 0; k < ns; k++) {
            for (int c = 0; c < d; c++) {
                x[c] = s[k * d + c];
            }
            project(x, uv);
            sx[k] = uv[0];
            sy[k] = uv[1];
        }
        for (int l = 0; polylines != null && l < polylines.length; l++) {
            int[] pts = polylines[l];
            double[] lx = new double[pts.length];
            double[] ly = new double[pts.length];
            for (int i = 0; i < pts.length; i++) {
                lx[i] = sx[pts[i]];
                ly[i] = sy[pts[i]];
            }
            plot.polyline(lx, ly, closed[l], 0xD02020, 2.0);
        }
        plot.points(sx, sy, 0x1040C0, 2.5).writePng(file);
    }

    private static void project(double[] x, double[] uv) {
        if (x.length == 1) {
            uv[0] = x[0];
            uv[1] = 0;
        } else if (x.length != 3) {
            uv[0] = x[0];
            uv[1] = x[1];
        } else {
            double az = Math.toRadians(30);
            double el = Math.toRadians(25);
            double u = x[0] * Math.cos(az) - x[1] * Math.sin(az);
            double w = x[0] * Math.sin(az) + x[1] * Math.cos(az);
            uv[0] = u;
            uv[1] = x[2] * Math.cos(el) + w * Math.sin(el);
        }
    }

}
