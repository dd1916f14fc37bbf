package org.accelgeom.cbt.tornado;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

import org.accelgeom.cbt.CbtChunks;
import org.accelgeom.cbt.WordReduction;
import org.accelgeom.engine.Tuning;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.KernelContext;
import uk.ac.manchester.tornado.api.WorkerGrid1D;

/**
 * The arrays of the CBT task graphs of one plan ({@link CbtTaskGraphs}): the heap (resident on the device), and per
 * graph ({@link CbtTaskGraphs#G_CYCLE} .. {@link CbtTaskGraphs#G_SCAN}) its parameter array (uploaded every execution)
 * and its info array (L, the error count, the heartbeat; downloaded after each execution); the leaf list, the scan's
 * result, the heap's snapshot copy, and the one-launch cycle's chunk counts and ticket (never transferred back). Also
 * the launch grids: every task starts with one work-item and {@link #size} (the cycle graph), {@link #step} (a step
 * graph) or {@link #empty} sets them for an execution.
 */
public final class CbtBuffers {

    private static final int LOCAL = Tuning.CBT_LOCAL.intValue();

    public final int D;
    public final int packed;
    public final int[] heap;
    /** Per graph: its parameters (the cycle graph's with the mode and seed of each of its cycles after them). */
    public final int[][] params = new int[CbtTaskGraphs.GRAPHS][];
    public final int[][] info = new int[CbtTaskGraphs.GRAPHS][4];
    /** The leaf list of the list graph ({@link CbtTaskGraphs#G_LIST}): nodes[l] is the heap index of leaf l. */
    public final int[] nodes;
    public final long[] scanOut = new long[2];
    /** The snapshot copy of the heap ({@link CbtTaskGraphs#G_SNAPSHOT}), or one int when not syncable. */
    public final int[] heapOut;
    /** The one-launch cycle's per-chunk counts, tagged with no execution's number (0xFFFF). */
    public final int[] sums;
    public final AtomicInteger ticket = new AtomicInteger();
    /** The tickets of the cycle graph's copies of the one-launch cycle: {@link #ticket}, then one per further copy. */
    public final AtomicInteger[] tickets;
    public final KernelContext context = new KernelContext();
    /** The work-group sizes of reduceTop and of the one-launch cycle on the plan's device. */
    public final int topGroup;
    public final int chunkGroup;
    /** The usage cycles one execution of the cycle graph can run: K copies of the one-launch cycle (1 where the
     * cycle is not {@link CbtTaskGraphs#chunked}). */
    public final int cycles;
    /** The heartbeat check of the plan's graphs ({@link CbtTaskGraphs#launchCheck}; slot g is graph g's). */
    public final org.accelgeom.engine.tornado.LaunchCheck check;
    private final String[][] tasks = new String[CbtTaskGraphs.GRAPHS][];
    private final WorkerGrid1D[][] workers = new WorkerGrid1D[CbtTaskGraphs.GRAPHS][];
    private int seq;

    /**
     * Buffers over {@code heap} with the default work-groups ({@link CbtTaskGraphs#TOP_GROUP}, {@link ChunkCycle#GROUP};
     * a device with smaller work-groups needs the other constructor), no heap copy.
     */
    public CbtBuffers(int[] heap, int D, boolean packed, int listCapacity) {
        this(heap, D, packed, listCapacity, false, CbtTaskGraphs.TOP_GROUP, ChunkCycle.GROUP);
    }

    /**
     * Buffers over {@code heap}, a CBT heap of depth D in the given layout (the array itself goes to the device).
     *
     * @param listCapacity most leaves a decode can list (0: decode-all only counts)
     * @param syncable     allocate a copy of the heap that can travel back ({@link CbtTaskGraphs#G_SNAPSHOT})
     * @param topGroup     the work-group of reduceTop ({@link CbtTaskGraphs#topGroup} of the device)
     * @param chunkGroup   the work-group of the one-launch cycle ({@link ChunkCycle#GROUP}, at most the device's)
     */
    public CbtBuffers(int[] heap, int D, boolean packed, int listCapacity, boolean syncable, int topGroup,
            int chunkGroup) {
        this(heap, D, packed, listCapacity, syncable, topGroup, chunkGroup, 1);
    }

    /**
     * As above, with a cycle graph of {@code cyclesPerLaunch} one-launch cycles in a row where the cycle is
     * {@link CbtTaskGraphs#chunked} (else one cycle per execution): {@link #size(int, int, int, int)} says how many
     * of them an execution runs.
     */
    public CbtBuffers(int[] heap, int D, boolean packed, int listCapacity, boolean syncable, int topGroup,
            int chunkGroup, int cyclesPerLaunch) {
        if (cyclesPerLaunch < 1 || cyclesPerLaunch > ChunkCycle.MAX_COPIES) {
            throw new IllegalArgumentException("cycles per launch " + cyclesPerLaunch + " outside 1 .. " + ChunkCycle.MAX_COPIES);
        }
        this.D = D;
        this.packed = packed ? 1 : 0;
        this.heap = heap;
        this.topGroup = topGroup;
        this.chunkGroup = chunkGroup;
        this.nodes = new int[Math.max(1, listCapacity)];
        this.heapOut = new int[syncable ? heap.length : 1];
        this.sums = new int[CbtTaskGraphs.chunked(D, this.packed) ? 1 << CbtChunks.level(D) : 1];
        Arrays.fill(sums, -1);
        this.cycles = CbtTaskGraphs.chunked(D, this.packed) ? cyclesPerLaunch : 1;
        this.tickets = new AtomicInteger[cycles];
        tickets[0] = ticket;
        for (int k = 1; k < cycles; k++) {
            tickets[k] = new AtomicInteger();
        }
        for (int g = 0; g < CbtTaskGraphs.GRAPHS; g++) {
            params[g] = new int[g == CbtTaskGraphs.G_CYCLE ? CbtTaskGraphs.cycleMode(cycles) : CbtTaskGraphs.PARAMS];
            int[] p = params[g];
            p[CbtTaskGraphs.DEPTH] = D;
            p[CbtTaskGraphs.PACKED] = this.packed;
            p[CbtTaskGraphs.TOP] = Math.min(CbtTaskGraphs.TOP_LEVEL, CbtTaskGraphs.firstLevel(D, this.packed));
            p[CbtTaskGraphs.STOP] = ChunkCycle.ALL;
            tasks[g] = CbtTaskGraphs.taskNames(g, D, this.packed, cycles);
            workers[g] = new WorkerGrid1D[tasks[g].length];
        }
        this.check = CbtTaskGraphs.launchCheck(D, this.packed, cycles);
    }

    /**
     * Throws, in one line naming the task that did not run, unless graph g's execution numbered {@code seq} (the
     * number {@link #size} returned) wrote its heartbeat to {@code info[g][INFO_BEAT]}, downloaded by the caller
     * (copied into {@link #check} here, so the check adds no transfer).
     */
    public void verify(int g, int seq, String device, String phase) {
        check.beat[g] = info[g][CbtTaskGraphs.INFO_BEAT];
        check.verify(seq, device, phase, g);
    }

    /** The launch grids of the plan's graphs, named after {@code name} (one work-item each until an execution is sized). */
    public GridScheduler grid(String name) {
        GridScheduler gs = new GridScheduler();
        for (int g = 0; g < CbtTaskGraphs.GRAPHS; g++) {
            CbtTaskGraphs.grid(gs, CbtTaskGraphs.graphName(name, g), tasks[g], workers[g]);
        }
        return gs;
    }

    /**
     * Prepares an execution of the cycle graph ({@code g} = {@link CbtTaskGraphs#G_CYCLE}) running the steps of
     * {@code mode} ({@link CbtTaskGraphs#MODE_UPDATE} | {@link CbtTaskGraphs#MODE_REDUCE}, or the reduction alone)
     * over a tree of {@code leaves} leaves: sets its params' mode, work-items and a new sequence number (returned;
     * the kernels write it to info[g][INFO_BEAT]), and sizes its grids to the work those steps need.
     */
    public int size(int g, int mode, int leaves) {
        return size(g, mode, leaves, 1);
    }

    /**
     * As {@link #size(int, int, int)}, where the execution runs the cycle graph's first {@code n} cycles (1 ≤ n ≤
     * {@link #cycles}) in {@code mode} and the others idle. Cycle k of the execution has the sequence number
     * params[SEQ] + k; the one returned is the last cycle's, whose heartbeat ends in info[INFO_BEAT].
     */
    public int size(int g, int mode, int leaves, int n) {
        if (g != CbtTaskGraphs.G_CYCLE) {
            throw new IllegalArgumentException("graph " + g + " has no modes: a step graph is sized by step(g, leaves)");
        }
        if (n < 1 || n > cycles) {
            throw new IllegalArgumentException(n + " cycles in an execution of a graph of " + cycles);
        }
        int[] p = params[g];
        p[CbtTaskGraphs.MODE] = mode;
        p[CbtTaskGraphs.ITEMS] = (mode & CbtTaskGraphs.MODE_UPDATE) != 0 ? leaves : 0; // the per-level graph's update
        for (int k = 0; k < cycles; k++) {
            p[CbtTaskGraphs.cycleMode(k)] = k < n ? mode : 0;
        }
        for (int i = 0; i < tasks[g].length; i++) {
            String task = tasks[g][i];
            boolean chunks = task.startsWith("chunks");
            // the top of the reduction is one work-group whatever the local size asked for
            CbtTaskGraphs.size(workers[g][i], workItems(task, chunks && i >= n ? 0 : mode, p[CbtTaskGraphs.ITEMS]),
                    task.equals("top") ? topGroup : chunks ? chunkGroup : LOCAL);
        }
        return next(g, cycles);
    }

    /**
     * Prepares an execution of step graph g ({@link CbtTaskGraphs#G_UPDATE} .. {@link CbtTaskGraphs#G_SCAN}) over a
     * tree of {@code leaves} leaves: its work-items (L for update, decode and list, the heap's words for init and
     * snapshot, 1 for the scan) and a new sequence number (returned), its grid sized to them.
     */
    public int step(int g, int leaves) {
        if (g == CbtTaskGraphs.G_CYCLE || g < 0 || g >= CbtTaskGraphs.GRAPHS) {
            throw new IllegalArgumentException("graph " + g + " is not a step graph");
        }
        int items = switch (g) {
            case CbtTaskGraphs.G_INIT -> heap.length;
            case CbtTaskGraphs.G_SNAPSHOT -> heapOut.length;
            case CbtTaskGraphs.G_SCAN -> 1;
            default -> leaves;
        };
        return stepItems(g, items);
    }

    /**
     * Prepares an empty pass of graph g: every task launched with one work-item that does nothing but write the
     * heartbeat (the cycle graph with no step, a step graph with no work-item); its wall time is TornadoVM's launch and
     * transfer floor for that graph. Returns the sequence number.
     */
    public int empty(int g) {
        return g == CbtTaskGraphs.G_CYCLE ? size(g, 0, 0, 1) : stepItems(g, 0);
    }

    private int stepItems(int g, int items) {
        params[g][CbtTaskGraphs.ITEMS] = items;
        CbtTaskGraphs.size(workers[g][0], items, LOCAL);
        return next(g, 1);
    }

    /** Sets graph g's next sequence number (the first of its {@code copies} cycles) and returns the last one. */
    private int next(int g, int copies) {
        params[g][CbtTaskGraphs.SEQ] = seq + 1;
        seq += copies;
        return seq;
    }

    /** The random rule of the usage cycle (§2.9) for every graph. */
    public void setRule(int seed, int splitBelow, int mergeBelow, int minDepth) {
        for (int[] p : params) {
            p[CbtTaskGraphs.SEED] = seed;
            p[CbtTaskGraphs.SPLIT] = splitBelow;
            p[CbtTaskGraphs.MERGE] = mergeBelow;
            p[CbtTaskGraphs.MIN_DEPTH] = minDepth;
        }
        params[CbtTaskGraphs.G_CYCLE][CbtTaskGraphs.cycleSeed(0)] = seed;
    }

    /**
     * The random rule of the next execution's cycles: cycle k (k &lt; n ≤ {@link #cycles}) with the seed
     * {@code seeds[from + k]}, the other parameters shared.
     */
    public void setRules(int[] seeds, int from, int n, int splitBelow, int mergeBelow, int minDepth) {
        setRule(seeds[from], splitBelow, mergeBelow, minDepth);
        for (int k = 1; k < n; k++) {
            params[CbtTaskGraphs.G_CYCLE][CbtTaskGraphs.cycleSeed(k)] = seeds[from + k];
        }
    }

    /** The tasks of graph g, in order. */
    public String[] tasks(int g) {
        return tasks[g].clone();
    }

    /** The work-items of cycle-graph task {@code task} in {@code mode}; {@code updates}: the update's (L or 0). */
    private long workItems(String task, int mode, int updates) {
        switch (task) {
            case "update":
                return updates;
            case "prepass":
                return (mode & CbtTaskGraphs.MODE_REDUCE) != 0 ? WordReduction.prepassWordCount(D) : 1;
            case "top":
                return topGroup;
            default: // level<d>, chunks<k>
                if (task.startsWith("chunks")) {
                    return ChunkCycle.workItems(D, mode, chunkGroup);
                }
                return (mode & CbtTaskGraphs.MODE_REDUCE) != 0 ? 1L << Integer.parseInt(task.substring(5)) : 1;
        }
    }
}
