package org.accelgeom.kdtree.zhou.tornado;

import static org.accelgeom.kdtree.zhou.LevelBuffers.P_M;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_SEQ;
import static org.accelgeom.kdtree.zhou.SmallKernels.S_G;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.tornado.TornadoDevices;
import org.accelgeom.kdtree.KdTreeOptions;
import org.accelgeom.kdtree.Triangles;
import org.accelgeom.kdtree.zhou.LevelBuffers;
import org.accelgeom.kdtree.zhou.SmallBuffers;
import org.accelgeom.kdtree.zhou.SmallKernels;
import org.accelgeom.kdtree.zhou.SubtreeKernels;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.KernelContext;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/**
 * The breadth-first kd-tree build of Zhou et al. (2008; {@code ZhouBuilder} with the bit-mask small-node stage) as
 * three named task graphs for a TornadoVM program's own execution plan, over a {@link ZhouBuffers}:
 * <ul>
 * <li>{@link #load} ({@code name + "Load"}): the triangles, uploaded or taken from the user's graph
 * ({@code consumeFromDevice}); {@code boxes} (each triangle's box: the root's references) and {@code bounds} (the
 * root's voxel, one work-group);
 * <li>{@link #levels} ({@code name + "Levels"}): two levels of the large-node stage per execution
 * ({@link LevelTaskGraphs}), all level arrays resident;
 * <li>{@link #small} ({@code name + "Small"}): the small-node stage in one execution ({@code sclear, sbounds,
 * sroots, sbuild}: every small root's subtree, largest first, {@link SubtreeGroup}; {@code slayout}: the depth-first layout of the global
 * nodes, one work-group, {@link SmallTaskGraphs#layout}; {@code splace}: the tree's arrays). The tree
 * ({@code split, info, leaf}, the triangles and the bounds) stays on the device ({@code persistOnDevice}) for the
 * user's next graph, e.g. {@code RenderTaskGraphs.trace(..., ZhouTaskGraphs.treeGraph(name), ...)} over
 * {@link ZhouBuffers#trace}.
 * </ul>
 * Protocol ({@link #build} runs it; between executions the host steers by a few scalars of the state array, 64 ints
 * that every execution brings back: the level's node and reference counts, the global-node and hand-off counts, the
 * roots left to the host):
 * {@code level.start(options, true)}, execute load once; execute levels while {@code state[P_M] > 0} (the host sizes
 * the next execution's grids from {@code P_R, P_M}); {@code level.startSmall()}, execute small, read
 * {@link #S_HOST_ROOTS}, {@link #S_NODES}, {@link #S_WORDS}. Every task writes the execution number to its heartbeat
 * slot of the state. What stays on the host: small roots of more than 64 references (the
 * large stage's forced hand-off) and roots whose subtree outgrows its region are built on the host by the library
 * call (the exact SAH builder and its allocations are not device code); here {@link #build} refuses such inputs
 * ({@code S_HOST_ROOTS > 0}) with a message naming {@code ZhouBuilder.build}. The plan compiles with
 * {@link #COMPILER_FLAGS}.
 */
public final class ZhouTaskGraphs {

    /**
     * Slots of {@link LevelBuffers#state} (free slots of the small stage's range): roots left to the host, the tree's
     * nodes and leaf-list words (written by {@code slayout}, {@link SmallTaskGraphs#S_HOST_ROOTS} ...), and the
     * heartbeats of {@code boxes} and {@code bounds}.
     */
    public static final int S_HOST_ROOTS = SmallTaskGraphs.S_HOST_ROOTS;
    public static final int S_NODES = SmallTaskGraphs.S_NODES;
    public static final int S_WORDS = SmallTaskGraphs.S_WORDS;
    static final int SLOT_BOXES = 48;
    static final int SLOT_BOUNDS = 49;

    /** Items of the {@code bounds} work-group (a power of two, the size of its local arrays). */
    static final int BOUNDS_GROUP = 256;
    /** OpenCL flags of a plan with these graphs: IEEE arithmetic, so that the tree is the jvm's. */
    public static final String COMPILER_FLAGS = "-w";

    private static final String[] LOAD_TASKS = {"boxes", "bounds"};

    /**
     * Slots of {@link #launchCheck} (the load graph's tasks; the level graph has {@link LevelTaskGraphs#launchCheck},
     * the small graph {@link SmallTaskGraphs#launchCheck}). The tasks write their heartbeats to the state array, which
     * every execution downloads anyway; the host copies them into the check's array ({@link #STATE_SLOTS}: the state
     * index of each).
     */
    static final int CHECK_BOXES = 0;
    static final int CHECK_BOUNDS = 1;
    private static final int[] STATE_SLOTS = {SLOT_BOXES, SLOT_BOUNDS};

    /** The launch check of the load graph, slots {@link #CHECK_BOXES} and {@link #CHECK_BOUNDS}. */
    public static org.accelgeom.engine.tornado.LaunchCheck launchCheck() {
        return new org.accelgeom.engine.tornado.LaunchCheck("kd-tree build", LOAD_TASKS);
    }

    private ZhouTaskGraphs() {
    }

    /** Each triangle's box ({@link Triangles#box}): the root's references. */
    public static void boxes(int[] state, float[] v, float[] rootBox, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            Triangles.box(v, i, rootBox);
            if (i == 0) {
                state[SLOT_BOXES] = state[P_SEQ];
            }
        }
    }

    /**
     * The bounds of all triangles (the root's voxel, as {@link Triangles#bounds}: min and max are exact, -0 made +0), one
     * work-group: each item a contiguous share ({@link Triangles#range}), then a tree in local memory. Not @Reduce:
     * six extremes fused in one pass.
     */
    public static void bounds(KernelContext kc, int[] state, float[] v, float[] rootBounds, int n) {
        int j = kc.localIdx;
        int items = kc.localGroupSizeX;
        float[] ext = kc.allocateFloatLocalArray(6 * BOUNDS_GROUP);
        float[] part = new float[6];
        long from = (long) n * j / items;
        long to = (long) n * (j + 1) / items;
        Triangles.range(v, 9 * (int) from, 9 * (int) to, part, 0);
        for (int a = 0; a < 6; a++) {
            ext[6 * j + a] = part[a];
        }
        kc.localBarrier();
        for (int s = items / 2; s > 0; s >>= 1) {
            if (j < s) {
                int u = 6 * (j + s);
                for (int a = 0; a < 3; a++) {
                    if (ext[u + a] < ext[6 * j + a]) {
                        ext[6 * j + a] = ext[u + a];
                    }
                    if (ext[u + 3 + a] > ext[6 * j + 3 + a]) {
                        ext[6 * j + 3 + a] = ext[u + 3 + a];
                    }
                }
            }
            kc.localBarrier();
        }
        if (j == 0) {
            for (int a = 0; a < 6; a++) {
                rootBounds[a] = ext[a] + 0.0f;
            }
            state[SLOT_BOUNDS] = state[P_SEQ];
        }
    }

    /** Global node i's record or subtree in the tree's arrays ({@link SubtreeKernels#place}); heap arrays. */
    public static void place(int[] state, int[] gInt, float[] gPos, int[] gFirst, int[] tStatus, int[] tNodes,
            int[] tWords, int[] at, int[] off, float[] rSplit, int[] rInfo, int[] rLeaf, float[] split, int[] info,
            int[] leaf, int cap) {
        for (@Parallel int i = 0; i < cap; i++) {
            if (i < state[S_G]) {
                SubtreeKernels.place(i, gInt, gPos, gFirst, tStatus, tNodes, tWords, at, off, rSplit, rInfo, rLeaf,
                        state[SmallKernels.S_FACTOR], split, info, leaf);
            }
            if (i == 0) {
                SmallKernels.beat(state, SmallTaskGraphs.PLACE);
            }
        }
    }

    /**
     * The load graph {@code name + "Load"}: the triangles {@code z.level.v} from the user's graph named
     * {@code trianglesFrom} ({@code consumeFromDevice}), or from the host on the first execution (null); their boxes
     * and bounds stay on the device for {@link #levels}.
     */
    public static TaskGraph load(String name, ZhouBuffers z, String trianglesFrom) {
        LevelBuffers b = z.level;
        TaskGraph g = new TaskGraph(name + "Load");
        if (trianglesFrom == null) {
            g = g.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.v);
        } else {
            g = g.consumeFromDevice(trianglesFrom, b.v);
        }
        return g.transferToDevice(DataTransferMode.EVERY_EXECUTION, b.state)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, b.rootBox, b.rootBounds)
                .task(LOAD_TASKS[0], ZhouTaskGraphs::boxes, b.state, b.v, b.rootBox, b.n)
                .task(LOAD_TASKS[1], ZhouTaskGraphs::bounds, new KernelContext(), b.state, b.v, b.rootBounds, b.n)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, b.state)
                .persistOnDevice(b.v, b.rootBox, b.rootBounds);
    }

    /** The level graph {@code name + "Levels"} ({@link LevelTaskGraphs#graph}), its input from {@link #load}. */
    public static TaskGraph levels(String name, ZhouBuffers z) {
        return LevelTaskGraphs.graph(name + "Levels", z.level, name + "Load");
    }

    /**
     * The small stage's graph {@link #treeGraph}{@code (name)}, on the level arrays of {@link #levels}: the tasks of
     * {@link SmallTaskGraphs#subtrees}, its place into the heap arrays {@code z.split, z.info, z.leaf}; it leaves the
     * tree on the device with the triangles {@code z.level.v} and the bounds {@code z.level.rootBounds} (the arrays of
     * {@link ZhouBuffers#trace}); the tree's arrays also come back on demand.
     */
    public static TaskGraph small(String name, ZhouBuffers z) {
        LevelBuffers b = z.level;
        SmallBuffers s = b.small;
        Object[] shared = LevelTaskGraphs.shared(b);
        Object[] from = java.util.Arrays.copyOf(shared, shared.length + 1);
        from[shared.length] = b.rootBounds;
        TaskGraph g = new TaskGraph(treeGraph(name)).consumeFromDevice(name + "Levels", from);
        return SmallTaskGraphs.buildTasks(g, b, z.split, z.info, z.leaf)
                .task("splace", ZhouTaskGraphs::place, b.state, b.gInt, b.gPos, s.gFirst, s.tStatus, s.tNodes,
                        s.tWords, s.at, s.off, s.rSplit, s.rInfo, s.rLeaf, z.split, z.info, z.leaf, b.gCap)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, b.state)
                .transferToHost(DataTransferMode.UNDER_DEMAND, z.split, z.info, z.leaf)
                .persistOnDevice(z.split, z.info, z.leaf, b.v, b.rootBounds);
    }

    /** The name of the graph that leaves the tree on the device (for the user's {@code consumeFromDevice}). */
    public static String treeGraph(String name) {
        return name + "Small";
    }

    /** The launch geometry of the three graphs: {@link #grid}; sized by {@link #build} before each execution. */
    public static final class Grid {
        private final GridScheduler scheduler = new GridScheduler();
        private final WorkerGrid1D[] level;
        private final WorkerGrid1D[] small;
        private final String[] smallTasks;
        private final int scanGroup;

        Grid(String name, ZhouBuffers z, TornadoDevice device) {
            WorkerGrid1D[] load = LevelTaskGraphs.grids(name + "Load", scheduler, LOAD_TASKS);
            load[0].setGlobalWork(z.count(), 1, 1);
            int group = TornadoDevices.workGroup(device, BOUNDS_GROUP);
            if (Integer.bitCount(group) != 1) {
                throw new AccelGeomException("the device's work-groups are too small for the kd-tree's bounds: " + group);
            }
            load[1].setGlobalWork(group, 1, 1);
            load[1].setLocalWork(group, 1, 1);
            scanGroup = TornadoDevices.workGroup(device, LevelTaskGraphs.SCAN_GROUP);
            level = LevelTaskGraphs.levelGrids(name + "Levels", scheduler, scanGroup);
            smallTasks = SmallTaskGraphs.subtreeTasks(z.level.small);
            small = SmallTaskGraphs.grids(treeGraph(name), scheduler, smallTasks, scanGroup);
        }

        /** The grids of all tasks, for {@code plan.withGridScheduler}. */
        public GridScheduler scheduler() {
            return scheduler;
        }

        void levels(int[] state) {
            LevelTaskGraphs.size(level, state, scanGroup);
        }

        void small(int[] state) {
            SmallTaskGraphs.size(small, smallTasks, state);
        }
    }

    /** The launch geometry of the graphs named {@code name} over {@code z} on {@code device} (its work-group limits). */
    public static Grid grid(String name, ZhouBuffers z, TornadoDevice device) {
        return new Grid(name, z, device);
    }

    /**
     * Runs the protocol (see above) on the plan's graphs {@code first} (load), {@code first + 1} (levels),
     * {@code first + 2} (small), whose scheduler is {@code grid}'s: afterwards the tree is on the device, its size in
     * {@link ZhouBuffers#nodes()} and {@link ZhouBuffers#words()}.
     *
     * @return the small graph's result (the tree's arrays download through it: {@code transferToHost(z.split, ...)})
     */
    public static TornadoExecutionResult build(TornadoExecutionPlan plan, int first, ZhouBuffers z, Grid grid,
            KdTreeOptions o) {
        LevelBuffers b = z.level;
        int[] st = b.state;
        b.start(o, true);
        int seq = ++st[P_SEQ];
        plan.withGraph(first).execute();
        String device = "the device";
        LevelTaskGraphs.verify(z.check, STATE_SLOTS, st, seq, device, "load", CHECK_BOXES, CHECK_BOUNDS);
        while (st[P_M] > 0) { // two levels per execution; LevelKernels.advance sets the next level's state
            grid.levels(st);
            seq = ++st[P_SEQ];
            plan.withGraph(first + 1).execute();
            LevelTaskGraphs.verify(z.levelCheck, st, seq, device);
        }
        b.startSmall();
        grid.small(st);
        seq = ++st[P_SEQ];
        TornadoExecutionResult r = plan.withGraph(first + 2).execute();
        SmallTaskGraphs.verify(z.smallCheck, st, seq, device, "small-node subtrees", grid.smallTasks);
        if (st[S_HOST_ROOTS] > 0) {
            throw new AccelGeomException(st[S_HOST_ROOTS] + " small roots of this input need the host (more than "
                    + SmallKernels.MAX_REFS + " references, or subtrees beyond their regions): build it with "
                    + "ZhouBuilder.build");
        }
        return r;
    }
}
