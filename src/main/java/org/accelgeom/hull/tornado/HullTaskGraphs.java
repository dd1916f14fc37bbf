package org.accelgeom.hull.tornado;

import org.accelgeom.engine.Tuning;
import org.accelgeom.engine.tornado.LaunchCheck;
import org.accelgeom.hull.HullKernels;

import java.util.ArrayList;
import java.util.List;

import uk.ac.manchester.tornado.api.GridScheduler;
import org.accelgeom.engine.tornado.CachedTaskGraph;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.WorkerGrid;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/**
 * TornadoVM task methods of the parallel QuickHull and the task graphs that chain them. Each task method is one
 * {@code @Parallel} loop around an element kernel of {@link HullKernels}, which TornadoVM inlines into the generated
 * OpenCL/PTX.
 *
 * <p>One graph per step; the nine graphs of one execution plan share the device buffers of the points, labels,
 * distances, index list and face tables ({@code consumeFromDevice}), and each launches only the tasks of its step:
 * <ul>
 * <li>{@link #load}: the input's points to the device (or taken from a user's graph, then copied to the host), init;
 * <li>{@link #reset}: init again over points already there;
 * <li>{@link #extremes}: extreme points along directions (the paper's Init_tetr): partial arg-max, a reduction in
 * two stages;
 * <li>{@link #farthest}: the point farthest from a line or a plane (the tetrahedron's last two): the same three;
 * <li>{@link #cull}: interior culling, then the points left per block;
 * <li>{@link #scatter}: the compacted index list of the points left (each block from its offset);
 * <li>{@link #snapshot}: the labels copied to an array the host may download;
 * <li>{@link #round} ("round" with a small delta capacity, "biground" with the full one): a round's delta, the
 * reassignment with the first farthest pass, more farthest passes, the last one with the gather of the new faces'
 * candidates.
 * </ul>
 * A round graph serves every execution of a round: the round itself (new planes, deleted cones, dead apexes), the
 * host's exact answers for uncertain points (the fix section) and more farthest passes (an empty delta: the
 * reassignment then changes nothing, see {@link #reassign}); its delta sections are sized by counts in params, not
 * switched by a mode. There is no graph of extra passes of its own, which saves its tasks' compilation per process.
 * Every task launch costs TornadoVM about 0.15 ms on an H200 (more than most of these kernels), so no graph launches
 * tasks that a mode turns off, and the farthest passes that follow a pass which changed nothing return at once; 4
 * passes per execution measured better than 8 on an H200 (docs/benchmarks.md, session 9), although more executions
 * then need extra passes. Not split further where a split would add a launch: cull and count, and the first and last
 * farthest passes (in the reassignment's and the gather's tasks), share an execution or a task.
 * The arrays are sized by capacity ({@link HullBuffers}): the input's size goes in {@code params} ({@link #N_POINTS},
 * {@link #N_GROUPS}, {@link #N_BLOCKS}), the launch sizes in {@link Grid}, so one plan serves every input that fits.
 *
 * <p>Protocol (what {@link TornadoHullBackend} drives; a TornadoVM program that puts these graphs in its own plan
 * drives them the same way, see docs/embedding.md): build the plan over {@link #graphs} (after the user's own graphs
 * when the points come from the device) with {@link Grid#scheduler()}; execute load, then each of the other graphs
 * once in the order {@link #G_EXTREMES} .. {@link #G_BIG_ROUND} and reset last (they compile and take over the shared
 * buffers; reset undoes what they did); then per hull: load (or reset), extremes, farthest (line, then plane), cull
 * and scatter, then per round a round graph until its last farthest pass changed nothing. Every execution sets
 * {@code params[SEQ]} and the input's sizes in the executed graph's own params, and checks its heartbeats
 * ({@link #launchCheck}). Public so that other TornadoVM programs can embed the graphs.
 */
public final class HullTaskGraphs {

    /** params[NEW_PLANES]: new faces whose planes this execution of a round graph writes (0 for fixes and passes). */
    public static final int NEW_PLANES = 0;
    /** params[NEW_BASE], [NEW_COUNT]: the round's new faces (their farthest passes and gather). */
    public static final int NEW_BASE = 1;
    public static final int NEW_COUNT = 2;
    public static final int DELETED_COUNT = 3;
    public static final int APEX_COUNT = 4;
    public static final int FIX_COUNT = 5;
    public static final int ROUND_BASE = 6;
    public static final int N_DIRS = 7;
    /** params[GEOMETRY]: the farthest graph's geometry, 0 a line, 1 a plane. */
    public static final int GEOMETRY = 8;
    public static final int N_INNER = 9;
    /** params[SEQ]: the execution's sequence number, which every task writes to its heartbeat slot. */
    public static final int SEQ = 10;
    /** params[N_ACTIVE]: entries of the index list the per-point tasks of the round graphs visit. */
    public static final int N_ACTIVE = 11;
    /** params[N_POINTS]: the input's points (at most the buffers' capacity). */
    public static final int N_POINTS = 12;
    /**
     * params[N_GROUPS]: work-items of the arg-max passes for the input ({@link HullBuffers#groups}; in the farthest
     * graph's params {@link HullBuffers#farGroups}).
     */
    public static final int N_GROUPS = 13;
    /** params[N_BLOCKS]: compaction blocks of the input ({@link HullBuffers#blocks}). */
    public static final int N_BLOCKS = 14;
    public static final int PARAMS = 16;

    /** Graph indices in {@link #graphs}, relative to the first hull graph of the plan. */
    public static final int G_LOAD = 0;
    public static final int G_RESET = 1;
    public static final int G_EXTREMES = 2;
    public static final int G_FARTHEST = 3;
    public static final int G_CULL = 4;
    public static final int G_SCATTER = 5;
    public static final int G_SNAPSHOT = 6;
    public static final int G_ROUND = 7;
    public static final int G_BIG_ROUND = 8;
    /** Graph names after the plan's name prefix, in the order of {@link #G_LOAD} .. {@link #G_BIG_ROUND}. */
    private static final String[] GRAPHS = {"load", "reset", "extremes", "farthest", "cull", "scatter", "snapshot",
        "round", "biground"};
    /** Number of the hull's graphs in a plan. */
    public static final int GRAPH_COUNT = 9;
    /** Most inner-polytope planes the culling takes. */
    public static final int MAX_INNER = 1024;

    /** Heartbeat slots (see {@link #launchCheck}): each task's work-item 0 writes params[SEQ] to its slot. */
    public static final int SLOT_INIT = 0;
    public static final int SLOT_PARTIAL = 1;
    public static final int SLOT_REDUCE = 2;
    public static final int SLOT_CULL = 3;
    public static final int SLOT_APPLY_DELTA = 4;
    public static final int SLOT_REASSIGN = 5;
    /** Slot of farthest pass p (1 .. PASSES - 2; pass 0 is the reassignment's, the last one the gather's). */
    public static final int SLOT_FARTHEST = 6;
    public static final int SLOT_GATHER = 22;
    public static final int SLOT_SNAPSHOT = 23;
    public static final int SLOT_COUNT = 24;
    public static final int SLOT_SCATTER = 25;
    public static final int SLOT_COPY = 26;
    public static final int SLOT_CHUNKS = 27;
    /**
     * Chunks of the arg-max reduction's first stage: each of {@code REDUCE_CHUNKS} work-items per direction reduces
     * 1/64 of the groups' partial results, and the second stage reduces those 64 (one work-item looping over 8192
     * partial results was a chain of dependent loads).
     */
    public static final int REDUCE_CHUNKS = 64;
    /**
     * Farthest passes per execution of a round graph (2 .. 16; -Daccelgeom.hull.passes, for tuning): the first runs
     * in the reassignment's task, the last in the gather's, the others are tasks of their own.
     */
    public static final int PASSES = Math.max(2, Tuning.HULL_PASSES.intValue());

    private HullTaskGraphs() {
    }

    /** A launch check over the slots above, named after their tasks (one per graph: each graph has its own array). */
    public static LaunchCheck launchCheck() {
        String[] names = new String[SLOT_CHUNKS + 1];
        names[SLOT_INIT] = "init";
        names[SLOT_PARTIAL] = "partial";
        names[SLOT_REDUCE] = "reduce";
        names[SLOT_CULL] = "cull";
        names[SLOT_APPLY_DELTA] = "applyDelta";
        names[SLOT_REASSIGN] = "reassign";
        for (int p = 0; p < 16; p++) {
            names[SLOT_FARTHEST + p] = "farthest" + p;
        }
        names[SLOT_GATHER] = "farthestGather";
        names[SLOT_SNAPSHOT] = "snapshot";
        names[SLOT_COUNT] = "count";
        names[SLOT_SCATTER] = "scatter";
        names[SLOT_COPY] = "copyToHost";
        names[SLOT_CHUNKS] = "reduceChunks";
        return new LaunchCheck("hull", names);
    }

    /** The heartbeat slots an execution of graph {@code graph} ({@link #G_LOAD} ..) must have written. */
    public static int[] slots(int graph, HullBuffers b) {
        return switch (graph) {
            case G_LOAD -> b.hx != null ? new int[] {SLOT_INIT, SLOT_COPY} : new int[] {SLOT_INIT};
            case G_RESET -> new int[] {SLOT_INIT};
            case G_EXTREMES, G_FARTHEST -> new int[] {SLOT_PARTIAL, SLOT_CHUNKS, SLOT_REDUCE};
            case G_CULL -> new int[] {SLOT_CULL, SLOT_COUNT};
            case G_SCATTER -> new int[] {SLOT_SCATTER};
            case G_SNAPSHOT -> new int[] {SLOT_SNAPSHOT};
            case G_ROUND, G_BIG_ROUND -> roundSlots();
            default -> throw new IllegalArgumentException("no hull graph " + graph);
        };
    }

    private static int[] roundSlots() {
        int[] s = new int[PASSES + 1];
        s[0] = SLOT_APPLY_DELTA;
        s[1] = SLOT_REASSIGN;
        for (int p = 1; p < PASSES - 1; p++) {
            s[p + 1] = SLOT_FARTHEST + p;
        }
        s[PASSES] = SLOT_GATHER;
        return s;
    }

    /** Tasks of the graphs of one plan ({@code onDevice}: over points a user's graph made). */
    public static int taskCount(boolean onDevice) {
        return (onDevice ? 2 : 1) + 1 + 3 + 3 + 2 + 1 + 1 + 2 * (PASSES + 1);
    }

    /**
     * The load and reset graphs' init: every point of the input in play (label 0, the root face) and the identity
     * index list; the face tables cleared. Loop bound max(capacity, face capacity); the input's n in params.
     */
    public static void init(int[] params, int[] active, int[] label, double[] dist, double[] plane, int[] coneFirst,
            int[] coneCount, int[] cand, int faces, int work, int[] beat) {
        for (@Parallel int i = 0; i < work; i++) {
            if (i == 0) {
                beat[SLOT_INIT] = params[SEQ];
            }
            if (i < params[N_POINTS]) {
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

    /**
     * The device-points load graph's copy of the points to arrays that only ever go device to host (the host's exact
     * predicates read them; see {@link #snapshot} for why not the resident arrays themselves).
     */
    public static void copyToHost(int[] params, double[] x, double[] y, double[] z, double[] hx, double[] hy,
            double[] hz, int capacity, int[] beat) {
        for (@Parallel int i = 0; i < capacity; i++) {
            if (i == 0) {
                beat[SLOT_COPY] = params[SEQ];
            }
            if (i < params[N_POINTS]) {
                hx[i] = x[i];
                hy[i] = y[i];
                hz[i] = z[i];
            }
        }
    }

    /**
     * The extremes graph's partial arg-max: work-item w scans the points of group w % groups for direction block
     * w / groups (params[N_GROUPS]; the grid launches 16 × groups work-items, of which blocks × groups work).
     */
    public static void extremesPartial(int[] params, double[] x, double[] y, double[] z, double[] dirs, int work,
            double[] bestVal, int[] bestIdx, int[] beat) {
        for (@Parallel int w = 0; w < work; w++) {
            if (w == 0) {
                beat[SLOT_PARTIAL] = params[SEQ];
            }
            int groups = params[N_GROUPS];
            int nDirs = params[N_DIRS];
            int blocks = (nDirs + HullKernels.DIR_BLOCK - 1) / HullKernels.DIR_BLOCK;
            // consecutive work-items scan consecutive groups of one direction block, so a warp's loads of the points are
            // coalesced (with w / 16 and w % 16 a warp read two points per load: 40 ms at 10^8 points on an H200)
            if (w < blocks * groups) {
                HullKernels.extremesPartial(x, y, z, w % groups, params[N_POINTS], groups, dirs, nDirs, w / groups,
                        w % groups, bestVal, bestIdx);
            }
        }
    }

    /** The farthest graph's partial arg-max: work-item g scans the points of group g (line or plane in geom). */
    public static void farthestPartial(int[] params, double[] x, double[] y, double[] z, double[] geom, int work,
            double[] bestVal, int[] bestIdx, int[] beat) {
        for (@Parallel int g = 0; g < work; g++) {
            if (g == 0) {
                beat[SLOT_PARTIAL] = params[SEQ];
            }
            int groups = params[N_GROUPS];
            if (g < groups) {
                HullKernels.farthestPartial(x, y, z, g, params[N_POINTS], groups, geom, params[GEOMETRY], g, bestVal,
                        bestIdx);
            }
        }
    }

    /**
     * The arg-max reduction's first stage: work-item c * nDirs + k reduces chunk c of the groups' partial results for
     * direction k (params[N_DIRS]; 1 in the farthest graph) to {@code midVal/midIdx[c * nDirs + k]}.
     */
    public static void reduceChunks(int[] params, double[] bestVal, int[] bestIdx, double[] midVal, int[] midIdx,
            int work, int[] beat) {
        for (@Parallel int w = 0; w < work; w++) {
            if (w == 0) {
                beat[SLOT_CHUNKS] = params[SEQ];
            }
            int nDirs = params[N_DIRS];
            if (w < nDirs * REDUCE_CHUNKS) {
                int groups = params[N_GROUPS];
                int per = (groups + REDUCE_CHUNKS - 1) / REDUCE_CHUNKS;
                int k = w % nDirs;
                int c = w / nDirs;
                HullKernels.argmaxChunk(bestVal, bestIdx, c * per, Math.min(groups, c * per + per), nDirs, k, midVal,
                        midIdx, w);
            }
        }
    }

    /**
     * The arg-max reduction's second stage, one work-item per direction: the best of its {@link #REDUCE_CHUNKS} chunk
     * results. Hand-written, not {@code @Reduce}: it carries the point's index with its value (the smallest index
     * among equal values), which TornadoVM's {@code @Reduce} (one value per reduction) cannot.
     */
    public static void reduce(int[] params, double[] midVal, int[] midIdx, int[] out, int work, int[] beat) {
        for (@Parallel int k = 0; k < work; k++) {
            if (k == 0) {
                beat[SLOT_REDUCE] = params[SEQ];
            }
            if (k < params[N_DIRS]) {
                HullKernels.argmaxReduce(midVal, midIdx, REDUCE_CHUNKS, params[N_DIRS], k, out);
            }
        }
    }

    /**
     * The cull graph's first task: drops the points certainly inside the inner polytope (params[N_INNER] planes). A
     * point inside the ball at {@link #CULL_BALL} of {@code inner} (centre, squared radius; -1: none) is dropped without
     * the planes, whose answer the ball proves ({@code InnerBall.ofPlanes}: the same points are culled either way).
     */
    public static void cull(int[] params, double[] x, double[] y, double[] z, int[] active, int[] label, double[] inner,
            int capacity, int[] beat) {
        for (@Parallel int i = 0; i < capacity; i++) {
            if (i == 0) {
                beat[SLOT_CULL] = params[SEQ];
            }
            if (i < params[N_POINTS] && params[N_INNER] > 0) {
                int p = active[i];
                double dx = x[p] - inner[CULL_BALL];
                double dy = y[p] - inner[CULL_BALL + 1];
                double dz = z[p] - inner[CULL_BALL + 2];
                // independent tests, not an if-else chain (see HullKernels.beats)
                int ball = 0;
                if (dx * dx + dy * dy + dz * dz < inner[CULL_BALL + 3]) {
                    ball = 1;
                }
                if (ball == 1) {
                    if (label[p] >= 0) {
                        label[p] = -1;
                    }
                }
                if (ball == 0) {
                    HullKernels.cullInterior(x, y, z, active, i, label, inner, params[N_INNER]);
                }
            }
        }
    }

    /** Where the cull graph's ball (4 doubles) follows the inner polytope's planes in its dD. */
    public static final int CULL_BALL = HullKernels.PLANE_STRIDE * MAX_INNER;

    /**
     * The cull graph's second task: points still in play (label other than -1) in each block of
     * {@link HullBuffers#BLOCK}. Not a {@code @Reduce}: the scatter needs each block's count (their prefix sum), not
     * the total.
     */
    public static void count(int[] params, int[] label, int[] counts, int blocks, int[] beat) {
        for (@Parallel int b = 0; b < blocks; b++) {
            if (b == 0) {
                beat[SLOT_COUNT] = params[SEQ];
            }
            if (b < params[N_BLOCKS]) {
                int c = 0;
                int end = Math.min(params[N_POINTS], (b + 1) * HullBuffers.BLOCK);
                for (int p = b * HullBuffers.BLOCK; p < end; p++) {
                    if (label[p] != -1) {
                        c++;
                    }
                }
                counts[b] = c;
            }
        }
    }

    /** The scatter graph: the index list of the points in play, in index order, each block from offsets[b]. */
    public static void scatter(int[] params, int[] label, int[] offsets, int[] active, int blocks, int[] beat) {
        for (@Parallel int b = 0; b < blocks; b++) {
            if (b == 0) {
                beat[SLOT_SCATTER] = params[SEQ];
            }
            if (b < params[N_BLOCKS]) {
                int k = offsets[b];
                int end = Math.min(params[N_POINTS], (b + 1) * HullBuffers.BLOCK);
                for (int p = b * HullBuffers.BLOCK; p < end; p++) {
                    if (label[p] != -1) {
                        active[k] = p;
                        k++;
                    }
                }
            }
        }
    }

    /**
     * The snapshot graph: copies the labels to an array that only ever goes device to host: downloading an array that
     * is also a resident input of the plan corrupted later executions on TornadoVM 5.2 (POCL), so the host reads
     * these copies instead.
     */
    public static void snapshot(int[] params, int[] label, int[] labelOut, int capacity, int[] beat) {
        for (@Parallel int i = 0; i < capacity; i++) {
            if (i == 0) {
                beat[SLOT_SNAPSHOT] = params[SEQ];
            }
            if (i < params[N_POINTS]) {
                labelOut[i] = label[i];
            }
        }
    }

    /**
     * A round graph's first task: scatters the execution's delta into the face tables and labels, every section as
     * long as its count in params (any may be 0): the planes of {@code NEW_PLANES} new faces (their candidate slots
     * emptied), the cones of
     * {@code DELETED_COUNT} deleted faces, {@code APEX_COUNT} points that became hull vertices (label -1), and
     * {@code FIX_COUNT} of the host's exact answers for uncertain points; then the flags to 0.
     * Layout of dI (capacity cap per section): deleted ids, cone first, cone count, apexes, fix points, fix labels, the
     * new faces' final cone first and count; of dD: 6 plane doubles per new face, then (at 6·cap) one distance per fix.
     */
    public static void applyDelta(int[] params, double[] dD, int[] dI, double[] plane, int[] coneFirst,
            int[] coneCount, int[] cand, int[] label, double[] dist, int[] flags, int cap, int[] beat) {
        for (@Parallel int j = 0; j < cap; j++) {
            if (j == 0) {
                beat[SLOT_APPLY_DELTA] = params[SEQ];
            }
            if (j < params[NEW_PLANES]) {
                int f = params[NEW_BASE] + j;
                for (int k = 0; k < HullKernels.PLANE_STRIDE; k++) {
                    plane[HullKernels.PLANE_STRIDE * f + k] = dD[HullKernels.PLANE_STRIDE * j + k];
                }
                // the face's state at the end of the round: live (0) or the cone of the insertion
                // that deleted it later in the same round, the same values the deleted list carries,
                // so that work-items may write them in any order
                coneFirst[f] = dI[6 * cap + j];
                coneCount[f] = dI[7 * cap + j];
                for (int k = 0; k < HullKernels.SLOTS; k++) {
                    cand[HullKernels.SLOTS * j + k] = -1;
                }
            }
            if (j < params[DELETED_COUNT]) {
                int f = dI[j];
                coneFirst[f] = dI[cap + j];
                coneCount[f] = dI[2 * cap + j];
            }
            if (j < params[APEX_COUNT]) {
                label[dI[3 * cap + j]] = -1;
            }
            if (j < params[FIX_COUNT]) {
                int p = dI[4 * cap + j];
                label[p] = dI[5 * cap + j];
                dist[p] = dD[HullKernels.PLANE_STRIDE * cap + j];
            }
            if (j < HullKernels.FLAG_PASS + PASSES) {
                flags[j] = 0;
            }
        }
    }

    /**
     * A round graph's reassignment (steps 2 and 8) of each active point, then the first farthest pass (step 3) of the
     * same point. The pass may read another point's distance before that point's work-item has written it (no order
     * between work-items), so it may miss an improvement; the later passes, each a launch of its own over final
     * distances, repeat until one changes nothing, which ends at the same unique maximum (see
     * {@link HullKernels#farthestSlotPass}). Over an empty delta (fixes, more passes) every label is already final (a
     * live face, -1 or uncertain) and the reassignment changes nothing.
     */
    public static void reassign(int[] params, double[] x, double[] y, double[] z, int[] active, int[] label,
            double[] dist, double[] plane, int[] coneFirst, int[] coneCount, int[] cand, int[] flags, int n, int[] beat) {
        for (@Parallel int i = 0; i < n; i++) {
            if (i == 0) {
                beat[SLOT_REASSIGN] = params[SEQ];
            }
            if (i < params[N_ACTIVE]) {
                HullKernels.reassign(x, y, z, active, i, label, dist, plane, coneFirst, coneCount, flags);
                HullKernels.farthestSlotPass(active, i, label, dist, cand, params[ROUND_BASE], flags,
                        HullKernels.FLAG_PASS);
            }
        }
    }

    /**
     * Farthest pass {@code pass} (1 .. PASSES - 2) over the active points; returns at once when the pass before changed
     * nothing (the candidates are final then).
     */
    public static void farthest(int[] params, int[] active, int[] label, double[] dist, int[] cand, int[] flags,
            int n, int pass, int[] beat) {
        for (@Parallel int i = 0; i < n; i++) {
            if (i == 0) {
                beat[SLOT_FARTHEST + pass] = params[SEQ];
            }
            if (i < params[N_ACTIVE] && flags[HullKernels.FLAG_PASS + pass - 1] != 0) {
                HullKernels.farthestSlotPass(active, i, label, dist, cand, params[ROUND_BASE], flags,
                        HullKernels.FLAG_PASS + pass);
            }
        }
    }

    /**
     * The last farthest pass (PASSES - 1) and the gather of the new faces' candidates to {@code out}, in one launch.
     * The gather may read a candidate this pass changes; the host uses {@code out} only when this pass changed
     * nothing (flag PASSES - 1 is 0), and then every candidate it read was final. Work: max(active points, cap).
     */
    public static void farthestGather(int[] params, int[] active, int[] label, double[] dist, int[] cand, int[] flags,
            int[] out, int work, int cap, int[] beat) {
        for (@Parallel int i = 0; i < work; i++) {
            if (i == 0) {
                beat[SLOT_GATHER] = params[SEQ];
            }
            if (i < params[N_ACTIVE] && flags[HullKernels.FLAG_PASS + PASSES - 2] != 0) {
                HullKernels.farthestSlotPass(active, i, label, dist, cand, params[ROUND_BASE], flags,
                        HullKernels.FLAG_PASS + PASSES - 1);
            }
            if (i < cap && i < params[NEW_COUNT]) {
                out[i] = HullKernels.slotBest(cand, dist, i);
            }
        }
    }

    /**
     * The launch geometry of every task of {@link #graphs}: one work-item per loop index of the current input (rounded
     * up to a multiple of {@link #PAD}, see {@link #padded}), and the work-group size left to the OpenCL driver, which fits it to the kernel's registers (TornadoVM's own choice made
     * the reassignment kernel fail with CL_OUT_OF_RESOURCES on an H200). With a grid, TornadoVM takes the global size
     * as the loop bound; the kernels guard the input's size too, so a grid is an optimisation, never a correctness
     * condition. {@link #resize} fits it to a new input, {@link #activate} the per-point tasks of the round graphs to
     * the compacted index list.
     */
    public static final class Grid {
        private final GridScheduler scheduler = new GridScheduler();
        private final List<WorkerGrid> points = new ArrayList<>();
        private final List<WorkerGrid> active = new ArrayList<>();
        private final List<WorkerGrid> gathers = new ArrayList<>();
        private final List<Integer> gatherCaps = new ArrayList<>();
        private final List<WorkerGrid> blocks = new ArrayList<>();
        private final List<WorkerGrid> init = new ArrayList<>();
        private final WorkerGrid extremes;
        private final WorkerGrid farthest;
        private final int faces;

        Grid(String name, HullBuffers b) {
            faces = b.faceCapacity;
            for (String g : new String[] {"load", "reset"}) {
                init.add(add(name + g + ".init", Math.max(b.n, faces)));
            }
            if (b.hx != null) {
                points.add(add(name + "load.copyToHost", b.n));
            }
            extremes = add(name + "extremes.partial", 16 * b.groups);
            add(name + "extremes.reduceChunks", 128 * REDUCE_CHUNKS);
            add(name + "extremes.reduce", 128);
            farthest = add(name + "farthest.partial", b.farGroups);
            add(name + "farthest.reduceChunks", REDUCE_CHUNKS);
            add(name + "farthest.reduce", 1);
            points.add(add(name + "cull.cull", b.n));
            blocks.add(add(name + "cull.count", b.blocks));
            blocks.add(add(name + "scatter.scatter", b.blocks));
            points.add(add(name + "snapshot.snapshot", b.n));
            for (String g : new String[] {"round", "biground"}) {
                int cap = g.equals("round") ? b.round.cap : b.bigRound.cap;
                add(name + g + ".applyDelta", cap);
                active.add(add(name + g + ".reassign", b.n));
                for (int pass = 1; pass < PASSES - 1; pass++) {
                    active.add(add(name + g + ".farthest" + pass, b.n));
                }
                gathers.add(add(name + g + ".farthestGather", Math.max(b.n, cap)));
                gatherCaps.add(cap);
            }
            resize(b);
        }

        private WorkerGrid add(String task, int global) {
            WorkerGrid w = new WorkerGrid1D(Math.max(1, global));
            w.setLocalWorkToNull();
            scheduler.addWorkerGrid(task, w);
            return w;
        }

        /** The scheduler to give the plan ({@code withGridScheduler}). */
        public GridScheduler scheduler() {
            return scheduler;
        }

        /** Fits every grid to the current input of {@code b} (its n, groups and blocks); every point active. */
        public void resize(HullBuffers b) {
            set(points, b.n);
            set(blocks, b.blocks);
            set(init, Math.max(b.n, faces));
            extremes.setGlobalWork(padded(16 * b.groups), 1, 1);
            farthest.setGlobalWork(padded(b.farGroups), 1, 1);
            activate(b.n);
        }

        /** The per-point tasks of the round graphs visit the first m entries of the index list. */
        public void activate(int m) {
            set(active, m);
            for (int k = 0; k < gathers.size(); k++) {
                gathers.get(k).setGlobalWork(padded(Math.max(m, gatherCaps.get(k))), 1, 1);
            }
        }

        private static void set(List<WorkerGrid> grids, int global) {
            for (WorkerGrid w : grids) {
                w.setGlobalWork(padded(global), 1, 1);
            }
        }

        /**
         * A global size rounded up to a multiple of {@link #PAD}: the work-group size is left to the OpenCL driver, which
         * must pick a divisor of the global size, so a prime count (9,348,049 points left after culling 10^8) got
         * work-groups of one work-item: 22-26 ms per round instead of well under 1 ms on an H200. The tasks guard their
         * loop bounds and the input's sizes in params, so the extra work-items do nothing.
         */
        static int padded(int global) {
            long g = Math.max(1, global);
            return (int) Math.min(Integer.MAX_VALUE / PAD * PAD, (g + PAD - 1) / PAD * PAD);
        }

        /** Global sizes are multiples of this (see {@link #padded}). */
        static final int PAD = 1024;
    }

    /** The launch geometry of the graphs of {@link #graphs}{@code (name, b)}, fitted to b's current input. */
    public static Grid grid(String name, HullBuffers b) {
        return new Grid(name, b);
    }

    /** The arrays the graphs share on the device (owned by the load graph). */
    private static Object[] shared(HullBuffers b) {
        return new Object[] {b.x, b.y, b.z, b.label, b.active, b.dist, b.plane, b.coneFirst, b.coneCount, b.cand};
    }

    /** The nine graphs of one plan over points the host uploads, in the order of {@link #G_LOAD} .. {@link #G_BIG_ROUND}. */
    public static TaskGraph[] graphs(String name, HullBuffers b) {
        return graphs(name, b, null);
    }

    /**
     * The nine graphs of one plan, in the order of {@link #G_LOAD} .. {@link #G_BIG_ROUND}; with {@code source}, the
     * name of a user's graph of the same plan that leaves the points on the device ({@code persistOnDevice(x, y, z)} of
     * the arrays of {@link HullBuffers#onDevice}), from which the load graph takes them ({@code consumeFromDevice}).
     */
    public static TaskGraph[] graphs(String name, HullBuffers b, String source) {
        if ((source != null) != (b.hx != null)) {
            throw new IllegalArgumentException(source != null ? "device points need HullBuffers.onDevice"
                    : "HullBuffers.onDevice needs the name of the graph that makes the points");
        }
        TaskGraph[] g = new TaskGraph[GRAPHS.length];
        g[G_LOAD] = load(name, b, source);
        g[G_RESET] = reset(name, b);
        g[G_EXTREMES] = extremes(name, b);
        g[G_FARTHEST] = farthest(name, b);
        g[G_CULL] = cull(name, b);
        g[G_SCATTER] = scatter(name, b);
        g[G_SNAPSHOT] = snapshot(name, b);
        g[G_ROUND] = round(name, "round", b.round, b);
        g[G_BIG_ROUND] = round(name, "biground", b.bigRound, b);
        return g;
    }

    /**
     * Every graph of the plan takes the shared arrays from whichever of the others ran last (TornadoVM syncs a
     * consumed buffer from the graph executed last, and only from one that is named).
     */
    private static TaskGraph consumeShared(TaskGraph t, String name, String self, Object... arrays) {
        for (String g : GRAPHS) {
            if (!g.equals(self) && !g.equals("load")) {
                t.consumeFromDevice(name + g, arrays);
            }
        }
        return self.equals("load") ? t : t.consumeFromDevice(name + "load", arrays);
    }

    /** A graph of the plan other than load: the shared arrays from the others, its params every execution. */
    private static TaskGraph step(String name, String self, HullBuffers b, HullBuffers.PerGraph g) {
        return consumeShared(new CachedTaskGraph(name + self), name, self, shared(b))
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, g.params);
    }

    /**
     * The load graph: the input's points to the device (every execution), or, from a user's graph {@code source},
     * taken where they are and copied once to the host arrays {@code hx, hy, hz}; then init. It makes the shared
     * arrays the other graphs consume.
     */
    public static TaskGraph load(String name, HullBuffers b, String source) {
        HullBuffers.PerGraph g = b.load;
        TaskGraph t = new CachedTaskGraph(name + "load");
        if (source != null) {
            t.consumeFromDevice(source, b.x, b.y, b.z);
            consumeShared(t, name, "load", b.x, b.y, b.z);
        } else {
            t.transferToDevice(DataTransferMode.EVERY_EXECUTION, b.x, b.y, b.z);
        }
        t.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.label, b.active, b.dist, b.plane, b.coneFirst,
                        b.coneCount, b.cand)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, g.params)
                .task("init", HullTaskGraphs::init, g.params, b.active, b.label, b.dist, b.plane, b.coneFirst,
                        b.coneCount, b.cand, b.faceCapacity, Math.max(b.capacity, b.faceCapacity), g.beat);
        if (source != null) {
            t.task("copyToHost", HullTaskGraphs::copyToHost, g.params, b.x, b.y, b.z, b.hx, b.hy, b.hz, b.capacity, g.beat)
                    .transferToHost(DataTransferMode.UNDER_DEMAND, b.hx, b.hy, b.hz);
        }
        // no persistOnDevice: the other graphs of the plan take the buffers through consumeFromDevice alone, and an
        // array both uploaded and persisted (TornadoVM's persistOnDevice is a transferToHost UNDER_DEMAND) is freed
        // twice by TornadoVM 5.2's freeDeviceMemory, which then fails and leaves the plan's device memory allocated
        return t.transferToHost(DataTransferMode.UNDER_DEMAND, g.beat);
    }

    /** The reset graph: init again over points already on the device (the same input once more). */
    public static TaskGraph reset(String name, HullBuffers b) {
        HullBuffers.PerGraph g = b.reset;
        return step(name, "reset", b, g)
                .task("init", HullTaskGraphs::init, g.params, b.active, b.label, b.dist, b.plane, b.coneFirst,
                        b.coneCount, b.cand, b.faceCapacity, Math.max(b.capacity, b.faceCapacity), g.beat)
                .transferToHost(DataTransferMode.UNDER_DEMAND, g.beat);
    }

    /** The extremes graph: the extreme points along params[N_DIRS] directions (dD, 3 doubles each) to out. */
    public static TaskGraph extremes(String name, HullBuffers b) {
        HullBuffers.PerGraph g = b.extremes;
        return argmax(step(name, "extremes", b, g), g, b, 128)
                .task("partial", HullTaskGraphs::extremesPartial, g.params, b.x, b.y, b.z, g.dD, 16 * b.groupsCapacity,
                        b.bestVal, b.bestIdx, g.beat)
                .task("reduceChunks", HullTaskGraphs::reduceChunks, g.params, b.bestVal, b.bestIdx, b.midVal, b.midIdx,
                        128 * REDUCE_CHUNKS, g.beat)
                .task("reduce", HullTaskGraphs::reduce, g.params, b.midVal, b.midIdx, g.out, 128, g.beat)
                .transferToHost(DataTransferMode.UNDER_DEMAND, g.out, g.beat);
    }

    /** The farthest graph: the point farthest from a line (params[GEOMETRY] 0) or a plane (1) in dD to out[0]. */
    public static TaskGraph farthest(String name, HullBuffers b) {
        HullBuffers.PerGraph g = b.farthest;
        return argmax(step(name, "farthest", b, g), g, b, 1)
                .task("partial", HullTaskGraphs::farthestPartial, g.params, b.x, b.y, b.z, g.dD, b.farGroupsCapacity,
                        b.farVal, b.farIdx, g.beat)
                .task("reduceChunks", HullTaskGraphs::reduceChunks, g.params, b.farVal, b.farIdx, b.farMidVal,
                        b.farMidIdx, REDUCE_CHUNKS, g.beat)
                .task("reduce", HullTaskGraphs::reduce, g.params, b.farMidVal, b.farMidIdx, g.out, 1, g.beat)
                .transferToHost(DataTransferMode.UNDER_DEMAND, g.out, g.beat);
    }

    /** The uploads of an arg-max graph: its directions or geometry every execution, its scratch arrays once. */
    private static TaskGraph argmax(TaskGraph t, HullBuffers.PerGraph g, HullBuffers b, int columns) {
        t.transferToDevice(DataTransferMode.EVERY_EXECUTION, g.dD);
        return columns == 1 ? t.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.farVal, b.farIdx, b.farMidVal, b.farMidIdx)
                : t.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.bestVal, b.bestIdx, b.midVal, b.midIdx);
    }

    /** The cull graph: interior culling against params[N_INNER] planes (dD), then the points left per block. */
    public static TaskGraph cull(String name, HullBuffers b) {
        HullBuffers.PerGraph g = b.cull;
        return step(name, "cull", b, g)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, g.dD)
                .task("cull", HullTaskGraphs::cull, g.params, b.x, b.y, b.z, b.active, b.label, g.dD, b.capacity, g.beat)
                .task("count", HullTaskGraphs::count, g.params, b.label, b.counts, b.blocksCapacity, g.beat)
                .transferToHost(DataTransferMode.UNDER_DEMAND, b.counts, g.beat);
    }

    /** The scatter graph: the compacted index list from the blocks' offsets (their counts' prefix sum). */
    public static TaskGraph scatter(String name, HullBuffers b) {
        HullBuffers.PerGraph g = b.scatter;
        return step(name, "scatter", b, g)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, b.offsets)
                .task("scatter", HullTaskGraphs::scatter, g.params, b.label, b.offsets, b.active, b.blocksCapacity, g.beat)
                .transferToHost(DataTransferMode.UNDER_DEMAND, g.beat);
    }

    /** The snapshot graph: the labels to labelOut, for the host's exact decision of uncertain points. */
    public static TaskGraph snapshot(String name, HullBuffers b) {
        HullBuffers.PerGraph g = b.snapshot;
        return step(name, "snapshot", b, g)
                .task("snapshot", HullTaskGraphs::snapshot, g.params, b.label, b.labelOut, b.capacity, g.beat)
                .transferToHost(DataTransferMode.UNDER_DEMAND, b.labelOut, g.beat);
    }

    /**
     * A round graph: the delta (see {@link #applyDelta}), the reassignment with farthest pass 0, passes 1 ..
     * PASSES - 2, and the last pass with the gather of the new faces' candidates. {@code variant} is "round" (small
     * delta capacity, most rounds) or "biground"; two graphs because the delta is uploaded whole every execution.
     */
    public static TaskGraph round(String name, String variant, HullBuffers.PerGraph g, HullBuffers b) {
        TaskGraph t = step(name, variant, b, g)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, g.dD, g.dI)
                .task("applyDelta", HullTaskGraphs::applyDelta, g.params, g.dD, g.dI, b.plane, b.coneFirst, b.coneCount,
                        b.cand, b.label, b.dist, g.flags, g.cap, g.beat)
                .task("reassign", HullTaskGraphs::reassign, g.params, b.x, b.y, b.z, b.active, b.label, b.dist, b.plane,
                        b.coneFirst, b.coneCount, b.cand, g.flags, b.capacity, g.beat);
        for (int pass = 1; pass < PASSES - 1; pass++) {
            t.task("farthest" + pass, HullTaskGraphs::farthest, g.params, b.active, b.label, b.dist, b.cand, g.flags,
                    b.capacity, pass, g.beat);
        }
        return t.task("farthestGather", HullTaskGraphs::farthestGather, g.params, b.active, b.label, b.dist, b.cand,
                        g.flags, g.out, Math.max(b.capacity, g.cap), g.cap, g.beat)
                .transferToHost(DataTransferMode.UNDER_DEMAND, g.flags, g.out, g.beat);
    }
}
