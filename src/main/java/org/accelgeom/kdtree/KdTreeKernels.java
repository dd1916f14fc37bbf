package org.accelgeom.kdtree;

/**
 * Element kernels of the SAH kd-tree construction (Wald &amp; Havran 2006; the thesis's Algorithms 2–4 and its
 * four per-node kernels), in the TornadoVM subset: static, primitive arrays, the index as a parameter.
 *
 * <p>A node's triangle references carry their clipped boxes B(t ∩ V) ({@code box[6r .. 6r+5]}: min x y z,
 * max x y z). Events (§1.6 of the thesis): a box flat on axis k gives one PLANAR event at its position,
 * otherwise a START at its minimum and an END at its maximum. Sorted by (position, axis, type) with
 * END &lt; PLANAR &lt; START.
 *
 * <p>Precision: boxes, planes and events are float (the positions are the triangles' own coordinates or
 * clipped ones rounded outwards); the SAH cost is double, from integer counts.
 */
public final class KdTreeKernels {

    public static final int END = 0;
    public static final int PLANAR = 1;
    public static final int START = 2;
    /** No event in this slot (a planar box uses one of its two slots per axis). */
    public static final int NONE = 3;

    /** Planar triangles go to the left child. */
    public static final int LEFT = 0;
    /** Planar triangles go to the right child. */
    public static final int RIGHT = 1;

    /** Entries of the per-ray traversal stack, and so the deepest tree. */
    public static final int STACK_SIZE = 48;

    /** Layout of the cost-constant array: K_T, K_I, λ. */
    public static final int KT = 0;
    public static final int KI = 1;
    public static final int LAMBDA = 2;

    private KdTreeKernels() {
    }

    /**
     * Kernel 1 (the thesis's ProcessEvents): the events of reference r, two slots per axis
     * ({@code 6r + 2k}, {@code 6r + 2k + 1}); an unused slot gets type {@link #NONE}.
     */
    public static void events(float[] box, int r, float[] evPos, int[] evType) {
        for (int k = 0; k < 3; k++) {
            float lo = box[6 * r + k];
            float hi = box[6 * r + 3 + k];
            int s = 6 * r + 2 * k;
            evPos[s] = lo;
            evPos[s + 1] = hi;
            int planar = lo == hi ? 1 : 0;
            evType[s] = planar * PLANAR + (1 - planar) * START;
            evType[s + 1] = planar * NONE + (1 - planar) * END;
        }
    }

    /** Number of elements of the sorted {@code a[from .. from+n-1]} that are smaller than x. */
    public static int countBelow(float[] a, int from, int n, float x) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[from + mid] < x) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Number of elements of the sorted {@code a[from .. from+n-1]} that are at most x. */
    public static int countAtMost(float[] a, int from, int n, float x) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[from + mid] <= x) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Kernel 2 (the thesis's TriangleSplits): N_L, N_P, N_R of plane p, by the closed form of the sweep
     * (kdtree-sah.md §1.6) over the node's sorted event positions, which lie per axis and type in
     * {@code sorted[off[3k+type] .. off[3k+type+1]-1]}:
     * N_L = #START(&lt; ξ) + #PLANAR(&lt; ξ), N_P = #PLANAR(= ξ), N_R = N − #END(≤ ξ) − #PLANAR(≤ ξ).
     * Binary searches replace the thesis's all-pairs plane × event comparison (its slow kernel).
     */
    public static void countPlane(float[] sorted, int[] off, int n, float[] planePos, int[] planeAxis, int p,
            int[] nl, int[] np, int[] nr) {
        int k = planeAxis[p];
        float xi = planePos[p];
        int e0 = off[3 * k + END];
        int p0 = off[3 * k + PLANAR];
        int s0 = off[3 * k + START];
        int s1 = off[3 * k + START + 1];
        int planarBelow = countBelow(sorted, p0, s0 - p0, xi);
        int planarAtMost = countAtMost(sorted, p0, s0 - p0, xi);
        nl[p] = countBelow(sorted, s0, s1 - s0, xi) + planarBelow;
        np[p] = planarAtMost - planarBelow;
        nr[p] = n - countAtMost(sorted, e0, p0 - e0, xi) - planarAtMost;
    }

    /** Component k of (x, y, z). */
    public static double comp(double x, double y, double z, int k) {
        double c = x;
        if (k == 1) {
            c = y;
        }
        if (k == 2) {
            c = z;
        }
        return c;
    }

    /** Component {@code axis} of (x, y, z) with component k replaced by d: a child's extents, split on axis k. */
    public static double with(double x, double y, double z, int k, double d, int axis) {
        double c = comp(x, y, z, axis);
        if (axis == k) {
            c = d;
        }
        return c;
    }

    /** Surface area of a box of extents dx, dy, dz (the thesis's SA, before its factor 2). */
    static double halfArea(double dx, double dy, double dz) {
        return dx * dy + dy * dz + dz * dx;
    }

    /**
     * The thesis's Algorithm 2 cost C = λ(p)·(K_T + K_I·(P_L·N_L + P_R·N_R)) (eqs. 3.4, 3.7) of one side choice;
     * λ applies when a child is empty and has a non-zero width (a split on the voxel's face that cuts off an
     * empty flat cell is no progress and would repeat forever).
     */
    static double cost(double pL, double pR, int nL, int nR, boolean leftWide, boolean rightWide, double[] c) {
        double lam = 1.0;
        if ((nL == 0 && leftWide) || (nR == 0 && rightWide)) {
            lam = c[LAMBDA];
        }
        double a = pL * nL;
        double b = pR * nR;
        return lam * (c[KT] + c[KI] * (a + b));
    }

    /**
     * The cost of splitting voxel {@code v} (min x y z, max x y z) at (k, ξ) with the planar triangles on one
     * side (Algorithm 2 of the thesis). A voxel of zero area cannot be split (cost +∞).
     */
    public static double sah(float[] v, int k, float xi, int nL, int nP, int nR, double[] c, boolean planarLeft) {
        double dx = (double) v[3] - v[0];
        double dy = (double) v[4] - v[1];
        double dz = (double) v[5] - v[2];
        double left = (double) xi - v[k];
        double right = (double) v[3 + k] - xi;
        double a = halfArea(dx, dy, dz);
        double pL = halfArea(with(dx, dy, dz, k, left, 0), with(dx, dy, dz, k, left, 1), with(dx, dy, dz, k, left, 2)) / a;
        double pR = halfArea(with(dx, dy, dz, k, right, 0), with(dx, dy, dz, k, right, 1), with(dx, dy, dz, k, right, 2))
                / a;
        int l = nL;
        int r = nR;
        if (planarLeft) {
            l = nL + nP;
        } else {
            r = nR + nP;
        }
        double result = cost(pL, pR, l, r, left > 0, right > 0, c);
        if (!(a > 0)) {
            result = Double.POSITIVE_INFINITY;
        }
        return result;
    }

    /**
     * Kernel 3 (the thesis's parallelSAH): the cost of plane p, planar triangles tried on both sides; the cheaper
     * side goes to {@code side[p]} (RIGHT on a tie, the thesis's strict {@code <}).
     */
    public static void sahPlane(float[] v, float[] planePos, int[] planeAxis, int[] nl, int[] np, int[] nr,
            double[] c, int p, double[] cost, int[] side) {
        int k = planeAxis[p];
        float xi = planePos[p];
        double cL = sah(v, k, xi, nl[p], np[p], nr[p], c, true);
        double cR = sah(v, k, xi, nl[p], np[p], nr[p], c, false);
        double best = cR;
        int s = RIGHT;
        if (cL < cR) {
            best = cL;
            s = LEFT;
        }
        cost[p] = best;
        side[p] = s;
    }

    /**
     * The order of Kernel 4's arg-min (and of the sequential sweep's strict {@code <}): lower cost first, then
     * the plane that comes first in event order (position, then axis).
     */
    public static boolean better(double costA, float posA, int axisA, double costB, float posB, int axisB) {
        boolean b = costA < costB;
        if (costA == costB && posA < posB) {
            b = true;
        }
        if (costA == costB && posA == posB && axisA < axisB) {
            b = true;
        }
        return b;
    }
}
