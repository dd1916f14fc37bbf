package org.accelgeom.kdtree.tornado;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

import org.accelgeom.engine.tornado.LaunchCheck;
import org.accelgeom.kdtree.KdTreeKernels;
import org.accelgeom.kdtree.PipelineBuffers;

/**
 * TornadoVM task methods of the kd-tree: the thesis's four per-node kernels (§5.2), each its own TaskGraph with
 * its own copies in and out as in the thesis (Table 6.1 measures each step with and without them). Each task
 * method is one {@code @Parallel} loop around an element kernel of {@link KdTreeKernels}. The loops run over the buffers' capacity with a guard on the
 * node's count in {@code params}; the launch's global size is set to that count before each execution.
 * Every task writes the execution's sequence number to its heartbeat slot ({@link #launchCheck}) so that the host
 * can tell that it ran.
 */
public final class KdTreeTaskGraphs {

    /** params: number of references (K1), of planes (K2, K3), of arg-min groups (K4); then the node's n; then SEQ. */
    public static final int COUNT = 0;
    public static final int REFS = 1;
    public static final int SEQ = 2;
    public static final int PARAMS = 4;
    /** Work-items of the first arg-min pass (its partial results go to the host, which finishes, as in the thesis). */
    public static final int GROUPS = 1024;

    /** Heartbeat slots, one per task (each graph has its own array: one check per graph). */
    public static final int SLOT_EVENTS = 0;
    public static final int SLOT_COUNTS = 1;
    public static final int SLOT_COSTS = 2;
    public static final int SLOT_ARGMIN = 3;

    private KdTreeTaskGraphs() {
    }

    /** A launch check over the slots above, named after their tasks. */
    public static LaunchCheck launchCheck() {
        return new LaunchCheck("kd-tree", "events", "counts", "costs", "argmin");
    }

    public static void events(int[] params, float[] box, float[] evPos, int[] evType, int cap, int[] beat) {
        for (@Parallel int r = 0; r < cap; r++) {
            if (r == 0) {
                beat[SLOT_EVENTS] = params[SEQ];
            }
            if (r < params[COUNT]) {
                KdTreeKernels.events(box, r, evPos, evType);
            }
        }
    }

    public static void counts(int[] params, float[] sorted, int[] off, float[] planePos, int[] planeAxis, int[] nl,
            int[] np, int[] nr, int cap, int[] beat) {
        for (@Parallel int p = 0; p < cap; p++) {
            if (p == 0) {
                beat[SLOT_COUNTS] = params[SEQ];
            }
            if (p < params[COUNT]) {
                KdTreeKernels.countPlane(sorted, off, params[REFS], planePos, planeAxis, p, nl, np, nr);
            }
        }
    }

    public static void costs(int[] params, float[] voxel, float[] planePos, int[] planeAxis, int[] nl, int[] np, int[] nr,
            double[] c, double[] cost, int[] side, int cap, int[] beat) {
        for (@Parallel int p = 0; p < cap; p++) {
            if (p == 0) {
                beat[SLOT_COSTS] = params[SEQ];
            }
            if (p < params[COUNT]) {
                KdTreeKernels.sahPlane(voxel, planePos, planeAxis, nl, np, nr, c, p, cost, side);
            }
        }
    }

    /**
     * First pass of Kernel 4: work-item g finds the best plane of its contiguous chunk. Not @Reduce: an arg-min
     * carries the plane (index, position, axis) with its cost, and @Reduce reduces a value alone.
     */
    public static void argmin(int[] params, double[] cost, float[] planePos, int[] planeAxis, int[] partial, int[] beat) {
        for (@Parallel int g = 0; g < GROUPS; g++) {
            if (g == 0) {
                beat[SLOT_ARGMIN] = params[SEQ];
            }
            int planes = params[COUNT];
            int chunk = (planes + GROUPS - 1) / GROUPS;
            int from = g * chunk;
            int to = Math.min(planes, from + chunk);
            int best = -1;
            for (int i = from; i < to; i++) {
                boolean take = best < 0;
                if (best >= 0) {
                    take = KdTreeKernels.better(cost[i], planePos[i], planeAxis[i], cost[best], planePos[best], planeAxis[best]);
                }
                if (take) {
                    best = i;
                }
            }
            partial[g] = best;
        }
    }

    static WorkerGrid1D grid(int global) {
        WorkerGrid1D w = new WorkerGrid1D(Math.max(1, global));
        w.setLocalWorkToNull();
        return w;
    }

    static TaskGraph eventsGraph(String name, int[] params, PipelineBuffers b, int[] beat) {
        return new TaskGraph(name)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, params, b.box)
                .task("t", KdTreeTaskGraphs::events, params, b.box, b.evPos, b.evType, b.capacity, beat)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, b.evPos, b.evType, beat);
    }

    static TaskGraph countsGraph(String name, int[] params, PipelineBuffers b, int[] beat) {
        return new TaskGraph(name)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, params, b.sorted, b.off, b.planePos, b.planeAxis)
                .task("t", KdTreeTaskGraphs::counts, params, b.sorted, b.off, b.planePos, b.planeAxis, b.nl, b.np, b.nr,
                        6 * b.capacity, beat)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, b.nl, b.np, b.nr, beat);
    }

    static TaskGraph costsGraph(String name, int[] params, PipelineBuffers b, int[] beat) {
        return new TaskGraph(name)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, params, b.voxel, b.planePos, b.planeAxis, b.nl, b.np, b.nr, b.c)
                .task("t", KdTreeTaskGraphs::costs, params, b.voxel, b.planePos, b.planeAxis, b.nl, b.np, b.nr, b.c, b.cost,
                        b.side, 6 * b.capacity, beat)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, b.cost, b.side, beat);
    }

    static TaskGraph argminGraph(String name, int[] params, PipelineBuffers b, int[] partial, int[] beat) {
        return new TaskGraph(name)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, params, b.cost, b.planePos, b.planeAxis)
                .task("t", KdTreeTaskGraphs::argmin, params, b.cost, b.planePos, b.planeAxis, partial, beat)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, partial, beat);
    }
}
