package org.accelgeom.ridge;

import org.accelgeom.engine.ParallelLoops;

/**
 * A range [0, n) cut into numbered chunks for the host phases of the tiled version: each chunk counts what it will
 * write, prefix sums over the chunks (in chunk order) give each its place, and a second pass writes there, so the
 * output is the sequential one whatever the number of threads. One chunk when {@code loops} is null (the
 * {@code jvm} backend: one thread) or has one thread.
 */
final class Chunks {

    /** What one chunk does: chunk k covers [from, to). */
    @FunctionalInterface
    interface Body {
        void run(int k, int from, int to);
    }

    /** Scratch ints per chunk the callers may allocate (chunk counts × per-chunk table size) before using fewer chunks. */
    private static final int TABLE_BUDGET = 1 << 24;

    private final ParallelLoops loops;
    private final int n;
    final int count;

    /**
     * Chunks of at least {@code grain} indices, about 4 per thread, and at most {@link #TABLE_BUDGET} / {@code table}
     * of them (each chunk keeps a table of that many ints, e.g. a count per tile).
     */
    Chunks(int n, ParallelLoops loops, int grain, int table) {
        this.n = n;
        this.loops = loops == null || loops.threads() == 1 ? null : loops;
        long k = this.loops == null ? 1 : Math.min(4L * this.loops.threads(), (n + (long) grain - 1) / Math.max(1, grain));
        k = Math.min(k, Math.max(1, TABLE_BUDGET / Math.max(1, table)));
        this.count = (int) Math.max(1, k);
    }

    int from(int k) {
        return (int) ((long) k * n / count);
    }

    /** Runs {@code body} on every chunk (in parallel, in no particular order). */
    void run(Body body) {
        if (count == 1) {
            body.run(0, 0, n);
            return;
        }
        loops.forRange(count, 1, (a, b) -> {
            for (int k = a; k < b; k++) {
                body.run(k, from(k), from(k + 1));
            }
        });
    }

    /**
     * Turns per-chunk counts {@code counts[k][t]} into write positions: chunk k writes its items of bucket t from
     * {@code start[t] + Σ_{k' < k} counts[k'][t]}; returns the bucket starts (length buckets + 1, in long so that a
     * caller can check the total before allocating).
     */
    static long[] offsets(int[][] counts, int buckets) {
        long[] start = new long[buckets + 1];
        for (int t = 0; t < buckets; t++) {
            long s = start[t];
            for (int[] c : counts) {
                s += c[t];
            }
            start[t + 1] = s;
        }
        return start;
    }

    /** Converts counts to positions within each bucket (bucket starts {@code base[t]}, may be 0). */
    static void positions(int[][] counts, int buckets, long[] base) {
        for (int t = 0; t < buckets; t++) {
            long at = base == null ? 0 : base[t];
            for (int[] c : counts) {
                int m = c[t];
                c[t] = (int) at;
                at += m;
            }
        }
    }
}
