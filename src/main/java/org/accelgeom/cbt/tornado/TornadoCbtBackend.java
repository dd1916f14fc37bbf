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
 * The {@code tornado} backend of the CBT: one execution plan over the three graphs of {@link CbtTaskGraphs} (cycle,
 * leaves, words), built once per tree; each execution runs one graph, so it launches only its step's kernels. The
 * heap goes to the device once and stays there; each pass uploads the parameter array and downloads the 4-int info
 * array (L, the error count, a heartbeat). The heap comes back only on {@link #sync()}, through a snapshot copy
 * (downloading a resident input corrupted later executions on TornadoVM 5.2).
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
    private PhaseTimings timings = new PhaseTimings();
    private Cbt tree;
    private int D;
    private int packed;
    /** The plan's arrays and grids: per graph (G_CYCLE, G_LEAVES, G_WORDS) its parameters and info array. */
    private CbtBuffers b;
    private int[][] params;
    private int[][] info;
    private int lastGraph = CbtTaskGraphs.G_CYCLE;
    private TornadoExecutionPlan plan;
    private TornadoExecutionResult last;
    private int leaves;
    private int badSoFar;
    /** The device's sums are older than its bitfield (an update ran after the last reduction). */
    private boolean stale;
    private long lastKernelNanos;
    private long lastWallNanos;

    /** The tornado backend as a service of the tornado build (see {@link CbtBackend.Factory}). */
    public static final class Factory implements CbtBackend.Factory {
        @Override
        public CbtBackend create(Execution execution, int listCapacity, boolean syncable) {
            return new TornadoCbtBackend(execution.device(), listCapacity, syncable);
        }
    }

    /**
     * @param deviceIndex  device of the default TornadoVM backend, -1 for the default device
     * @param listCapacity most leaves {@link #decodeAll(int[])} can list (0: decode-all only counts)
     * @param syncable     allocate a device copy of the heap so that {@link #sync()} can download it
     */
    public TornadoCbtBackend(int deviceIndex, int listCapacity, boolean syncable) {
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
        b = new CbtBuffers(tree.heap(), D, packed == 1, listCapacity, syncable, topGroup, chunkGroup);
        params = b.params;
        info = b.info;
        String name = GraphNames.unique("cbt");
        timings.time("build task graph", Kind.HOST, () -> {
            plan = new TornadoExecutionPlan(CbtTaskGraphs.cycleGraph(name, b, null).snapshot(),
                    CbtTaskGraphs.leavesGraph(name, b).snapshot(), CbtTaskGraphs.wordsGraph(name, b).snapshot());
            plan.withDevice(device).withGridScheduler(b.grid(name));
            if (Plans.PROFILE) {
                Plans.profiled(plan);
            }
        });
        leaves = tree.leafCount(); // reduces the host heap first if a change is pending
        stale = false;
        badSoFar = 0;
        // first execution: the heap goes to the device; then the other graphs take it over (TornadoVM hands a
        // consumed buffer on from the graph executed last) and every kernel is compiled now
        execute("upload heap", CbtTaskGraphs.G_CYCLE, 0);
        execute("compile", CbtTaskGraphs.G_LEAVES, 0);
        execute("compile", CbtTaskGraphs.G_WORDS, 0);
    }

    /** Sizes graph g's grids for the steps in {@code mode}, runs it once and charges its time. */
    private void execute(String phase, int g, int mode) {
        int seq = b.size(g, mode, leaves);
        long t0 = System.nanoTime();
        plan.withGraph(g);
        last = Plans.execute(plan, device);
        last.transferToHost(info[g]);
        long wall = System.nanoTime() - t0;
        lastGraph = g;
        if (info[g][CbtTaskGraphs.INFO_BEAT] != seq) {
            throw new AccelGeomException("a TornadoVM kernel of the CBT did not run on " + device.getPhysicalDevice().getDeviceName()
                    + " during '" + phase + "' (see the OpenCL error above); try ACCELGEOM_JAVA_OPTS=-Daccelgeom.cbt.local=64"
                    + (CbtTaskGraphs.chunked(D, packed) ? " or -Daccelgeom.cbt.chunked=false (the one-launch cycle needs 22 KiB of local memory per group)" : "")
                    + ", another --device or the jvm-parallel backend");
        }
        // only the one-launch cycle poisons its root; a three-launch tree of depth > 24 may hold 2^24 leaves or more
        if (g == CbtTaskGraphs.G_CYCLE && CbtTaskGraphs.chunked(D, packed) && (mode & CbtTaskGraphs.MODE_REDUCE) != 0
                && info[g][CbtTaskGraphs.INFO_LEAVES] >= ChunkCycle.MISSING) {
            throw new AccelGeomException("the one-launch CBT cycle on " + device.getPhysicalDevice().getDeviceName()
                    + " did not see every chunk's count before reducing the top of the tree: this device orders memory more weakly"
                    + " than expected; run with ACCELGEOM_JAVA_OPTS=-Daccelgeom.cbt.chunked=false");
        }
        lastWallNanos = wall;
        long kernel = Plans.charge(timings, phase, last, wall);
        lastKernelNanos = kernel > 0 ? kernel : -1;
    }

    /** Kernel nanoseconds of the last execution (TornadoVM profiler), or -1 with the profiler off. */
    @Override
    public long lastKernelNanos() {
        return lastKernelNanos;
    }

    /**
     * The empty pass: every task of the graph executed last launched with one work-item and no step selected
     * (mode 0), so its wall time is TornadoVM's launch and transfer floor for that graph.
     */
    @Override
    public void idle() {
        execute("empty pass", lastGraph, 0);
    }

    /** Wall nanoseconds of the last {@code execute()} including the info download. */
    public long lastWallNanos() {
        return lastWallNanos;
    }

    /** Re-initialises the heap on the device at depth d (§2.9 step 1) and reduces it. */
    @Override
    public int init(int d) {
        Cbt.checkDepths(D, d, packed == 1);
        params[CbtTaskGraphs.G_WORDS][CbtTaskGraphs.INIT_DEPTH] = d;
        execute("init", CbtTaskGraphs.G_WORDS, CbtTaskGraphs.MODE_INIT);
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

    @Override
    public int decodeAll(int[] out) {
        boolean list = out != null;
        if (list && (out.length < leaves || leaves > listCapacity)) {
            throw new IllegalArgumentException("decodeAll lists " + leaves + " leaves: capacity " + listCapacity);
        }
        execute("decode", CbtTaskGraphs.G_LEAVES, CbtTaskGraphs.MODE_DECODE | (list ? CbtTaskGraphs.MODE_LIST : 0));
        if (list) {
            long t0 = System.nanoTime();
            last.transferToHost(b.nodes);
            timings.add("download", Kind.DOWNLOAD, System.nanoTime() - t0);
            System.arraycopy(b.nodes, 0, out, 0, leaves);
        }
        int[] in = info[CbtTaskGraphs.G_LEAVES];
        int bad = in[CbtTaskGraphs.INFO_BAD] - badSoFar; // the device counter only grows
        badSoFar = in[CbtTaskGraphs.INFO_BAD];
        return bad;
    }

    private void setRule(int seed, int splitBelow, int mergeBelow, int minDepth) {
        b.setRule(seed, splitBelow, mergeBelow, minDepth);
    }

    @Override
    public void update(int seed, int splitBelow, int mergeBelow, int minDepth) {
        setRule(seed, splitBelow, mergeBelow, minDepth);
        execute("update", CbtTaskGraphs.G_LEAVES, CbtTaskGraphs.MODE_UPDATE);
        stale = true;
    }

    @Override
    public long[] scan() {
        execute("bitfield scan (1 work-item)", CbtTaskGraphs.G_WORDS, CbtTaskGraphs.MODE_SCAN);
        last.transferToHost(b.scanOut);
        return b.scanOut.clone();
    }

    @Override
    public void sync() {
        if (!syncable) {
            throw new IllegalStateException("this tornado CBT backend was created without a heap copy to download");
        }
        execute("snapshot", CbtTaskGraphs.G_WORDS, CbtTaskGraphs.MODE_SNAPSHOT);
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
