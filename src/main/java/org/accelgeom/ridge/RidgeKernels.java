package org.accelgeom.ridge;

/**
 * Element kernels of the evolution step (Alg. 2), shared by the three backends: the {@code jvm} loops call them
 * directly, the TornadoVM task methods inline them into OpenCL/PTX. Static, primitive arrays, no objects. The steps
 * built from them, written once for both precisions, are in {@link SphereSteps}; the overloads here differ by
 * precision on purpose (how the float forms round).
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
