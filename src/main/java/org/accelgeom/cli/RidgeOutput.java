package org.accelgeom.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.io.AtomicOutput;
import org.accelgeom.io.Mesh;
import org.accelgeom.io.PlyWriter;
import org.accelgeom.io.Plot2D;
import org.accelgeom.io.PointCloud;
import org.accelgeom.ridge.Order;
import org.accelgeom.ridge.RidgeResult;

/** Writes a ridge detection's curve: PLY (vertices and edges), CSV (one row per polyline point), PNG pictures. */
final class RidgeOutput {

    /** At most this many cloud points are drawn in a picture (a regular subsample). */
    static final int PICTURE_POINTS = 200_000;

    private RidgeOutput() {
    }

    static void write(Path file, RidgeResult r) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".ply")) {
            writePly(file, r);
        } else {
            AtomicOutput.write(file, out -> writeCsv(out, r));
        }
    }

    /** The representatives as PLY vertices (z = 0 in 2D) and the order's edges as an edge element. */
    private static void writePly(Path file, RidgeResult r) {
        int d = r.dimension();
        if (d > 3) {
            throw new AccelGeomException("PLY holds 2D or 3D curves; this one has dimension " + d + ": write .csv");
        }
        int ns = r.count();
        double[][] xyz = new double[3][ns];
        for (int k = 0; k < ns; k++) {
            for (int c = 0; c < d; c++) {
                xyz[c][k] = r.coordinate(k, c);
            }
        }
        int[][] e = r.curves() == null ? new int[0][] : r.curves().edges();
        int[] edges = new int[2 * e.length];
        for (int i = 0; i < e.length; i++) {
            edges[2 * i] = e[i][0];
            edges[2 * i + 1] = e[i][1];
        }
        Mesh vertices = new Mesh(xyz[0], xyz[1], xyz[2], new int[] {0}, new int[0]);
        AtomicOutput.write(file, out -> PlyWriter.writeMesh(out, vertices, false, null, edges));
    }

    /** {@code polyline,closed,index,x1,...,xd}: the polylines' points in order (all points as polyline 0 without order). */
    private static void writeCsv(OutputStream stream, RidgeResult r) throws IOException {
        int d = r.dimension();
        BufferedWriter w = new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), 1 << 16);
        try {
            StringBuilder h = new StringBuilder("polyline,closed,representative");
            for (int c = 1; c <= d; c++) {
                h.append(",x").append(c);
            }
            w.write(h.append('\n').toString());
            List<Order.Polyline> lines = r.curves() != null ? r.curves().polylines()
                    : List.of(new Order.Polyline(java.util.stream.IntStream.range(0, r.count()).toArray(), false));
            for (int l = 0; l < lines.size(); l++) {
                for (int k : lines.get(l).points()) {
                    StringBuilder row = new StringBuilder().append(l).append(',').append(lines.get(l).closed() ? 1 : 0)
                            .append(',').append(k);
                    for (int c = 0; c < d; c++) {
                        row.append(',').append(r.coordinate(k, c));
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
    static void picture(Path file, PointCloud cloud, RidgeResult r) {
        int d = r.dimension();
        int n = cloud.size();
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
        String title = String.format(Locale.ROOT, "%d points, |S| = %d%s", n, r.count(),
                d == 3 ? " (projection)" : d > 3 ? " (first two coordinates)" : "");
        Plot2D plot = new Plot2D(1000, 1000).title(title).equalAspect(d <= 3).points(px, py, 0xB0B0B0, 1.0);
        int ns = r.count();
        double[] sx = new double[ns];
        double[] sy = new double[ns];
        for (int k = 0; k < ns; k++) {
            for (int c = 0; c < d; c++) {
                x[c] = r.coordinate(k, c);
            }
            project(x, uv);
            sx[k] = uv[0];
            sy[k] = uv[1];
        }
        if (r.curves() != null) {
            for (Order.Polyline l : r.curves().polylines()) {
                int[] pts = l.points();
                double[] lx = new double[pts.length];
                double[] ly = new double[pts.length];
                for (int i = 0; i < pts.length; i++) {
                    lx[i] = sx[pts[i]];
                    ly[i] = sy[pts[i]];
                }
                plot.polyline(lx, ly, l.closed(), 0xD02020, 2.0);
            }
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
