package org.accelgeom.cli;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import javax.imageio.ImageIO;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.io.FormatException;
import org.accelgeom.io.Mesh;
import org.accelgeom.io.PointCloud;

/**
 * TEMPORARY stand-in for {@code org.accelgeom.io.Formats} and {@code MeshPicture}, which are written on the
 * {@code io} branch. The CLI reaches files only through this class, so switching to {@code Formats} at the
 * merge is a change of these few call sites and then deleting this file.
 *
 * <p>What it supports: points as whitespace text ({@code .xyz .txt .pts}, {@code #} comments, one point per
 * line, every line the same number of coordinates), including qhull's {@code rbox} output (a header line with
 * the dimension, then one with the count); meshes written as ASCII {@code .ply .obj .off}; a PNG picture.
 * Errors are one-line {@link AccelGeomException}s ({@link FormatException} with {@code file:line:} for bad
 * content).
 */
final class IoBridge {

    private IoBridge() {
    }

    // ------------------------------------------------------------ Formats.readPoints(String)

    /** Points from a whitespace text file, or standard input for {@code "-"}. */
    static PointCloud readPoints(String pathOrDash) {
        String name = "-".equals(pathOrDash) ? "<stdin>" : pathOrDash;
        try (BufferedReader in = "-".equals(pathOrDash)
                ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                : Files.newBufferedReader(Path.of(pathOrDash), StandardCharsets.UTF_8)) {
            return parsePoints(in, name);
        } catch (NoSuchFileException e) {
            throw new AccelGeomException(name + ": no such file");
        } catch (AccessDeniedException e) {
            throw new AccelGeomException(name + ": permission denied");
        } catch (IOException e) {
            throw new AccelGeomException(name + ": cannot read: " + e.getMessage());
        }
    }

    private static PointCloud parsePoints(BufferedReader in, String name) throws IOException {
        List<double[]> rows = new ArrayList<>();
        List<Long> lineOf = new ArrayList<>();
        List<String[]> header = new ArrayList<>();
        String line;
        long no = 0;
        while ((line = in.readLine()) != null) {
            no++;
            int hash = line.indexOf('#');
            String s = (hash >= 0 ? line.substring(0, hash) : line).trim();
            if (s.isEmpty()) {
                continue;
            }
            String[] tok = s.split("[\\s,;]+");
            // rbox: "3 rbox 1000 D3" (or "3") then "1000", before any point
            if (rows.isEmpty() && header.size() < 2 && isInt(tok[0]) && (tok.length == 1 || !isNumber(tok[1]))) {
                header.add(tok);
                lineOf.add(no);
                continue;
            }
            double[] p = new double[tok.length];
            for (int k = 0; k < tok.length; k++) {
                try {
                    p[k] = Double.parseDouble(tok[k]);
                } catch (NumberFormatException e) {
                    throw FormatException.at(name, no, "expected a number, found '" + tok[k] + "'");
                }
            }
            if (!rows.isEmpty() && p.length != rows.get(0).length) {
                throw FormatException.at(name, no, "expected " + rows.get(0).length + " coordinates like the first point, found "
                        + p.length);
            }
            rows.add(p);
        }
        if (header.size() == 1 && rows.isEmpty()) {
            throw FormatException.at(name, lineOf.get(0), "expected points, found only '" + String.join(" ", header.get(0)) + "'");
        }
        if (header.size() == 2) {
            int dim = Integer.parseInt(header.get(0)[0]);
            long count = Long.parseLong(header.get(1)[0]);
            if (!rows.isEmpty() && rows.get(0).length != dim) {
                throw FormatException.at(name, lineOf.get(0), "rbox header says dimension " + dim + " but the points have "
                        + rows.get(0).length + " coordinates");
            }
            if (count != rows.size()) {
                throw FormatException.at(name, lineOf.get(1), "rbox header says " + count + " points but the file has " + rows.size());
            }
        }
        if (rows.isEmpty()) {
            return new PointCloud(new double[][] {{}, {}, {}});
        }
        int dim = rows.get(0).length;
        double[][] c = new double[dim][rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            for (int k = 0; k < dim; k++) {
                c[k][i] = rows.get(i)[k];
            }
        }
        return new PointCloud(c);
    }

    private static boolean isInt(String s) {
        return s.matches("\\d+");
    }

    private static boolean isNumber(String s) {
        try {
            Double.parseDouble(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    // ------------------------------------------------------------ Formats.writePoints(Path, PointCloud)

    /** Points as whitespace text, one point per line. */
    static void writePoints(Path file, PointCloud p) {
        write(file, w -> {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < p.size(); i++) {
                sb.setLength(0);
                for (int k = 0; k < p.dimension(); k++) {
                    sb.append(k == 0 ? "" : " ").append(p.coords()[k][i]);
                }
                w.write(sb.append('\n').toString());
            }
        });
    }

    // ------------------------------------------------------------ Formats.writeMesh(Path, Mesh)

    /** The mesh as ASCII PLY, OBJ or OFF, by the file's extension. */
    static void writeMesh(Path file, Mesh m) {
        String ext = meshExtension(file);
        write(file, w -> {
            switch (ext) {
                case "ply" -> {
                    w.write("ply\nformat ascii 1.0\ncomment written by accelgeom\n");
                    w.write("element vertex " + m.vertexCount() + "\nproperty double x\nproperty double y\nproperty double z\n");
                    w.write("element face " + m.faceCount() + "\nproperty list uchar int vertex_indices\nend_header\n");
                    vertices(w, m, "");
                    faces(w, m, true, 0, "");
                }
                case "obj" -> {
                    w.write("# written by accelgeom\n");
                    vertices(w, m, "v ");
                    faces(w, m, false, 1, "f ");
                }
                default -> {
                    w.write("OFF\n" + m.vertexCount() + " " + m.faceCount() + " 0\n");
                    vertices(w, m, "");
                    faces(w, m, true, 0, "");
                }
            }
        });
    }

    /** The mesh format of a file name ({@code ply}, {@code obj} or {@code off}), or a one-line error. */
    static String meshExtension(Path file) {
        String f = file.getFileName().toString().toLowerCase(Locale.ROOT);
        int dot = f.lastIndexOf('.');
        String ext = dot >= 0 ? f.substring(dot + 1) : "";
        if (!ext.equals("ply") && !ext.equals("obj") && !ext.equals("off")) {
            throw new AccelGeomException(file + ": unknown mesh format '" + ext + "': the name must end in .ply, .obj or .off");
        }
        return ext;
    }

    private static void vertices(Writer w, Mesh m, String prefix) throws IOException {
        for (int i = 0; i < m.vertexCount(); i++) {
            w.write(prefix + m.x()[i] + " " + m.y()[i] + " " + m.z()[i] + "\n");
        }
    }

    private static void faces(Writer w, Mesh m, boolean withCount, int base, String prefix) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int f = 0; f < m.faceCount(); f++) {
            sb.setLength(0);
            sb.append(prefix);
            if (withCount) {
                sb.append(m.faceSize(f));
            }
            for (int k = 0; k < m.faceSize(f); k++) {
                sb.append(withCount || k > 0 ? " " : "").append(m.faceVertex(f, k) + base);
            }
            w.write(sb.append('\n').toString());
        }
    }

    // ------------------------------------------------------------ Formats.writePng(Path, MeshPicture...)

    /**
     * An 800x800 PNG of the mesh (its front faces translucent and flat-shaded, seen from a fixed oblique direction) over a sample of at most {@code maxPoints} of the points, drawn as dots.
     */
    static void writePicture(Path file, Mesh m, PointCloud points, int maxPoints) {
        final int size = 800;
        // view: rotate about z by 35 degrees, then tilt about x by 25 degrees
        double cz = Math.cos(Math.toRadians(35));
        double sz = Math.sin(Math.toRadians(35));
        double cx = Math.cos(Math.toRadians(25));
        double sx = Math.sin(Math.toRadians(25));
        double[] b = bounds(m, points);
        double mx = (b[0] + b[1]) / 2;
        double my = (b[2] + b[3]) / 2;
        double mz = (b[4] + b[5]) / 2;
        double r = Math.max(1e-300, 0.5 * Math.sqrt((b[1] - b[0]) * (b[1] - b[0]) + (b[3] - b[2]) * (b[3] - b[2])
                + (b[5] - b[4]) * (b[5] - b[4]))); // the radius of the bounding box's sphere: fits any rotation
        double scale = 0.46 * size / r;
        java.util.function.Function<double[], double[]> view = p -> {
            double x = p[0] - mx;
            double y = p[1] - my;
            double z = p[2] - mz;
            double x1 = cz * x - sz * y;
            double y1 = sz * x + cz * y;
            double y2 = cx * y1 - sx * z; // depth, away from the viewer
            double z2 = sx * y1 + cx * z; // up
            return new double[] {size / 2.0 + scale * x1, size / 2.0 - scale * z2, y2};
        };
        BufferedImage img = new BufferedImage(size, size, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, size, size);
        // points first, so the translucent hull lies over them
        g.setColor(new Color(40, 40, 160));
        int n = points.dimension() >= 3 ? points.size() : 0;
        int step = Math.max(1, n / Math.max(1, maxPoints));
        for (int i = 0; i < n; i += step) {
            double[] q = view.apply(new double[] {points.x()[i], points.y()[i], points.z()[i]});
            g.fill(new Ellipse2D.Double(q[0] - 1.2, q[1] - 1.2, 2.4, 2.4));
        }
        double[][] v = new double[m.vertexCount()][];
        for (int i = 0; i < v.length; i++) {
            v[i] = view.apply(new double[] {m.x()[i], m.y()[i], m.z()[i]});
        }
        Integer[] order = new Integer[m.faceCount()];
        double[] depth = new double[m.faceCount()];
        for (int f = 0; f < order.length; f++) {
            order[f] = f;
            for (int k = 0; k < m.faceSize(f); k++) {
                depth[f] += v[m.faceVertex(f, k)][2] / m.faceSize(f);
            }
        }
        Arrays.sort(order, (a, c) -> Double.compare(depth[c], depth[a])); // far to near
        g.setStroke(new BasicStroke(0.8f));
        // the direction away from the viewer, in world coordinates: faces whose outward normal points along it
        // are at the back of a closed convex mesh and are not drawn
        double[] away = {cx * sz, cx * cz, -sx};
        for (int f : order) {
            if (m.faceCount() > 1 && facesAway(m, f, away)) {
                continue;
            }
            Path2D.Double poly = new Path2D.Double();
            for (int k = 0; k < m.faceSize(f); k++) {
                double[] q = v[m.faceVertex(f, k)];
                if (k == 0) {
                    poly.moveTo(q[0], q[1]);
                } else {
                    poly.lineTo(q[0], q[1]);
                }
            }
            poly.closePath();
            int c = (int) (110 + 120 * shade(v, m, f));
            g.setColor(new Color(230, c, 60, 150));
            g.fill(poly);
            g.setColor(new Color(90, 50, 20, 200));
            g.draw(poly);
        }
        g.dispose();
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new AccelGeomException(file + ": cannot write: no such directory " + parent);
        }
        try {
            if (!ImageIO.write(img, "png", file.toFile())) {
                throw new AccelGeomException(file + ": cannot write: no PNG writer in this JVM");
            }
        } catch (IOException e) {
            throw new AccelGeomException(file + ": cannot write: " + e.getMessage());
        }
    }

    /** True when the (counter-clockwise seen from outside) face f's normal has a positive component along d. */
    private static boolean facesAway(Mesh m, int f, double[] d) {
        int a = m.faceVertex(f, 0);
        int b = m.faceVertex(f, 1);
        int c = m.faceVertex(f, 2);
        double ux = m.x()[b] - m.x()[a];
        double uy = m.y()[b] - m.y()[a];
        double uz = m.z()[b] - m.z()[a];
        double wx = m.x()[c] - m.x()[a];
        double wy = m.y()[c] - m.y()[a];
        double wz = m.z()[c] - m.z()[a];
        return (uy * wz - uz * wy) * d[0] + (uz * wx - ux * wz) * d[1] + (ux * wy - uy * wx) * d[2] > 0;
    }

    /** A shade in [0, 1] from the view-space normal of face f (light from the upper left, in front). */
    private static double shade(double[][] v, Mesh m, int f) {
        if (m.faceSize(f) < 3) {
            return 0.5;
        }
        double[] a = v[m.faceVertex(f, 0)];
        double[] b = v[m.faceVertex(f, 1)];
        double[] c = v[m.faceVertex(f, 2)];
        double ux = b[0] - a[0];
        double uy = b[1] - a[1];
        double uz = b[2] - a[2];
        double wx = c[0] - a[0];
        double wy = c[1] - a[1];
        double wz = c[2] - a[2];
        double nx = uy * wz - uz * wy;
        double ny = uz * wx - ux * wz;
        double nz = ux * wy - uy * wx;
        double len = Math.sqrt(nx * nx + ny * ny + nz * nz);
        return len == 0 ? 0.5 : Math.min(1, Math.abs(-0.5 * nx - 0.6 * ny - 0.62 * nz) / len);
    }

    private static double[] bounds(Mesh m, PointCloud p) {
        double[] b = {Double.MAX_VALUE, -Double.MAX_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE};
        for (int i = 0; i < m.vertexCount(); i++) {
            grow(b, m.x()[i], m.y()[i], m.z()[i]);
        }
        if (p.dimension() >= 3) {
            for (int i = 0; i < p.size(); i++) {
                grow(b, p.x()[i], p.y()[i], p.z()[i]);
            }
        }
        return b[0] > b[1] ? new double[] {-1, 1, -1, 1, -1, 1} : b;
    }

    private static void grow(double[] b, double x, double y, double z) {
        b[0] = Math.min(b[0], x);
        b[1] = Math.max(b[1], x);
        b[2] = Math.min(b[2], y);
        b[3] = Math.max(b[3], y);
        b[4] = Math.min(b[4], z);
        b[5] = Math.max(b[5], z);
    }

    // ------------------------------------------------------------ shared

    private interface Body {
        void write(Writer w) throws IOException;
    }

    private static void write(Path file, Body body) {
        try (Writer w = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 16)) {
            body.write(w);
        } catch (NoSuchFileException e) {
            throw new AccelGeomException(file + ": cannot write: no such directory");
        } catch (AccessDeniedException e) {
            throw new AccelGeomException(file + ": cannot write: permission denied");
        } catch (IOException e) {
            throw new AccelGeomException(file + ": cannot write: " + e.getMessage());
        }
    }
}
