package org.accelgeom.cbt.tornado;

import org.accelgeom.engine.Tuning;
import org.accelgeom.cbt.CbtKernels;
import org.accelgeom.cbt.WordReduction;

import java.util.concurrent.atomic.AtomicInteger;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.KernelContext;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/**
 * TornadoVM kernels of the CBT usage cycle (§2.9) and the graphs of one plan that run them, a graph per step, all on
 * the one resident heap (persistOnDevice / consumeFromDevice), so that an execution launches only its step's kernels:
 * <ul>
 * <li>cycle ({@link #cycleGraph}): for packed trees with 9 ≤ D ≤ 21 the one launch of {@link ChunkCycle}; otherwise
 * {@link #update} (one work-item per leaf), then the sum reduction: the five deepest levels by word ownership from the
 * bitfield, one kernel per level down to level 12 (D &gt; 17 only), then levels 11..0 in one work-group in local
 * memory; its modes are the usage cycle and the reduction alone;</li>
 * <li>the step graphs ({@link #stepGraph}), one task each: update alone ({@link #update}), decode ({@link #decode}),
 * decode and list ({@link #list}), one work-item per leaf; init ({@link #init}) and snapshot ({@link #snapshot}),
 * one per heap word; the bitfield scan ({@link #scan}), one work-item.</li>
 * </ul>
 *
 * <p>Every kernel is a {@link KernelContext} kernel whose work-items check their index against a bound in
 * {@code params}: the host sizes each task's grid per execution (tasks that do not run get one work-item), so a
 * launch costs what its work needs.
 *
 * <p>Protocol: {@link CbtBuffers} holds the arrays and grids; execute the cycle graph first (it uploads the heap),
 * then any graph in any order, each after {@link CbtBuffers#size} (cycle graph) or {@link CbtBuffers#step} (step
 * graphs), and read its info array back.
 *
 * <p>A leaf's bit update is an {@code atomicAdd} of a field delta: TornadoVM has no atomic AND/OR, and every field has
 * one writer per pass (see {@link CbtKernels}); the reduction composes whole words instead ({@link WordReduction}).
 * {@link #reducePrepass} is the terrain's (per-node deltas).
 *
 * <p>The sum reduction is hand-written, not TornadoVM's {@code @Reduce}: it stores the sum of every node of the
 * tree (the decode descends them), where {@code @Reduce} yields one value (the root's).
 */
public final class CbtTaskGraphs {

    /** params[MODE]: the steps of an execution of the cycle graph ({@link #MODE_UPDATE}, {@link #MODE_REDUCE}); the
     * step graphs have none. */
    public static final int MODE = 0;
    /**
     * params[ITEMS]: the work-items of an execution that work (the others, up to whole work-groups, only return): L
     * for the per-leaf tasks (update, decode, list; 0 in the cycle graph's reduction alone), the heap's words for
     * init and snapshot, 1 for the scan, 0 in every task of an empty pass ({@link CbtBuffers#empty}).
     */
    public static final int ITEMS = 1;
    public static final int SEED = 2;
    public static final int SPLIT = 3;
    public static final int MERGE = 4;
    public static final int MIN_DEPTH = 5;
    public static final int INIT_DEPTH = 6;
    public static final int SEQ = 7;
    /** params[DEPTH], params[PACKED]: D and the layout, read from memory (conditions on constant-folded scalar
     * arguments crashed TornadoVM 5.2's OpenCL code generator). */
    public static final int DEPTH = 8;
    public static final int PACKED = 9;
    /** params[TOP]: the deepest level {@link #reduceTop} reduces (min(TOP_LEVEL, the top of the per-level kernels)). */
    public static final int TOP = 10;
    /** params[STOP]: {@link ChunkCycle}'s last phase (a diagnostic; {@link ChunkCycle#ALL} runs the whole cycle). */
    public static final int STOP = 11;
    /** The slots every graph's params array has; the cycle graph's has two more per cycle ({@link #cycleMode}). */
    public static final int PARAMS = 12;

    /** params[cycleMode(k)] of the cycle graph: the mode of its cycle k (the one-launch cycle may run several per
     * execution, {@link CbtBuffers#cycles}; a cycle of mode 0 is idle). */
    public static int cycleMode(int k) {
        return PARAMS + 2 * k;
    }

    /** params[cycleSeed(k)] of the cycle graph: the seed of the random rule of its cycle k. */
    public static int cycleSeed(int k) {
        return PARAMS + 2 * k + 1;
    }

    /** The steps of the cycle graph: its update and its reduction (terrain's reduction tasks read MODE_REDUCE too). */
    public static final int MODE_UPDATE = 2;
    public static final int MODE_REDUCE = 4;

    /** info[INFO_LEAVES]: L after the reduction; info[INFO_BAD]: leaves whose decoding did not end on a count of 1. */
    public static final int INFO_LEAVES = 0;
    public static final int INFO_BAD = 1;
    public static final int INFO_BEAT = 2;
    /** info[INFO_MISSED] of the one-launch cycle: how many of its cycles saw a chunk count missing (it only grows). */
    public static final int INFO_MISSED = 3;

    private CbtTaskGraphs() {
    }

    private static void write(KernelContext c, int[] heap, int D, int packed, int k, int oldV, int newV) {
        int w = CbtKernels.word(D, packed, k);
        int lo = CbtKernels.deltaLo(D, packed, k, oldV, newV);
        int hi = CbtKernels.deltaHi(D, packed, k, oldV, newV);
        if (lo != 0) {
            c.atomicAdd(heap, w, lo);
        }
        if (hi != 0) {
            c.atomicAdd(heap, Math.min(w + 1, heap.length - 1), hi);
        }
    }

    /**
     * Leaf l (l &lt; params[ITEMS], the tree's L) decodes itself against the stored sums (Fig. 8) and applies the
     * random rule of §2.9, changing only its own bit (§2.6). The update graph's task, and the cycle graph's first
     * task where the cycle is not {@link ChunkCycle} (there params[ITEMS] is 0 in a reduction alone).
     */
    public static void update(KernelContext c, int[] params, int[] heap, int[] info) {
        int D = params[DEPTH];
        int packed = params[PACKED];
        int l = c.globalIdx;
        beat(l, params, info);
        if (l < params[ITEMS]) {
            int k = CbtKernels.decode(heap, D, packed, l);
            int a = CbtKernels.randomRule(heap, D, packed, k, params[SEED], params[SPLIT], params[MERGE], params[MIN_DEPTH]);
            if (a != 0) {
                int e = CbtKernels.actionElement(D, k, a);
                int oldV = a == CbtKernels.SPLIT ? 0 : 1;
                write(c, heap, D, packed, e, oldV, 1 - oldV);
            }
        }
    }

    /** Leaf l (l &lt; params[ITEMS]) decodes itself (Fig. 8) and is counted in info[INFO_BAD] unless its count is 1. */
    public static void decode(KernelContext c, int[] params, int[] heap, int[] info) {
        int l = c.globalIdx;
        beat(l, params, info);
        if (l < params[ITEMS]) {
            decodeCounted(c, heap, params[DEPTH], params[PACKED], l, info);
        }
    }

    /** As {@link #decode}, and lists leaf l: nodes[l] is its heap index (the leaf list stays on the device). */
    public static void list(KernelContext c, int[] params, int[] heap, int[] nodes, int[] info) {
        int l = c.globalIdx;
        beat(l, params, info);
        if (l < params[ITEMS]) {
            nodes[Math.min(l, nodes.length - 1)] = decodeCounted(c, heap, params[DEPTH], params[PACKED], l, info);
        }
    }

    /**
     * Leaf l's heap index; counts it in info[INFO_BAD] when its count is not 1 (a count fused into the decode pass:
     * a {@code @Reduce} task would be a second launch over a per-leaf array).
     */
    private static int decodeCounted(KernelContext c, int[] heap, int D, int packed, int l, int[] info) {
        int k = CbtKernels.decode(heap, D, packed, l);
        if (CbtKernels.read(heap, D, packed, k) != 1) {
            c.atomicAdd(info, INFO_BAD, 1);
        }
        return k;
    }

    /** Word w (w &lt; params[ITEMS], the heap's words) of a heap initialised at depth params[INIT_DEPTH] (§2.9). */
    public static void init(KernelContext c, int[] params, int[] heap, int[] info) {
        int w = c.globalIdx;
        beat(w, params, info);
        if (w < params[ITEMS]) {
            heap[w] = CbtKernels.initWord(params[DEPTH], params[PACKED], params[INIT_DEPTH], w);
        }
    }

    /** Word w (w &lt; params[ITEMS]) of the heap copied to {@code heapOut}, an array that only travels device to host. */
    public static void snapshot(KernelContext c, int[] params, int[] heap, int[] heapOut, int[] info) {
        int w = c.globalIdx;
        beat(w, params, info);
        if (w < params[ITEMS]) {
            heapOut[w] = heap[w];
        }
    }

    /** The sequential bitfield scan of §2.4, by work-item 0 (the article's single GPU thread, Fig. 6; params[ITEMS] = 1). */
    public static void scan(KernelContext c, int[] params, int[] heap, long[] scanOut, int[] info) {
        int w = c.globalIdx;
        beat(w, params, info);
        if (w < params[ITEMS]) {
            CbtKernels.scan(heap, params[DEPTH], params[PACKED], scanOut);
        }
    }

    /** Work-item 0 writes the execution's number to the graph's heartbeat slot, info[INFO_BEAT]. */
    private static void beat(int i, int[] params, int[] info) {
        if (i == 0) {
            info[INFO_BEAT] = params[SEQ];
        }
    }

    /**
     * The five deepest reduction levels in one pass (an extension after Dupuy's libcbt prepass): work-item j owns
     * bitfield word j, i.e. the subtree of node 2^(D−5) + j, and writes its 31 sums from partial popcounts.
     */
    public static void reducePrepass(KernelContext c, int[] params, int[] heap) {
        int D = params[DEPTH];
        int packed = params[PACKED];
        int j = c.globalIdx;
        if (((params[MODE] & MODE_REDUCE) != 0 ? 1 : 0) + (j < (1 << (D - 5)) ? 1 : 0) == 2) {
            int bits = heap[(3 << (D - 5)) + j];
            for (int m = 1; m <= 5; m++) {
                int nodes = 32 >>> m;
                for (int i = 0; i < nodes; i++) {
                    int k = ((1 << (D - m)) + j * nodes) + i;
                    int v = CbtKernels.popcountField(bits, m, i);
                    int old = CbtKernels.read(heap, D, packed, k);
                    if (v != old) {
                        write(c, heap, D, packed, k, old, v);
                    }
                }
            }
        }
    }

    /**
     * The five deepest reduction levels by word ownership ({@link WordReduction#prepassWord}, packed heaps with D ≥
     * 10): work-item w composes word 2^(D−7) + w of levels D − 1 .. D − 5 from the bitfield and stores it, no read of
     * the old sums, no atomics.
     */
    public static void prepassWords(KernelContext c, int[] params, int[] heap) {
        int D = params[DEPTH];
        int w = c.globalIdx;
        if (((params[MODE] & MODE_REDUCE) != 0 ? 1 : 0) + (w < WordReduction.prepassWordCount(D) ? 1 : 0) == 2) {
            int W = WordReduction.prepassFirstWord(D) + w;
            heap[W] = WordReduction.prepassWord(heap, D, W);
        }
    }

    /** One level of the sum reduction (§2.5): node 2^d + i gets the sum of its children; level 0 publishes L. */
    public static void reduceLevel(KernelContext c, int[] params, int[] heap, int[] info, int d) {
        int D = params[DEPTH];
        int packed = params[PACKED];
        int i = c.globalIdx;
        if (((params[MODE] & MODE_REDUCE) != 0 ? 1 : 0) + (i < (1 << d) ? 1 : 0) == 2) {
            int k = (1 << d) + i;
            int v = CbtKernels.reduceValue(heap, D, packed, k);
            int old = CbtKernels.read(heap, D, packed, k);
            if (v != old) {
                write(c, heap, D, packed, k, old, v);
            }
            if (k == 1) {
                info[INFO_LEAVES] = v;
            }
        }
    }

    /** Levels at or above this one are reduced by {@link #reduceTop} in one work-group (at most 11: its sums
     * fill a local array of 2^(TOP_LEVEL+1) ints). */
    public static final int TOP_LEVEL = Tuning.CBT_TOP_LEVEL.intValue();
    /** The local arrays of {@link #reduceTop}: the sums of nodes 1 .. 2^(TOP_LEVEL+1) − 1, and the words of level
     * TOP_LEVEL + 1 (2^12 fields of at most 19 bits: 2,432 words, plus one). */
    private static final int TOP_NODES = 4096;
    private static final int TOP_WORDS = 2560;
    /** The work-group size asked for {@link #reduceTop} (the backend takes at most the device's maximum). */
    public static final int TOP_GROUP = Tuning.CBT_TOP_GROUP.intValue();

    /** The work-group size of {@link #reduceTop} on {@code device}: {@link #TOP_GROUP}, at most its maximum. */
    public static int topGroup(uk.ac.manchester.tornado.api.common.TornadoDevice device) {
        return org.accelgeom.engine.tornado.TornadoDevices.workGroup(device, TOP_GROUP);
    }

    /**
     * Levels T..0 of the reduction (T = params[TOP] ≤ {@link #TOP_LEVEL}) in one work-group: the words of level
     * T + 1 are copied once into local memory (one load per item), level T is summed from their fields, levels
     * T − 1..0 in local memory (a local barrier between levels), and each item then composes whole heap words of
     * levels 0..T ({@link WordReduction#topWord}) and stores them, one writer per word. Every kernel launch costs
     * several microseconds of device time even when nearly idle, so the small upper levels are one launch, not
     * twelve; and a level in local memory costs nanoseconds where a level in device memory costs a dependent round
     * trip. Publishes L in info[INFO_LEAVES] and the heartbeat. The loops over local arrays are written out here:
     * TornadoVM 5.2 addresses a local array passed to a callee as a global one (with the header offset).
     */
    public static void reduceTop(KernelContext c, int[] params, int[] heap, int[] info) {
        int D = params[DEPTH];
        int packed = params[PACKED];
        int on = (params[MODE] & MODE_REDUCE) != 0 ? 1 : 0;
        int T = params[TOP];
        int i = c.localIdx;
        int G = c.localGroupSizeX;
        int[] cnt = c.allocateIntLocalArray(TOP_NODES);
        int[] lw = c.allocateIntLocalArray(TOP_WORDS);
        // level T + 1's words (packed): bits [levelStart(T + 1), levelStart(T + 2))
        int w0 = WordReduction.levelStart(D, T + 1) >> 5;
        int nw = (on & packed) == 1 ? ((WordReduction.levelStart(D, T + 2) + 31) >> 5) - w0 : 0;
        for (int j = i; j < nw; j += G) {
            lw[j] = heap[w0 + j];
        }
        c.localBarrier();
        int n1 = D - T; // the width of a level T + 1 field
        int rel = WordReduction.levelStart(D, T + 1) - (w0 << 5);
        int nodesT = on == 1 ? 1 << T : 0;
        for (int j = i; j < nodesT; j += G) {
            int k = (1 << T) + j;
            int sum = 0;
            if (packed == 1) {
                for (int h = 0; h < 2; h++) {
                    int x = rel + (2 * j + h) * n1; // field 2j + h of level T + 1, from the copied words
                    int ww = x >> 5;
                    int sh = x & 31;
                    int lo = CbtKernels.ushr(lw[ww], sh);
                    int hi = lw[Math.min(ww + 1, TOP_WORDS - 1)] << (32 - sh);
                    int v = sh + n1 > 32 ? (lo | hi) : lo;
                    sum += v & ((1 << n1) - 1);
                }
            } else {
                sum = heap[2 * k] + heap[2 * k + 1];
            }
            cnt[k] = sum;
        }
        c.localBarrier();
        for (int d = T - 1; d >= 0; d--) {
            int count = on == 1 ? 1 << d : 0;
            for (int j = i; j < count; j += G) {
                int k = (1 << d) + j;
                cnt[k] = cnt[2 * k] + cnt[2 * k + 1];
            }
            c.localBarrier();
        }
        int words = on == 1 ? (packed == 1 ? WordReduction.topWordCount(D, T) : 2 << T) : 0;
        for (int w = i; w < words; w += G) {
            if (packed == 1) {
                // WordReduction.topWord, inline
                int v = 0;
                int mask = 0;
                for (int d = 0; d <= T; d++) {
                    // levels that miss the word cost two shifts, not the divisions of firstField/lastField
                    int overlaps = (WordReduction.levelStart(D, d + 1) > (w << 5) ? 1 : 0)
                            & (WordReduction.levelStart(D, d) < (w << 5) + 32 ? 1 : 0);
                    if (overlaps == 1) {
                        int last = WordReduction.lastField(D, d, w);
                        for (int f = WordReduction.firstField(D, d, w); f <= last; f++) {
                            int o = WordReduction.fieldOffset(D, d, f, w);
                            v |= WordReduction.place(cnt[(1 << d) + f], o);
                            mask |= WordReduction.place(WordReduction.ones(D, d), o);
                        }
                    }
                }
                int old = 0;
                if (mask != -1) {
                    old = heap[w]; // element 0, or the first bits of level T + 1
                }
                heap[w] = (old & ~mask) | v;
            }
            if ((packed == 0 ? 1 : 0) + (w >= 1 ? 1 : 0) == 2) {
                heap[w] = cnt[w]; // unpacked: element k is int k
            }
        }
        if (i == 0) {
            if (on == 1) {
                info[INFO_LEAVES] = cnt[1];
            }
            info[INFO_BEAT] = params[SEQ];
        }
    }

    /**
     * The plan's graphs, one per step, each named after what it launches: the usage cycle (update and reduction; its
     * modes select them, see the comment above {@link #cycleGraph}), then the step graphs of {@link #stepGraph}, one
     * task each and no mode: update alone, decode, decode and list, init, snapshot, scan.
     */
    public static final int G_CYCLE = 0;
    public static final int G_UPDATE = 1;
    public static final int G_DECODE = 2;
    public static final int G_LIST = 3;
    public static final int G_INIT = 4;
    public static final int G_SNAPSHOT = 5;
    public static final int G_SCAN = 6;
    /** How many graphs a plan has. */
    public static final int GRAPHS = 7;
    /** The step graphs' names, after the plan's (graph g: name + STEPS[g]), and their tasks' (STEPS[g] in lower case). */
    private static final String[] STEPS = {"", "Update", "Decode", "List", "Init", "Snapshot", "Scan"};

    /**
     * Heartbeat slots of {@link #launchCheck}, one per graph (slot g is graph g's): the graph's last task writes the
     * execution's number to {@code info[g][INFO_BEAT]} of the info array that every execution downloads anyway, and
     * {@link CbtBuffers#verify} copies it into the check (no transfer of its own). In the cycle graph that task is
     * "top" (the per-level reduction) or the last copy of {@link ChunkCycle} (each copy writes its own cycle's
     * number, the last one the number {@link CbtBuffers#size} returns); a step graph's is its one task.
     */
    public static final int SLOT_CYCLE = G_CYCLE;
    public static final int SLOT_UPDATE = G_UPDATE;
    public static final int SLOT_DECODE = G_DECODE;
    public static final int SLOT_LIST = G_LIST;
    public static final int SLOT_INIT = G_INIT;
    public static final int SLOT_SNAPSHOT = G_SNAPSHOT;
    public static final int SLOT_SCAN = G_SCAN;

    /**
     * The launch check of a plan's graphs, each slot named after the task that writes it ({@link #SLOT_CYCLE}: "top",
     * or "chunks" ... "chunks" + (cycles − 1) for the one-launch cycle; {@link #SLOT_UPDATE} .. {@link #SLOT_SCAN}:
     * "update", "decode", "list", "init", "snapshot", "scan").
     */
    public static org.accelgeom.engine.tornado.LaunchCheck launchCheck(int D, int packed, int cycles) {
        String[] names = new String[GRAPHS];
        for (int g = 0; g < GRAPHS; g++) {
            String[] tasks = taskNames(g, D, packed, cycles);
            names[g] = tasks[tasks.length - 1];
        }
        return new org.accelgeom.engine.tornado.LaunchCheck("CBT", names);
    }

    /** Whether the cycle graph is the one-launch {@link ChunkCycle} ({@code -Daccelgeom.cbt.chunked=false} keeps the
     * per-level kernels for every depth). */
    public static boolean chunked(int D, int packed) {
        return CHUNKED && org.accelgeom.cbt.CbtChunks.eligible(D, packed);
    }

    private static final boolean CHUNKED = Tuning.CBT_CHUNKED.booleanValue();

    /** True when the five deepest levels are reduced by {@link #prepassWords} ({@link WordReduction#prepass}). */
    public static boolean fused(int D, int packed) {
        return WordReduction.prepass(D, packed);
    }

    /** The deepest level below the prepass (D − 6 fused, else D − 1). */
    public static int firstLevel(int D, int packed) {
        return fused(D, packed) ? D - 6 : D - 1;
    }

    /** The task names of graph {@code g} ({@link #G_CYCLE} .. {@link #G_SCAN}), in order. */
    public static String[] taskNames(int g, int D, int packed) {
        return taskNames(g, D, packed, 1);
    }

    /**
     * The task names of graph {@code g} whose one-launch cycle graph holds {@code cycles} copies of the cycle (task k:
     * "chunks" then "chunks1", "chunks2", ...); a step graph's one task is named after its step ("update" ... "scan").
     */
    public static String[] taskNames(int g, int D, int packed, int cycles) {
        if (g != G_CYCLE) {
            return new String[] {STEPS[g].toLowerCase(java.util.Locale.ROOT)};
        }
        if (chunked(D, packed)) {
            String[] c = new String[cycles];
            for (int k = 0; k < cycles; k++) {
                c[k] = k == 0 ? "chunks" : "chunks" + k;
            }
            return c;
        }
        java.util.List<String> n = new java.util.ArrayList<>();
        n.add("update");
        if (fused(D, packed)) {
            n.add("prepass");
        }
        for (int d = firstLevel(D, packed); d > TOP_LEVEL; d--) {
            n.add("level" + d);
        }
        n.add("top");
        return n.toArray(String[]::new);
    }

    /** Graph g's name in a plan called {@code name} (the cycle graph's is {@code name}). */
    public static String graphName(String name, int g) {
        return name + STEPS[g];
    }

    /*
     * Graphs and modes (issue 15 item 4). Every step other than the usage cycle is a graph of its own with one task
     * named after it (stepGraph): an execution launches that step's kernel and nothing else, and no kernel reads a
     * mode. The cycle graph keeps two modes, update + reduction (the usage cycle) and the reduction alone, because
     * one launch for both steps is the point of the design (ChunkCycle): docs/benchmarks.md, CBT "Session 6: the
     * cycle in one launch": one launch 19-21 us of kernel time against 33-34 us for three (D = 17, H100 and H200);
     * "Session 10, launch" and "Session 11, cbtwall": each further kernel of an execution about 19 us, each
     * execution 31-47 us of launch floor; "Session 11, cbtwall" and "merged build": 49.7 us of wall per cycle with 8
     * cycles per execution (H200). An update graph and a reduce graph would cost an execution per step, an update
     * task and a reduce task a launch. The reduction alone (after init, or after a bare update) is that same launch
     * with the update off, and a task of its own would be one more compiled copy of the kernel. The step graphs
     * share the cycle graph's heap: each consumes it (consumeFromDevice), and TornadoVM 5.2 hands a consumed buffer
     * on from whichever graph of the plan ran last (TornadoTaskGraph.updatePersistedObjectState), so any order of
     * steps runs on the one resident heap. A graph is compiled at its first execution, so a run compiles only the
     * steps it uses. Measured against the former mode graphs (update/decode/list and init/snapshot/scan as modes of
     * two tasks; docs/benchmarks.md, "Session 12, cbt"): a step graph is one launch with the same transfers, and on an
     * H100 at D = 17 the update, decode and scan graphs took 11.6-12.9 us, 11.5-12.2 us and 14.7 ms of kernel time per
     * execution against 11.3-12.4 us, 10.8-11.1 us and 16.2 ms, their wall within the spread between processes.
     */

    /**
     * The usage-cycle graph over {@code b}: it owns the heap (in once, then resident: {@code persistOnDevice}) and
     * takes params in every execution. Tasks: {@link #update} (one work-item per leaf; it comes first because TornadoVM
     * 5.2 skipped the heap's upload when the first task using it only wrote it), the word-owned prepass, one kernel per
     * level above it down to level TOP_LEVEL + 1, and one work-group for levels TOP_LEVEL..0 (which writes the
     * heartbeat). A D = 17 cycle is three launches; with {@link #chunked} depths the graph is the one launch of
     * {@link ChunkCycle}, over {@code b.sums} (one int per chunk, never transferred back) and the {@code b.ticket}
     * counter, or {@code b.cycles} such launches in a row (cycle k: task "chunks" + k, its mode and seed in the params
     * slots {@link #cycleMode}(k), {@link #cycleSeed}(k)), which run as many cycles as as many executions would.
     *
     * @param heapFrom null, or the name of the user's own task graph (executed first, in the same plan) that leaves
     *                 the heap on the device ({@code persistOnDevice(b.heap)}): the cycle graph then takes it from
     *                 there ({@code consumeFromDevice}) instead of uploading it
     */
    public static TaskGraph cycleGraph(String name, CbtBuffers b, String heapFrom) {
        int[] params = b.params[G_CYCLE];
        int[] info = b.info[G_CYCLE];
        KernelContext c = b.context;
        TaskGraph g = new TaskGraph(graphName(name, G_CYCLE));
        if (heapFrom != null) {
            g.consumeFromDevice(heapFrom, b.heap);
        } else {
            g.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.heap);
        }
        if (chunked(b.D, b.packed)) {
            g.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.sums)
                    .transferToDevice(DataTransferMode.FIRST_EXECUTION, (Object[]) b.tickets)
                    .transferToDevice(DataTransferMode.EVERY_EXECUTION, params);
            String[] tasks = b.tasks(G_CYCLE);
            if (tasks.length == 1) {
                g.task(tasks[0], ChunkCycle::cycle, c, params, b.heap, b.sums, info, b.tickets[0], 0);
            }
            for (int k = 0; k < tasks.length && tasks.length > 1; k++) {
                AtomicInteger t = b.tickets[k];
                switch (k) {
                    case 0 -> g.task(tasks[k], ChunkCycle::cycle0, c, params, b.heap, b.sums, info, t);
                    case 1 -> g.task(tasks[k], ChunkCycle::cycle1, c, params, b.heap, b.sums, info, t);
                    case 2 -> g.task(tasks[k], ChunkCycle::cycle2, c, params, b.heap, b.sums, info, t);
                    case 3 -> g.task(tasks[k], ChunkCycle::cycle3, c, params, b.heap, b.sums, info, t);
                    case 4 -> g.task(tasks[k], ChunkCycle::cycle4, c, params, b.heap, b.sums, info, t);
                    case 5 -> g.task(tasks[k], ChunkCycle::cycle5, c, params, b.heap, b.sums, info, t);
                    case 6 -> g.task(tasks[k], ChunkCycle::cycle6, c, params, b.heap, b.sums, info, t);
                    default -> g.task(tasks[k], ChunkCycle::cycle7, c, params, b.heap, b.sums, info, t);
                }
            }
            return g.persistOnDevice(b.heap).transferToHost(DataTransferMode.UNDER_DEMAND, info);
        }
        g.transferToDevice(DataTransferMode.EVERY_EXECUTION, params)
                .task("update", CbtTaskGraphs::update, c, params, b.heap, info);
        if (fused(b.D, b.packed)) {
            g.task("prepass", CbtTaskGraphs::prepassWords, c, params, b.heap);
        }
        for (int d = firstLevel(b.D, b.packed); d > TOP_LEVEL; d--) {
            g.task("level" + d, CbtTaskGraphs::reduceLevel, c, params, b.heap, info, d);
        }
        return g.task("top", CbtTaskGraphs::reduceTop, c, params, b.heap, info)
                .persistOnDevice(b.heap)
                .transferToHost(DataTransferMode.UNDER_DEMAND, info);
    }

    /**
     * Step graph {@code g} over {@code b} ({@link #G_UPDATE} .. {@link #G_SCAN}): one task, named after its step, on the
     * cycle graph's heap ({@code consumeFromDevice}: TornadoVM 5.2 takes it from whichever graph of the plan ran
     * last); its parameters go up and its info array (heartbeat, decode's error count) comes back on demand at every
     * execution. The list graph's leaf list {@code b.nodes} stays on the device for the user's next graph
     * ({@code consumeFromDevice(graphName(name, G_LIST), b.nodes)}); the scan's two counts and the snapshot's heap
     * copy come back on demand.
     */
    public static TaskGraph stepGraph(String name, CbtBuffers b, int g) {
        int[] p = b.params[g];
        int[] info = b.info[g];
        KernelContext c = b.context;
        TaskGraph t = new TaskGraph(graphName(name, g))
                .consumeFromDevice(graphName(name, G_CYCLE), b.heap)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, p);
        String task = taskNames(g, b.D, b.packed)[0];
        switch (g) {
            case G_UPDATE -> t.task(task, CbtTaskGraphs::update, c, p, b.heap, info);
            case G_DECODE -> t.task(task, CbtTaskGraphs::decode, c, p, b.heap, info);
            case G_LIST -> t.task(task, CbtTaskGraphs::list, c, p, b.heap, b.nodes, info)
                    .persistOnDevice(b.nodes);
            case G_INIT -> t.task(task, CbtTaskGraphs::init, c, p, b.heap, info);
            case G_SNAPSHOT -> t.task(task, CbtTaskGraphs::snapshot, c, p, b.heap, b.heapOut, info)
                    .transferToHost(DataTransferMode.UNDER_DEMAND, b.heapOut);
            case G_SCAN -> t.task(task, CbtTaskGraphs::scan, c, p, b.heap, b.scanOut, info)
                    .transferToHost(DataTransferMode.UNDER_DEMAND, b.scanOut);
            default -> throw new IllegalArgumentException("graph " + g + " is not a step graph");
        }
        return t.transferToHost(DataTransferMode.UNDER_DEMAND, info);
    }

    /**
     * The plan's graphs over {@code b} in the order of their numbers ({@link #G_CYCLE}, then {@link #G_UPDATE} ..
     * {@link #G_SCAN}), for {@code new TornadoExecutionPlan(...)} and {@code withGraph(g)}.
     *
     * @param heapFrom see {@link #cycleGraph}
     */
    public static uk.ac.manchester.tornado.api.ImmutableTaskGraph[] graphs(String name, CbtBuffers b, String heapFrom) {
        uk.ac.manchester.tornado.api.ImmutableTaskGraph[] all = new uk.ac.manchester.tornado.api.ImmutableTaskGraph[GRAPHS];
        all[G_CYCLE] = cycleGraph(name, b, heapFrom).snapshot();
        for (int g = G_UPDATE; g < GRAPHS; g++) {
            all[g] = stepGraph(name, b, g).snapshot();
        }
        return all;
    }

    /** Adds graph {@code name}'s tasks to {@code gs}, one work-item each; {@link #size} resizes a task's grid before an execution. */
    public static GridScheduler grid(GridScheduler gs, String name, String[] tasks, WorkerGrid1D[] workers) {
        for (int i = 0; i < tasks.length; i++) {
            workers[i] = new WorkerGrid1D(1);
            workers[i].setLocalWorkToNull();
            gs.addWorkerGrid(name + "." + tasks[i], workers[i]);
        }
        return gs;
    }

    /**
     * Sets a grid to n work-items (at least one) rounded up to whole work-groups of {@code local}; the work-group
     * size never changes between executions (on POCL a new global size with a driver-chosen local size cost a
     * kernel rebuild, about 0.3 s, per execution). {@code local = 0} leaves the local size to the driver.
     */
    public static void size(WorkerGrid1D w, long n, int local) {
        long g = Math.max(1, n);
        if (local > 0) {
            g = (g + local - 1) / local * local;
            w.setGlobalWork(g, 1, 1);
            w.setLocalWork(local, 1, 1);
        } else {
            w.setGlobalWork(g, 1, 1);
            w.setLocalWorkToNull();
        }
    }
}
