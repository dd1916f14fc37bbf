package org.accelgeom.ridge;

/**
 * Element kernels of the evolution step (Alg. 2), shared by the three backends: the {@code jvm} loops call them
 * directly, the TornadoVM task methods inline them into OpenCL/PTX. Static, primitive arrays, no objects.
 *
 * <p>Layouts: the cloud is column-major (the thesis's best layout, §2.1): coordinate c of point i is
 * {@code p[c * n + i]}; representatives are row-major: coordinate c of representative s is {@code s[k * d + c]}.
 *
 * <p><b>Deterministic sums.</b> The thesis accumulates {@code CordSums} with float atomics, whose order (and so
 * the result) changes from run to run (§3.5). Here every point adds its offset from its representative,
 * {@code p − s}, as a 64-bit fixed-point integer {@code trunc((p − s)·2^k)}: integer additions are associative, so
 * the sums are identical in any order, on any backend, with or without atomics. The offset is at most R1 per
 * coordinate and {@code k} is chosen so that n offsets cannot overflow ({@link #fixedPointExponent}); the
 * multiplication by the power of two is exact, so only the truncation, below 2^-k, is lost.
 */
public final class RidgeKernels {

    private RidgeKernels() {
    }

    /**
     * The fixed-point exponent k for a cloud of n points and radius r1: n offsets of magnitude at most r1, scaled by
     * 2^k, sum to less than 2^62.
     */
    public static int fixedPointExponent(int n, double r1) {
        int logN = 32 - Integer.numberOfLeadingZeros(Math.max(1, n)); // 2^logN > n
        int logR = Math.getExponent(r1) + 1; // 2^logR > r1
        return 61 - logN - logR;
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

    /** {@link #nearest(double[], int, int, int, double[], int, int, double)} in float. */
    public static int nearest(float[] p, int n, int d, int i, float[] s, int from, int to, float r1sq) {
        int best = -1;
        float bestD2 = Float.POSITIVE_INFINITY;
        for (int k = from; k < to; k++) {
            float d2 = 0;
            for (int c = 0; c < d; c++) {
                float dx = p[c * n + i] - s[k * d + c];
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

    /** The fixed-point offset trunc((p − s)·scale) of one coordinate; scale = 2^k. */
    public static long offset(double p, double s, double scale) {
        return truncate((p - s) * scale);
    }

    /** {@link #offset(double, double, double)} in float. */
    public static long offset(float p, float s, float scale) {
        return truncate((double) ((p - s) * scale));
    }

    /**
     * {@code (long) v} for |v| &lt; 2^62, from two int conversions: TornadoVM 5.2's OpenCL backend compiles a
     * double-to-long conversion as {@code (int) v}, which loses the high bits. v = a·2^31 + r with
     * a = (int) (v·2^-31) (exact: a power-of-two scaling, then truncation toward zero), r = v − a·2^31 (exact, same
     * sign as v, |r| &lt; 2^31), and trunc(v) = a·2^31 + (int) r.
     */
    public static long truncate(double v) {
        int a = (int) (v * 0x1p-31);
        double r = v - a * 0x1p31;
        return ((long) a << 31) + (int) r;
    }

    /**
     * One coordinate of the centroid m_s = Σ_s / n_s (Alg. 10, line 4), from the fixed-point sum of offsets:
     * m = s + (sum / count)·2^-k.
     */
    public static double centroid(double s, long sum, int count, double inverseScale) {
        return s + ((double) sum / count) * inverseScale;
    }

    /** {@link #centroid(double, long, int, double)} in float. */
    public static float centroid(float s, long sum, int count, float inverseScale) {
        return s + ((float) ((double) sum / count)) * inverseScale;
    }

    /**
     * shiftSphere (Alg. 10, lines 4-8) for one coordinate of a representative with {@code count > 0} points: moves
     * {@code s[at]} to the centroid coordinate and returns 1 if the move is noticeable, else 0. The step every backend
     * runs (the JVM loop and the device kernel differ only in where they record the move).
     */
    public static int moveToCentroid(double[] s, int at, long sum, int count, double epsilon, double inverseScale) {
        double si = s[at];
        double m = centroid(si, sum, count, inverseScale);
        int moved = 0;
        if (noticeable(m, si, count, epsilon, inverseScale)) {
            moved = 1;
        }
        s[at] = m;
        return moved;
    }

    /** {@link #moveToCentroid(double[], int, long, int, double, double)} in float. */
    public static int moveToCentroid(float[] s, int at, long sum, int count, float epsilon, float inverseScale) {
        float si = s[at];
        float m = centroid(si, sum, count, inverseScale);
        int moved = 0;
        if (noticeable(m, si, count, epsilon, inverseScale)) {
            moved = 1;
        }
        s[at] = m;
        return moved;
    }

    /**
     * The move test of Alg. 10, line 7, per coordinate as in Rupniewski's code: the move from s to m is noticeable
     * if |m − s| − 2·2^-k &gt; 2·|m|·n_s·ε. The first term is the thesis's bound on the rounding of a sum of n_s
     * terms; the second is ours: twice the fixed-point quantum, below which a move is truncation noise.
     */
    public static boolean noticeable(double m, double s, int count, double epsilon, double inverseScale) {
        // written as a difference: TornadoVM fuses a·b + c into fma, which would round differently from the JVM
        return Math.abs(m - s) - 2.0 * inverseScale > 2.0 * Math.abs(m) * count * epsilon;
    }

    /** {@link #noticeable(double, double, int, double, double)} in float. */
    public static boolean noticeable(float m, float s, int count, float epsilon, float inverseScale) {
        return Math.abs(m - s) - 2.0f * inverseScale > 2.0f * Math.abs(m) * count * epsilon;
    }
}
