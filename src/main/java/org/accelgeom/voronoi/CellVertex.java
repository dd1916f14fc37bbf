package org.accelgeom.voronoi;

import java.util.Arrays;

/**
 * A vertex of one given ball's cell, or the proof that the cell has none: the start of a further tracing when the
 * vertex graph is disconnected ({@link Completion}).
 *
 * <p>Every vertex (y, x, z, w) of ball y's cell VR_y is centred in VR_y and touches x, z, w, so their gaps to y are at
 * most 2 E_y, E_y the bound of d(p, y) over VR_y of {@link EllipticEdges#cellReach}: the candidates are those balls
 * (every visible ball for an unbounded cell whose directions the cover cannot close).
 * <ol>
 * <li>Fast: Alg. 2.2 started at y: for the candidates x by increasing gap (the nearest face first), z the ball of the
 * least minimal tangent sphere with (y, x) (the nearest edge on that face), w the ball of the least tangent sphere
 * with (y, x, z) (the nearest vertex on that edge); accepted when that sphere is empty. Up to {@link #TRIES} faces.</li>
 * <li>Complete: every quadruple (y, x, z, w) of the candidates that can share a face with y ({@link CellCover}, in
 * their order, so the first vertex met is the one the unfiltered search meets), each tangent sphere within the reach
 * tested for emptiness (the brute force restricted to the cell's reach; pairs too far apart or whose minimal tangent
 * sphere with y lies beyond the reach are skipped, see {@code Pruning}). Reached only when the fast steps fail, i.e. for cells that are bounded by closed
 * edges or faces without vertex, or rarely otherwise; no vertex then proves that VR_y has none. Limited to
 * {@link #MAX_QUADRUPLES}: beyond, the ball is undecided (counted, reported).</li>
 * </ol>
 * Why the fast step is the cell's vertex when it ends: the pair sphere of y and its nearest ball x is empty (a ball
 * meeting it would be nearer), so it is a point of the face y|x; the sublevel sets of the radius on the bisector sheet
 * are discs about that point, so the first third ball the growing sphere touches is z, the argmin of the minimal
 * tangent sphere, at a point of an edge (y, x, z) with an empty sphere; the radius is unimodal along the trisector, so
 * the least tangent sphere with a fourth ball is the first vertex met on that edge, empty. It fails only when that edge
 * has no vertex (closed, or infinite both ways), which the emptiness test sees; then the next face is tried.
 * The vertex is returned as the tracing stores it: sorted quadruple, the root index of {@link TangentSpheres#solve} on
 * the sorted quadruple, and that root's sphere (so VIDIC finds it again from any edge).
 */
final class CellVertex {

    /** Faces (nearest balls) tried by the fast step. */
    static final int TRIES = 8;

    private CellVertex() {
    }

    /**
     * The complete search's limit: at most this many quadruples (an unbounded cell whose reach the cover cannot bound
     * takes every visible ball as candidate; beyond the limit the ball is left undecided and counted).
     */
    static final long MAX_QUADRUPLES = 5_000_000L;

    /** How {@link #find} ended: 1 fast, 2 complete search with a vertex, 3 none (proven), 4 undecided (limit). */
    record Found(int how, int candidates) {
    }

    /**
     * A vertex of ball y's cell in quad (sorted), root[0] and sphere (x, y, z, R); how it ended (see {@link Found}).
     */
    static Found find(Balls b, boolean[] hidden, BallGrid grid, int y, double tol, int[] quad, int[] root,
            double[] sphere) {
        double[] bound = EllipticEdges.cover(b, hidden, grid, y);
        double reach = EllipticEdges.reach(b, bound, y);
        int[] cand = EllipticEdges.near(b, hidden, grid, y, reach);
        int k = cand.length;
        if (k < 3) {
            return new Found(3, k);
        }
        double[] out = new double[8];
        // 1. Alg. 2.2 from y: nearest faces first
        Integer[] order = new Integer[k];
        double[] gap = new double[k];
        for (int i = 0; i < k; i++) {
            order[i] = i;
            int x = cand[i];
            double dx = b.x[x] - b.x[y], dy = b.y[x] - b.y[y], dz = b.z[x] - b.z[y];
            gap[i] = Math.sqrt(dx * dx + dy * dy + dz * dz) - b.r[x] - b.r[y];
        }
        Arrays.sort(order, (p, q) -> Double.compare(gap[p], gap[q]));
        for (int t = 0; t < Math.min(TRIES, k); t++) {
            int x = cand[order[t]];
            int z = -1;
            double best = Double.MAX_VALUE;
            for (int c : cand) {
                if (c != x) {
                    double m = InitialVertex.mtsRadius(b, y, x, c);
                    if (m < best) {
                        best = m;
                        z = c;
                    }
                }
            }
            if (z < 0) {
                continue;
            }
            int w = -1;
            best = Double.MAX_VALUE;
            for (int c : cand) {
                if (c == x || c == z) {
                    continue;
                }
                int m = TangentSpheres.solve(b.x, b.y, b.z, b.r, y, x, z, c, out);
                if (TangentSpheres.smallestRadius(out, m) < best) {
                    best = out[3];
                    w = c;
                }
            }
            if (w >= 0 && accept(b, hidden, grid, y, x, z, w, tol, -1, cand, quad, root, sphere)) {
                return new Found(1, k);
            }
        }
        // 2. every quadruple of the balls that can share a face with y (CellCover), pruned by the reach
        int[] nb = CellCover.neighbours(b, y, bound, cand);
        int kn = nb.length;
        if ((long) kn * (kn - 1) * (kn - 2) / 6 > MAX_QUADRUPLES) {
            return new Found(4, k);
        }
        Pruning pr = Pruning.of(b, y, nb, reach + tol);
        for (int i = 0; i < kn; i++) {
            for (int j = i + 1; j < kn; j++) {
                if (pr.cut(i, j)) {
                    continue;
                }
                for (int l = j + 1; l < kn; l++) {
                    if (pr.cut(i, l) || pr.cut(j, l)) {
                        continue;
                    }
                    int m = TangentSpheres.solve(b.x, b.y, b.z, b.r, y, nb[i], nb[j], nb[l], out);
                    for (int s = 0; s < m; s++) {
                        if (out[4 * s + 3] <= reach + tol
                                && accept(b, hidden, grid, y, nb[i], nb[j], nb[l], tol, s, nb, quad, root, sphere)) {
                            return new Found(2, k);
                        }
                    }
                }
            }
        }
        return new Found(3, k);
    }

    /**
     * Pairs (i, j) of the candidates that no vertex of y's cell within the reach can hold: a vertex (y, i, j, l) with
     * R &le; lim touches i and j, so their gap is at most 2 lim, and lies on the trisector of y, i, j, whose spheres are
     * at least its minimal tangent sphere. Decided with the margins of {@link CellCover} (a pair on the border is kept).
     */
    private record Pruning(boolean[] cut, int k) {

        static Pruning of(Balls b, int y, int[] nb, double lim) {
            int k = nb.length;
            boolean[] cut = new boolean[k * k];
            if (lim < Double.POSITIVE_INFINITY) {
                double edge = lim * (1 + CellCover.SLACK) + CellCover.PAD;
                for (int i = 0; i < k; i++) {
                    for (int j = i + 1; j < k; j++) {
                        int p = nb[i], q = nb[j];
                        double dx = b.x[p] - b.x[q], dy = b.y[p] - b.y[q], dz = b.z[p] - b.z[q];
                        double g = Math.sqrt(dx * dx + dy * dy + dz * dz) - b.r[p] - b.r[q];
                        boolean c = g > 2 * edge;
                        if (!c) {
                            double m = InitialVertex.mtsRadius(b, y, p, q);
                            c = m < Double.POSITIVE_INFINITY && m > edge;
                        }
                        cut[i * k + j] = c;
                        cut[j * k + i] = c;
                    }
                }
            }
            return new Pruning(cut, k);
        }

        boolean cut(int i, int j) {
            return cut[i * k + j];
        }
    }

    /**
     * True if a tangent sphere of the quadruple is empty (the one of least R when which &lt; 0, else the which-th of the
     * unsorted solve); then the sorted quadruple, its root index and sphere are written out.
     */
    private static boolean accept(Balls b, boolean[] hidden, BallGrid grid, int y, int x, int z, int w, double tol,
            int which, int[] quick, int[] quad, int[] root, double[] sphere) {
        double[] out = new double[8];
        int m = TangentSpheres.solve(b.x, b.y, b.z, b.r, y, x, z, w, out);
        if (m == 0) {
            return false;
        }
        int s = which < 0 ? 0 : which;
        double[] sp = Arrays.copyOfRange(out, 4 * s, 4 * s + 4);
        int[] q = {y, x, z, w};
        if (penetrated(b, quick, q, sp, tol) || !empty(b, hidden, grid, q, sp, tol)) {
            return false;
        }
        Arrays.sort(q);
        int r = rootOf(b, q, sp, sphere);
        if (r < 0) {
            return false;
        }
        System.arraycopy(q, 0, quad, 0, 4);
        root[0] = r;
        return true;
    }

    /**
     * The root index of the sphere sp among {@link TangentSpheres#solve} of the sorted quadruple q (the nearer centre),
     * that sphere written to {@code sphere}; -1 if the sorted solve has no sphere.
     */
    static int rootOf(Balls b, int[] q, double[] sp, double[] sphere) {
        double[] out = new double[8];
        int m = TangentSpheres.solve(b.x, b.y, b.z, b.r, q[0], q[1], q[2], q[3], out);
        if (m == 0) {
            return -1;
        }
        int r = 0;
        if (m == 2 && dist2(out, 4, sp) < dist2(out, 0, sp)) {
            r = 1;
        }
        System.arraycopy(out, 4 * r, sphere, 0, 4);
        return r;
    }

    private static double dist2(double[] o, int at, double[] s) {
        double dx = o[at] - s[0], dy = o[at + 1] - s[1], dz = o[at + 2] - s[2], dr = o[at + 3] - s[3];
        return dx * dx + dy * dy + dz * dz + dr * dr;
    }

    /**
     * True if a ball of {@code quick} (visible balls) outside q comes closer to the sphere's centre than R - tol: a fast
     * rejection before {@link #empty}, which would find the same ball (it scans every ball that can come that close).
     */
    private static boolean penetrated(Balls b, int[] quick, int[] q, double[] s, double tol) {
        for (int i : quick) {
            if (i == q[0] || i == q[1] || i == q[2] || i == q[3]) {
                continue;
            }
            double dx = b.x[i] - s[0], dy = b.y[i] - s[1], dz = b.z[i] - s[2];
            if (Math.sqrt(dx * dx + dy * dy + dz * dz) - b.r[i] < s[3] - tol) {
                return true;
            }
        }
        return false;
    }

    /** True if no visible ball outside q comes closer to the sphere's centre than R - tol (by the grid). */
    static boolean empty(Balls b, boolean[] hidden, BallGrid grid, int[] q, double[] s, double tol) {
        boolean[] full = {false};
        double reach = Math.max(0, s[3]) + b.maxRadius() + tol;
        grid.forEachNear(s[0], s[1], s[2], reach, i -> {
            if (full[0] || hidden[i] || i == q[0] || i == q[1] || i == q[2] || i == q[3]) {
                return;
            }
            double dx = b.x[i] - s[0], dy = b.y[i] - s[1], dz = b.z[i] - s[2];
            if (Math.sqrt(dx * dx + dy * dy + dz * dz) - b.r[i] < s[3] - tol) {
                full[0] = true;
            }
        });
        return !full[0];
    }
}
