package org.accelgeom.hull.tornado;

import org.accelgeom.hull.HullKernels;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.WorkerGrid;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/**
 * TornadoVM task methods of the parallel QuickHull and the TaskGraph that chains them. Each task method is
 * one {@code @Parallel} loop around an element kernel of {@link HullKernels}, which TornadoVM inlines into the
 * generated OpenCL/PTX.
 *
 * <p>One graph holds every step; {@code params[MODE]} says which steps an execution performs, so that all
 * steps share the device buffers of one execution plan (points, labels, distances, face tables stay on the
 * device for the whole hull). Public so that other TornadoVM programs can embed the graph: see
 * {@link #graph(String, HullBuffers)} and README.md.
 */
public final class HullTaskGraphs {

    /** params[MODE]: which steps run. */
    public static final int MODE = 0;
    public static final int NEW_BASE = 1;
    public static final int NEW_COUNT = 2;
    public static final int DELETED_COUNT = 3;
    public static final int APEX_COUNT = 4;
    public static final int FIX_COUNT = 5;
    public static final int ROUND_BASE = 6;
    public static final int N_DIRS = 7;
    public static final int GEOM_MODE = 8;
    public static final int N_INNER = 9;
    /** params[SEQ]: the execution's sequence number, which every task writes to its heartbeat slot. */
    public static final int SEQ = 10;
    public static final int PARAMS = 16;

    /** Set the points' labels to 0 (the root face) and the identity index list. */
    public static final int MODE_INIT = 1;
    /** Partial arg-max of the extreme directions, then its reduction. */
    public static final int MODE_EXTREMES = 2;
    /** Partial arg-max of the distance to a line or plane, then its reduction. */
    public static final int MODE_FARTHEST = 3;
    /** Interior culling. */
    public static final int MODE_CULL = 4;
    /** Apply a round's delta, reassign, farthest passes, gather the new faces' candidates. */
    public static final int MODE_ROUND = 5;
    /** More farthest passes (when the last pass still changed something), then gather. */
    public static final int MODE_PASSES = 6;
    /** Apply host fixes for uncertain points, farthest passes, gather. */
    public static final int MODE_FIX = 7;
    /** Copy the labels to the snapshot array the host may download. */
    public static final int MODE_SNAPSHOT = 8;
    /** Only mark points as no longer candidates (the apex section of the delta). */
    public static final int MODE_KILL = 9;
    /** Heartbeat slot of the first farthest pass (slots 0..5: init .. reassign; 6..21 farthest; 22, 23: gather, snapshot). */
    public static final int BEAT = 6;
    /** Heartbeat slots in use. */
    public static final int BEATS = 24;
    /** Farthest passes unrolled per execution (at most 16; -Daccelgeom.hull.passes, for tuning). */
    public static final int PASSES = Math.max(1, Math.min(16, Integer.getInteger("accelgeom.hull.passes", 16)));

    private HullTaskGraphs() {
    }

    public static void init(int[] params, int[] active, int[] label, int n, int[] beat) {
        for (@Parallel int i = 0; i < n; i++) {
            if (i == 0) {
                beat[0] = params[SEQ];
            }
            if (params[MODE] == MODE_INIT) {
                active[i] = i;
                label[i] = 0;
            }
        }
    }

    public static void extremes(int[] params, double[] x, double[] y, double[] z, int n, double[] dD, int groups,
            int work, double[] bestVal, int[] bestIdx, int[] beat) {
        for (@Parallel int w = 0; w < work; w++) {
            if (w == 0) {
                beat[1] = params[SEQ];
            }
            int mode = params[MODE];
            int nDirs = params[N_DIRS];
            int blocks = (nDirs + HullKernels.DIR_BLOCK - 1) / HullKernels.DIR_BLOCK;
            if (mode == MODE_EXTREMES && w % 16 < blocks) {
                HullKernels.extremesPartial(x, y, z, w / 16, n, groups, dD, nDirs, w % 16, w / 16, bestVal, bestIdx);
            }
            if (mode == MODE_FARTHEST && w % 16 == 0) {
                HullKernels.farthestPartial(x, y, z, w / 16, n, groups, dD, params[GEOM_MODE], w / 16, bestVal, bestIdx);
            }
        }
    }

    public static void reduce(int[] params, double[] bestVal, int[] bestIdx, int groups, int[] out, int[] beat) {
        for (@Parallel int k = 0; k < 128; k++) {
            if (k == 0) {
                beat[2] = params[SEQ];
            }
            int mode = params[MODE];
            if (mode == MODE_EXTREMES && k < params[N_DIRS]) {
                HullKernels.argmaxReduce(bestVal, bestIdx, groups, params[N_DIRS], k, out);
            }
            if (mode == MODE_FARTHEST && k == 0) {
                HullKernels.argmaxReduce(bestVal, bestIdx, groups, 1, 0, out);
            }
        }
    }

    public static void cull(int[] params, double[] x, double[] y, double[] z, int[] active, int[] label, double[] dD,
            int n, int[] beat) {
        for (@Parallel int i = 0; i < n; i++) {
            if (i == 0) {
                beat[3] = params[SEQ];
            }
            if (params[MODE] == MODE_CULL) {
                HullKernels.cullInterior(x, y, z, active, i, label, dD, params[N_INNER]);
            }
        }
    }

    /**
     * Scatters a round's delta into the face tables (new planes, deleted faces' cones, new hull vertices) or,
     * in {@link #MODE_FIX}, the host's exact answers for uncertain points; resets the flags.
     * Layout of dI (capacity cap per section): deleted ids, cone first, cone count, apexes, fix points, fix labels, the new faces' final cone first and count;
     * of dD: 6 plane doubles per new face, then (at 6·cap) one distance per fix.
     */
    public static void applyDelta(int[] params, double[] dD, int[] dI, double[] plane, int[] coneFirst,
            int[] coneCount, int[] cand, int[] label, double[] dist, int[] flags, int cap, int[] beat) {
        for (@Parallel int j = 0; j < cap; j++) {
            if (j == 0) {
                beat[4] = params[SEQ];
            }
            int mode = params[MODE];
            if (mode == MODE_ROUND) {
                int base = params[NEW_BASE];
                if (j < params[NEW_COUNT]) {
                    int f = base + j;
                    for (int k = 0; k < HullKernels.PLANE_STRIDE; k++) {
                        plane[HullKernels.PLANE_STRIDE * f + k] = dD[HullKernels.PLANE_STRIDE * j + k];
                    }
                    // the face's state at the end of the round: live (0) or the cone of the insertion
                    // that deleted it later in the same round, the same values the deleted list carries,
                    // so that work-items may write them in any order
                    coneFirst[f] = dI[6 * cap + j];
                    coneCount[f] = dI[7 * cap + j];
                    cand[f] = -1;
                }
                if (j < params[DELETED_COUNT]) {
                    int f = dI[j];
                    coneFirst[f] = dI[cap + j];
                    coneCount[f] = dI[2 * cap + j];
                }
            }
            if ((mode == MODE_ROUND || mode == MODE_KILL) && j < params[APEX_COUNT]) {
                label[dI[3 * cap + j]] = -1;
            }
            if (mode == MODE_FIX && j < params[FIX_COUNT]) {
                int p = dI[4 * cap + j];
                label[p] = dI[5 * cap + j];
                dist[p] = dD[HullKernels.PLANE_STRIDE * cap + j];
            }
            if (j < HullKernels.FLAG_PASS + PASSES) {
                if (mode != MODE_PASSES || j != HullKernels.FLAG_UNCERTAIN) {
                    flags[j] = 0;
                }
            }
        }
    }

    public static void reassign(int[] params, double[] x, double[] y, double[] z, int[] active, int[] label,
            double[] dist, double[] plane, int[] coneFirst, int[] coneCount, int[] flags, int n, int[] beat) {
        for (@Parallel int i = 0; i < n; i++) {
            if (i == 0) {
                beat[5] = params[SEQ];
            }
            if (params[MODE] == MODE_ROUND) {
                HullKernels.reassign(x, y, z, active, i, label, dist, plane, coneFirst, coneCount, flags);
            }
        }
    }

    public static void farthest(int[] params, int[] active, int[] label, double[] dist, int[] cand, int[] flags,
            int n, int pass, int[] beat) {
        for (@Parallel int i = 0; i < n; i++) {
            if (i == 0) {
                beat[BEAT + pass] = params[SEQ];
            }
            int mode = params[MODE];
            if (mode == MODE_ROUND || mode == MODE_PASSES || mode == MODE_FIX) {
                HullKernels.farthestPass(active, i, label, dist, cand, params[ROUND_BASE], flags, HullKernels.FLAG_PASS + pass);
            }
        }
    }

    /**
     * Copies the labels to an array that only ever goes device to host: downloading an array that is
     * also a resident input of the plan corrupted later executions on TornadoVM 5.2 (POCL), so the host reads
     * these copies instead.
     */
    public static void snapshot(int[] params, int[] label, int[] labelOut, int n, int[] beat) {
        for (@Parallel int i = 0; i < n; i++) {
            if (i == 0) {
                beat[23] = params[SEQ];
            }
            if (params[MODE] == MODE_SNAPSHOT) {
                labelOut[i] = label[i];
            }
        }
    }

    public static void gather(int[] params, int[] cand, int[] out, int cap, int[] beat) {
        for (@Parallel int j = 0; j < cap; j++) {
            if (j == 0) {
                beat[22] = params[SEQ];
            }
            int mode = params[MODE];
            if ((mode == MODE_ROUND || mode == MODE_PASSES || mode == MODE_FIX) && j < params[NEW_COUNT]) {
                out[j] = cand[params[NEW_BASE] + j];
            }
        }
    }

    /**
     * The launch geometry of every task of {@link #graph}: one work-item per loop index, and the work-group size
     * left to the OpenCL driver, which fits it to the kernel's registers (TornadoVM's own choice made the
     * reassignment kernel fail with CL_OUT_OF_RESOURCES on an H200). With a grid, TornadoVM takes the global size
     * as the loop bound, so it is exactly the loop's bound.
     */
    public static GridScheduler grid(String name, HullBuffers b) {
        GridScheduler gs = new GridScheduler();
        add(gs, name + ".init", b.n);
        add(gs, name + ".extremes", 16 * b.groups);
        add(gs, name + ".reduce", 128);
        add(gs, name + ".cull", b.n);
        add(gs, name + ".applyDelta", b.cap);
        add(gs, name + ".reassign", b.n);
        for (int pass = 0; pass < PASSES; pass++) {
            add(gs, name + ".farthest" + pass, b.n);
        }
        add(gs, name + ".gather", b.cap);
        add(gs, name + ".snapshot", b.n);
        return gs;
    }

    private static void add(GridScheduler gs, String task, int global) {
        WorkerGrid w = new WorkerGrid1D(global);
        w.setLocalWorkToNull();
        gs.addWorkerGrid(task, w);
    }

    /**
     * The QuickHull TaskGraph over the buffers {@code b}: data in (points and the per-execution parameters and
     * delta), the tasks in order, data out on demand (flags and candidates after every execution; labels and
     * distances only when the host must decide uncertain points).
     */
    public static TaskGraph graph(String name, HullBuffers b) {
        TaskGraph g = new TaskGraph(name)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, b.x, b.y, b.z, b.label, b.active, b.dist,
                        b.plane, b.coneFirst, b.coneCount, b.cand, b.bestVal, b.bestIdx)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, b.params, b.dD, b.dI)
                .task("init", HullTaskGraphs::init, b.params, b.active, b.label, b.n, b.beat)
                .task("extremes", HullTaskGraphs::extremes, b.params, b.x, b.y, b.z, b.n, b.dD, b.groups, 16 * b.groups, b.bestVal,
                        b.bestIdx, b.beat)
                .task("reduce", HullTaskGraphs::reduce, b.params, b.bestVal, b.bestIdx, b.groups, b.red, b.beat)
                .task("cull", HullTaskGraphs::cull, b.params, b.x, b.y, b.z, b.active, b.label, b.dD, b.n, b.beat)
                .task("applyDelta", HullTaskGraphs::applyDelta, b.params, b.dD, b.dI, b.plane, b.coneFirst, b.coneCount,
                        b.cand, b.label, b.dist, b.flags, b.cap, b.beat)
                .task("reassign", HullTaskGraphs::reassign, b.params, b.x, b.y, b.z, b.active, b.label, b.dist, b.plane,
                        b.coneFirst, b.coneCount, b.flags, b.n, b.beat);
        for (int pass = 0; pass < PASSES; pass++) {
            g.task("farthest" + pass, HullTaskGraphs::farthest, b.params, b.active, b.label, b.dist, b.cand, b.flags,
                    b.n, pass, b.beat);
        }
        return g.task("gather", HullTaskGraphs::gather, b.params, b.cand, b.out, b.cap, b.beat)
                .task("snapshot", HullTaskGraphs::snapshot, b.params, b.label, b.labelOut, b.n, b.beat)
                .transferToHost(DataTransferMode.UNDER_DEMAND, b.flags, b.out, b.red, b.labelOut, b.beat);
    }
}
