package org.accelgeom.kdtree;

import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;

/** The per-node kernels as plain loops ({@code jvm}, one thread) or split over cores ({@code jvm-parallel}). */
final class JvmKdTreeBackend implements KdTreeBackend {

    private static final int GRAIN = 4096;
    private final ParallelLoops loops;

    /** @param loops the fork/join loops, or null for one thread */
    JvmKdTreeBackend(ParallelLoops loops) {
        this.loops = loops;
    }

    private void forRange(int n, ParallelLoops.RangeBody body) {
        if (loops == null) {
            body.run(0, n);
        } else {
            loops.forRange(n, GRAIN, body);
        }
    }

    @Override
    public void events(float[] box, int n, float[] evPos, int[] evType, PhaseTimings t) {
        t.time("K1 events", Kind.HOST, () -> forRange(n, (a, b) -> {
            for (int r = a; r < b; r++) {
                KdTreeKernels.events(box, r, evPos, evType);
            }
        }));
    }

    @Override
    public void counts(float[] sorted, int events, int[] off, int n, float[] planePos, int[] planeAxis, int planes,
            int[] nl, int[] np, int[] nr, PhaseTimings t) {
        t.time("K2 counts", Kind.HOST, () -> forRange(planes, (a, b) -> {
            for (int p = a; p < b; p++) {
                KdTreeKernels.countPlane(sorted, off, n, planePos, planeAxis, p, nl, np, nr);
            }
        }));
    }

    @Override
    public void costs(float[] voxel, float[] planePos, int[] planeAxis, int[] nl, int[] np, int[] nr, int planes,
            double[] c, double[] cost, int[] side, PhaseTimings t) {
        t.time("K3 SAH", Kind.HOST, () -> forRange(planes, (a, b) -> {
            for (int p = a; p < b; p++) {
                KdTreeKernels.sahPlane(voxel, planePos, planeAxis, nl, np, nr, c, p, cost, side);
            }
        }));
    }

    @Override
    public int argmin(double[] cost, float[] planePos, int[] planeAxis, int planes, PhaseTimings t) {
        return t.time("K4 arg-min", Kind.HOST, () -> {
            if (loops == null || planes < 2 * GRAIN) {
                return argmin(cost, planePos, planeAxis, 0, planes);
            }
            int chunks = Math.min(64, planes / GRAIN);
            int[] part = new int[chunks];
            loops.forRange(chunks, 1, (a, b) -> {
                for (int q = a; q < b; q++) {
                    part[q] = argmin(cost, planePos, planeAxis, (int) ((long) planes * q / chunks),
                            (int) ((long) planes * (q + 1) / chunks));
                }
            });
            int best = part[0];
            for (int q = 1; q < chunks; q++) {
                int i = part[q];
                if (KdTreeKernels.better(cost[i], planePos[i], planeAxis[i], cost[best], planePos[best], planeAxis[best])) {
                    best = i;
                }
            }
            return best;
        });
    }

    static int argmin(double[] cost, float[] planePos, int[] planeAxis, int from, int to) {
        int best = from;
        for (int i = from + 1; i < to; i++) {
            if (KdTreeKernels.better(cost[i], planePos[i], planeAxis[i], cost[best], planePos[best], planeAxis[best])) {
                best = i;
            }
        }
        return best;
    }
}
