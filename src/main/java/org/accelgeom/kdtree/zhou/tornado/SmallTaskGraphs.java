package org.accelgeom.kdtree.zhou.tornado;

import static org.accelgeom.kdtree.zhou.SmallKernels.MODE_BUILD;
import static org.accelgeom.kdtree.zhou.SmallKernels.MODE_PLACE;
import static org.accelgeom.kdtree.zhou.SmallKernels.S_D;
import static org.accelgeom.kdtree.zhou.SmallKernels.S_G;
import static org.accelgeom.kdtree.zhou.SmallKernels.S_MODE;
import static org.accelgeom.kdtree.zhou.SubtreeKernels.T_DEVICE;
import static org.accelgeom.kdtree.zhou.SubtreeKernels.T_EMPTY;
import static org.accelgeom.kdtree.zhou.SubtreeKernels.T_NONE;

import uk.ac.manchester.tornado.api.KernelContext;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;
import uk.ac.manchester.tornado.api.types.arrays.IntArray;

import org.accelgeom.kdtree.zhou.LevelBuffers;
import org.accelgeom.kdtree.zhou.SmallBuffers;
import org.accelgeom.kdtree.zhou.SmallKernels;
import org.accelgeom.kdtree.zhou.SubtreeKernels;

/**
 * TornadoVM task methods of the bit-mask small-node stage (Zhou et al. 2008, §4.3), a second graph of the level
 * plan that takes the level arrays over on the device. Two executions per build: build (the runs, the candidates,
 * every small root's subtree: {@link SubtreeGroup}) and place (the tree's flat arrays, {@link #place}). Every
 * execution launches all tasks; the idle ones get one work-item and a guard on the stage's mode. Each task's
 * work-item 0 writes the execution number to its heartbeat slot.
 */
public final class SmallTaskGraphs {

    private static final String[] TASKS = {"sclear", "sbounds", "scands", "sbuild", "splace"};

    /** The task names of the small stage's graph, a copy. */
    public static String[] tasks() {
        return TASKS.clone();
    }

    /**
     * Heartbeat slots of the stage's tasks, in the order of {@link #TASKS} ({@link #launchCheck}): task k's work-item 0
     * writes state[S_BEAT + k] ({@link SmallKernels#beat}), in the state array every execution downloads anyway.
     */
    static final int CLEAR = 0;
    static final int BOUNDS = 1;
    static final int CANDS = 2;
    /** Index of the build task in {@link #TASKS} (work-groups of {@link SubtreeGroup#LANES}, one per global node). */
    static final int BUILD = 3;
    static final int PLACE = 4;

    private SmallTaskGraphs() {
    }

    /** The launch check of the small stage's graph: its five tasks, in the order of their slots. */
    static org.accelgeom.engine.tornado.LaunchCheck launchCheck() {
        return new org.accelgeom.engine.tornado.LaunchCheck("kd-tree's small nodes", TASKS);
    }

    /** Throws, naming the task, unless every task wrote {@code seq} to its heartbeat slot of the downloaded state. */
    static void verify(org.accelgeom.engine.tornado.LaunchCheck check, int[] state, int seq, String device,
            String phase) {
        LevelTaskGraphs.verify(check, STATE_SLOTS, state, seq, device, phase, CLEAR, BOUNDS, CANDS, BUILD, PLACE);
    }

    private static final int[] STATE_SLOTS = {SmallKernels.S_BEAT + CLEAR, SmallKernels.S_BEAT + BOUNDS,
        SmallKernels.S_BEAT + CANDS, SmallKernels.S_BEAT + BUILD, SmallKernels.S_BEAT + PLACE};

    private static int building(int[] state) {
        int on = 0;
        if (state[S_MODE] == MODE_BUILD) {
            on = 1;
        }
        return on;
    }

    public static void smallClear(int[] state, int[] gFirst, int[] gEnd, int cap) {
        for (@Parallel int i = 0; i < cap; i++) {
            if (building(state) == 1) {
                SmallKernels.clear(state, i, gFirst, gEnd);
            }
            if (i == 0) {
                SmallKernels.beat(state, CLEAR);
            }
        }
    }

    public static void smallBounds(int[] state, int[] doneInt, int[] gFirst, int[] gEnd, int cap) {
        for (@Parallel int r = 0; r < cap; r++) {
            if (building(state) == 1) {
                SmallKernels.bounds(state, r, doneInt, gFirst, gEnd);
            }
            if (r == 0) {
                SmallKernels.beat(state, BOUNDS);
            }
        }
    }

    public static void smallCands(int[] state, int[] doneInt, float[] doneBox, int[] gFirst, int[] gEnd, float[] cPos,
            long[] cMask, int cap) {
        for (@Parallel int r = 0; r < cap; r++) {
            if (building(state) == 1) {
                SmallKernels.candidates(state, r, doneInt, doneBox, gFirst, gEnd, cPos, cMask);
            }
            if (r == 0) {
                SmallKernels.beat(state, CANDS);
            }
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
            int on = 0;
            if (state[S_MODE] == MODE_PLACE) {
                if (i < state[S_G]) {
                    on = 1;
                }
            }
            if (on == 1) {
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
     * The small stage's graph over {@code b} (whose {@code small} is set), writing the tree into the flat arrays.
     *
     * <p>One graph for both executions, switched by {@code state[S_MODE]} (issue 15 item 4 asks for a graph per
     * step): the build execution launches splace idle and the place execution the four build tasks idle, 5 idle
     * launches per tree, about 0.1 ms on an H200 at 19 µs per further kernel (docs/benchmarks.md, "Session 10,
     * launch", driver timers off). The switch adds no execution and no launch cost forbids the split: a place graph
     * of its own (taking the stage's 14 arrays over by {@code consumeFromDevice}, as the hull's graphs share theirs)
     * would save these launches; not done yet (session 11 report).
     */
    public static TaskGraph graph(String name, String levelName, LevelBuffers b, FloatArray split, IntArray info,
            IntArray leaf) {
        SmallBuffers s = b.small;
        TaskGraph g = new TaskGraph(name)
                .consumeFromDevice(levelName, LevelTaskGraphs.shared(b))
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, b.state, b.c, s.at, s.off)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, s.gFirst, s.gEnd, s.cPos, s.cMask, s.tStatus, s.tNodes,
                        s.tWords, s.rSplit, s.rInfo, s.rLeaf, split, info, leaf);
        return buildTasks(g, b)
                .task("splace", SmallTaskGraphs::place, b.state, b.gInt, b.gPos, s.gFirst, s.tStatus, s.tNodes, s.tWords,
                        s.at, s.off, s.rSplit, s.rInfo, s.rLeaf, split, info, leaf, b.gCap)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, b.state)
                .transferToHost(DataTransferMode.UNDER_DEMAND, s.gFirst, s.gEnd, s.cPos, s.cMask, s.tStatus, s.tNodes,
                        s.tWords, s.rSplit, s.rInfo, s.rLeaf, split, info, leaf);
    }

    /** The build execution's four tasks (runs, candidates, subtrees: {@link SubtreeGroup}) appended to {@code g}. */
    static TaskGraph buildTasks(TaskGraph g, LevelBuffers b) {
        SmallBuffers s = b.small;
        KernelContext ctx = new KernelContext();
        return g.task("sclear", SmallTaskGraphs::smallClear, b.state, s.gFirst, s.gEnd, b.gCap)
                .task("sbounds", SmallTaskGraphs::smallBounds, b.state, b.doneInt, s.gFirst, s.gEnd, b.rCap)
                .task("scands", SmallTaskGraphs::smallCands, b.state, b.doneInt, b.doneBox, s.gFirst, s.gEnd, s.cPos, s.cMask,
                        b.rCap)
                .task("sbuild", SubtreeGroup::build, ctx, b.state, b.c, b.v, b.gInt, b.doneInt, b.doneBox, b.gVox, b.gDepth,
                        s.gFirst, s.gEnd, s.cPos, s.cMask, s.tStatus, s.tNodes, s.tWords, s.rSplit, s.rInfo, s.rLeaf);
    }

    /** Launch sizes of the small tasks for the state's mode (idle tasks: one work-item; the build: work-groups). */
    static int[] sizes(int[] state) {
        int build = building(state);
        int placing = 0;
        if (state[S_MODE] == MODE_PLACE) {
            placing = 1;
        }
        int g = Math.max(1, build * state[S_G]);
        int d = Math.max(1, build * state[S_D]);
        int cands = 1;
        if (build == 1 && state[SmallKernels.S_CLIP] == 0) {
            cands = d;
        }
        return new int[] {g, d, cands, g * SubtreeGroup.LANES, Math.max(1, placing * state[S_G])};
    }
}
