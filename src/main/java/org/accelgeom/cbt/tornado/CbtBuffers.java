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
 * The arrays of the three CBT task graphs of one plan ({@link CbtTaskGraphs}): the heap (resident on the device),
 * and per graph ({@link CbtTaskGraphs#G_CYCLE}, {@link CbtTaskGraphs#G_LEAVES}, {@link CbtTaskGraphs#G_WORDS}) its
 * parameter array (uploaded every execution) and its info array (L, the error count, the heartbeat; downloaded after
 * each execution); the leaf list, the scan's result, the heap's snapshot copy, and the one-launch cycle's chunk
 * counts and ticket (never transferred back). Also the launch grids: every task starts with one work-item and
 * {@link #size} sets them for the step an execution runs.
 */
public final class CbtBuffers {

    private static final int LOCAL = Tuning.CBT_LOCAL.intValue();

    public final int D;
    public final int packed;
    public final int[] heap;
    /** Per graph: its parameters (the cycle graph's with the mode and seed of each of its cycles after them). */
    public final int[][] params = new int[3][];
    public final int[][] info = new int[3][4];
    /** The leaf list of {@link CbtTaskGraphs#MODE_LIST}: nodes[l] is the heap index of leaf l. */
    public final int[] nodes;
    public final long[] scanOut = new long[2];
    /** The snapshot copy of the heap ({@link CbtTaskGraphs#MODE_SNAPSHOT}), or one int when not syncable. */
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
    /** The heartbeat check of the three graphs ({@link CbtTaskGraphs#launchCheck}; slot g is graph g's). */
    public final org.accelgeom.engine.tornado.LaunchCheck check;
    private final String[][] tasks = new String[3][];
    private final WorkerGrid1D[][] workers = new WorkerGrid1D[3][];
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
     * @param syncable     allocate a copy of the heap that can travel back ({@link CbtTaskGraphs#MODE_SNAPSHOT})
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
        for (int g = 0; g < 3; g++) {
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

    /** The launch grids of the plan's three graphs, named after {@code name} (one work-item each until {@link #size}). */
    public GridScheduler grid(String name) {
        GridScheduler gs = new GridScheduler();
        for (int g = 0; g < 3; g++) {
            CbtTaskGraphs.grid(gs, CbtTaskGraphs.graphName(name, g), tasks[g], workers[g]);
        }
        return gs;
    }

    /**
     * Prepares an execution of graph g running the steps of {@code mode} over a tree of {@code leaves} leaves: sets
     * params[g]'s mode, L and a new sequence number (returned; the kernels write it to info[g][INFO_BEAT]), and
     * sizes g's grids to the work those steps need.
     */
    public int size(int g, int mode, int leaves) {
        return size(g, mode, leaves, 1);
    }

    /**
     * As {@link #size(int, int, int)}, where an execution of the cycle graph runs its first {@code n} cycles (1 ≤ n ≤
     * {@link #cycles}) in {@code mode} and the others idle. Cycle k of the execution has the sequence number
     * params[SEQ] + k; the one returned is the last cycle's, whose heartbeat ends in info[INFO_BEAT].
     */
    public int size(int g, int mode, int leaves, int n) {
        int[] p = params[g];
        int copies = g == CbtTaskGraphs.G_CYCLE ? cycles : 1;
        if (n < 1 || n > copies) {
            throw new IllegalArgumentException(n + " cycles in an execution of a graph of " + copies);
        }
        p[CbtTaskGraphs.MODE] = mode;
        p[CbtTaskGraphs.LEAVES] = leaves;
        p[CbtTaskGraphs.SEQ] = seq + 1;
        seq += copies;
        if (g == CbtTaskGraphs.G_CYCLE) {
            for (int k = 0; k < cycles; k++) {
                p[CbtTaskGraphs.cycleMode(k)] = k < n ? mode : 0;
            }
        }
        for (int i = 0; i < tasks[g].length; i++) {
            String task = tasks[g][i];
            boolean chunks = task.startsWith("chunks");
            // the top of the reduction is one work-group whatever the local size asked for
            CbtTaskGraphs.size(workers[g][i], workItems(task, chunks && i >= n ? 0 : mode, leaves),
                    task.equals("top") ? topGroup : chunks ? chunkGroup : LOCAL);
        }
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

    private long workItems(String task, int mode, int leaves) {
        switch (task) {
            case "leaves":
                return (mode & (CbtTaskGraphs.MODE_UPDATE | CbtTaskGraphs.MODE_DECODE)) != 0 ? leaves : 1;
            case "words":
                return (mode & (CbtTaskGraphs.MODE_INIT | CbtTaskGraphs.MODE_SNAPSHOT)) != 0 ? heap.length : 1;
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
