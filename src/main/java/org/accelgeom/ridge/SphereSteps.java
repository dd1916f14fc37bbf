package org.accelgeom.ridge;

/**
 * The evolution's steps (Alg. 9 closestSphere, Alg. 10 shiftSphere) in double, as the JVM backends run them, and the
 * element kernels that the device's task methods inline ({@link #nearest}, {@link #moveToCentroid}). Layouts as in
 * {@link RidgeKernels}.
 *
 * <p><b>Written once for both precisions.</b> TornadoVM 5.2 compiles no generics, so the float steps are a class of
 * their own, {@code SphereStepsF}, which the build generates from this file (pom.xml, execution {@code float-twins}:
 * the words {@code double} and {@code Double} become {@code float} and {@code Float}, and the class names take an F).
 * So this file must say its scalar type only through those words: no floating-point literal and no call whose
 * rounding depends on the type other than through an overload (the fixed-point {@code offset}, {@code centroid} and
 * {@code noticeable} of {@link RidgeKernels} are such overloads: their float forms round as the thesis's float code).
 */
public final class SphereSteps {

    private SphereSteps() {
    }

    /**
     * closestSphere (Alg. 9) for cloud point i: the index of the representative in {@code [from, to)} nearest to it
     * by squared distance, ties to the lower index (strict "&lt;" in index order), or -1 if the nearest is farther
     * than R1 (d² &gt; r1sq) or the range is empty.
     */
    public static int nearest(double[] p, int n, int d, int i, double[] s, int from, int to, double r1sq) {
        int best = -1;
        double bestD2 = Double.POSITIVE_INFINITY;
        for (int k = from; k < to; k++) {
            double d2 = 0;
            for (int c = 0; c < d; c++) {
                double dx = p[c * n + i] - s[k * d + c];
                d2 += dx * dx;
            }
            if (d2 < bestD2) {
                bestD2 = d2;
                best = k;
            }
        }
        int result = -1;
        if (bestD2 <= r1sq) {
            result = best;
        }
        return result;
    }

    /**
     * shiftSphere (Alg. 10, lines 4-8) for one coordinate of a representative with {@code count > 0} points: moves
     * {@code s[at]} to the centroid coordinate and returns 1 if the move is noticeable, else 0. The step every backend
     * runs (the JVM loop and the device kernel differ only in where they record the move).
     */
    public static int moveToCentroid(double[] s, int at, long sum, int count, double epsilon, double inverseScale) {
        double si = s[at];
        double m = RidgeKernels.centroid(si, sum, count, inverseScale);
        int moved = 0;
        if (RidgeKernels.noticeable(m, si, count, epsilon, inverseScale)) {
            moved = 1;
        }
        s[at] = m;
        return moved;
    }

    /**
     * closestSphere (Alg. 9) over the points {@code [from, to)} of the active tiles: adds each point's fixed-point
     * offset from its nearest representative (of its tile, within R1) to that representative's {@code sum} and counts
     * it in {@code count} (SpherePointCount and CordSums; integer sums, so any split of the points gives the same).
     */
    public static void accumulate(EvolutionLayout layout, double[] p, double[] s, int[] tileStart, boolean[] active,
            double r1sq, double scale, int from, int to, int[] count, long[] sum) {
        int d = layout.d();
        int n = layout.n();
        int[] pointTile = layout.pointTile();
        for (int i = from; i < to; i++) {
            int t = pointTile[i];
            if (!active[t]) {
                continue;
            }
            int o = nearest(p, n, d, i, s, tileStart[t], tileStart[t + 1], r1sq);
            if (o < 0) {
                continue;
            }
            count[o]++;
            for (int c = 0; c < d; c++) {
                sum[o * d + c] += RidgeKernels.offset(p[c * n + i], s[o * d + c], scale);
            }
        }
    }

    /**
     * shiftSphere (Alg. 10): every representative of an active tile with points moves to their centroid; a tile
     * with a noticeable move is marked in {@code changed}. Returns whether any representative moved.
     */
    public static boolean shift(double[] s, int ns, int d, int[] repTile, boolean[] active, int[] count, long[] sum,
            boolean[] changed, double epsilon, double inverseScale) {
        boolean any = false;
        for (int k = 0; k < ns; k++) {
            int m = count[k];
            if (!active[repTile[k]] || m == 0) {
                continue; // an empty cell keeps its representative where it is
            }
            for (int c = 0; c < d; c++) {
                if (moveToCentroid(s, k * d + c, sum[k * d + c], m, epsilon, inverseScale) == 1) {
                    changed[repTile[k]] = true;
                    any = true;
                }
            }
        }
        return any;
    }
}
