package org.accelgeom.voronoi;

import static org.accelgeom.voronoi.VoronoiKernels.*;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

import org.accelgeom.engine.ParallelLoops;

/**
 * Elliptic edges with no vertex (Sec. 1.2 of the thesis, Fig. 2.2: e.g. a small ball between two large ones): a
 * closed trisector of three balls that no fourth ball touches, so the tracing, which walks from vertex to vertex,
 * never meets it (the quasi-triangulation's degeneracy anomaly: a triangle in no tetrahedron).
 *
 * <p>A triple (g1 the smallest ball) is such an edge when, in the frame of {@link VoronoiKernels} (directions w of
 * the edge's spheres on the circle m.w = h of the unit sphere, rho = k2 / den, den = c2.w + r2):
 * <ol>
 * <li>the edge is elliptic: den &gt; 0 on the whole circle (its least value, in closed form, is positive);</li>
 * <li>one of its spheres (the minimal tangent sphere) is empty;</li>
 * <li>no other ball has a valid tangent sphere on it ({@link VoronoiKernels#thetaD} over the whole circle) among
 * the balls within 2 rho_max + r_max - r_g1 of c_g1 (farther ones cannot touch a sphere of the edge, the bound of
 * {@link VoronoiKernels#needRadius}): then, one sphere being empty and none touched, all are empty.</li>
 * </ol>
 * The candidate triples are the triangles {a, b, c} of Voronoi neighbours (every two share a traced vertex) that are
 * not traced edges, and, for a ball in no traced vertex (its cell has no vertex: the small ball of the example),
 * every triple of it with two balls whose gap to it is at most 2 R_cap (R_cap: the largest traced vertex sphere, at
 * least 4 r_max; with no vertex at all, every pair). So a closed edge is found when its three faces carry traced
 * vertices or one of its balls has none; one with a vertex-free face between balls that have vertices elsewhere is
 * not searched for.
 */
final class EllipticEdges {

    private EllipticEdges() {
    }

    /** The sorted triples of the closed vertex-free edges (3 ints each), in increasing order. */
    static int[] find(Balls b, boolean[] hidden, BallGrid grid, int[] quads, double[] spheres, ParallelLoops loops) {
        int n = b.size();
        if (n >= 1 << 21) {
            throw new org.accelgeom.engine.AccelGeomException("the search for elliptic edges handles up to 2^21 balls, got " + n);
        }
        int nv = quads.length / 4;
        // Voronoi neighbours from the traced vertices
        int[][] nb = new int[n][];
        int[] deg = new int[n];
        int[][] tmp = new int[n][4];
        for (int v = 0; v < nv; v++) {
            for (int i = 0; i < 4; i++) {
                for (int j = 0; j < 4; j++) {
                    if (i != j) {
                        int a = quads[4 * v + i];
                        if (deg[a] == tmp[a].length) {
                            tmp[a] = Arrays.copyOf(tmp[a], 2 * deg[a]);
                        }
                        tmp[a][deg[a]++] = quads[4 * v + j];
                    }
                }
            }
        }
        double rmax = b.maxRadius();
        double rcap = 4 * rmax;
        for (int v = 0; v < nv; v++) {
            rcap = Math.max(rcap, spheres[4 * v + 3]);
        }
        for (int a = 0; a < n; a++) {
            int[] s = Arrays.copyOf(tmp[a], deg[a]);
            Arrays.sort(s);
            int u = 0;
            for (int i = 0; i < s.length; i++) {
                if (u == 0 || s[i] != s[u - 1]) {
                    s[u++] = s[i];
                }
            }
            nb[a] = Arrays.copyOf(s, u);
        }
        final double cap = nv == 0 ? Double.POSITIVE_INFINITY : rcap;
        // the traced edges have vertices: not candidates
        long[] traced = new long[4 * nv];
        for (int v = 0; v < nv; v++) {
            for (int s = 0; s < 4; s++) {
                int[] t = new int[3];
                for (int q = 0, m = 0; q < 4; q++) {
                    if (q != s) {
                        t[m++] = quads[4 * v + q];
                    }
                }
                Arrays.sort(t);
                traced[4 * v + s] = key(t[0], t[1], t[2]);
            }
        }
        Arrays.sort(traced);
        ConcurrentHashMap<Long, Boolean> found = new ConcurrentHashMap<>();
        ParallelLoops.RangeBody body = (from, to) -> {
            double[] f = new double[FS];
            int[] stamp = new int[n]; // stamp[c] == b + 1: c is a neighbour of b

            for (int a = from; a < to; a++) {
                if (hidden[a]) {
                    continue;
                }
                int[] na = nb[a];
                if (na.length > 0) {
                    // a triangle a < b < c of Voronoi neighbours (all three faces carry a traced vertex)
                    for (int i = 0; i < na.length; i++) {
                        int b2 = na[i];
                        if (b2 < a) {
                            continue;
                        }
                        for (int c : nb[b2]) {
                            stamp[c] = b2 + 1;
                        }
                        for (int j = i + 1; j < na.length; j++) {
                            int c = na[j];
                            if (stamp[c] == b2 + 1) {
                                test(b, hidden, grid, a, b2, c, rmax, f, traced, found, na);
                            }
                        }
                    }
                } else {
                    // a ball in no traced vertex: every pair of balls near it
                    int[] cand = near(b, hidden, grid, a, cap);
                    for (int i = 0; i < cand.length; i++) {
                        for (int j = i + 1; j < cand.length; j++) {
                            test(b, hidden, grid, a, cand[i], cand[j], rmax, f, traced, found, cand);
                        }
                    }
                }
            }
        };
        if (loops == null || n < 256) {
            body.run(0, n);
        } else {
            loops.forRange(n, 64, body);
        }
        long[] keys = found.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
        int[] out = new int[3 * keys.length];
        long mask = (1L << 21) - 1;
        for (int k = 0; k < keys.length; k++) {
            out[3 * k] = (int) (keys[k] >>> 42);
            out[3 * k + 1] = (int) ((keys[k] >>> 21) & mask);
            out[3 * k + 2] = (int) (keys[k] & mask);
        }
        return out;
    }

    /** A sorted triple as one number (21 bits per index). */
    private static long key(int a, int b, int c) {
        return ((long) a << 42) | ((long) b << 21) | c;
    }

    /** Records the triple {i, j, k} if it is not traced and is a closed vertex-free edge. */
    private static void test(Balls b, boolean[] hidden, BallGrid grid, int i, int j, int k, double rmax, double[] f,
            long[] traced, ConcurrentHashMap<Long, Boolean> found, int[] quick) {
        int lo = Math.min(i, Math.min(j, k)), hi = Math.max(i, Math.max(j, k)), mid = i + j + k - lo - hi;
        long key = key(lo, mid, hi);
        if (Arrays.binarySearch(traced, key) < 0 && !found.containsKey(key) && closed(b, hidden, grid, i, j, k, rmax, f, quick)) {
            found.put(key, Boolean.TRUE);
        }
    }

    /** The visible balls other than a whose gap to a is at most 2 cap. */
    private static int[] near(Balls b, boolean[] hidden, BallGrid grid, int a, double cap) {
        EdgeTracer.IntStack s = new EdgeTracer.IntStack();
        double reach = Double.isInfinite(cap) ? 1e300 : 2 * cap + 2 * b.maxRadius() + b.r[a];
        grid.forEachNear(b.x[a], b.y[a], b.z[a], Math.min(reach, 1e150), j -> {
            if (j == a || hidden[j]) {
                return;
            }
            double dx = b.x[j] - b.x[a], dy = b.y[j] - b.y[a], dz = b.z[j] - b.z[a];
            if (Math.sqrt(dx * dx + dy * dy + dz * dz) - b.r[a] - b.r[j] <= 2 * cap) {
                s.push(j);
            }
        });
        return s.toArray();
    }

    /**
     * True if the balls i, j, k have a closed trisector that no other ball touches and whose spheres are empty.
     * {@code quick}: balls tried first against the minimal tangent sphere (a fast rejection; null: none).
     */
    static boolean closed(Balls bl, boolean[] hidden, BallGrid grid, int i, int j, int k, double rmax, double[] f,
            int[] quick) {
        double[] x = bl.x, y = bl.y, z = bl.z, r = bl.r;
        int g1 = i, g2 = j, g3 = k;
        if (r[g2] < r[g1]) {
            int t = g1; g1 = g2; g2 = t;
        }
        if (r[g3] < r[g1]) {
            int t = g1; g1 = g3; g3 = t;
        }
        if (!Trisector.frame(bl, g1, g2, g3, f, 0)) {
            return false;
        }
        double ox = x[g1], oy = y[g1], oz = z[g1], r1 = r[g1];
        double c2x = f[C2X], c2y = f[C2X + 1], c2z = f[C2X + 2], r2 = f[R2];
        double k2 = f[K2], h = f[H];
        double mx = f[MX], my = f[MX + 1], mz = f[MX + 2];
        // (1) elliptic: den = c2.w + r2 on the circle w = h m + sqrt(1 - h^2) (cos t e1 + sin t e2) is
        // A + B cos(t - t0) with A = h c2.m + r2, B = sqrt(1 - h^2) |c2 - (c2.m) m|
        double along = c2x * mx + c2y * my + c2z * mz;
        double px = c2x - along * mx, py = c2y - along * my, pz = c2z - along * mz;
        double pl = Math.sqrt(px * px + py * py + pz * pz);
        double sr = Math.sqrt(1 - h * h);
        double dA = h * along + r2, dB = sr * pl;
        double scale = Math.abs(r2) + Math.sqrt(c2x * c2x + c2y * c2y + c2z * c2z);
        if (!(dA - dB > 1e-9 * scale)) {
            return false;
        }
        // e1 towards the largest den (the minimal tangent sphere), e2 = m x e1
        double e1x, e1y, e1z;
        if (pl > 1e-12 * scale) {
            e1x = px / pl;
            e1y = py / pl;
            e1z = pz / pl;
        } else { // den constant on the circle: any direction in the plane
            double ax = Math.abs(mx) < 0.9 ? 1 : 0, ay = ax == 1 ? 0 : 1;
            e1x = ay * mz;
            e1y = -ax * mz;
            e1z = ax * my - ay * mx;
            double l = Math.sqrt(e1x * e1x + e1y * e1y + e1z * e1z);
            e1x /= l;
            e1y /= l;
            e1z /= l;
        }
        double e2x = my * e1z - mz * e1y, e2y = mz * e1x - mx * e1z, e2z = mx * e1y - my * e1x;
        f[E1X] = e1x;
        f[E1X + 1] = e1y;
        f[E1X + 2] = e1z;
        f[E2X] = e2x;
        f[E2X + 1] = e2y;
        f[E2X + 2] = e2z;
        f[PINF] = 4.0; // a full turn
        // (2) the minimal tangent sphere is empty (the cheaper test first)
        double rho = k2 / (dA + dB);
        double wx = h * mx + sr * e1x, wy = h * my + sr * e1y, wz = h * mz + sr * e1z;
        final int a = g1, b = g2, c = g3;
        double sx = ox + rho * wx, sy = oy + rho * wy, sz = oz + rho * wz, sR = rho - r1;
        if (quick != null) {
            for (int q : quick) {
                double dx = x[q] - sx, dy = y[q] - sy, dz = z[q] - sz;
                if (q != a && q != b && q != c && Math.sqrt(dx * dx + dy * dy + dz * dz) - r[q] < sR - VoronoiDiagram.TOLERANCE) {
                    return false;
                }
            }
        }
        boolean[] full = {false};
        grid.forEachNear(sx, sy, sz, Math.max(0, sR) + 2 * rmax, q -> {
            if (full[0] || q == a || q == b || q == c || hidden[q]) {
                return;
            }
            double dx = x[q] - sx, dy = y[q] - sy, dz = z[q] - sz;
            if (Math.sqrt(dx * dx + dy * dy + dz * dz) - r[q] < sR - VoronoiDiagram.TOLERANCE) {
                full[0] = true;
            }
        });
        if (full[0]) {
            return false;
        }
        // (3) no tangency of another ball anywhere on the circle
        double reach = 2 * k2 / (dA - dB) + rmax - r1;
        boolean[] touched = {false};
        grid.forEachNear(ox, oy, oz, reach, q -> {
            if (touched[0] || q == a || q == b || q == c || hidden[q]) {
                return;
            }
            if (thetaD(x, y, z, r, q, f, 0, 0, -1.0) < NONE) {
                touched[0] = true;
            }
        });
        return !touched[0];
    }
}
