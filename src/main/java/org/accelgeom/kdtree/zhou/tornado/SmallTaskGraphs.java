package org.accelgeom.kdtree.zhou.tornado;

import static org.accelgeom.kdtree.zhou.LevelBuffers.P_SEQ;
import static org.accelgeom.kdtree.zhou.SmallKernels.S_D;
import static org.accelgeom.kdtree.zhou.SmallKernels.S_G;
import static org.accelgeom.kdtree.zhou.SubtreeKernels.T_DEVICE;
import static org.accelgeom.kdtree.zhou.SubtreeKernels.T_EMPTY;
import static org.accelgeom.kdtree.zhou.SubtreeKernels.T_EXACT;
import static org.accelgeom.kdtree.zhou.SubtreeKernels.T_HOST;
import static org.accelgeom.kdtree.zhou.SubtreeKernels.T_NONE;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.KernelContext;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;
import uk.ac.manchester.tornado.api.types.arrays.IntArray;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Tuning;
import org.accelgeom.kdtree.zhou.FlatLayout;
import org.accelgeom.kdtree.zhou.LevelBuffers;
import org.accelgeom.kdtree.zhou.SmallBuffers;
import org.accelgeom.kdtree.zhou.SmallKernels;
import org.accelgeom.kdtree.zhou.SubtreeKernels;

/**
 * TornadoVM task methods and graphs of the bit-mask small-node stage (Zhou et al. 2008, §4.3), which take the level
 * arrays over on the device. Two named graphs, each launching only what it runs:
 * <ul>
 * <li>{@link #subtrees} ({@code sclear, sbounds, [scands,] sroots, sbuild, slayout, splace}): the runs, Zhou et al.'s
 * candidates (only with their masks), every small root's subtree ({@link SubtreeGroup}), the depth-first layout of
 * the global nodes ({@link #layout}, one work-group) and the tree's flat arrays ({@link #place}): one execution per
 * build when no root is left to the host ({@link #S_HOST_ROOTS} is 0 in the state it brings back);
 * <li>{@link #place} ({@code splace}): when roots were left to the host, the place again with the host's layout
 * ({@link SmallBuffers#at}, {@link SmallBuffers#off}, uploaded).
 * </ul>
 * Each task's work-item 0 writes the execution number to its heartbeat slot.
 */
public final class SmallTaskGraphs {

    /** The tasks, in the order of their slots in {@link #launchCheck}. */
    private static final String[] TASKS = {"sclear", "sbounds", "scands", "sbuild", "splace", "slayout", "sroots"};

    /**
     * Slots of {@link #launchCheck}: task k's work-item 0 writes its state slot {@link #STATE_SLOTS}[k] (the state array
     * comes back with every execution anyway).
     */
    static final int CLEAR = 0;
    static final int BOUNDS = 1;
    static final int CANDS = 2;
    /** The subtree task (work-groups of {@link SubtreeGroup#LANES}, one per small root). */
    static final int BUILD = 3;
    static final int PLACE = 4;
    static final int LAYOUT = 5;
    static final int ROOTS = 6;

    /**
     * Slots of {@link LevelBuffers#state} (free slots of the small stage's range) written by {@code slayout}: the roots
     * left to the host, the tree's nodes and leaf-list words, the references the global nodes' runs cover (the
     * hand-off list's length when it is grouped by node), and the layout's heartbeat.
     */
    public static final int S_HOST_ROOTS = 45;
    public static final int S_NODES = 46;
    public static final int S_WORDS = 47;
    public static final int S_COVERED = 51;
    static final int SLOT_LAYOUT = 50;
    /**
     * Slots of the state for {@code sroots} (below the small stage's range, unused by the levels): the bands of
     * reference counts it orders the roots by (1: the global nodes' order), the roots it lists, its heartbeat.
     */
    public static final int S_BANDS = 34;
    public static final int S_ROOTS = 35;
    static final int SLOT_ROOTS = 36;

    private static final int[] STATE_SLOTS = {SmallKernels.S_BEAT + CLEAR, SmallKernels.S_BEAT + BOUNDS,
        SmallKernels.S_BEAT + CANDS, SmallKernels.S_BEAT + BUILD, SmallKernels.S_BEAT + PLACE, SLOT_LAYOUT, SLOT_ROOTS};

    /** Items of the layout's work-group at most (the size of its local arrays). */
    static final int LAYOUT_GROUP = LevelTaskGraphs.SCAN_GROUP;

    private SmallTaskGraphs() {
    }

    /** The launch check of the small stage's graphs: its seven tasks, in the order of their slots. */
    static org.accelgeom.engine.tornado.LaunchCheck launchCheck() {
        return new org.accelgeom.engine.tornado.LaunchCheck("kd-tree's small nodes", TASKS);
    }

    /** Throws, naming the task, unless each of {@code tasks} wrote {@code seq} to its heartbeat slot of the state. */
    static void verify(org.accelgeom.engine.tornado.LaunchCheck check, int[] state, int seq, String device,
            String phase, String[] tasks) {
        int[] slots = new int[tasks.length];
        for (int j = 0; j < tasks.length; j++) {
            slots[j] = slot(tasks[j]);
        }
        LevelTaskGraphs.verify(check, STATE_SLOTS, state, seq, device, phase, slots);
    }

    /** The slot of a task named in {@link #TASKS}. */
    static int slot(String task) {
        for (int k = 0; k < TASKS.length; k++) {
            if (TASKS[k].equals(task)) {
                return k;
            }
        }
        throw new IllegalArgumentException(task);
    }

    /** The state slot of a task's heartbeat. */
    static int beatSlot(String task) {
        return STATE_SLOTS[slot(task)];
    }

    /**
     * The tasks of the {@link #subtrees} graph over {@code s}: {@code scands} only with Zhou et al.'s masks (with
     * clipping each node forms its candidates' masks itself).
     */
    static String[] subtreeTasks(SmallBuffers s) {
        if (s.masks) {
            return new String[] {"sclear", "sbounds", "scands", "sroots", "sbuild", "slayout", "splace"};
        }
        return new String[] {"sclear", "sbounds", "sroots", "sbuild", "slayout", "splace"};
    }

    /** The task of the {@link #place} graph. */
    static String[] placeTasks() {
        return new String[] {"splace"};
    }

    public static void smallClear(int[] state, int[] gFirst, int[] gEnd, int cap) {
        for (@Parallel int i = 0; i < cap; i++) {
            SmallKernels.clear(state, i, gFirst, gEnd);
            if (i == 0) {
                SmallKernels.beat(state, CLEAR);
            }
        }
    }

    public static void smallBounds(int[] state, int[] doneInt, int[] gFirst, int[] gEnd, int cap) {
        for (@Parallel int r = 0; r < cap; r++) {
            SmallKernels.bounds(state, r, doneInt, gFirst, gEnd);
            if (r == 0) {
                SmallKernels.beat(state, BOUNDS);
            }
        }
    }

    public static void smallCands(int[] state, int[] doneInt, float[] doneBox, int[] gFirst, int[] gEnd, float[] cPos,
            long[] cMask, int cap) {
        for (@Parallel int r = 0; r < cap; r++) {
            SmallKernels.candidates(state, r, doneInt, doneBox, gFirst, gEnd, cPos, cMask);
            if (r == 0) {
                SmallKernels.beat(state, CANDS);
            }
        }
    }

    /**
     * The small roots the subtree kernel builds ({@link SubtreeGroup#rootStatus} T_DEVICE, marked so in
     * {@code tStatus}; every other global node gets its status and counts here) listed in {@code order}, in one
     * work-group: by bands of their reference counts, the largest first ({@code state[S_BANDS]} bands; 1: the
     * global nodes' order), within a band in the global nodes' order (a prefix sum per band over the items'
     * segments). A root's subtree has about 3.3 nodes per reference (the dragon), so the largest run first and the
     * launch does not end on a large root started last. The count goes to {@code state[S_ROOTS]}. Not @Reduce: each
     * item needs its own prefix.
     */
    public static void roots(KernelContext kc, int[] state, int[] gInt, int[] gDepth, int[] gFirst, int[] gEnd,
            int[] tStatus, int[] tNodes, int[] tWords, int[] order) {
        int j = kc.localIdx;
        int items = kc.localGroupSizeX;
        int[] p = kc.allocateIntLocalArray(LAYOUT_GROUP);
        int g = state[S_G];
        int per = (g + items - 1) / items;
        int a = Math.min(g, j * per);
        int e = Math.min(g, a + per);
        for (int id = a; id < e; id++) {
            SubtreeGroup.mark(state, gInt, id, gFirst, gEnd, tStatus, tNodes, tWords);
        }
        int bands = state[S_BANDS];
        int base = 0;
        for (int band = bands - 1; band >= 0; band--) {
            int cnt = 0;
            for (int id = a; id < e; id++) {
                cnt += SubtreeGroup.inBand(tStatus, gFirst, gEnd, id, band, bands);
            }
            p[j] = cnt;
            kc.localBarrier();
            for (int off = 1; off < items; off <<= 1) {
                int x = (j >= off ? 1 : 0) * p[Math.max(j - off, 0)];
                kc.localBarrier();
                p[j] += x;
                kc.localBarrier();
            }
            int at = base + p[j] - cnt;
            for (int id = a; id < e; id++) {
                if (SubtreeGroup.inBand(tStatus, gFirst, gEnd, id, band, bands) == 1) {
                    order[at] = id;
                    at++;
                }
            }
            base += p[items - 1];
            kc.localBarrier();
        }
        if (j == 0) {
            state[S_ROOTS] = base;
            state[SLOT_ROOTS] = state[P_SEQ];
        }
    }

    /**
     * {@link FlatLayout#layout} in one work-group, level by level (the global nodes of one depth are a run of ids,
     * {@link FlatLayout#levelStart}): the subtree totals bottom-up ({@link FlatLayout#up}), then each node's
     * depth-first index and leaf-list offset top-down ({@link FlatLayout#down}), a barrier between levels; the same
     * values as the host's loop (integer sums). Also counts the roots left to the host and the references the runs
     * cover, into the state ({@link #S_HOST_ROOTS} ...). With roots left to the host the layout is not the tree's
     * (their counts are the host's to give); the host lays it out again and runs {@link #place}. Not @Reduce: the
     * counts are two sums fused with the layout's passes over the same nodes.
     */
    public static void layout(KernelContext kc, int[] state, int[] gInt, int[] gDepth, int[] gFirst, int[] gEnd,
            int[] tStatus, int[] tNodes, int[] tWords, int[] size, int[] words, int[] at, int[] off) {
        int j = kc.localIdx;
        int items = kc.localGroupSizeX;
        int[] host = kc.allocateIntLocalArray(LAYOUT_GROUP);
        int[] covered = kc.allocateIntLocalArray(LAYOUT_GROUP);
        int g = state[S_G];
        int deepest = gDepth[Math.max(g - 1, 0)];
        int h = 0;
        int cover = 0;
        for (int id = j; id < g; id += items) {
            int st = tStatus[id];
            if (st == T_EXACT) {
                h++;
            }
            if (st == T_HOST) {
                h++;
            }
            if (gInt[2 * id] == LevelBuffers.HANDED) {
                cover += gEnd[id] - gFirst[id];
            }
        }
        host[j] = h;
        covered[j] = cover;
        for (int d = deepest; d >= 0; d--) {
            int lo = FlatLayout.levelStart(gDepth, g, d) + j;
            int hi = FlatLayout.levelStart(gDepth, g, d + 1);
            for (int id = lo; id < hi; id += items) {
                FlatLayout.up(id, gInt, tStatus, tNodes, tWords, size, words);
            }
            kc.globalBarrier();
        }
        if (j == 0) {
            at[0] = 0;
            off[0] = 0;
        }
        kc.globalBarrier();
        for (int d = 0; d <= deepest; d++) {
            int lo = FlatLayout.levelStart(gDepth, g, d) + j;
            int hi = FlatLayout.levelStart(gDepth, g, d + 1);
            for (int id = lo; id < hi; id += items) {
                FlatLayout.down(id, gInt, tStatus, size, words, at, off);
            }
            kc.globalBarrier();
        }
        kc.localBarrier();
        if (j == 0) {
            int hs = 0;
            int cs = 0;
            for (int k = 0; k < items; k++) {
                hs += host[k];
                cs += covered[k];
            }
            state[S_HOST_ROOTS] = hs;
            state[S_COVERED] = cs;
            state[S_NODES] = size[0];
            state[S_WORDS] = words[0];
            state[SLOT_LAYOUT] = state[P_SEQ];
        }
    }

    /**
     * {@link SubtreeKernels#place} into the device's flat arrays (TornadoVM native arrays, so that only the tree's
     * length comes back to the host).
     */
    public static void place(int[] state, int[] gInt, float[] gPos, int[] gFirst, int[] tStatus, int[] tNodes,
            int[] tWords, int[] at, int[] off, float[] rSplit, int[] rInfo, int[] rLeaf, FloatArray split, IntArray info,
            IntArray leaf, int cap) {
        for (@Parallel int i = 0; i < cap; i++) {
            if (i < state[S_G]) {
                int status = tStatus[i];
                int a = at[i];
                int o = off[i];
                if (status == T_NONE) {
                    int l = gInt[2 * i + 1];
                    split.set(a, gPos[i]);
                    info.set(a, (at[l + 1] << 2) | gInt[2 * i]);
                }
                if (status == T_EMPTY) {
                    split.set(a, 0f);
                    info.set(a, (o << 2) | 3);
                    leaf.set(o, 0);
                }
                if (status == T_DEVICE) {
                    int base = SubtreeKernels.base(state, gFirst[i]);
                    for (int j = 0; j < tNodes[i]; j++) {
                        split.set(a + j, rSplit[base + j]);
                        info.set(a + j, SubtreeKernels.relocated(rInfo[base + j], a, o));
                    }
                    for (int j = 0; j < tWords[i]; j++) {
                        leaf.set(o + j, rLeaf[base + j]);
                    }
                }
            }
            if (i == 0) {
                SmallKernels.beat(state, PLACE);
            }
        }
    }

    /**
     * The subtrees graph {@code name} over {@code b} (whose {@code small} is set), on the level arrays of the graph
     * {@code levelName} ({@link LevelTaskGraphs#shared}), writing the tree into {@code split, info, leaf}: the runs,
     * the candidates (Zhou et al.'s masks only), the subtrees, the layout and the place in one execution. The stage's
     * arrays come back on demand (from this graph's result: TornadoVM 5.2 brings a consumed array back from the host's
     * copy, docs/embedding.md); what {@link #place} needs stays on the device.
     */
    public static TaskGraph subtrees(String name, String levelName, LevelBuffers b, FloatArray split, IntArray info,
            IntArray leaf) {
        SmallBuffers s = b.small;
        TaskGraph g = buildTasks(new TaskGraph(name).consumeFromDevice(levelName, LevelTaskGraphs.shared(b)), b, split,
                info, leaf);
        return g.task("splace", SmallTaskGraphs::place, b.state, b.gInt, b.gPos, s.gFirst, s.tStatus, s.tNodes, s.tWords,
                        s.at, s.off, s.rSplit, s.rInfo, s.rLeaf, split, info, leaf, b.gCap)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, b.state)
                .transferToHost(DataTransferMode.UNDER_DEMAND, s.gFirst, s.gEnd, s.cPos, s.cMask, s.tStatus, s.tNodes,
                        s.tWords, s.rSplit, s.rInfo, s.rLeaf, split, info, leaf)
                .persistOnDevice(b.gInt, b.gPos, s.gFirst, s.tStatus, s.tNodes, s.tWords, s.rSplit, s.rInfo, s.rLeaf, split,
                        info, leaf);
    }

    /**
     * The place graph {@code name}: {@code splace} again on the arrays of the {@link #subtrees} graph
     * {@code subtreesName}, with the host's layout ({@code at, off}, uploaded), when roots were left to the host (their
     * subtrees are the host's to copy in). Its writes come back through the subtrees graph's result.
     */
    public static TaskGraph place(String name, String subtreesName, LevelBuffers b, FloatArray split, IntArray info,
            IntArray leaf) {
        SmallBuffers s = b.small;
        return new TaskGraph(name)
                .consumeFromDevice(subtreesName, b.gInt, b.gPos, s.gFirst, s.tStatus, s.tNodes, s.tWords, s.rSplit, s.rInfo,
                        s.rLeaf, split, info, leaf)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, b.state, s.at, s.off)
                .task("splace", SmallTaskGraphs::place, b.state, b.gInt, b.gPos, s.gFirst, s.tStatus, s.tNodes, s.tWords,
                        s.at, s.off, s.rSplit, s.rInfo, s.rLeaf, split, info, leaf, b.gCap)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, b.state);
    }

    /**
     * The subtrees graph's inputs and its tasks before the place ({@link #subtreeTasks}) appended to {@code g}, which
     * has taken the level arrays over; {@code tree}: the arrays the place writes (a graph of its own allocates them).
     */
    static TaskGraph buildTasks(TaskGraph g, LevelBuffers b, Object... tree) {
        SmallBuffers s = b.small;
        KernelContext ctx = new KernelContext();
        TaskGraph t = g.transferToDevice(DataTransferMode.EVERY_EXECUTION, b.state, b.c)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, s.gFirst, s.gEnd, s.cPos, s.cMask, s.tStatus, s.tNodes,
                        s.tWords, s.rSplit, s.rInfo, s.rLeaf, s.at, s.off, s.size, s.words, s.order)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, tree)
                .task("sclear", SmallTaskGraphs::smallClear, b.state, s.gFirst, s.gEnd, b.gCap)
                .task("sbounds", SmallTaskGraphs::smallBounds, b.state, b.doneInt, s.gFirst, s.gEnd, b.rCap);
        if (s.masks) {
            t = t.task("scands", SmallTaskGraphs::smallCands, b.state, b.doneInt, b.doneBox, s.gFirst, s.gEnd, s.cPos,
                    s.cMask, b.rCap);
        }
        t = t.task("sroots", SmallTaskGraphs::roots, ctx, b.state, b.gInt, b.gDepth, s.gFirst, s.gEnd, s.tStatus,
                s.tNodes, s.tWords, s.order);
        // the kernel of the stage's mode (each drops the other mode's code)
        if (s.masks) {
            t = t.task("sbuild", SubtreeGroup::buildMasks, ctx, b.state, b.c, b.v, b.gInt, b.doneInt, b.doneBox, b.gVox,
                    b.gDepth, s.gFirst, s.gEnd, s.order, s.tStatus, s.tNodes, s.tWords, s.rSplit, s.rInfo, s.rLeaf);
        } else {
            t = t.task("sbuild", SubtreeGroup::build, ctx, b.state, b.c, b.v, b.gInt, b.doneInt, b.doneBox, b.gVox,
                    b.gDepth, s.gFirst, s.gEnd, s.order, s.tStatus, s.tNodes, s.tWords, s.rSplit, s.rInfo, s.rLeaf);
        }
        return t.task("slayout", SmallTaskGraphs::layout, ctx, b.state, b.gInt, b.gDepth, s.gFirst, s.gEnd, s.tStatus,
                        s.tNodes, s.tWords, s.size, s.words, s.at, s.off);
    }

    /**
     * The grids of {@code tasks} of graph {@code name} in {@code gs}: the subtree task's work-groups of
     * {@link SubtreeGroup#LANES}, the layout one work-group of {@code layoutGroup} items; {@link #size} sets the rest.
     */
    static WorkerGrid1D[] grids(String name, GridScheduler gs, String[] tasks, int layoutGroup) {
        WorkerGrid1D[] w = LevelTaskGraphs.grids(name, gs, tasks);
        for (int j = 0; j < tasks.length; j++) {
            if (tasks[j].equals("sbuild")) {
                w[j].setLocalWork(SubtreeGroup.LANES, 1, 1);
            }
            if (tasks[j].equals("slayout") || tasks[j].equals("sroots")) {
                w[j].setGlobalWork(layoutGroup, 1, 1);
                w[j].setLocalWork(layoutGroup, 1, 1);
            }
        }
        return w;
    }

    /**
     * Sizes the grids of {@code tasks} for the stage's state: global nodes (the subtree kernel a work-group each: the
     * roots are fewer), hand-off references; the root list's order ({@code accelgeom.kdtree.subtreeOrder}).
     */
    static void size(WorkerGrid1D[] w, String[] tasks, int[] state) {
        int g = Math.max(1, state[S_G]);
        int d = Math.max(1, state[S_D]);
        if ((long) g * SubtreeGroup.LANES > Integer.MAX_VALUE) {
            throw new AccelGeomException("too many global nodes for one launch of the small-node stage");
        }
        state[S_BANDS] = Tuning.KDTREE_SUBTREE_ORDER.booleanValue() ? 9 : 1;
        for (int j = 0; j < tasks.length; j++) {
            switch (tasks[j]) {
                case "sbounds", "scands" -> w[j].setGlobalWork(d, 1, 1);
                case "sbuild" -> w[j].setGlobalWork(g * SubtreeGroup.LANES, 1, 1);
                case "slayout", "sroots" -> {
                }
                default -> w[j].setGlobalWork(g, 1, 1); // sclear, splace
            }
        }
    }
}
