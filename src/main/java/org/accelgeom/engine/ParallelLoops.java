package org.accelgeom.engine;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveAction;

/**
 * The {@code jvm-parallel} way of running an element-kernel loop: the index range is split into chunks
 * executed by a fork/join pool. A body must be safe to run for disjoint index ranges at the same time.
 */
public final class ParallelLoops {

    /** A loop body over the index range {@code [from, to)}. */
    @FunctionalInterface
    public interface RangeBody {
        void run(int from, int to);
    }

    /** The loops' pool; null for one thread (the loops run on the caller). */
    private final ForkJoinPool pool;
    /** One thread: the pool of one worker, made when a step asks for {@link #pool()}. */
    private ForkJoinPool single;
    private final int threads;

    /**
     * A pool of {@code threads} workers ({@code threads <= 0}: one per available core). One thread: the loops run on
     * the caller (one chunk, no handoff), and the pool of one worker is made only if a step asks for {@link #pool()};
     * so several callers can share it, each on its own thread (a Voronoi batch's one-thread inputs).
     */
    public ParallelLoops(int threads) {
        this.threads = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        this.pool = threads == 1 ? null : threads > 0 ? new ForkJoinPool(this.threads) : ForkJoinPool.commonPool();
    }

    /**
     * Shuts down a pool created for an explicit thread count and waits for its workers to end (the common pool is
     * left alone).
     */
    public synchronized void close() {
        if (pool != null && pool != ForkJoinPool.commonPool()) {
            pool.close();
        }
        if (single != null) {
            single.close();
        }
    }

    /** The fork/join pool the loops run on (for steps that fork their own tasks). */
    public ForkJoinPool pool() {
        if (pool != null) {
            return pool;
        }
        synchronized (this) {
            if (single == null) {
                single = new ForkJoinPool(1);
            }
            return single;
        }
    }

    public int threads() {
        return threads;
    }

    /**
     * {@code body} over {@code [0, n)}: on {@code loops} in chunks of at least {@code grain} indices, or on this thread
     * where {@code loops} is null (a step's one-thread reference).
     */
    public static void forRange(ParallelLoops loops, int n, int grain, RangeBody body) {
        if (loops == null) {
            if (n > 0) {
                body.run(0, n);
            }
        } else {
            loops.forRange(n, grain, body);
        }
    }

    /** Runs {@code body} over {@code [0, n)} in chunks of at least {@code grain} indices. */
    public void forRange(int n, int grain, RangeBody body) {
        if (n <= 0) {
            return;
        }
        int chunks = Math.max(1, Math.min(threads * 4, (n + grain - 1) / Math.max(1, grain)));
        if (chunks == 1 || threads == 1) {
            body.run(0, n);
            return;
        }
        pool.invoke(new Split(body, 0, n, (n + chunks - 1) / chunks));
    }

    private static final class Split extends RecursiveAction {
        private static final long serialVersionUID = 1L;
        private final transient RangeBody body;
        private final int from;
        private final int to;
        private final int chunk;

        Split(RangeBody body, int from, int to, int chunk) {
            this.body = body;
            this.from = from;
            this.to = to;
            this.chunk = chunk;
        }

        @Override
        protected void compute() {
            if (to - from <= chunk) {
                body.run(from, to);
                return;
            }
            int mid = from + ((to - from) / 2 / chunk) * chunk;
            if (mid <= from) {
                mid = from + chunk;
            }
            invokeAll(new Split(body, from, mid, chunk), new Split(body, mid, to, chunk));
        }
    }
}
