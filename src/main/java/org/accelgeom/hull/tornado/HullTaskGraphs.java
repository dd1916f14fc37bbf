package org.accelgeom.hull.tornado;

import org.accelgeom.engine.Tuning;
import org.accelgeom.hull.HullKernels;

import java.util.List;

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
 * <p>Four graphs in one execution plan share the device buffers of the points, labels, distances, index list and
 * face tables (TornadoVM's persistOnDevice / consumeFromDevice), so that each execution launches only the tasks
 * of its step: {@link #setup} (init, extreme points, culling, compaction, label snapshot; {@code params[MODE]}
 * chooses), {@link #round} (a round's delta, reassignment, the farthest passes and the gather of the new faces'
 * candidates) in a small- and a full-capacity variant, and {@link #passes} (more farthest passes). Every task
 * launch costs TornadoVM about 0.15 ms on an H200, more than most of these kernels, so launches are what this
 * layout saves. Public so that other TornadoVM programs can embed the graphs: see docs/embedding.md.
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
    /** params[N_ACTIVE]: entries of the index list the per-point tasks of the round graphs visit. */
    public static final int N_ACTIVE = 11;
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
    /** Count the points still in play per block of {@link HullBuffers#BLOCK}. */
    public static final int MODE_COUNT = 10;
    /** Write the points still in play to the index list, each block from its offset (stream compaction). */
    public static final int MODE_SCATTER = 11;
    /** Graph indices in the execution plan of {@link #graphs}. */
    public static final int G_SETUP = 0;
    public static final int G_ROUND = 1;
    public static final int G_BIG_ROUND = 2;
    public static final int G_PASSES = 3;
    /** Most inner-polytope planes the culling takes. */
    public static final int MAX_INNER = 1024;
    /** Heartbeat slot of the first farthest pass (slots 0..5: init .. reassign; 6..21 farthest; 22, 23: gather,
     * snapshot; 24, 25: count, scatter). */
    public static final int BEAT = 6;
    /** Heartbeat slots in use. */
    public static final int BEATS = 26;
    /** Farthest passes unrolled per execution (at most 16; -Daccelgeom.hull.passes, for tuning). */
    public static final int PASSES = Tuning.HULL_PASSES.intValue();

    private HullTaskGraphs() {
    }

    /**
     * MODE_INIT: every point in play (label 0, the root face) and the identity index list; the face tables
     * cleared. Loop bound max(n, face capacity).
     */
    public static void init(int[] params, int[] active, int[] label, double[] dist, double[] plane, int[] coneFirst,
            int[] coneCount, int[] cand, int n, int faces, int work, int[] beat) {
        for (@Parallel int i = 0; i < work; i++) {
            if (i == 0) {
                beat[0] = params[SEQ];
            }
            if (params[MODE] == MODE_INIT) {
                if (i < n) {
                    active[i] = i;
                    label[i] = 0;
                    dist[i] = 0;
                }
                if (i < faces) {
                    plane[HullKernels.PLANE_STRIDE * i] = 0;
                    coneFirst[i] = 0;
                    coneCount[i] = 0;
                    cand[i] = -1;
                }
            }
        }
    }

    /** MODE_COUNT: points still in play (label other than -1) in each block of {@link HullBuffers#BLOCK}. */
    public static void count(int[] params, int[] label, int[] counts, int n, int blocks, int[] beat) {
        for (@Parallel int b = 0; b < blocks; b++) {
            if (b == 0) {
                beat[24] = params[SEQ];
            }
            if (params[MODE] == MODE_COUNT) {
                int c = 0;
                int end = Math.min(n, (b + 1) * HullBuffers.BLOCK);
                for (int p = b * HullBuffers.BLOCK; p < end; p++) {
                    if (label[p] != -1) {
                        c++;
                    }
                }
                counts[b] = c;
            }
        }
    }

    /** MODE_SCATTER: the index list of the points in play, in index order, each block from offsets[b]. */
    public static void scatter(int[] params, int[] label, int[] offsets, int[] active, int n, int blocks, int[] beat) {
        for (@Parallel int b = 0; b < blocks; b++) {
            if (b == 0) {
                beat[25] = params[SEQ];
            }
            if (params[MODE] == MODE_SCATTER) {
                int k = offsets[b];
                int end = Math.min(n, (b + 1) * HullBuffers.BLOCK);
                for (int p = b * HullBuffers.BLOCK; p < end; p++) {
                    if (label[p] != -1) {
                        active[k] = p;
                        k++;
                    }
                }
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
            if (params[MODE] == MODE_ROUND && i < params[N_ACTIVE]) {
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
            if ((mode == MODE_ROUND || mode == MODE_PASSES || mode == MODE_FIX) && i < params[N_ACTIVE]) {
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
     * The launch geometry of every task of {@link #graphs}: one work-item per loop index, and the work-group size
     * left to the OpenCL driver, which fits it to the kernel's registers (TornadoVM's own choice made the
     * reassignment kernel fail with CL_OUT_OF_RESOURCES on an H200). With a grid, TornadoVM takes the global size
     * as the loop bound. The per-point tasks of the round and passes graphs get their grids in
     * {@code pointGrids}, so that the host can shrink them to the compacted index list.
     */
    public static GridScheduler grid(String name, HullBuffers b) {
        return grid(name, b, new java.util.ArrayList<>());
    }

    /** As {@link #grid(String, HullBuffers)}, collecting the per-point grids of the round and passes graphs. */
    public static GridScheduler grid(String name, HullBuffers b, List<WorkerGrid> pointGrids) {
        GridScheduler gs = new GridScheduler();
        String s = name + "setup.";
        add(gs, s + "init", Math.max(b.n, b.faceCapacity));
        add(gs, s + "extremes", 16 * b.groups);
        add(gs, s + "reduce", 128);
        add(gs, s + "cull", b.n);
        add(gs, s + "count", b.blocks);
        add(gs, s + "scatter", b.blocks);
        add(gs, s + "snapshot", b.n);
        for (String g : new String[] {"round", "biground", "passes"}) {
            HullBuffers.PerGraph pg = g.equals("round") ? b.round : b.bigRound;
            if (!g.equals("passes")) {
                add(gs, name + g + ".applyDelta", pg.cap);
                pointGrids.add(add(gs, name + g + ".reassign", b.n));
            }
            for (int pass = 0; pass < PASSES; pass++) {
                pointGrids.add(add(gs, name + g + ".farthest" + pass, b.n));
            }
            add(gs, name + g + ".gather", g.equals("round") ? b.round.cap : b.cap);
        }
        return gs;
    }

    private static WorkerGrid add(GridScheduler gs, String task, int global) {
        WorkerGrid w = new WorkerGrid1D(global);
        w.setLocalWorkToNull();
        gs.addWorkerGrid(task, w);
        return w;
    }

    /** The arrays the graphs share on the device (owned by the setup graph). */
    private static Object[] shared(HullBuffers b) {
        return new Object[] {b.x, b.y, b.z, b.label, b.active, b.dist, b.plane, b.coneFirst, b.coneCount, b.cand};
    }

    /** The four graphs of one plan, in the order of {@link #G_SETUP} .. {@link #G_PASSES}. */
    public static TaskGraph[] graphs(String name, HullBuffers b) {
        return new TaskGraph[] {setup(name, b), round(name, "round", b.round, b), round(name, "biground", b.bigRound, b),
            passes(name, b)};
    }

    /**
     * The setup graph: points and the shared arrays go to the device on its first execution and stay there;
     * {@code params[MODE]} picks init, extreme points (the paper's Init_tetr), farthest point from a line or
     * plane, culling, block counts, compaction, or the label snapshot.
     */
    public static TaskGraph setup(String name, HullBuffers b) {
        HullBuffers.PerGraph g = b.setup;
        return new org.accelgeom.engine.tornado.CachedTaskGraph(name + "setup")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, b.x, b.y, b.z, b.label, b.active, b.dist,
                        b.plane, b.coneFirst, b.coneCount, b.cand, b.bestVal, b.bestIdx)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, g.params, g.dD, b.offsets)
                .task("init", HullTaskGraphs::init, g.params, b.active, b.label, b.dist, b.plane, b.coneFirst,
                        b.coneCount, b.cand, b.n, b.faceCapacity, Math.max(b.n, b.faceCapacity), g.beat)
                .task("extremes", HullTaskGraphs::extremes, g.params, b.x, b.y, b.z, b.n, g.dD, b.groups, 16 * b.groups,
                        b.bestVal, b.bestIdx, g.beat)
                .task("reduce", HullTaskGraphs::reduce, g.params, b.bestVal, b.bestIdx, b.groups, b.red, g.beat)
                .task("cull", HullTaskGraphs::cull, g.params, b.x, b.y, b.z, b.active, b.label, g.dD, b.n, g.beat)
                .task("count", HullTaskGraphs::count, g.params, b.label, b.counts, b.n, b.blocks, g.beat)
                .task("scatter", HullTaskGraphs::scatter, g.params, b.label, b.offsets, b.active, b.n, b.blocks, g.beat)
                .task("snapshot", HullTaskGraphs::snapshot, g.params, b.label, b.labelOut, b.n, g.beat)
                .persistOnDevice(shared(b))
                .transferToHost(DataTransferMode.UNDER_DEMAND, b.red, b.labelOut, b.counts, g.beat);
    }

    /**
     * A round graph: the round's delta (MODE_ROUND), or the host's answers for uncertain points (MODE_FIX), or
     * only dead apexes (MODE_KILL), then reassignment (step 8), the farthest passes (step 3) and the gather of
     * the new faces' candidates. {@code variant} is "round" (small delta) or "biground".
     */
    public static TaskGraph round(String name, String variant, HullBuffers.PerGraph g, HullBuffers b) {
        TaskGraph t = new org.accelgeom.engine.tornado.CachedTaskGraph(name + variant)
                .consumeFromDevice(name + "setup", shared(b))
                .consumeFromDevice(name + (variant.equals("round") ? "biground" : "round"), shared(b))
                .consumeFromDevice(name + "passes", b.active, b.label, b.dist, b.cand)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, g.params, g.dD, g.dI)
                .task("applyDelta", HullTaskGraphs::applyDelta, g.params, g.dD, g.dI, b.plane, b.coneFirst, b.coneCount,
                        b.cand, b.label, b.dist, g.flags, g.cap, g.beat)
                .task("reassign", HullTaskGraphs::reassign, g.params, b.x, b.y, b.z, b.active, b.label, b.dist, b.plane,
                        b.coneFirst, b.coneCount, g.flags, b.n, g.beat);
        for (int pass = 0; pass < PASSES; pass++) {
            t.task("farthest" + pass, HullTaskGraphs::farthest, g.params, b.active, b.label, b.dist, b.cand, g.flags,
                    b.n, pass, g.beat);
        }
        return t.task("gather", HullTaskGraphs::gather, g.params, b.cand, g.out, g.cap, g.beat)
                .transferToHost(DataTransferMode.UNDER_DEMAND, g.flags, g.out, g.beat);
    }

    /** More farthest passes after a round whose last pass still changed a candidate, then the gather. */
    public static TaskGraph passes(String name, HullBuffers b) {
        HullBuffers.PerGraph g = b.passes;
        TaskGraph t = new org.accelgeom.engine.tornado.CachedTaskGraph(name + "passes")
                .consumeFromDevice(name + "setup", b.active, b.label, b.dist, b.cand)
                .consumeFromDevice(name + "round", b.active, b.label, b.dist, b.cand)
                .consumeFromDevice(name + "biground", b.active, b.label, b.dist, b.cand)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, g.params, g.flags);
        for (int pass = 0; pass < PASSES; pass++) {
            t.task("farthest" + pass, HullTaskGraphs::farthest, g.params, b.active, b.label, b.dist, b.cand, g.flags,
                    b.n, pass, g.beat);
        }
        return t.task("gather", HullTaskGraphs::gather, g.params, b.cand, g.out, g.cap, g.beat)
                .transferToHost(DataTransferMode.UNDER_DEMAND, g.flags, g.out, g.beat);
    }
}
