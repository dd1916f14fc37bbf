package org.accelgeom.kdtree.tornado;

import static org.accelgeom.kdtree.LevelBuffers.CHUNK;
import static org.accelgeom.kdtree.SmallKernels.MODE_OFF;
import static org.accelgeom.kdtree.SmallKernels.MODE_SEED;
import static org.accelgeom.kdtree.SmallKernels.S_CHUNKS;
import static org.accelgeom.kdtree.SmallKernels.S_D;
import static org.accelgeom.kdtree.SmallKernels.S_G;
import static org.accelgeom.kdtree.SmallKernels.S_M;
import static org.accelgeom.kdtree.SmallKernels.S_MODE;

import org.accelgeom.kdtree.LevelBuffers;
import org.accelgeom.kdtree.SmallBuffers;
import org.accelgeom.kdtree.SmallKernels;

import uk.ac.manchester.tornado.api.KernelContext;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/**
 * TornadoVM task methods of the bit-mask small-node stage (Zhou et al. 2008, §4.3), each a {@code @Parallel} loop
 * around an element kernel of {@link SmallKernels} (the split: {@link SmallSplitGroup}, a work-group per node), appended to the large-node stage's graph
 * ({@link LevelTaskGraphs}) so that they share its resident arrays (the triangles, the hand-off list, the global
 * node records). Every execution of the plan runs all tasks; the idle ones get one work-item and a guard on the
 * stage's mode. Each task's work-item 0 writes the execution number to its heartbeat slot.
 */
public final class SmallTaskGraphs {

    public static final String[] TASKS = {"sclear", "sbounds", "sseed", "scands", "ssplit", "scount", "sscan", "sscatter"};

    /** Index of the split task in {@link #TASKS} (work-groups of {@link SmallSplitGroup#GROUP}, one per node). */
    static final int SPLIT = 4;
    /** Index of "sscan" in {@link #TASKS}. */
    static final int SCAN = 6;
    /** Index of "sscatter" in {@link #TASKS} (work-groups of {@link LevelBuffers#CHUNK}, one per chunk). */
    static final int SCATTER = 7;

    private SmallTaskGraphs() {
    }

    private static int seeding(int[] state) {
        int on = 0;
        if (state[S_MODE] == MODE_SEED) {
            on = 1;
        }
        return on;
    }

    private static int active(int[] state) {
        int on = 0;
        if (state[S_MODE] != MODE_OFF) {
            on = 1;
        }
        return on;
    }

    public static void smallClear(int[] state, int[] gFirst, int[] gEnd, int cap) {
        for (@Parallel int i = 0; i < cap; i++) {
            if (seeding(state) == 1) {
                SmallKernels.clear(state, i, gFirst, gEnd);
            }
            if (i == 0) {
                SmallKernels.beat(state, 0);
            }
        }
    }

    public static void smallBounds(int[] state, int[] doneInt, int[] gFirst, int[] gEnd, int cap) {
        for (@Parallel int r = 0; r < cap; r++) {
            if (seeding(state) == 1) {
                SmallKernels.bounds(state, r, doneInt, gFirst, gEnd);
            }
            if (r == 0) {
                SmallKernels.beat(state, 1);
            }
        }
    }

    public static void smallSeed(int[] state, int[] gInt, float[] gPos, float[] gVox, int[] gDepth, int[] gFirst, int[] gEnd,
            int[] sRoot, long[] sMask, float[] sVox, int[] sDepth, int[] sId, int[] oInt, float[] oPos, long[] oMask,
            int cap) {
        for (@Parallel int i = 0; i < cap; i++) {
            if (seeding(state) == 1) {
                SmallKernels.seed(state, i, gInt, gPos, gVox, gDepth, gFirst, gEnd, sRoot, sMask, sVox, sDepth, sId, oInt,
                        oPos, oMask);
            }
            if (i == 0) {
                SmallKernels.beat(state, 2);
            }
        }
    }

    public static void smallCands(int[] state, int[] doneInt, float[] doneBox, int[] gFirst, int[] gEnd, float[] cPos,
            long[] cMask, int cap) {
        for (@Parallel int r = 0; r < cap; r++) {
            if (seeding(state) == 1) {
                SmallKernels.candidates(state, r, doneInt, doneBox, gFirst, gEnd, cPos, cMask);
            }
            if (r == 0) {
                SmallKernels.beat(state, 3);
            }
        }
    }

    public static void smallCount(int[] state, int[] sSplit, int[] sChunk, int cap) {
        for (@Parallel int ch = 0; ch < cap; ch++) {
            if (active(state) == 1) {
                if (ch < state[S_CHUNKS]) {
                    SmallKernels.countChunk(state, ch, sSplit, sChunk);
                }
            }
            if (ch == 0) {
                SmallKernels.beat(state, 5);
            }
        }
    }

    /**
     * {@link SmallKernels#scan} in one work-group, as {@link LevelTaskGraphs#scan}: per item a segment of the chunks,
     * the segments' totals scanned in local memory, then each segment's exclusive sums; item 0 ends with
     * {@link SmallKernels#scanTail}.
     */
    public static void smallScan(KernelContext c, int[] state, int[] sChunk) {
        int i = c.localIdx;
        int G = c.localGroupSizeX;
        int[] p = c.allocateIntLocalArray(LevelTaskGraphs.SCAN_GROUP);
        int on = active(state);
        int chunks = on == 1 ? state[S_CHUNKS] : 0;
        int per = (chunks + G - 1) / G;
        int a = Math.min(chunks, i * per);
        int e = Math.min(chunks, a + per);
        int s = 0;
        for (int ch = a; ch < e; ch++) {
            s += sChunk[2 * ch];
        }
        p[i] = s;
        c.localBarrier();
        for (int off = 1; off < G; off <<= 1) {
            int v = (i >= off ? 1 : 0) * p[Math.max(i - off, 0)];
            c.localBarrier();
            p[i] += v;
            c.localBarrier();
        }
        int run = p[i] - s;
        for (int ch = a; ch < e; ch++) {
            sChunk[2 * ch + 1] = run;
            run += sChunk[2 * ch];
        }
        if (i == 0) {
            if (on == 1) {
                SmallKernels.scanTail(state, p[G - 1]);
            }
            SmallKernels.beat(state, 6);
        }
    }

    /**
     * {@link SmallKernels#scatter} with a work-group of {@link LevelBuffers#CHUNK} items per chunk: each item one
     * node, its children's offset the chunk's plus the exclusive prefix sum of the chunk's children in local memory
     * (Hillis &amp; Steele), then {@link SmallKernels#scatterNode}.
     */
    public static void smallScatter(KernelContext kc, int[] state, float[] v, int[] doneInt, int[] gFirst, int[] sRoot,
            long[] sMask, float[] sVox, int[] sDepth, int[] sId, int[] sAxis, float[] sPos, long[] sChild, int[] sSplit,
            int[] sChunk, int[] oInt, float[] oPos, long[] oMask) {
        int t = kc.localIdx;
        int ch = kc.groupIdx;
        int[] p = kc.allocateIntLocalArray(CHUNK);
        int i = ch * CHUNK + t;
        int live = 0;
        if (active(state) == 1) {
            if (i < state[S_M]) {
                live = 1;
            }
        }
        int n = 0;
        if (live == 1) {
            n = SmallKernels.children(state, i, sSplit);
        }
        p[t] = n;
        kc.localBarrier();
        for (int off = 1; off < CHUNK; off <<= 1) {
            int x = (t >= off ? 1 : 0) * p[Math.max(t - off, 0)];
            kc.localBarrier();
            p[t] += x;
            kc.localBarrier();
        }
        if (live == 1) {
            SmallKernels.scatterNode(state, i, sChunk[2 * ch + 1] + p[t] - n, v, doneInt, gFirst, sRoot, sMask, sVox, sDepth,
                    sId, sAxis, sPos, sChild, sSplit, oInt, oPos, oMask);
        }
        if (kc.globalIdx == 0) {
            SmallKernels.beat(state, 7);
        }
    }

    /**
     * The small stage's graph over {@code b} (whose {@code small} is set), a second graph of the level plan: it takes
     * the level arrays over from the level graph {@code levelName} on the device (consumeFromDevice), so an execution
     * of either graph launches only its own tasks (every task of a graph is launched at every execution).
     */
    public static TaskGraph graph(String name, String levelName, LevelBuffers b) {
        SmallBuffers s = b.small;
        KernelContext ctx = new KernelContext();
        return new TaskGraph(name)
                .consumeFromDevice(levelName, LevelTaskGraphs.shared(b))
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, b.state, b.c)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, s.gFirst, s.gEnd, s.cPos, s.cMask, s.sRoot, s.sMask,
                        s.sVox, s.sDepth, s.sId, s.sAxis, s.sPos, s.sChild, s.sSplit, s.sChunk, s.oInt, s.oPos, s.oMask)
                .task("sclear", SmallTaskGraphs::smallClear, b.state, s.gFirst, s.gEnd, b.gCap)
                .task("sbounds", SmallTaskGraphs::smallBounds, b.state, b.doneInt, s.gFirst, s.gEnd, b.rCap)
                .task("sseed", SmallTaskGraphs::smallSeed, b.state, b.gInt, b.gPos, b.gVox, b.gDepth, s.gFirst, s.gEnd, s.sRoot,
                        s.sMask, s.sVox, s.sDepth, s.sId, s.oInt, s.oPos, s.oMask, b.gCap)
                .task("scands", SmallTaskGraphs::smallCands, b.state, b.doneInt, b.doneBox, s.gFirst, s.gEnd, s.cPos, s.cMask,
                        b.rCap)
                .task("ssplit", SmallSplitGroup::split, ctx, b.state, b.c, b.v, b.doneInt, b.doneBox, s.gFirst, s.sRoot, s.sMask,
                        s.sVox, s.sDepth, s.cPos, s.cMask, s.sAxis, s.sPos, s.sChild, s.sSplit)
                .task("scount", SmallTaskGraphs::smallCount, b.state, s.sSplit, s.sChunk, s.cCap)
                .task("sscan", SmallTaskGraphs::smallScan, ctx, b.state, s.sChunk)
                .task("sscatter", SmallTaskGraphs::smallScatter, ctx, b.state, b.v, b.doneInt, s.gFirst, s.sRoot, s.sMask,
                        s.sVox, s.sDepth, s.sId, s.sAxis, s.sPos, s.sChild, s.sSplit, s.sChunk, s.oInt, s.oPos, s.oMask)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, b.state)
                .transferToHost(DataTransferMode.UNDER_DEMAND, s.gFirst, s.gEnd, s.oInt, s.oPos, s.oMask);
    }

    /** Launch sizes of the small tasks for the state's mode (idle tasks: one work-item). */
    static int[] sizes(int[] state) {
        int seed = seeding(state);
        int on = active(state);
        int g = Math.max(1, seed * state[S_G]);
        int d = Math.max(1, seed * state[S_D]);
        int m = Math.max(1, on * state[S_M]);
        int ch = Math.max(1, on * state[S_CHUNKS]);
        return new int[] {g, d, g, d, m, ch, 1, ch};
    }
}
