package org.accelgeom.kdtree;

import java.util.Arrays;

import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;

/**
 * ChoosePlane as the thesis parallelises it (§4.2.1, §5.2): Kernel 1 generates the events, the host sorts them and
 * lists the distinct planes (as the thesis does, with the same routine for every backend), Kernel 2 counts the
 * triangles on each side of every plane, Kernel 3 evaluates the SAH per plane, Kernel 4 finds the arg-min. The
 * planes and counts are those the sweep ({@link Events#sweep}) visits, so the chosen split is the same.
 */
final class PlanePipeline {

    private final KdTreeBackend steps;
    private final boolean parallelSort;

    PlanePipeline(KdTreeBackend steps, boolean parallelSort) {
        this.steps = steps;
        this.parallelSort = parallelSort;
    }

    /** The best split of the node in buffers {@code b} (its n boxes, voxel and constants already there). */
    Split find(PipelineBuffers b, int n, PhaseTimings t) {
        if (n == 0) {
            return Split.NONE;
        }
        steps.events(b.box, n, b.evPos, b.evType, t);
        int events = t.time("sort events (host)", Kind.HOST, () -> sortEvents(b, n));
        int planes = t.time("list planes (host)", Kind.HOST, () -> listPlanes(b));
        steps.counts(b.sorted, events, b.off, n, b.planePos, b.planeAxis, planes, b.nl, b.np, b.nr, t);
        steps.costs(b.voxel, b.planePos, b.planeAxis, b.nl, b.np, b.nr, planes, b.c, b.cost, b.side, t);
        int i = steps.argmin(b.cost, b.planePos, b.planeAxis, planes, t);
        return new Split(b.planeAxis[i], b.planePos[i], b.side[i], b.cost[i]);
    }

    /** Buckets the events by axis and type (the thesis trims its unused slots here) and sorts each bucket. */
    private int sortEvents(PipelineBuffers b, int n) {
        int[] count = new int[9];
        for (int s = 0; s < 6 * n; s++) {
            int type = b.evType[s];
            if (type != KdTreeKernels.NONE) {
                count[3 * ((s % 6) / 2) + type]++;
            }
        }
        b.off[0] = 0;
        for (int q = 0; q < 9; q++) {
            b.off[q + 1] = b.off[q] + count[q];
        }
        int[] at = Arrays.copyOf(b.off, 9);
        for (int s = 0; s < 6 * n; s++) {
            int type = b.evType[s];
            if (type != KdTreeKernels.NONE) {
                b.sorted[at[3 * ((s % 6) / 2) + type]++] = b.evPos[s] + 0.0f;
            }
        }
        for (int q = 0; q < 9; q++) {
            if (parallelSort && count[q] > 1 << 16) {
                Arrays.parallelSort(b.sorted, b.off[q], b.off[q + 1]);
            } else {
                Arrays.sort(b.sorted, b.off[q], b.off[q + 1]);
            }
        }
        return b.off[9];
    }

    /** The distinct event positions of each axis, merged from its three sorted buckets. */
    private static int listPlanes(PipelineBuffers b) {
        int m = 0;
        for (int k = 0; k < 3; k++) {
            int[] i = {b.off[3 * k], b.off[3 * k + 1], b.off[3 * k + 2]};
            int[] end = {b.off[3 * k + 1], b.off[3 * k + 2], b.off[3 * k + 3]};
            boolean first = true;
            float last = 0;
            while (true) {
                int q = -1;
                for (int j = 0; j < 3; j++) {
                    if (i[j] < end[j] && (q < 0 || b.sorted[i[j]] < b.sorted[i[q]])) {
                        q = j;
                    }
                }
                if (q < 0) {
                    break;
                }
                float x = b.sorted[i[q]++];
                if (first || x != last) {
                    b.planePos[m] = x;
                    b.planeAxis[m] = k;
                    m++;
                    last = x;
                    first = false;
                }
            }
        }
        return m;
    }
}
