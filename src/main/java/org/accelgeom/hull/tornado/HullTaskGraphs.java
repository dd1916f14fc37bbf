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
 * <p>Six graphs of one execution plan share the device buffers of the points, labels, distances, index list and face
 * tables ({@code persistOnDevice} / {@code consumeFromDevice}), so that each execution launches only the tasks of its
 * step: {@link #load} (the input's points to the device, or taken from a user's graph, then init), {@link #reset}
 * (init again over points already there), {@link #setup} (extreme points, farthest from a line or plane, culling,
 * compaction, label snapshot; {@code params[MODE]} chooses), {@link #round} (a round's delta, reassignment, the
 * farthest passes and the gather of the new faces' candidates) in a small- and a full-capacity variant, and
 * {@link #passes} (more farthest passes). Every task launch costs TornadoVM about 0.15 ms on an H200, more than most
 * of these kernels, so launches are what this layout saves (setup and round still pick their step through
 * {@code params[MODE]}: see {@link #setup}). The arrays are sized by capacity ({@link HullBuffers}): the input's size goes in {@code params}
 * ({@link #N_POINTS}, {@link #N_GROUPS}, {@link #N_BLOCKS}), the launch sizes in {@link Grid}, so one plan serves
 * every input that fits.
 *
 * <p>Protocol (what {@link TornadoHullBackend} drives; a TornadoVM program that puts these graphs in its own plan
 * drives them the same way, see docs/embedding.md): build the plan over {@link #graphs} (after the user's own graphs
 * when the points come from the device) with {@link Grid#scheduler()}; execute load, then each of the other graphs
 * once in the order {@link #G_RESET} .. {@link #G_PASSES} (with {@code params[MODE] = 0} they only compile and take
 * over the shared buffers); then per hull: load (or reset), setup in {@link #MODE_EXTREMES} / {@link #MODE_FARTHEST}
 * (results in {@code red}), {@link #MODE_CULL} / {@link #MODE_COUNT} / {@link #MODE_SCATTER}, then the rounds. Every
 * execution sets {@code params[SEQ]} and the input's sizes in the executed graph's own params, and checks its
 * heartbeats ({@link #launchCheck}). Public so that other TornadoVM programs can embed the graphs.
 */
public final class HullTaskGraphs {

    /** params[MODE]: which steps of the setup and round graphs run. */
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
    /** params[N_POINTS]: the input's points (at most the buffers' capacity). */
    public static final int N_POINTS = 12;
    /** params[N_GROUPS]: work-items of the arg-max passes for the input ({@link HullBuffers#groups}). */
    public static final int N_GROUPS = 13;
    /** params[N_BLOCKS]: compaction blocks of the input ({@link HullBuffers#blocks}). */
    public static final int N_BLOCKS = 14;
    public static final int PARAMS = 16;

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
    /** Graph indices in {@link #graphs}, relative to the first hull graph of the plan. */
    public static final int G_LOAD = 0;
    public static final int G_RESET = 1;
    public static final int G_SETUP = 2;
    public static final int G_ROUND = 3;
    public static final int G_BIG_ROUND = 4;
    public static final int G_PASSES = 5;
    /** Graph names after the plan's name prefix, in the order of {@link #G_LOAD} .. {@link #G_PASSES}. */
    private static final String[] GRAPHS = {"load", "reset", "setup", "round", "biground", "passes"};
    /** Number of the hull's graphs in a plan. */
    public static final int GRAPH_COUNT = 6;
    /** Most inner-polytope planes the culling takes. */
    public static final int MAX_INNER = 1024;

    /** Heartbeat slots (see {@link #launchCheck}): each task's work-item 0 writes params[SEQ] to its slot. */
    public static final int SLOT_INIT = 0;
    public static final int SLOT_EXTREMES = 1;
    public static final int SLOT_REDUCE = 2;
    public static final int SLOT_CULL = 3;
    public static final int SLOT_APPLY_DELTA = 4;
    public static final int SLOT_REASSIGN = 5;
    /** Slot of farthest pass 0; pass p has SLOT_FARTHEST + p (up to 16 passes). */
    public static final int SLOT_FARTHEST = 6;
    public static final int SLOT_GATHER = 22;
    public static final int SLOT_SNAPSHOT = 23;
    public static final int SLOT_COUNT = 24;
    public static final int SLOT_SCATTER = 25;
    public static final int SLOT_COPY = 26;
    public static final int SLOT_CLEAR = 27;
    /** Farthest passes unrolled per execution (at most 16; -Daccelgeom.hull.passes, for tuning). */
    public static final int PASSES = Tuning.HULL_PASSES.intValue();

    private HullTaskGraphs() {
    }

    /** A launch check over the slots above, named after their tasks (one per graph: each graph has its own array). */
    public static LaunchCheck launchCheck() {
        String[] names = new String[SLOT_CLEAR + 1];
        names[SLOT_INIT] = "init";
        names[SLOT_EXTREMES] = "extremes";
        names[SLOT_REDUCE] = "reduce";
        names[SLOT_CULL] = "cull";
        names[SLOT_APPLY_DELTA] = "applyDelta";
        names[SLOT_REASSIGN] = "reassign";
        for (int p = 0; p < 16; p++) {
            names[SLOT_FARTHEST + p] = "farthest" + p;
        }
        names[SLOT_GATHER] = "gather";
        names[SLOT_SNAPSHOT] = "snapshot";
        names[SLOT_COUNT] = "count";
        names[SLOT_SCATTER] = "scatter";
        names[SLOT_COPY] = "copyToHost";
        names[SLOT_CLEAR] = "clearFlags";
        return new LaunchCheck("hull", names);
    }

    /** The heartbeat slots an execution of graph {@code graph} ({@link #G_LOAD} ..) must have written. */
    public static int[] slots(int graph, HullBuffers b) {
        int[] farthest = new int[PASSES];
        for (int p = 0; p < PASSES; p++) {
            farthest[p] = SLOT_FARTHEST + p;
        }
        return switch (graph) {
            case G_LOAD -> b.hx != null ? new int[] {SLOT_INIT, SLOT_COPY} : new int[] {SLOT_INIT};
            case G_RESET -> new int[] {SLOT_INIT};
            case G_SETUP -> new int[] {SLOT_EXTREMES, SLOT_REDUCE, SLOT_CULL, SLOT_SNAPSHOT, SLOT_COUNT, SLOT_SCATTER};
            case G_ROUND, G_BIG_ROUND -> concat(new int[] {SLOT_APPLY_DELTA, SLOT_REASSIGN, SLOT_GATHER}, farthest);
            case G_PASSES -> concat(new int[] {SLOT_CLEAR, SLOT_GATHER}, farthest);
            default -> throw new IllegalArgumentException("no hull graph " + graph);
        };
    }

    private static int[] concat(int[] a, int[] b) {
        int[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
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
     * MODE_COUNT: points still in play (label other than -1) in each block of {@link HullBuffers#BLOCK}. Not a
     * {@code @Reduce}: the scatter needs each block's count (their prefix sum), not the total.
     */
    public static void count(int[] params, int[] label, int[] counts, int blocks, int[] beat) {
        for (@Parallel int b = 0; b < blocks; b++) {
            if (b == 0) {
                beat[SLOT_COUNT] = params[SEQ];
            }
            if (params[MODE] == MODE_COUNT && b < params[N_BLOCKS]) {
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

    /** MODE_SCATTER: the index list of the points in play, in index order, each block from offsets[b]. */
    public static void scatter(int[] params, int[] label, int[] offsets, int[] active, int blocks, int[] beat) {
        for (@Parallel int b = 0; b < blocks; b++) {
            if (b == 0) {
                beat[SLOT_SCATTER] = params[SEQ];
            }
            if (params[MODE] == MODE_SCATTER && b < params[N_BLOCKS]) {
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

    public static void extremes(int[] params, double[] x, double[] y, double[] z, double[] dD, int work,
            double[] bestVal, int[] bestIdx, int[] beat) {
        for (@Parallel int w = 0; w < work; w++) {
            if (w == 0) {
                beat[SLOT_EXTREMES] = params[SEQ];
            }
            int mode = params[MODE];
            int n = params[N_POINTS];
            int groups = params[N_GROUPS];
            int nDirs = params[N_DIRS];
            int blocks = (nDirs + HullKernels.DIR_BLOCK - 1) / HullKernels.DIR_BLOCK;
            if (mode == MODE_EXTREMES && w % 16 < blocks && w / 16 < groups) {
                HullKernels.extremesPartial(x, y, z, w / 16, n, groups, dD, nDirs, w % 16, w / 16, bestVal, bestIdx);
            }
            if (mode == MODE_FARTHEST && w % 16 == 0 && w / 16 < groups) {
                HullKernels.farthestPartial(x, y, z, w / 16, n, groups, dD, params[GEOM_MODE], w / 16, bestVal, bestIdx);
            }
        }
    }

    /**
     * The arg-max reduction of {@link #extremes}' partial results. Hand-written, not {@code @Reduce}: it carries the
     * point's index with its value (the smallest index among equal values), which TornadoVM's {@code @Reduce} (one
     * value per reduction) cannot.
     */
    public static void reduce(int[] params, double[] bestVal, int[] bestIdx, int[] out, int[] beat) {
        for (@Parallel int k = 0; k < 128; k++) {
            int groups = params[N_GROUPS];
            if (k == 0) {
                beat[SLOT_REDUCE] = params[SEQ];
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
            int capacity, int[] beat) {
        for (@Parallel int i = 0; i < capacity; i++) {
            if (i == 0) {
                beat[SLOT_CULL] = params[SEQ];
            }
            if (params[MODE] == MODE_CULL && i < params[N_POINTS]) {
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
                beat[SLOT_APPLY_DELTA] = params[SEQ];
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
                beat[SLOT_REASSIGN] = params[SEQ];
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
                beat[SLOT_FARTHEST + pass] = params[SEQ];
            }
            int mode = params[MODE];
            if ((mode == MODE_ROUND || mode == MODE_PASSES || mode == MODE_FIX) && i < params[N_ACTIVE]) {
                HullKernels.farthestPass(active, i, label, dist, cand, params[ROUND_BASE], flags, HullKernels.FLAG_PASS + pass);
            }
        }
    }

    /** The passes graph's first task: its flags to 0. */
    public static void clearFlags(int[] params, int[] flags, int[] beat) {
        for (@Parallel int j = 0; j < flags.length; j++) {
            if (j == 0) {
                beat[SLOT_CLEAR] = params[SEQ];
            }
            flags[j] = 0;
        }
    }

    /**
     * Copies the labels to an array that only ever goes device to host: downloading an array that is
     * also a resident input of the plan corrupted later executions on TornadoVM 5.2 (POCL), so the host reads
     * these copies instead.
     */
    public static void snapshot(int[] params, int[] label, int[] labelOut, int capacity, int[] beat) {
        for (@Parallel int i = 0; i < capacity; i++) {
            if (i == 0) {
                beat[SLOT_SNAPSHOT] = params[SEQ];
            }
            if (params[MODE] == MODE_SNAPSHOT && i < params[N_POINTS]) {
                labelOut[i] = label[i];
            }
        }
    }

    public static void gather(int[] params, int[] cand, int[] out, int cap, int[] beat) {
        for (@Parallel int j = 0; j < cap; j++) {
            if (j == 0) {
                beat[SLOT_GATHER] = params[SEQ];
            }
            int mode = params[MODE];
            if ((mode == MODE_ROUND || mode == MODE_PASSES || mode == MODE_FIX) && j < params[NEW_COUNT]) {
                out[j] = cand[params[NEW_BASE] + j];
            }
        }
    }

    /**
     * The launch geometry of every task of {@link #graphs}: one work-item per loop index of the current input, and the
     * work-group size left to the OpenCL driver, which fits it to the kernel's registers (TornadoVM's own choice made
     * the reassignment kernel fail with CL_OUT_OF_RESOURCES on an H200). With a grid, TornadoVM takes the global size
     * as the loop bound; the kernels guard the input's size too, so a grid is an optimisation, never a correctness
     * condition. {@link #resize} fits it to a new input, {@link #activate} the per-point tasks of the round and passes
     * graphs to the compacted index list.
     */
    public static final class Grid {
        private final GridScheduler scheduler = new GridScheduler();
        private final List<WorkerGrid> points = new ArrayList<>();
        private final List<WorkerGrid> active = new ArrayList<>();
        private final List<WorkerGrid> blocks = new ArrayList<>();
        private final List<WorkerGrid> init = new ArrayList<>();
        private WorkerGrid groups;
        private final int faces;

        Grid(String name, HullBuffers b) {
            faces = b.faceCapacity;
            for (String g : new String[] {"load", "reset"}) {
                init.add(add(name + g + ".init", Math.max(b.n, faces)));
            }
            if (b.hx != null) {
                points.add(add(name + "load.copyToHost", b.n));
            }
            String s = name + "setup.";
            groups = add(s + "extremes", 16 * b.groups);
            add(s + "reduce", 128);
            points.add(add(s + "cull", b.n));
            blocks.add(add(s + "count", b.blocks));
            blocks.add(add(s + "scatter", b.blocks));
            points.add(add(s + "snapshot", b.n));
            for (String g : new String[] {"round", "biground", "passes"}) {
                int cap = g.equals("round") ? b.round.cap : b.cap;
                if (!g.equals("passes")) {
                    add(name + g + ".applyDelta", cap);
                    active.add(add(name + g + ".reassign", b.n));
                }
                for (int pass = 0; pass < PASSES; pass++) {
                    active.add(add(name + g + ".farthest" + pass, b.n));
                }
                add(name + g + ".gather", cap);
            }
            add(name + "passes.clearFlags", b.passes.flags.length); // every task has a grid (KernelCache's contract)
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
            groups.setGlobalWork(16 * b.groups, 1, 1);
            activate(b.n);
        }

        /** The per-point tasks of the round and passes graphs visit the first m entries of the index list. */
        public void activate(int m) {
            set(active, m);
        }

        private static void set(List<WorkerGrid> grids, int global) {
            for (WorkerGrid w : grids) {
                w.setGlobalWork(Math.max(1, global), 1, 1);
            }
        }
    }

    /** The launch geometry of the graphs of {@link #graphs}{@code (name, b)}, fitted to b's current input. */
    public static Grid grid(String name, HullBuffers b) {
        return new Grid(name, b);
    }

    /** The arrays the graphs share on the device (owned by the load graph). */
    private static Object[] shared(HullBuffers b) {
        return new Object[] {b.x, b.y, b.z, b.label, b.active, b.dist, b.plane, b.coneFirst, b.coneCount, b.cand};
    }

    /** The six graphs of one plan over points the host uploads, in the order of {@link #G_LOAD} .. {@link #G_PASSES}. */
    public static TaskGraph[] graphs(String name, HullBuffers b) {
        return graphs(name, b, null);
    }

    /**
     * The six graphs of one plan, in the order of {@link #G_LOAD} .. {@link #G_PASSES}; with {@code source}, the name
     * of a user's graph of the same plan that leaves the points on the device ({@code persistOnDevice(x, y, z)} of the
     * arrays of {@link HullBuffers#onDevice}), from which the load graph takes them ({@code consumeFromDevice}).
     */
    public static TaskGraph[] graphs(String name, HullBuffers b, String source) {
        if ((source != null) != (b.hx != null)) {
            throw new IllegalArgumentException(source != null ? "device points need HullBuffers.onDevice"
                    : "HullBuffers.onDevice needs the name of the graph that makes the points");
        }
        TaskGraph[] g = new TaskGraph[GRAPHS.length];
        g[G_LOAD] = load(name, b, source);
        g[G_RESET] = reset(name, b);
        g[G_SETUP] = setup(name, b);
        g[G_ROUND] = round(name, "round", b.round, b);
        g[G_BIG_ROUND] = round(name, "biground", b.bigRound, b);
        g[G_PASSES] = passes(name, b);
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
        return consumeShared(new CachedTaskGraph(name + "reset"), name, "reset", shared(b))
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, g.params)
                .task("init", HullTaskGraphs::init, g.params, b.active, b.label, b.dist, b.plane, b.coneFirst,
                        b.coneCount, b.cand, b.faceCapacity, Math.max(b.capacity, b.faceCapacity), g.beat)
                .transferToHost(DataTransferMode.UNDER_DEMAND, g.beat);
    }

    /**
     * The setup graph: {@code params[MODE]} picks extreme points (the paper's Init_tetr), farthest point from a line
     * or plane, culling, block counts, compaction, or the label snapshot. Still modes (issue 15 item 4 is
     * open here): every execution launches the graph's 6 tasks, of which the others return at once (an empty task
     * launch costs about 0.15 ms on an H200); a graph per step would launch fewer but add a graph per mode to the plan,
     * each compiled and handed the shared buffers on its first execution. Not measured yet either way.
     */
    public static TaskGraph setup(String name, HullBuffers b) {
        HullBuffers.PerGraph g = b.setup;
        return consumeShared(new CachedTaskGraph(name + "setup"), name, "setup", shared(b))
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, b.bestVal, b.bestIdx)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, g.params, g.dD, b.offsets)
                .task("extremes", HullTaskGraphs::extremes, g.params, b.x, b.y, b.z, g.dD, 16 * b.groupsCapacity,
                        b.bestVal, b.bestIdx, g.beat)
                .task("reduce", HullTaskGraphs::reduce, g.params, b.bestVal, b.bestIdx, b.red, g.beat)
                .task("cull", HullTaskGraphs::cull, g.params, b.x, b.y, b.z, b.active, b.label, g.dD, b.capacity, g.beat)
                .task("count", HullTaskGraphs::count, g.params, b.label, b.counts, b.blocksCapacity, g.beat)
                .task("scatter", HullTaskGraphs::scatter, g.params, b.label, b.offsets, b.active, b.blocksCapacity, g.beat)
                .task("snapshot", HullTaskGraphs::snapshot, g.params, b.label, b.labelOut, b.capacity, g.beat)
                .transferToHost(DataTransferMode.UNDER_DEMAND, b.red, b.labelOut, b.counts, g.beat);
    }

    /**
     * A round graph: the round's delta (MODE_ROUND), or the host's answers for uncertain points (MODE_FIX), or
     * only dead apexes (MODE_KILL), then reassignment (step 8), the farthest passes (step 3) and the gather of
     * the new faces' candidates. {@code variant} is "round" (small delta) or "biground".
     */
    public static TaskGraph round(String name, String variant, HullBuffers.PerGraph g, HullBuffers b) {
        TaskGraph t = consumeShared(new CachedTaskGraph(name + variant), name, variant, shared(b))
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, g.params, g.dD, g.dI)
                .task("applyDelta", HullTaskGraphs::applyDelta, g.params, g.dD, g.dI, b.plane, b.coneFirst, b.coneCount,
                        b.cand, b.label, b.dist, g.flags, g.cap, g.beat)
                .task("reassign", HullTaskGraphs::reassign, g.params, b.x, b.y, b.z, b.active, b.label, b.dist, b.plane,
                        b.coneFirst, b.coneCount, g.flags, b.capacity, g.beat);
        for (int pass = 0; pass < PASSES; pass++) {
            t.task("farthest" + pass, HullTaskGraphs::farthest, g.params, b.active, b.label, b.dist, b.cand, g.flags,
                    b.capacity, pass, g.beat);
        }
        return t.task("gather", HullTaskGraphs::gather, g.params, b.cand, g.out, g.cap, g.beat)
                .transferToHost(DataTransferMode.UNDER_DEMAND, g.flags, g.out, g.beat);
    }

    /** More farthest passes after a round whose last pass still changed a candidate, then the gather. */
    public static TaskGraph passes(String name, HullBuffers b) {
        HullBuffers.PerGraph g = b.passes;
        // the flags are cleared on the device, not uploaded: an array both uploaded and downloaded is freed twice by
        // TornadoVM 5.2 (see load)
        TaskGraph t = consumeShared(new CachedTaskGraph(name + "passes"), name, "passes", shared(b))
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, g.params)
                .task("clearFlags", HullTaskGraphs::clearFlags, g.params, g.flags, g.beat);
        for (int pass = 0; pass < PASSES; pass++) {
            t.task("farthest" + pass, HullTaskGraphs::farthest, g.params, b.active, b.label, b.dist, b.cand, g.flags,
                    b.capacity, pass, g.beat);
        }
        return t.task("gather", HullTaskGraphs::gather, g.params, b.cand, g.out, g.cap, g.beat)
                .transferToHost(DataTransferMode.UNDER_DEMAND, g.flags, g.out, g.beat);
    }
}
