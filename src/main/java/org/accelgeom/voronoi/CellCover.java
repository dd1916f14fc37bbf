package org.accelgeom.voronoi;

import java.util.Arrays;

/**
 * The direction cover of a ball's cell (host side, for {@link Completion} and {@link EllipticEdges}): which balls can
 * share a face with ball c, the candidates of the searches over its cell.
 *
 * <p>VR_c lies in every H_y = {p : d(p, c) &le; d(p, y)}; on the ray p = c_c + t u (D, w: distance and direction of
 * c_y from c_c, s = r_y - r_c) H_y is t &le; b_y(u) = (D^2 - s^2) / (2 (D u.w + s)) where D u.w + s &gt; 0, the whole ray
 * elsewhere. The cells of visible balls are strictly star-shaped about their centres ({@link EllipticEdges}), so a
 * point q = c_c + t u of a face c|x is where the ray u leaves VR_c: t = b_x(u) = min_y b_y(u). Over a cell of
 * directions (a cube-map cell: centre u0, angular radius alpha, so angle(u, w) lies within angle(u0, w) &plusmn; alpha)
 * b_y is at least L_y (u.w at its largest) and at most U_y (u.w at its least), and min_y b_y(u) &le; T = min_y U_y. Hence
 * <b>x can be a face neighbour of c through that cell only if L_x &le; T</b> (through a cell no ball bounds, T infinite:
 * only if L_x is finite, i.e. x bounds some direction of it). The direction cells are the 96 of
 * {@link EllipticEdges#cellReach}'s cube map; a cell whose T is infinite (directions along which the cover cannot close
 * the cell: an unbounded cell, or balls too far to have been tried) is split in four, recursively, the balls that bound
 * some direction of it passed down, until it is bounded, has at most {@link #FEW} such balls, or is
 * {@link #DEPTH} levels deep. On a cell that reaches infinity (a hull ball) the balls left on its unbounded directions
 * are those whose support nearly ties c's there: a few, where the distance bound 2 E_c of the cell's reach is infinite
 * and took every visible ball.
 *
 * <p>Every ball of a vertex or edge of VR_c other than c is a face neighbour of c, so the searches over quadruples and
 * pairs may take their balls from {@link #neighbours} instead of every ball within the reach; the filter keeps the
 * order of its input, so a search over it meets the same first vertex as over the input. Rounding: the tests compare
 * with a margin ({@link #SLACK} relative and {@link #PAD} in length, far above the error of the few operations and above
 * the emptiness tolerance), so a ball on the border is kept.
 */
final class CellCover {

    /** Subdivision levels of an unbounded direction cell (its angular radius halves per level). */
    static final int DEPTH = 12;
    /** A direction cell with at most this many balls that bound some of its directions is not split further. */
    static final int FEW = 6;
    /** Relative margin of the comparisons (above the cover's 1e-9). */
    static final double SLACK = 1e-8;
    /** Margin in length units (Angstrom): above the emptiness tolerance of the vertex test (1e-7). */
    static final double PAD = 1e-6;

    private CellCover() {
    }

    /**
     * The balls of {@code near} (visible, other than c, in their order) that can share a face with c: the subset of
     * {@code near} that passes the test above. {@code bound}: the per-cell bounds on t of {@link EllipticEdges#cover}
     * (infinite where that cover did not close the cell); {@code near} must hold every visible ball within the cell's
     * reach (every visible ball when a bound is infinite).
     */
    static int[] neighbours(Balls b, int c, double[] bound, int[] near) {
        double cx = b.x[c], cy = b.y[c], cz = b.z[c], rc = b.r[c];
        int k = near.length;
        double[] wx = new double[k], wy = new double[k], wz = new double[k], dd = new double[k], ss = new double[k];
        for (int i = 0; i < k; i++) {
            int y = near[i];
            double ux = b.x[y] - cx, uy = b.y[y] - cy, uz = b.z[y] - cz;
            double d = Math.sqrt(ux * ux + uy * uy + uz * uz);
            dd[i] = d;
            ss[i] = b.r[y] - rc;
            wx[i] = ux / d;
            wy[i] = uy / d;
            wz[i] = uz / d;
        }
        boolean[] keep = new boolean[k];
        // the balls that bound some direction, by their least bound over all directions, (D - s) / 2
        Integer[] byLeast = new Integer[k];
        int usable = 0;
        for (int i = 0; i < k; i++) {
            if (dd[i] > Math.abs(ss[i])) {
                byLeast[usable++] = i;
            }
        }
        Arrays.sort(byLeast, 0, usable, (p, q) -> Double.compare(dd[p] - ss[p], dd[q] - ss[q]));
        double tmin = Double.POSITIVE_INFINITY;
        for (double t : bound) {
            tmin = Math.min(tmin, t);
        }
        Cells cells = new Cells(wx, wy, wz, dd, ss, keep, 2 * tmin);
        int per = EllipticEdges.CELLS * EllipticEdges.CELLS;
        double step = 2.0 / EllipticEdges.CELLS;
        for (int cell = 0; cell < bound.length; cell++) {
            int[] list = new int[usable];
            int m = 0;
            for (int n = 0; n < usable; n++) {
                int i = byLeast[n];
                if ((dd[i] - ss[i]) / 2 > limit(bound[cell])) {
                    break; // L_y >= (D - s) / 2: this ball and the next bound no direction below T
                }
                list[m++] = i;
            }
            int face = cell / per, ij = cell % per;
            double s0 = -1 + step * (ij / EllipticEdges.CELLS), t0 = -1 + step * (ij % EllipticEdges.CELLS);
            cells.refine(face / 2, face % 2 == 0 ? 1 : -1, s0, s0 + step, t0, t0 + step, EllipticEdges.cubeCell(cell), bound[cell], 0,
                    Arrays.copyOf(list, m));
        }
        int m = 0;
        for (boolean v : keep) {
            m += v ? 1 : 0;
        }
        int[] out = new int[m];
        for (int i = 0, j = 0; i < k; i++) {
            if (keep[i]) {
                out[j++] = near[i];
            }
        }
        return out;
    }

    /** A bound on t with the margins. */
    private static double limit(double t) {
        return t * (1 + SLACK) + PAD;
    }

    /** The balls about c (unit directions, distances, radius differences) and the marks of the kept ones. */
    private record Cells(double[] wx, double[] wy, double[] wz, double[] dd, double[] ss, boolean[] keep, double small) {

        /**
         * The direction cell [s0, s1] x [t0, t1] of cube face {x_axis = sign} (geometry g), with an upper bound T of the
         * exit distance over its directions (infinite: none known) and {@code list} (indices), a superset of the balls
         * that bound one of its directions below T: marks the possible face neighbours through it, splitting it in four
         * while that can sharpen the test (more than {@link #FEW} balls left, and T infinite or above twice the
         * smallest T of the cover: a spike or an opening of the cell).
         */
        void refine(int axis, double sign, double s0, double s1, double t0, double t1, double[] g, double t, int depth,
                int[] list) {
            int[] left = new int[list.length];
            int m = 0;
            for (int i : list) {
                double low = lower(g, wx[i], wy[i], wz[i], dd[i], ss[i]);
                if (t < Double.POSITIVE_INFINITY ? low <= limit(t) : low < Double.POSITIVE_INFINITY) {
                    left[m++] = i;
                }
            }
            if (m <= FEW || depth == DEPTH || t <= small) {
                for (int n = 0; n < m; n++) {
                    keep[left[n]] = true;
                }
                return;
            }
            double sm = 0.5 * (s0 + s1), tm = 0.5 * (t0 + t1);
            double[][] parts = {{s0, sm, t0, tm}, {s0, sm, tm, t1}, {sm, s1, t0, tm}, {sm, s1, tm, t1}};
            int[] sub = Arrays.copyOf(left, m);
            for (double[] p : parts) {
                double[] h = EllipticEdges.directionCell(axis, sign, p[0], p[1], p[2], p[3]);
                // the least U over the balls left bounds the part (a ball outside them has U above T, or bounds none of it)
                double tp = t;
                for (int i : sub) {
                    tp = Math.min(tp, upper(h, wx[i], wy[i], wz[i], dd[i], ss[i]));
                }
                refine(axis, sign, p[0], p[1], p[2], p[3], h, tp, depth + 1, sub);
            }
        }
    }

    /**
     * L_y: the least b_y over the direction cell g (u.w at its largest, cos(max(0, angle - alpha))); infinite when D u.w
     * + s stays below a small margin over the cell (y bounds none of its directions), 0 when it is about 0.
     */
    static double lower(double[] g, double wx, double wy, double wz, double d, double s) {
        double ang = Math.acos(Math.max(-1, Math.min(1, g[0] * wx + g[1] * wy + g[2] * wz))) - g[3];
        double den = ang <= 0 ? d + s : d * Math.cos(ang) + s;
        double tiny = 1e-12 * (d + Math.abs(s));
        if (den > tiny) {
            return (d * d - s * s) / (2 * den);
        }
        return den > -tiny ? 0 : Double.POSITIVE_INFINITY;
    }

    /** U_y: the largest b_y over the direction cell g (infinite when y does not bound all of its directions). */
    static double upper(double[] g, double wx, double wy, double wz, double d, double s) {
        double ang = Math.acos(Math.max(-1, Math.min(1, g[0] * wx + g[1] * wy + g[2] * wz))) + g[3];
        double den = ang >= Math.PI ? s - d : d * Math.cos(ang) + s;
        return den > 0 ? (d * d - s * s) / (2 * den) : Double.POSITIVE_INFINITY;
    }
}
