package org.accelgeom.cbt.tornado;

import org.accelgeom.cbt.Cbt;
import org.accelgeom.cbt.CbtBackend;
import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.tornado.GraphNames;
import org.accelgeom.engine.tornado.Plans;
import org.accelgeom.engine.tornado.TornadoDevices;


import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.common.TornadoDevice;

/**
 * The {@code tornado} backend of the CBT: one execution plan over the graphs of {@link CbtTaskGraphs} (the usage
 * cycle, then a graph per step: update, decode, list, init, snapshot, scan), built once per tree; each execution runs
 * the graph of its step, so it launches only that step's kernels, and a graph is compiled at its first execution.
 * The heap goes to the device once and stays there; each pass uploads the parameter array and downloads the 4-int
 * info array (L, the error count, a heartbeat). The heap comes back only on {@link #sync()}, through the snapshot
 * graph's copy (downloading a resident input corrupted later executions on TornadoVM 5.2).
 *
 * <p>Timing: with TornadoVM's profiler on ({@code --timings}, {@code cbt --bench},
 * {@code -Daccelgeom.tornado.profiler=true}; off by default) each execution is charged as kernel time (the
 * device's own kernel timers) and launch overhead (the rest of the wall time of {@code execute()}, less uploads and
 * JIT compilation).
 */
public final class TornadoCbtBackend implements CbtBackend {


    private final TornadoDevice device;
    private final int topGroup;
    private final int chunkGroup;
    private final int listCapacity;
    private final boolean syncable;
    private final int cyclesPerLaunch;
    private PhaseTimings timings = new PhaseTimings();
    private Cbt tree;
    private int D;
    private int packed;
    /** The plan's arrays and grids: per graph (G_CYCLE .. G_SCAN) its parameters and info array. */
    private CbtBuffers b;
    private int[][] params;
    private int[][] info;
    private int lastGraph = CbtTaskGraphs.G_CYCLE;
    private TornadoExecutionPlan plan;
    private TornadoExecutionResult last;
    private int leaves;
    /** Per graph, its info[INFO_BAD] as last read (the device counters of the decode and list graphs only grow). */
    private final int[] badSoFar = new int[CbtTaskGraphs.GRAPHS];
    /** info[G_CYCLE][INFO_MISSED] as the first execution found it (the device counter only grows). */
    private int missedSoFar;
    /** The device's sums are older than its bitfield (an update ran after the last reduction). */
    private boolean stale;
    private long lastKernelNanos;
    private long lastWallNanos;

    /** The tornado backend as a service of the tornado build (see {@link CbtBackend.Factory}). */
    public static final class Factory implements CbtBackend.Factory {
        @Override
        public CbtBackend create(Execution execution, int listCapacity, boolean syncable, int cyclesPerLaunch) {
            return new TornadoCbtBackend(execution.device(), listCapacity, syncable, cyclesPerLaunch);
        }
    }

    /**
     * @param deviceIndex  device of the default TornadoVM backend, -1 for the default device
     * @param listCapacity most leaves {@link #decodeAll(int[])} can list (0: decode-all only counts)
     * @param syncable     allocate a device copy of the heap so that {@link #sync()} can download it
     */
    public TornadoCbtBackend(int deviceIndex, int listCapacity, boolean syncable) {
        this(deviceIndex, listCapacity, syncable, 1);
    }

    /**
     * As above, with a cycle graph that runs up to {@code cyclesPerLaunch} usage cycles per execution where the cycle
     * is the one-launch {@link ChunkCycle} ({@link #cycles}); every execution of that graph then launches that many
     * kernels, those not needed idle.
     */
    public TornadoCbtBackend(int deviceIndex, int listCapacity, boolean syncable, int cyclesPerLaunch) {
        if (cyclesPerLaunch < 1) {
            throw new IllegalArgumentException("cycles per launch " + cyclesPerLaunch + " < 1");
        }
        this.cyclesPerLaunch = cyclesPerLaunch;
        this.device = TornadoDevices.device(deviceIndex);
        this.topGroup = CbtTaskGraphs.topGroup(device);
        this.chunkGroup = TornadoDevices.workGroup(device, ChunkCycle.GROUP);
        this.listCapacity = listCapacity;
        this.syncable = syncable;
    }

    @Override
    public void load(Cbt t, PhaseTimings pt) {
        close();
        this.tree = t;
        this.timings = pt;
        this.D = t.maxDepth();
        this.packed = t.packed() ? 1 : 0;
        long need = t.memoryBytes() * (syncable ? 2 : 1) + 4L * listCapacity;
        if (need > device.getMaxGlobalMemory() * 0.9) {
            throw new AccelGeomException(String.format("a CBT of depth %d needs %.2f GiB on the device, more than %s has",
                    D, need / 1073741824.0, device.getPhysicalDevice().getDeviceName()));
        }
        b = new CbtBuffers(tree.heap(), D, packed == 1, listCapacity, syncable, topGroup, chunkGroup, cyclesPerLaunch);
        params = b.params;
        info = b.info;
        String name = GraphNames.unique("cbt");
        timings.time("build task graph", Kind.HOST, () -> {
            plan = new TornadoExecutionPlan(CbtTaskGraphs.graphs(name, b, null));
            plan.withDevice(device).withGridScheduler(b.grid(name));
        });
        leaves = tree.leafCount(); // reduces the host heap first if a change is pending
        stale = false;
        java.util.Arrays.fill(badSoFar, 0);
        // first execution: the heap goes to the device; the step graphs take it over (TornadoVM hands a consumed
        // buffer on from the graph executed last), each compiled at its first execution
        missedSoFar = Integer.MIN_VALUE; // not yet read: the first execution's download sets it
        execute("upload heap", CbtTaskGraphs.G_CYCLE, 0);
    }

    /** Sizes the cycle graph's grids for the steps in {@code mode}, runs it once, checks it and charges its time. */
    private void execute(String phase, int g, int mode) {
        execute(phase, g, mode, 1, true);
    }

    /** Runs step graph g ({@link CbtTaskGraphs#G_UPDATE} .. {@link CbtTaskGraphs#G_SCAN}) once over the tree's leaves, checks it and charges its time. */
    private void step(String phase, int g) {
        run(phase, g, 0, b.step(g, leaves), true);
    }

    /**
     * Sizes graph g's grids for the steps in {@code mode} ({@code n} cycles of the cycle graph), runs it once and
     * charges its time; with {@code download}, reads its info array back and checks it (the heartbeat of its last
     * kernel, the one-launch cycle's missing counts). Without, the next check covers this execution: its kernels
     * write the same info array.
     */
    private void execute(String phase, int g, int mode, int n, boolean download) {
        run(phase, g, mode, b.size(g, mode, leaves, n), download);
    }

    /** Runs graph g, sized for the execution numbered {@code seq}, and charges its time; with download, checks it. */
    private void run(String phase, int g, int mode, int seq, boolean download) {
        long t0 = System.nanoTime();
        plan.withGraph(g);
        last = Plans.execute(plan, device, timings);
        if (download) {
            last.transferToHost(info[g]);
        }
        long wall = System.nanoTime() - t0;
        lastGraph = g;
        if (download) {
            check(phase, g, mode, seq);
        }
        lastWallNanos = wall;
        long kernel = Plans.charge(timings, phase, last, wall);
        lastKernelNanos = kernel > 0 ? kernel : -1;
    }

    /** Throws unless graph g's last execution (sequence number {@code seq}) ran and, for the one-launch cycle, saw every chunk. */
    private void check(String phase, int g, int mode, int seq) {
        try {
            b.verify(g, seq, device.getPhysicalDevice().getDeviceName(), phase);
        } catch (AccelGeomException e) { // LaunchCheck's line, with the CBT's own switches
            throw new AccelGeomException(e.getMessage() + "; or try ACCELGEOM_JAVA_OPTS=-Daccelgeom.cbt.local=64"
                    + (CbtTaskGraphs.chunked(D, packed) ? " or -Daccelgeom.cbt.chunked=false (the one-launch cycle needs 22 KiB of local memory per group)" : ""), e);
        }
        // only the one-launch cycle poisons its root; a three-launch tree of depth > 24 may hold 2^24 leaves or more
        boolean chunks = g == CbtTaskGraphs.G_CYCLE && CbtTaskGraphs.chunked(D, packed);
        if (chunks && missedSoFar == Integer.MIN_VALUE) {
            missedSoFar = info[g][CbtTaskGraphs.INFO_MISSED];
        }
        if (chunks && ((mode & CbtTaskGraphs.MODE_REDUCE) != 0 && info[g][CbtTaskGraphs.INFO_LEAVES] >= ChunkCycle.MISSING
                || info[g][CbtTaskGraphs.INFO_MISSED] != missedSoFar)) {
            throw new AccelGeomException("the one-launch CBT cycle on " + device.getPhysicalDevice().getDeviceName()
                    + " did not see every chunk's count before reducing the top of the tree: this device orders memory more weakly"
                    + " than expected; run with ACCELGEOM_JAVA_OPTS=-Daccelgeom.cbt.chunked=false");
        }
    }

    /** Kernel nanoseconds of the last execution (TornadoVM profiler), or -1 with the profiler off. */
    @Override
    public long lastKernelNanos() {
        return lastKernelNanos;
    }

    /**
     * The empty pass: every task of the graph executed last launched with one work-item and no work
     * ({@link CbtBuffers#empty}), so its wall time is TornadoVM's launch and transfer floor for that graph.
     */
    @Override
    public void idle() {
        run("empty pass", lastGraph, 0, b.empty(lastGraph), true);
    }

    /** Wall nanoseconds of the last {@code execute()} including the info download. */
    public long lastWallNanos() {
        return lastWallNanos;
    }

    /** Re-initialises the heap on the device at depth d (§2.9 step 1) and reduces it. */
    @Override
    public int init(int d) {
        Cbt.checkDepths(D, d, packed == 1);
        params[CbtTaskGraphs.G_INIT][CbtTaskGraphs.INIT_DEPTH] = d;
        step("init", CbtTaskGraphs.G_INIT);
        execute("reduce", CbtTaskGraphs.G_CYCLE, CbtTaskGraphs.MODE_REDUCE);
        stale = false;
        leaves = info[CbtTaskGraphs.G_CYCLE][CbtTaskGraphs.INFO_LEAVES];
        return leaves;
    }

    @Override
    public int reduce() {
        execute("reduce", CbtTaskGraphs.G_CYCLE, CbtTaskGraphs.MODE_REDUCE);
        stale = false;
        leaves = info[CbtTaskGraphs.G_CYCLE][CbtTaskGraphs.INFO_LEAVES];
        return leaves;
    }

    /** One usage cycle of Fig. 10 in one execution of the cycle graph: decode-and-update, then the reduction; returns the new L. */
    @Override
    public int cycle(int seed, int splitBelow, int mergeBelow, int minDepth) {
        setRule(seed, splitBelow, mergeBelow, minDepth);
        execute("update + reduce", CbtTaskGraphs.G_CYCLE, CbtTaskGraphs.MODE_UPDATE | CbtTaskGraphs.MODE_REDUCE);
        stale = false;
        leaves = info[CbtTaskGraphs.G_CYCLE][CbtTaskGraphs.INFO_LEAVES];
        return leaves;
    }

    /**
     * {@code seeds.length} usage cycles, up to {@link CbtBuffers#cycles} per execution of the cycle graph; its info
     * array (L, the heartbeat, the missing counts) comes back once, after the last execution, where the cycle is
     * the one-launch {@link ChunkCycle} (whose grid does not depend on L); the per-level cycle graph needs L before
     * every execution.
     */
    @Override
    public int cycles(int[] seeds, int splitBelow, int mergeBelow, int minDepth) {
        if (seeds.length == 0) {
            throw new IllegalArgumentException("no cycle to run");
        }
        boolean chunks = CbtTaskGraphs.chunked(D, packed);
        int K = b.cycles;
        for (int from = 0; from < seeds.length; from += K) {
            int n = Math.min(K, seeds.length - from);
            b.setRules(seeds, from, n, splitBelow, mergeBelow, minDepth);
            execute(n == 1 ? "update + reduce" : "update + reduce, several cycles", CbtTaskGraphs.G_CYCLE,
                    CbtTaskGraphs.MODE_UPDATE | CbtTaskGraphs.MODE_REDUCE, n, !chunks || from + n >= seeds.length);
            if (!chunks) {
                leaves = info[CbtTaskGraphs.G_CYCLE][CbtTaskGraphs.INFO_LEAVES];
            }
        }
        stale = false;
        leaves = info[CbtTaskGraphs.G_CYCLE][CbtTaskGraphs.INFO_LEAVES];
        return leaves;
    }

    /** The most cycles one execution runs ({@link #cycles}): 1 unless the cycle is the one-launch {@link ChunkCycle}. */
    public int cyclesPerExecution() {
        return b.cycles;
    }

    @Override
    public int decodeAll(int[] out) {
        boolean list = out != null;
        if (list && (out.length < leaves || leaves > listCapacity)) {
            throw new IllegalArgumentException("decodeAll lists " + leaves + " leaves: capacity " + listCapacity);
        }
        int g = list ? CbtTaskGraphs.G_LIST : CbtTaskGraphs.G_DECODE;
        step("decode", g);
        if (list) {
            long t0 = System.nanoTime();
            last.transferToHost(b.nodes);
            timings.add("download", Kind.DOWNLOAD, System.nanoTime() - t0);
            System.arraycopy(b.nodes, 0, out, 0, leaves);
        }
        int bad = info[g][CbtTaskGraphs.INFO_BAD] - badSoFar[g]; // the device counter only grows
        badSoFar[g] = info[g][CbtTaskGraphs.INFO_BAD];
        return bad;
    }

    private void setRule(int seed, int splitBelow, int mergeBelow, int minDepth) {
        b.setRule(seed, splitBelow, mergeBelow, minDepth);
    }

    @Override
    public void update(int seed, int splitBelow, int mergeBelow, int minDepth) {
        setRule(seed, splitBelow, mergeBelow, minDepth);
        step("update", CbtTaskGraphs.G_UPDATE);
        stale = true;
    }

    @Override
    public long[] scan() {
        step("bitfield scan (1 work-item)", CbtTaskGraphs.G_SCAN);
        last.transferToHost(b.scanOut);
        return b.scanOut.clone();
    }

    @Override
    public void sync() {
        if (!syncable) {
            throw new IllegalStateException("this tornado CBT backend was created without a heap copy to download");
        }
        step("snapshot", CbtTaskGraphs.G_SNAPSHOT);
        long t0 = System.nanoTime();
        last.transferToHost(b.heapOut);
        timings.add("download", Kind.DOWNLOAD, System.nanoTime() - t0);
        System.arraycopy(b.heapOut, 0, tree.heap(), 0, b.heapOut.length);
        if (stale) {
            tree.markStale();
        } else {
            tree.markFresh();
        }
    }

    /** Bytes the device holds for this tree: the heap, its copy and the leaf list. */
    public long deviceBytes() {
        return 4L * (tree.heap().length + b.heapOut.length + b.nodes.length);
    }

    /** The benchmark's timing breakdown (see {@link CbtBackend#stopAfterPhase}); after {@link #load}. */
    @Override
    public boolean stopAfterPhase(int phase) {
        if (phase < 1 || phase > ChunkCycle.ALL) {
            throw new IllegalArgumentException("phase " + phase + " outside 1 .. " + ChunkCycle.ALL);
        }
        for (int[] p : params) {
            p[CbtTaskGraphs.STOP] = phase;
        }
        return true;
    }

    @Override
    public String describe() {
        return "tornado (" + device.getPhysicalDevice().getDeviceName() + ")";
    }

    @Override
    public void close() {
        if (plan != null) {
            Plans.release(plan);
            plan = null;
        }
    }
}
