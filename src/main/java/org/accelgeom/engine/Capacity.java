package org.accelgeom.engine;

/**
 * Capacities of device plans on a fixed ladder: 2^e, 1.25·2^e, 1.5·2^e, 1.75·2^e (multiples of 64 from 256 on).
 * TornadoVM folds array lengths into its kernels, so the kernel cache's key holds them: plans sized on one ladder
 * let inputs of nearby sizes, in this process or another (a batch's worker processes, the next run), share a plan
 * and its cached kernels. A rung is at most 1.25 times what was asked.
 */
public final class Capacity {

    /** The largest rung: a Java array's length with room for a kernel's slack. */
    public static final int MAX = Integer.MAX_VALUE - 1024;

    private Capacity() {
    }

    /** The smallest rung of at least {@code need} (at least 64), capped at {@link #MAX}. */
    public static int rung(long need) {
        if (need <= 64) {
            return 64;
        }
        if (need >= MAX) {
            return MAX;
        }
        int e = 63 - Long.numberOfLeadingZeros(need); // 2^e <= need < 2^(e+1)
        long base = 1L << e;
        for (int quarter = 0; quarter <= 4; quarter++) {
            long v = base + quarter * (base >> 2);
            if (v >= need) {
                return (int) Math.min(v, MAX);
            }
        }
        throw new AssertionError(need);
    }
}
