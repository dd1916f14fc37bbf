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
 *
 * <p><b>Which triples are searched, and why that is complete.</b> Lemma (chambers): if e is a closed vertex-free
 * edge of balls a, b, c, at least one of the three is in no traced vertex. Proof: the cells of visible balls are
 * strictly star-shaped about their centres (for q in VR_a and x strictly between c_a and q, d(x, y) &ge; d(q, y) -
 * |q - x| &ge; d(q, a) - |q - x| = d(x, a), with equality only for a ball y that contains a or is contained in it),
 * so the cone K_a = union of the segments [c_a, q], q on e, is a disc bounded by e whose other points are interior
 * to VR_a; likewise K_b, K_c. Three discs with one boundary circle and disjoint interiors split space into three
 * chambers (Alexander duality: the complement has H_0 of rank 3), U_ab bounded by K_a and K_b, U_bc, U_ca. No
 * vertex or other edge meets K_a, K_b, K_c (they lie on cell boundaries, and a point of e on another edge would be
 * a vertex of e), so the traced vertices, connected by edges from the first one, lie in one chamber, say U_ab. A
 * vertex v in U_ab does not touch c: else the segment [c_c, v] lies in VR_c, its points other than v interior to
 * VR_c, and it joins c_c (on K_c, outside the closure of U_ab) to v, so it crosses K_a or K_b, which lie in VR_a and
 * VR_b: impossible. So c is in no traced vertex. (Hence the face between two balls with vertices elsewhere that
 * carries no vertex cannot bound such an edge: tested, never seen, in the brute-force tests.)
 *
 * <p>So the candidate triples are those {c, x, y} with c in no traced vertex, and x, y among the balls whose gap to c
 * is at most 2 E_c, E_c an upper bound of d(p, c) over VR_c ({@link #cellReach}): every sphere of e is centred in
 * VR_c and touches x and y, so gap(c, x) &le; 2 d(p, c). E_c comes from a cover of the directions about c by
 * half-spaces of other balls (d(p, c) &le; d(p, y) bounds the ray from c_c in direction u where u.w_y &gt;
 * -(r_y - r_c) / |c_y - c_c|); a ball whose directions cannot be covered (its cell is unbounded) takes every visible
 * ball. Proteins have no ball outside every traced vertex, so the search costs only the pass over the vertices.
 */
final class EllipticEdges {

    private EllipticEdges() {
    }

    /** The sorted triples of the closed vertex-free edges (3 ints each), in increasing order; quads: the traced vertices. */
    static int[] find(Balls b, boolean[] hidden, BallGrid grid, int[] quads, ParallelLoops loops) {
        int n = b.size();
        if (n >= 1 << 21) {
            throw new org.accelgeom.engine.AccelGeomException("the search for elliptic edges handles up to 2^21 balls, got " + n);
        }
        boolean[] inVertex = new boolean[n];
        for (int q : quads) {
            inVertex[q] = true;
        }
        int[] lonely = java.util.stream.IntStream.range(0, n).filter(i -> !hidden[i] && !inVertex[i]).toArray();
        double rmax = b.maxRadius();
        ConcurrentHashMap<Long, Boolean> found = new ConcurrentHashMap<>();
        ParallelLoops.RangeBody body = (from, to) -> {
            double[] f = new double[SCRATCH];
            for (int l = from; l < to; l++) {
                around(b, hidden, grid, lonely[l], rmax, f, found);
            }
        };
        if (loops == null || lonely.length < 8) {
            body.run(0, lonely.length);
        } else {
            loops.forRange(lonely.length, 1, body);
        }
        long[] keys = found.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
        int[] out = new int[3 * keys.length];
        for (int k = 0; k < keys.length; k++) {
            out[3 * k] = (int) (keys[k] >>> 42);
            out[3 * k + 1] = (int) ((keys[k] >>> 21) & MASK);
            out[3 * k + 2] = (int) (keys[k] & MASK);
        }
        return out;
    }

    /** Records the closed vertex-free edges of ball c's cell in {@code found} (keys of the sorted triples). */
    static void around(Balls b, boolean[] hidden, BallGrid grid, int c, double rmax, double[] f,
            ConcurrentHashMap<Long, Boolean> found) {
        double[] bound = cover(b, hidden, grid, c);
        double reach = reach(b, bound, c);
        // the other two balls of a closed edge of VR_c share a face with c
        int[] cand = CellCover.neighbours(b, c, bound, near(b, hidden, grid, c, reach));
        for (int i = 0; i < cand.length; i++) {
            for (int j = i + 1; j < cand.length; j++) {
                test(b, hidden, grid, c, cand[i], cand[j], rmax, reach, f, found, cand);
            }
        }
    }

    private static final long MASK = (1L << 21) - 1;

    /** A sorted triple as one number (21 bits per index). */
    private static long key(int a, int b, int c) {
        return ((long) a << 42) | ((long) b << 21) | c;
    }

    /**
     * Records the triple {i, j, k} if it is a closed vertex-free edge (none is traced: ball i is in no vertex);
     * {@code reach}: the bound E_i of ball i's cell: every sphere of such an edge is centred in VR_i, so its largest
     * sphere, k2 / (A - B) - r_g1, is at most E_i (compared with the margins of {@link CellCover}).
     */
    private static void test(Balls b, boolean[] hidden, BallGrid grid, int i, int j, int k, double rmax, double reach,
            double[] f, ConcurrentHashMap<Long, Boolean> found, int[] quick) {
        if (!ellipticFrame(b, i, j, k, f)) {
            return; // most triples
        }
        if (f[K2] / (f[DA] - f[DB]) - b.r[(int) f[G1]] > reach * (1 + CellCover.SLACK) + CellCover.PAD) {
            return; // spheres beyond the cell's reach
        }
        int lo = Math.min(i, Math.min(j, k)), hi = Math.max(i, Math.max(j, k)), mid = i + j + k - lo - hi;
        long key = key(lo, mid, hi);
        if (!found.containsKey(key) && vertexFree(b, hidden, grid, i, j, k, rmax, f, quick)) {
            found.put(key, Boolean.TRUE);
        }
    }

    /** The visible balls other than c whose gap to c is at most 2 reach (every visible ball when reach is infinite). */
    static int[] near(Balls b, boolean[] hidden, BallGrid grid, int c, double reach) {
        EdgeTracer.IntStack s = new EdgeTracer.IntStack();
        double q = Double.isInfinite(reach) ? grid.coverRadius() + 2 * b.maxRadius() : 2 * reach + 2 * b.maxRadius() + b.r[c];
        grid.forEachNear(b.x[c], b.y[c], b.z[c], q, j -> {
            if (j == c || hidden[j]) {
                return;
            }
            double dx = b.x[j] - b.x[c], dy = b.y[j] - b.y[c], dz = b.z[j] - b.z[c];
            if (Double.isInfinite(reach) || Math.sqrt(dx * dx + dy * dy + dz * dz) - b.r[c] - b.r[j] <= 2 * reach) {
                s.push(j);
            }
        });
        return s.toArray();
    }

    /** Cube-map cells per face edge of the direction cover of {@link #cellReach}. */
    static final int CELLS = 4;

    /**
     * An upper bound of d(p, c) = |p - c_c| - r_c over the cell VR_c, or infinity when the cover fails (an unbounded
     * cell). VR_c lies in every H_y = {p : d(p, c) &le; d(p, y)}; on the ray p = c_c + t u, with w the direction and D
     * the distance of c_y from c_c and s = r_y - r_c, H_y means t (D u.w + s) &le; (D^2 - s^2) / 2, a bound on t when
     * D u.w + s &gt; 0. The directions are split into the cells of a cube map; over a cell (centre u0, angular radius
     * alpha: the largest angle to its corners, the angle being quasi-convex on the face plane) u.w &ge; cos(angle(u0,
     * w) + alpha), so the cell's t is at most the least such bound over the balls tried; the largest over the cells
     * bounds the cell. The balls tried: those within a radius that doubles until every cell is bounded, up to all.
     */
    static double cellReach(Balls b, boolean[] hidden, BallGrid grid, int c) {
        return reach(b, cover(b, hidden, grid, c), c);
    }

    /** The bound of {@link #cellReach} from the per-cell bounds of {@link #cover}. */
    static double reach(Balls b, double[] bound, int c) {
        double t = 0;
        for (double v : bound) {
            t = Math.max(t, v);
        }
        return t < Double.POSITIVE_INFINITY ? t * (1 + 1e-9) - b.r[c] : Double.POSITIVE_INFINITY;
    }

    /**
     * The cover of {@link #cellReach}: per cube-map cell of directions, an upper bound of t over the rays c_c + t u in
     * the cell that stay in VR_c (the least bound over the balls tried; infinite only when every visible ball was tried).
     */
    static double[] cover(Balls b, boolean[] hidden, BallGrid grid, int c) {
        double cx = b.x[c], cy = b.y[c], cz = b.z[c], rc = b.r[c];
        double radius = 4 * b.maxRadius() + grid.cell;
        double all = grid.coverRadius() + 2 * b.maxRadius();
        while (true) {
            double[] best = new double[6 * CELLS * CELLS];
            Arrays.fill(best, Double.POSITIVE_INFINITY);
            final double q = Math.min(radius, all);
            // the balls tried, by their least bound over all directions (D - s) / 2: once every cell is bounded
            // below that, no further ball lowers a cell (its bounds are at least that), so they are left out
            EdgeTracer.IntStack tried = new EdgeTracer.IntStack();
            grid.forEachNear(cx, cy, cz, q, y -> {
                if (y != c && !hidden[y]) {
                    tried.push(y);
                }
            });
            int m = tried.size;
            double[] least = new double[m];
            int[] ball = tried.toArray();
            for (int i = 0; i < m; i++) {
                int y = ball[i];
                double wx = b.x[y] - cx, wy = b.y[y] - cy, wz = b.z[y] - cz;
                least[i] = 0.5 * (Math.sqrt(wx * wx + wy * wy + wz * wz) - (b.r[y] - rc));
            }
            Integer[] byLeast = new Integer[m];
            for (int i = 0; i < m; i++) {
                byLeast[i] = i;
            }
            Arrays.sort(byLeast, (i, j) -> Double.compare(least[i], least[j]));
            double top = Double.POSITIVE_INFINITY; // the largest cell bound, refreshed every 64 balls
            for (int n = 0; n < m; n++) {
                int i = byLeast[n];
                if (least[i] > top * (1 + 1e-12)) {
                    break;
                }
                int y = ball[i];
                double wx = b.x[y] - cx, wy = b.y[y] - cy, wz = b.z[y] - cz;
                double d = Math.sqrt(wx * wx + wy * wy + wz * wz);
                double s = b.r[y] - rc;
                if (!(d > Math.abs(s))) {
                    continue; // coincident or containing: no bound from it (hidden balls are left out anyway)
                }
                wx /= d;
                wy /= d;
                wz /= d;
                for (int cell = 0; cell < best.length; cell++) {
                    double[] u = CUBE[cell];
                    double ang = Math.acos(Math.max(-1, Math.min(1, u[0] * wx + u[1] * wy + u[2] * wz))) + u[3];
                    double den = ang >= Math.PI ? s - d : d * Math.cos(ang) + s;
                    if (den > 0) {
                        best[cell] = Math.min(best[cell], (d * d - s * s) / (2 * den));
                    }
                }
                if ((n & 63) == 63) {
                    top = 0;
                    for (double v : best) {
                        top = Math.max(top, v);
                    }
                }
            }
            boolean bounded = true;
            for (double v : best) {
                bounded &= v < Double.POSITIVE_INFINITY;
            }
            if (bounded || q >= all) {
                return best;
            }
            radius *= 2;
        }
    }

    /** The cube-map cells: unit centre direction and angular radius (x, y, z, alpha), the radius padded by 1e-9. */
    private static final double[][] CUBE = cube();

    /** Cube-map cell {@code i} of {@link #CUBE} (read only: the array is shared). */
    static double[] cubeCell(int i) {
        return CUBE[i];
    }

    private static double[][] cube() {
        double[][] out = new double[6 * CELLS * CELLS][];
        int k = 0;
        for (int face = 0; face < 6; face++) {
            int axis = face / 2;
            double sign = face % 2 == 0 ? 1 : -1;
            for (int i = 0; i < CELLS; i++) {
                for (int j = 0; j < CELLS; j++) {
                    double[] c = onFace(axis, sign, -1 + (2 * i + 1.0) / CELLS, -1 + (2 * j + 1.0) / CELLS);
                    double alpha = 0;
                    for (int di = 0; di <= 1; di++) {
                        for (int dj = 0; dj <= 1; dj++) {
                            double[] v = onFace(axis, sign, -1 + 2.0 * (i + di) / CELLS, -1 + 2.0 * (j + dj) / CELLS);
                            double dot = c[0] * v[0] + c[1] * v[1] + c[2] * v[2];
                            alpha = Math.max(alpha, Math.acos(Math.max(-1, Math.min(1, dot))));
                        }
                    }
                    out[k++] = new double[] {c[0], c[1], c[2], alpha + 1e-9};
                }
            }
        }
        return out;
    }

    /**
     * The direction cell [s0, s1] x [t0, t1] of the cube face {x_axis = sign} as {@link #CUBE} gives its cells: unit
     * centre direction and angular radius (x, y, z, alpha), alpha the largest angle to its corners, padded by 1e-9.
     */
    static double[] directionCell(int axis, double sign, double s0, double s1, double t0, double t1) {
        double[] c = onFace(axis, sign, 0.5 * (s0 + s1), 0.5 * (t0 + t1));
        double alpha = 0;
        for (double s : new double[] {s0, s1}) {
            for (double t : new double[] {t0, t1}) {
                double[] v = onFace(axis, sign, s, t);
                alpha = Math.max(alpha, Math.acos(Math.max(-1, Math.min(1, c[0] * v[0] + c[1] * v[1] + c[2] * v[2]))));
            }
        }
        return new double[] {c[0], c[1], c[2], alpha + 1e-9};
    }

    /** The unit direction of the point (s, t) of the cube face {x_axis = sign}. */
    private static double[] onFace(int axis, double sign, double s, double t) {
        double[] v = new double[3];
        v[axis] = sign;
        v[(axis + 1) % 3] = s;
        v[(axis + 2) % 3] = t;
        double l = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        v[0] /= l;
        v[1] /= l;
        v[2] /= l;
        return v;
    }

    /**
     * True if the balls i, j, k have a closed trisector that no other ball touches and whose spheres are empty.
     * {@code quick}: balls tried first against the minimal tangent sphere (a fast rejection; null: none).
     */
    static boolean closed(Balls bl, boolean[] hidden, BallGrid grid, int i, int j, int k, double rmax, double[] f,
            int[] quick) {
        return ellipticFrame(bl, i, j, k, f) && vertexFree(bl, hidden, grid, i, j, k, rmax, f, quick);
    }

    /** Scratch slots after the frame: A and B of den = A + B cos(t - t0), the smallest ball. */
    private static final int DA = FS, DB = FS + 1, G1 = FS + 2;
    /** Length of the scratch array of {@link #closed}. */
    static final int SCRATCH = FS + 3;

    /**
     * Condition (1), the cheap rejection of most triples: true if the trisector of i, j, k is a closed ellipse; then
     * {@code f} (length {@link #SCRATCH}) holds its frame with e1 towards the minimal tangent sphere and a full turn.
     */
    static boolean ellipticFrame(Balls bl, int i, int j, int k, double[] f) {
        double[] r = bl.r;
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
        double c2x = f[C2X], c2y = f[C2X + 1], c2z = f[C2X + 2], r2 = f[R2];
        double h = f[H];
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
        f[DA] = dA;
        f[DB] = dB;
        f[G1] = g1;
        return true;
    }

    /** Conditions (2) and (3) for the triple whose {@link #ellipticFrame} is in f. */
    private static boolean vertexFree(Balls bl, boolean[] hidden, BallGrid grid, int i, int j, int k, double rmax,
            double[] f, int[] quick) {
        double[] x = bl.x, y = bl.y, z = bl.z, r = bl.r;
        int g1 = (int) f[G1];
        double ox = x[g1], oy = y[g1], oz = z[g1], r1 = r[g1];
        double k2 = f[K2], h = f[H], dA = f[DA], dB = f[DB];
        double mx = f[MX], my = f[MX + 1], mz = f[MX + 2];
        double e1x = f[E1X], e1y = f[E1X + 1], e1z = f[E1X + 2];
        double sr = Math.sqrt(1 - h * h);
        // (2) the minimal tangent sphere is empty (the cheaper test first)
        double rho = k2 / (dA + dB);
        double wx = h * mx + sr * e1x, wy = h * my + sr * e1y, wz = h * mz + sr * e1z;
        final int a = i, b = j, c = k;
        double sx = ox + rho * wx, sy = oy + rho * wy, sz = oz + rho * wz, sR = rho - r1;
        if (quick != null) {
            for (int q : quick) {
                double dx = x[q] - sx, dy = y[q] - sy, dz = z[q] - sz;
                if (q != a && q != b && q != c && Math.sqrt(dx * dx + dy * dy + dz * dz) - r[q] < sR - Voronoi.TOLERANCE) {
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
            if (Math.sqrt(dx * dx + dy * dy + dz * dz) - r[q] < sR - Voronoi.TOLERANCE) {
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
