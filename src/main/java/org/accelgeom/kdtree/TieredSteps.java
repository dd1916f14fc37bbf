package org.accelgeom.kdtree;

import java.util.function.IntFunction;

import org.accelgeom.engine.PhaseTimings;

/**
 * A device's per-node kernels in capacity tiers (each 4 times the last, up to the root's size): a node runs on the
 * smallest tier that holds it, so the kernels' whole-buffer copies move at most 4 times the node's data instead of
 * the root's. Each tier is created (and its kernels compiled) the first time a node needs it. One thread: the tier
 * chosen by {@link #buffers} serves the steps that follow.
 */
final class TieredSteps implements KdTreeBackend {

    /** The smallest tier. */
    static final int MIN_TIER = 1 << 14;

    private final IntFunction<KdTreeBackend> factory;
    private final int capacity;
    private final KdTreeBackend[] tiers;
    private final int[] sizes;
    private KdTreeBackend current;

    TieredSteps(int capacity, IntFunction<KdTreeBackend> factory) {
        this.capacity = capacity;
        this.factory = factory;
        int count = 1;
        for (long s = MIN_TIER; s < capacity; s *= 4) {
            count++;
        }
        tiers = new KdTreeBackend[count];
        sizes = new int[count];
        long s = MIN_TIER;
        for (int i = 0; i < count; i++) {
            sizes[i] = (int) Math.min(s, capacity);
            s *= 4;
        }
        sizes[count - 1] = capacity;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public PipelineBuffers buffers(int n) {
        int i = 0;
        while (sizes[i] < n) {
            i++;
        }
        if (tiers[i] == null) {
            tiers[i] = factory.apply(sizes[i]);
        }
        current = tiers[i];
        return current.buffers(n);
    }

    @Override
    public void events(float[] box, int n, float[] evPos, int[] evType, PhaseTimings t) {
        current.events(box, n, evPos, evType, t);
    }

    @Override
    public void counts(float[] sorted, int events, int[] off, int n, float[] planePos, int[] planeAxis, int planes,
            int[] nl, int[] np, int[] nr, PhaseTimings t) {
        current.counts(sorted, events, off, n, planePos, planeAxis, planes, nl, np, nr, t);
    }

    @Override
    public void costs(float[] voxel, float[] planePos, int[] planeAxis, int[] nl, int[] np, int[] nr, int planes,
            double[] c, double[] cost, int[] side, PhaseTimings t) {
        current.costs(voxel, planePos, planeAxis, nl, np, nr, planes, c, cost, side, t);
    }

    @Override
    public int argmin(double[] cost, float[] planePos, int[] planeAxis, int planes, PhaseTimings t) {
        return current.argmin(cost, planePos, planeAxis, planes, t);
    }

    @Override
    public void close() {
        for (KdTreeBackend s : tiers) {
            if (s != null) {
                s.close();
            }
        }
    }
}
