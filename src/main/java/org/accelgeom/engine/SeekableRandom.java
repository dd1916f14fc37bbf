package org.accelgeom.engine;

import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Seeded data generated in parallel and in parts, the same for any thread count: element i takes a fixed number D of
 * draws from one SplitMix stream, draws {@code D·i .. D·i+D-1}. {@link SplittableRandom}'s state grows by its golden
 * gamma γ at every draw (its output is a mix of the state), so {@code new SplittableRandom(seed + k·γ)} is the stream
 * of {@code new SplittableRandom(seed)} after k draws ({@link #at}); any range of elements is generated alone, equal to
 * those elements of the whole, and the whole is generated in parallel chunks ({@link #inChunks}).
 */
public final class SeekableRandom {

    /** The increment of {@link SplittableRandom}'s state per draw (its {@code GOLDEN_GAMMA}). */
    public static final long GAMMA = 0x9e3779b97f4a7c15L;

    /** Elements per chunk of the parallel generation. */
    public static final int CHUNK = 1 << 16;

    private SeekableRandom() {
    }

    /** The stream of {@code new SplittableRandom(seed)} after {@code draws} draws (of nextDouble or nextLong). */
    public static SplittableRandom at(long seed, long draws) {
        return new SplittableRandom(seed + draws * GAMMA);
    }

    /** {@code body} over {@code [from, to)} in chunks of {@link #CHUNK} elements, the chunks in parallel. */
    public static void inChunks(int from, int to, ParallelLoops.RangeBody body) {
        if (to <= from) {
            return;
        }
        IntStream.range(0, (int) (((long) to - from + CHUNK - 1) / CHUNK)).parallel().forEach(k -> {
            int lo = from + k * CHUNK;
            body.run(lo, (int) Math.min(to, (long) lo + CHUNK));
        });
    }

    /** A standard normal variate by the Box–Muller transform, two draws (the cosine of the pair). */
    public static double normal(SplittableRandom r) {
        double u1 = 1.0 - r.nextDouble(); // (0, 1]
        double u2 = r.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    /**
     * Two independent standard normal variates by the Box–Muller transform, two draws: the pair's cosine into
     * {@code out[k]} and its sine into {@code out[k + 1]}.
     */
    public static void normalPair(SplittableRandom r, double[] out, int k) {
        double u1 = 1.0 - r.nextDouble(); // (0, 1]
        double u2 = r.nextDouble();
        double radius = Math.sqrt(-2 * Math.log(u1));
        double angle = 2 * Math.PI * u2;
        out[k] = radius * Math.cos(angle);
        out[k + 1] = radius * Math.sin(angle);
    }
}
