package org.accelgeom.voronoi;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPInputStream;

/** Shared checks and inputs of the Voronoi tests. */
public final class VoronoiChecks {

    /** Emptiness tolerance of the tests: a ball may come closer than R by at most this much (Å, or units). */
    public static final double EMPTY_TOL = 1e-6;

    private VoronoiChecks() {
    }

    /** n balls uniform in a cube of side box, radii uniform in [rmin, rmax]. */
    public static Balls random(Random rnd, int n, double box, double rmin, double rmax) {
        double[] x = new double[n], y = new double[n], z = new double[n], r = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = rnd.nextDouble() * box;
            y[i] = rnd.nextDouble() * box;
            z[i] = rnd.nextDouble() * box;
            r[i] = rmin + rnd.nextDouble() * (rmax - rmin);
        }
        return new Balls(x, y, z, r);
    }

    /** Lines of a test resource under /voronoi/ (gunzipped if it ends in .gz). */
    public static List<String> resourceLines(String name) throws IOException {
        InputStream in = VoronoiChecks.class.getResourceAsStream("/voronoi/" + name);
        if (in == null) {
            throw new IOException("no test resource /voronoi/" + name);
        }
        if (name.endsWith(".gz")) {
            in = new GZIPInputStream(in);
        }
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String l; (l = r.readLine()) != null;) {
                if (!l.isBlank()) {
                    lines.add(l.trim());
                }
            }
        }
        return lines;
    }

    /** Balls of an "x y z r" test resource. */
    public static Balls resourceBalls(String name) throws IOException {
        List<String> lines = resourceLines(name);
        int n = lines.size();
        double[] x = new double[n], y = new double[n], z = new double[n], r = new double[n];
        for (int i = 0; i < n; i++) {
            String[] t = lines.get(i).split("\\s+");
            x[i] = Double.parseDouble(t[0]);
            y[i] = Double.parseDouble(t[1]);
            z[i] = Double.parseDouble(t[2]);
            r[i] = Double.parseDouble(t[3]);
        }
        return new Balls(x, y, z, r);
    }

    /** Sorted "q1 q2 q3 q4 x y z R" keys of the vertices, coordinates to 1e-6. */
    public static List<String> vertexKeys(VoronoiResult res) {
        List<String> k = new ArrayList<>();
        for (int v = 0; v < res.vertexCount(); v++) {
            k.add(vertexKey(res, v));
        }
        k.sort(null);
        return k;
    }

    static String vertexKey(VoronoiResult res, int v) {
        int[] q = res.quads();
        double[] s = res.spheres();
        return q[4 * v] + " " + q[4 * v + 1] + " " + q[4 * v + 2] + " " + q[4 * v + 3]
                + String.format(" %.6f %.6f %.6f %.6f", s[4 * v], s[4 * v + 1], s[4 * v + 2], s[4 * v + 3]);
    }

    /** Sorted keys of the edges: triple, then the two end vertices' keys in order ("inf" for infinity). */
    public static List<String> edgeKeys(VoronoiResult res) {
        List<String> k = new ArrayList<>();
        int[] t = res.triples();
        int[] e = res.ends();
        for (int i = 0; i < res.edgeCount(); i++) {
            String a = vertexKey(res, e[2 * i]);
            String b = e[2 * i + 1] < 0 ? "inf" : vertexKey(res, e[2 * i + 1]);
            k.add(t[3 * i] + " " + t[3 * i + 1] + " " + t[3 * i + 2] + " | "
                    + (a.compareTo(b) < 0 ? a + " | " + b : b + " | " + a));
        }
        k.sort(null);
        return k;
    }

    /** Asserts every vertex sphere is tangent to its four balls and empty (no ball closer than R - EMPTY_TOL). */
    public static void assertEmptyAndTangent(Balls b, VoronoiResult res) {
        boolean[] hidden = new boolean[b.size()];
        for (int h : res.hidden()) {
            hidden[h] = true;
        }
        for (int v = 0; v < res.vertexCount(); v++) {
            int[] q = java.util.Arrays.copyOfRange(res.quads(), 4 * v, 4 * v + 4);
            double[] s = java.util.Arrays.copyOfRange(res.spheres(), 4 * v, 4 * v + 4);
            for (int i : q) {
                double d = Math.sqrt(sq(b.x[i] - s[0]) + sq(b.y[i] - s[1]) + sq(b.z[i] - s[2])) - b.r[i];
                assertTrue(Math.abs(d - s[3]) < EMPTY_TOL, "vertex " + v + " not tangent to ball " + i);
            }
            assertTrue(InitialVertex.empty(b, hidden, q, s, EMPTY_TOL), "vertex " + v + " sphere not empty");
        }
    }

    private static double sq(double v) {
        return v * v;
    }
}
