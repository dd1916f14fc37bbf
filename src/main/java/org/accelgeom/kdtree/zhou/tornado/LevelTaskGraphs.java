package org.accelgeom.kdtree.zhou.tornado;

import static org.accelgeom.kdtree.zhou.LevelBuffers.BINS;
import static org.accelgeom.kdtree.zhou.LevelBuffers.CHUNK;
import static org.accelgeom.kdtree.zhou.LevelBuffers.C_BEAT;
import static org.accelgeom.kdtree.zhou.LevelBuffers.C_FORCE;
import static org.accelgeom.kdtree.zhou.LevelBuffers.NODE_BINS;
import static org.accelgeom.kdtree.zhou.LevelBuffers.N_SPLIT;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_CHUNKS;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_M;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_MCAP;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_PARITY;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_R;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_SEQ;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.KernelContext;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

import org.accelgeom.kdtree.zhou.LevelBuffers;
import org.accelgeom.kdtree.zhou.LevelKernels;

/**
 * TornadoVM task methods of one level of the breadth-first large-node stage (Zhou et al. 2008, Alg. 2), each a
 * {@code @Parallel} loop or a work-group kernel around the element kernels of {@link LevelKernels}, and the TaskGraph
 * that chains them, two levels per execution ({@link #TASKS}). All level arrays stay on the device (copied in once, at
 * the plan's first execution); per execution only the small state array (parameters in, counters out) moves; the global node records and the hand-off list come back on
 * demand after the last level. Each task's work-item 0 writes the execution number to its heartbeat slot.
 */
public final class LevelTaskGraphs {

    /**
     * The tasks of one level, and the graph's: two levels per execution (each execution costs TornadoVM about a
     * millisecond however little it launches), the second sized by bounds (a level at most doubles its nodes and
     * references); the scan advances the state to the next level ({@link #scan}); after a level without nodes every
     * task idles.
     */
    private static final String[] LEVEL = {"bins", "split", "count", "scan", "scatter"};
    private static final String[] TASKS = {"bins", "split", "count", "scan", "scatter", "bins2", "split2", "count2",
        "scan2", "scatter2"};

    /**
     * Heartbeat slots of a level's tasks ({@link #launchCheck}): task k of the first level writes state[C_BEAT + k],
     * of the second state[C_BEAT2 + k]; in the check, the second level's slots follow the first's
     * ({@code LEVEL_TASKS + k}). The heartbeats live in the state array, which every execution downloads anyway, so
     * the check costs no transfer of its own: the host copies them into the check's array ({@link #verify}).
     */
    public static final int SLOT_BINS = 0;
    public static final int SLOT_SPLIT = 1;
    public static final int SLOT_COUNT = 2;
    public static final int SLOT_SCAN = 3;
    public static final int SLOT_SCATTER = 4;
    /** Tasks (and heartbeat slots) of one level. */
    public static final int LEVEL_TASKS = 5;

    /** Kernel 1 as {@link #binsLocal} (local histograms per work-group); false: {@link #bins} (global atomics). */
    static final boolean LOCAL_BINS = org.accelgeom.engine.Tuning.KDTREE_LOCAL_BINS.booleanValue();

    private LevelTaskGraphs() {
    }

    /** The launch check of the level graph: its ten tasks, in the order of their slots. */
    public static org.accelgeom.engine.tornado.LaunchCheck launchCheck() {
        return new org.accelgeom.engine.tornado.LaunchCheck("kd-tree levels", TASKS);
    }

    /**
     * Copies the heartbeats of {@code slots} from the downloaded state ({@code at[k]}: the state index of the check's
     * slot k) into the check's array and verifies them ({@link org.accelgeom.engine.tornado.LaunchCheck#verify}).
     */
    static void verify(org.accelgeom.engine.tornado.LaunchCheck check, int[] at, int[] state, int seq, String device,
            String phase, int... slots) {
        for (int k : slots) {
            check.beat[k] = state[at[k]];
        }
        check.verify(seq, device, phase, slots);
    }

    /** Kernel 1: per reference, its six bins counted by atomic increments (MODE_LOAD: the root's references first). */
    public static void bins(KernelContext ctx, int[] state, float[] rootBounds, float[] rootBox, int[] refInt,
            float[] refBox, float[] vox, int[] g, int[] bins, int cap, int beat) {
        for (@Parallel int r = 0; r < cap; r++) {
            int[] slots = new int[6];
            LevelKernels.binRef(state, rootBounds, rootBox, refInt, refBox, vox, g, r, slots, 0);
            for (int q = 0; q < 6; q++) {
                if (slots[q] >= 0) {
                    ctx.atomicAdd(bins, slots[q], 1);
                }
            }
            if (r == 0) {
                state[beat + SLOT_BINS] = state[P_SEQ];
            }
        }
    }

    /**
     * Kernel 1 as a work-group of {@link LevelBuffers#CHUNK} references (one per item) that counts before it adds: each
     * of the six histograms' slots of the group's references (global bin indices, {@link LevelKernels#binRef}) are
     * sorted in local memory (Batcher's bitonic network), and each run of equal slots [s, e] adds its length to the
     * global bin with two atomics: + (e + 1) by its last item and − s by its first (none for s = 0). A level's
     * references of one node are contiguous and neighbours in the input are neighbours in space, so a group's 256
     * references hit few bins: a few atomics per histogram and group instead of six per reference, which on a few
     * hundred addresses in the upper levels were two thirds of the levels' kernel time. Integer sums: the same bins in
     * any order. (Not local histograms with local atomics: TornadoVM 5.2 emits {@code atom_add} on a local array
     * without its index. Sorting the outputs' slots in the scatter instead, a launch fewer per level, made the level
     * kernels 6 ms slower on an H100: docs/benchmarks.md, session 14, dlevel.)
     */
    public static void binsLocal(KernelContext kc, int[] state, float[] rootBounds, float[] rootBox, int[] refInt,
            float[] refBox, float[] vox, int[] g, int[] bins, int beat) {
        int t = kc.localIdx;
        int r = kc.globalIdx;
        int[] keys = kc.allocateIntLocalArray(6 * CHUNK);
        int[] slots = new int[6];
        LevelKernels.binRef(state, rootBounds, rootBox, refInt, refBox, vox, g, r, slots, 0);
        for (int h = 0; h < 6; h++) {
            int s = slots[h];
            if (s < 0) {
                s = Integer.MAX_VALUE; // beyond the level: sorts last, adds nothing
            }
            keys[h * CHUNK + t] = s;
        }
        kc.localBarrier();
        for (int k = 2; k <= CHUNK; k <<= 1) {
            for (int j = k >> 1; j > 0; j >>= 1) {
                int p = t ^ j;
                if (p > t) {
                    int up = 0;
                    if ((t & k) == 0) {
                        up = 1;
                    }
                    for (int h = 0; h < 6; h++) {
                        int a = keys[h * CHUNK + t];
                        int b = keys[h * CHUNK + p];
                        int swap = 0;
                        if (a > b) {
                            swap = up;
                        }
                        if (a < b) {
                            swap = 1 - up;
                        }
                        if (swap == 1) {
                            keys[h * CHUNK + t] = b;
                            keys[h * CHUNK + p] = a;
                        }
                    }
                }
                kc.localBarrier();
            }
        }
        for (int h = 0; h < 6; h++) {
            int o = h * CHUNK;
            int cur = keys[o + t];
            if (cur != Integer.MAX_VALUE) {
                int last = 1;
                if (t + 1 < CHUNK) {
                    if (keys[o + Math.min(t + 1, CHUNK - 1)] == cur) {
                        last = 0;
                    }
                }
                if (last == 1) {
                    kc.atomicAdd(bins, cur, t + 1);
                }
                if (t > 0) {
                    if (keys[o + Math.max(t - 1, 0)] != cur) {
                        kc.atomicAdd(bins, cur, -t);
                    }
                }
            }
        }
        if (r == 0) {
            state[beat + SLOT_BINS] = state[P_SEQ];
        }
    }

    /**
     * Kernel 2, a work-group of {@link LevelBuffers#BINS} items per node (group i: node i; item j: inner bin boundary
     * j of each axis), as {@link LevelKernels#splitNode}: the node's six histograms are scanned in local memory
     * (Hillis &amp; Steele), so that nL(j) = the starts of bins below j and nR(j) = |T| − the ends of bins below j
     * (|T|: all starts of axis 0); item j keeps its best of the three planes at boundary j, the items' bests are
     * reduced in a tree of {@link LevelKernels#better} (a strict order on (cost, position, axis), so any order of
     * comparisons picks the same plane), item 0 applies {@link LevelKernels#decide}, and the items clear the
     * histograms. (One work-item per node looped over 381 planes: the upper levels' few nodes made it pure latency.)
     * Local arrays are only read here: TornadoVM 5.2 addresses a local array passed to a method as a global one.
     */
    public static void split(KernelContext kc, int[] state, double[] c, int[] bins, float[] vox, int[] nodeInt,
            float[] nodePos, float[] gVox, int[] gDepth, int beat) {
        int j = kc.localIdx;
        int i = kc.groupIdx;
        int[] s0 = kc.allocateIntLocalArray(BINS);
        int[] e0 = kc.allocateIntLocalArray(BINS);
        int[] s1 = kc.allocateIntLocalArray(BINS);
        int[] e1 = kc.allocateIntLocalArray(BINS);
        int[] s2 = kc.allocateIntLocalArray(BINS);
        int[] e2 = kc.allocateIntLocalArray(BINS);
        double[] bc = kc.allocateDoubleLocalArray(BINS);
        float[] bp = kc.allocateFloatLocalArray(BINS);
        int[] ba = kc.allocateIntLocalArray(BINS);
        int live = 0;
        if (i < state[P_M]) {
            live = 1;
        }
        int base = i * NODE_BINS; // group 0 of an empty level reads node 0's (zero) bins: in bounds
        s0[j] = bins[base + j];
        e0[j] = bins[base + BINS + j];
        s1[j] = bins[base + 2 * BINS + j];
        e1[j] = bins[base + 3 * BINS + j];
        s2[j] = bins[base + 4 * BINS + j];
        e2[j] = bins[base + 5 * BINS + j];
        kc.localBarrier();
        // inclusive prefix sums of the six histograms (not @Reduce: every item needs its own prefix, not one total)
        for (int off = 1; off < BINS; off <<= 1) {
            int q = Math.max(j - off, 0); // in bounds when unused
            int has = j >= off ? 1 : 0;
            int a0 = has * s0[q];
            int b0 = has * e0[q];
            int a1 = has * s1[q];
            int b1 = has * e1[q];
            int a2 = has * s2[q];
            int b2 = has * e2[q];
            kc.localBarrier();
            s0[j] += a0;
            e0[j] += b0;
            s1[j] += a1;
            e1[j] += b1;
            s2[j] += a2;
            e2[j] += b2;
            kc.localBarrier();
        }
        int count = s0[BINS - 1];
        // boundary j: the bins below it are 0 .. j-1 (item 0 has no boundary)
        int q = Math.max(j - 1, 0);
        int has = j >= 1 ? 1 : 0;
        int nl0 = has * s0[q];
        int nl1 = has * s1[q];
        int nl2 = has * s2[q];
        int nr0 = count - has * e0[q];
        int nr1 = count - has * e1[q];
        int nr2 = count - has * e2[q];
        double best = 0.0;
        float bestPos = 0f;
        int bestAxis = -1;
        int o = 6 * (state[P_PARITY] * state[P_MCAP] + i);
        if (has == 1) {
            for (int k = 0; k < 3; k++) {
                int nl = nl0;
                int nr = nr0;
                if (k == 1) {
                    nl = nl1;
                    nr = nr1;
                }
                if (k == 2) {
                    nl = nl2;
                    nr = nr2;
                }
                float lo = vox[o + k];
                float hi = vox[o + 3 + k];
                float xi = LevelKernels.boundary(lo, hi, j);
                if (LevelKernels.inner(lo, hi, xi) == 1) {
                    double cost = LevelKernels.sahAt(vox, o, k, xi, nl, nr, c);
                    if (LevelKernels.wins(cost, xi, k, best, bestPos, bestAxis) == 1) {
                        best = cost;
                        bestPos = xi;
                        bestAxis = k;
                    }
                }
            }
        }
        bc[j] = best;
        bp[j] = bestPos;
        ba[j] = bestAxis;
        kc.localBarrier();
        // the arg-min over the items (not @Reduce: it carries position and axis with the cost, one per work-group)
        for (int s = BINS / 2; s > 0; s >>= 1) {
            if (j < s) {
                int u = j + s;
                if (LevelKernels.wins(bc[u], bp[u], ba[u], bc[j], bp[j], ba[j]) == 1) {
                    bc[j] = bc[u];
                    bp[j] = bp[u];
                    ba[j] = ba[u];
                }
            }
            kc.localBarrier();
        }
        if (live == 1) {
            if (j == 0) {
                double cost = bc[0];
                float pos = bp[0];
                int axis = ba[0];
                int split = LevelKernels.decide(state, c, count, cost, axis);
                LevelKernels.record(state, vox, i, axis, split, pos, nodeInt, nodePos, gVox, gDepth);
            }
            for (int h = 0; h < 6; h++) {
                bins[base + h * BINS + j] = 0;
            }
        }
        if (kc.globalIdx == 0) {
            state[beat + SLOT_SPLIT] = state[P_SEQ];
        }
    }

    /**
     * Kernel 3, a work-group of {@link LevelBuffers#CHUNK} items per chunk: each item one reference's side
     * ({@link LevelKernels#side}); the chunk's counts of left, right and handed-on outputs summed in local memory
     * (the array {@code p}), as {@link LevelKernels#countChunk}.
     */
    public static void count(KernelContext kc, int[] state, int[] refInt, float[] refBox, int[] nodeInt, float[] nodePos,
            int[] side, int[] chunk, int beat) {
        int t = kc.localIdx;
        int ch = kc.groupIdx;
        int[] p = kc.allocateIntLocalArray(CHUNK);
        int r = ch * CHUNK + t;
        int s = 0;
        if (r < state[P_R]) {
            s = LevelKernels.side(state, r, refInt, refBox, nodeInt, nodePos);
            side[r] = s;
        }
        p[t] = packed(s);
        kc.localBarrier();
        // prefix sums, not @Reduce: scatter needs each item's exclusive sum; count keeps the same form (one shape)
        for (int off = 1; off < CHUNK; off <<= 1) {
            int x = (t >= off ? 1 : 0) * p[Math.max(t - off, 0)];
            kc.localBarrier();
            p[t] += x;
            kc.localBarrier();
        }
        if (t == 0) {
            if (ch < state[P_CHUNKS]) {
                int sum = p[CHUNK - 1];
                chunk[6 * ch] = sum & 1023;
                chunk[6 * ch + 1] = (sum >> 10) & 1023;
                chunk[6 * ch + 2] = sum >> 20;
            }
            if (ch == 0) {
                state[beat + SLOT_COUNT] = state[P_SEQ];
            }
        }
    }

    /**
     * A side's three output counts (left, right, handed on) in one int, 10 bits each: a chunk's sums of at most
     * {@link LevelBuffers#CHUNK} stay within their fields, so one prefix sum serves all three.
     */
    static int packed(int s) {
        return (s & 1) | (((s >> 1) & 1) << 10) | (((s >> 2) & 1) << 20);
    }

    /** Kernel 4: the prefix sums, one work-item. */
    /** Items of the work-group of {@link #scan} (and of the small stage's): the size of their local arrays. */
    public static final int SCAN_GROUP = 1024;

    /**
     * Kernel 4 in one work-group: the sums of {@link LevelKernels#scan}, in parallel. Each item sums a contiguous
     * segment of the nodes and one of the chunks; the segments' totals are scanned in local memory (Hillis &amp;
     * Steele, log2 G steps); each item then writes its segments' exclusive prefix sums from its offset, and item 0
     * ends with {@link LevelKernels#scanTail}, copies the state to {@code snap} (the scatter reads its level's values
     * there) and advances the state to the next level ({@link LevelKernels#advance}, the host's step between levels: a
     * task of its own cost a launch per level, about 50 µs on an H100). (One work-item looping over up to 10^5 nodes
     * per level cost the dragon most of its level time.) Integer sums: the same values as the one-thread scan, in any
     * order.
     */
    public static void scan(KernelContext c, int[] state, int[] snap, int[] nodeInt, int[] chunk, int beat) {
        int i = c.localIdx;
        int G = c.localGroupSizeX;
        int[] p0 = c.allocateIntLocalArray(SCAN_GROUP);
        int[] p1 = c.allocateIntLocalArray(SCAN_GROUP);
        int[] p2 = c.allocateIntLocalArray(SCAN_GROUP);
        int[] p3 = c.allocateIntLocalArray(SCAN_GROUP);
        int m = state[P_M];
        int per = (m + G - 1) / G;
        int a = Math.min(m, i * per);
        int e = Math.min(m, a + per);
        int chunks = state[P_CHUNKS];
        int perC = (chunks + G - 1) / G;
        int ac = Math.min(chunks, i * perC);
        int ec = Math.min(chunks, ac + perC);
        int s0 = 0;
        for (int k = a; k < e; k++) {
            s0 += 2 * nodeInt[3 * k + N_SPLIT];
        }
        int s1 = 0;
        int s2 = 0;
        int s3 = 0;
        for (int ch = ac; ch < ec; ch++) {
            s1 += chunk[6 * ch];
            s2 += chunk[6 * ch + 1];
            s3 += chunk[6 * ch + 2];
        }
        p0[i] = s0;
        p1[i] = s1;
        p2[i] = s2;
        p3[i] = s3;
        c.localBarrier();
        for (int off = 1; off < G; off <<= 1) {
            int j = Math.max(i - off, 0); // in bounds when unused
            int has = i >= off ? 1 : 0;
            int v0 = has * p0[j];
            int v1 = has * p1[j];
            int v2 = has * p2[j];
            int v3 = has * p3[j];
            c.localBarrier();
            p0[i] += v0;
            p1[i] += v1;
            p2[i] += v2;
            p3[i] += v3;
            c.localBarrier();
        }
        LevelKernels.childOffsets(nodeInt, a, e, p0[i] - s0);
        LevelKernels.chunkOffsets(chunk, ac, ec, p1[i] - s1, p2[i] - s2, p3[i] - s3);
        if (i == 0) {
            LevelKernels.scanTail(state, p0[G - 1], p1[G - 1], p2[G - 1], p3[G - 1]);
            state[beat + SLOT_SCAN] = state[P_SEQ];
            for (int k = 0; k < LevelBuffers.STATE; k++) {
                snap[k] = state[k];
            }
            LevelKernels.advance(state);
        }
    }

    /**
     * Kernel 5, a work-group of {@link LevelBuffers#CHUNK} items per chunk: each item one reference, placed at its
     * chunk's offsets plus the exclusive prefix sums of the chunk's sides in local memory
     * ({@link LevelKernels#scatterRef}, the order of {@link LevelKernels#scatterChunk}); work-item i also writes node
     * i's record and children ({@link LevelKernels#scatterNode}). Its level's values come from {@code state}, the
     * scan's copy ({@link LevelBuffers#snap}); the heartbeat goes to {@code beats} (the state array).
     */
    public static void scatter(KernelContext kc, int[] state, float[] v, int[] refInt, float[] refBox, int[] side,
            int[] nodeInt, float[] nodePos, float[] vox, int[] g, int[] chunk, int[] doneInt, float[] doneBox, int[] gInt,
            float[] gPos, int[] beats, int beat) {
        int t = kc.localIdx;
        int ch = kc.groupIdx;
        int i = kc.globalIdx;
        int[] p = kc.allocateIntLocalArray(CHUNK);
        int r = ch * CHUNK + t;
        int live = 0;
        if (r < state[P_R]) {
            live = 1;
        }
        int s = 0;
        if (live == 1) {
            s = side[r];
            if (state[C_FORCE] == 1) {
                s = LevelBuffers.DONE;
            }
        }
        int mine = packed(s);
        p[t] = mine;
        kc.localBarrier();
        for (int off = 1; off < CHUNK; off <<= 1) {
            int x = (t >= off ? 1 : 0) * p[Math.max(t - off, 0)];
            kc.localBarrier();
            p[t] += x;
            kc.localBarrier();
        }
        if (live == 1) {
            int ex = p[t] - mine;
            int ol = chunk[6 * ch + 3] + (ex & 1023);
            int or = chunk[6 * ch + 4] + ((ex >> 10) & 1023);
            int od = chunk[6 * ch + 5] + (ex >> 20);
            if (state[C_FORCE] == 1) {
                od = ch * CHUNK + (ex >> 20);
            }
            LevelKernels.scatterRef(state, r, s, ol, or, od, v, refInt, refBox, nodeInt, nodePos, g, doneInt, doneBox);
        }
        if (i < state[P_M]) {
            LevelKernels.scatterNode(state, i, nodeInt, nodePos, vox, g, gInt, gPos);
        }
        if (i == 0) {
            beats[beat + SLOT_SCATTER] = state[P_SEQ];
        }
    }

    /** The level graph over {@code b}, the triangles uploaded on the first execution. */
    public static TaskGraph graph(String name, LevelBuffers b) {
        return graph(name, b, null);
    }

    /**
     * The level graph over {@code b} (two levels per execution). {@code loadFrom}: null, the triangles {@code b.v},
     * their boxes {@code b.rootBox} and the root's voxel {@code b.rootBounds} go from the host (once: a plan serves
     * one triangle array); else the name of the graph that left them on the device ({@code ZhouTaskGraphs.load}), and
     * the voxel stays there for the small stage's graph too.
     *
     * <p>Every execution launches the same tasks; {@code state[P_MODE]} is not a step switch but the first level's
     * data: with {@code MODE_LOAD} the first level's bin kernel also writes the root's references, and the device's
     * {@code advance} clears it. A load graph of its own would add one execution (about 50 µs on an H100,
     * {@code LaunchBenchmark}) to every build for a loop that the first level's kernel runs anyway.
     */
    public static TaskGraph graph(String name, LevelBuffers b, String loadFrom) {
        KernelContext ctx = new KernelContext();
        TaskGraph g = new TaskGraph(name);
        if (loadFrom == null) {
            g = g.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.v, b.rootBox, b.rootBounds);
        } else {
            g = g.consumeFromDevice(loadFrom, b.v, b.rootBox, b.rootBounds);
        }
        g = g.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.refInt, b.refBox, b.side, b.vox, b.g, b.bins, b.nodeInt,
                        b.nodePos, b.chunk, b.gInt, b.gPos, b.gVox, b.doneInt, b.doneBox, b.snap)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, b.state, b.c);
        for (int copy = 0; copy < 2; copy++) {
            g = level(g, copy == 0 ? "" : "2", copy == 0 ? C_BEAT : LevelBuffers.C_BEAT2, b, ctx);
        }
        if (b.small != null) {
            // the small stage's graph works on these arrays where they are (SmallTaskGraphs.subtrees)
            g = g.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.gDepth).persistOnDevice(shared(b));
            if (loadFrom != null) {
                g = g.persistOnDevice(b.rootBounds);
            }
        }
        return g.transferToHost(DataTransferMode.EVERY_EXECUTION, b.state)
                .transferToHost(DataTransferMode.UNDER_DEMAND, b.gInt, b.gPos, b.gVox, b.gDepth, b.doneInt, b.doneBox);
    }

    /** The five tasks of one level (names with {@code suffix}, heartbeats from slot {@code beat}) appended to g. */
    private static TaskGraph level(TaskGraph g, String suffix, int beat, LevelBuffers b, KernelContext ctx) {
        if (LOCAL_BINS) {
            g = g.task("bins" + suffix, LevelTaskGraphs::binsLocal, ctx, b.state, b.rootBounds, b.rootBox, b.refInt,
                    b.refBox, b.vox, b.g, b.bins, beat);
        } else {
            g = g.task("bins" + suffix, LevelTaskGraphs::bins, ctx, b.state, b.rootBounds, b.rootBox, b.refInt, b.refBox,
                    b.vox, b.g, b.bins, b.rCap, beat);
        }
        return g.task("split" + suffix, LevelTaskGraphs::split, ctx, b.state, b.c, b.bins, b.vox, b.nodeInt, b.nodePos,
                        b.gVox, b.gDepth, beat)
                .task("count" + suffix, LevelTaskGraphs::count, ctx, b.state, b.refInt, b.refBox, b.nodeInt, b.nodePos,
                        b.side, b.chunk, beat)
                .task("scan" + suffix, LevelTaskGraphs::scan, ctx, b.state, b.snap, b.nodeInt, b.chunk, beat)
                .task("scatter" + suffix, LevelTaskGraphs::scatter, ctx, b.snap, b.v, b.refInt, b.refBox, b.side,
                        b.nodeInt, b.nodePos, b.vox, b.g, b.chunk, b.doneInt, b.doneBox, b.gInt, b.gPos, b.state, beat);
    }

    /** The level arrays the small stage's graph takes over from the level graph. */
    static Object[] shared(LevelBuffers b) {
        return new Object[] {b.v, b.gInt, b.gPos, b.gVox, b.gDepth, b.doneInt, b.doneBox};
    }

    /** The task names of the level graph (two levels), a copy. */
    public static String[] tasks() {
        return TASKS.clone();
    }

    /** The number of tasks of one level. */
    static int levelTasks() {
        return LEVEL.length;
    }

    /** One grid per task (work-group size left to the driver: TornadoVM's default failed on an H200). */
    public static WorkerGrid1D[] grids(String name, GridScheduler gs, String[] tasks) {
        WorkerGrid1D[] w = new WorkerGrid1D[tasks.length];
        for (int j = 0; j < tasks.length; j++) {
            w[j] = new WorkerGrid1D(1);
            w[j].setLocalWorkToNull();
            gs.addWorkerGrid(name + "." + tasks[j], w[j]);
        }
        return w;
    }

    /**
     * The level graph's grids in {@code gs}, with their work-groups: the scan one group of {@code scanGroup} items
     * ({@link #SCAN_GROUP} at most the device's maximum); split a group of {@link LevelBuffers#BINS} per node; count
     * and scatter a group of {@link LevelBuffers#CHUNK} per chunk of references. {@link #size} sets the work per level.
     */
    public static WorkerGrid1D[] levelGrids(String name, GridScheduler gs, int scanGroup) {
        WorkerGrid1D[] level = grids(name, gs, TASKS);
        int per = LEVEL.length;
        for (int copy = 0; copy < 2; copy++) {
            level[per * copy + 3].setGlobalWork(scanGroup, 1, 1);
            level[per * copy + 3].setLocalWork(scanGroup, 1, 1);
            if (LOCAL_BINS) {
                level[per * copy].setLocalWork(CHUNK, 1, 1);
            }
            level[per * copy + 1].setLocalWork(BINS, 1, 1);
            level[per * copy + 2].setLocalWork(CHUNK, 1, 1);
            level[per * copy + 4].setLocalWork(CHUNK, 1, 1);
        }
        return level;
    }

    /**
     * Sizes the level graph's grids for its next execution from the host's copy of {@code state}: the level's r
     * references and m nodes, and the second level's bounds (at most twice each).
     */
    public static void size(WorkerGrid1D[] level, int[] state, int scanGroup) {
        int r = state[P_R];
        int m = state[P_M];
        int r2 = (int) Math.min(state[LevelBuffers.P_RCAP], 2L * r);
        int m2 = (int) Math.min(state[P_MCAP], 2L * m);
        int per = LEVEL.length;
        size(level, 0, r, m, scanGroup);
        size(level, per, r2, m2, scanGroup);
    }

    /** The launch sizes of one level's five tasks of r references and m nodes, from grid {@code at}. */
    private static void size(WorkerGrid1D[] grids, int at, int r, int m, int scanGroup) {
        int cw = Math.max(1, (r + CHUNK - 1) / CHUNK) * CHUNK;
        int[] sizes = {LOCAL_BINS ? cw : r, Math.max(1, m) * BINS, cw, scanGroup, Math.max(cw, (m + CHUNK - 1) / CHUNK * CHUNK)};
        for (int j = 0; j < sizes.length; j++) {
            grids[at + j].setGlobalWork(Math.max(1, sizes[j]), 1, 1);
        }
    }

    /** Throws, naming the task, unless every level task wrote {@code seq} to its heartbeat slot of {@code state}. */
    public static void verify(org.accelgeom.engine.tornado.LaunchCheck check, int[] state, int seq, String device) {
        verify(check, STATE_SLOTS, state, seq, device, null, ALL_SLOTS);
    }

    /** The state index of each slot of {@link #launchCheck}, and all its slots. */
    private static final int[] STATE_SLOTS = {C_BEAT, C_BEAT + 1, C_BEAT + 2, C_BEAT + 3, C_BEAT + 4,
        LevelBuffers.C_BEAT2, LevelBuffers.C_BEAT2 + 1, LevelBuffers.C_BEAT2 + 2, LevelBuffers.C_BEAT2 + 3,
        LevelBuffers.C_BEAT2 + 4};
    private static final int[] ALL_SLOTS = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
}
