package org.accelgeom.cbt.tornado;

import org.accelgeom.cbt.Cbt;
import org.accelgeom.cbt.CbtBackend;
import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.tornado.Plans;
import org.accelgeom.engine.tornado.TornadoDevices;

import uk.ac.manchester.tornado.api.KernelContext;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.common.TornadoDevice;

/**
 * The {@code tornado} backend of the CBT: one execution plan over {@link CbtTaskGraphs#graph}, built once per
 * tree. The heap goes to the device once and stays there; each pass uploads the 8-int parameter array and
 * downloads the 3-int info array (L, the error count, a heartbeat). The heap comes back only on {@link #sync()},
 * through a snapshot copy (downloading a resident input corrupted later executions on TornadoVM 5.2).
 *
 * <p>Timing: with TornadoVM's profiler on (the default; {@code -Daccelgeom.tornado.profiler=false} turns it off)
 * each execution is charged as kernel time (the device's own kernel timers) and launch overhead (the rest of the
 * wall time of {@code execute()}, less uploads and JIT compilation).
 */
public final class TornadoCbtBackend implements CbtBackend {

    private static final int LOCAL = Integer.getInteger("accelgeom.cbt.local", 256);
    private static final java.util.concurrent.atomic.AtomicInteger PLANS = new java.util.concurrent.atomic.AtomicInteger();

    private final TornadoDevice device;
    private final int listCapacity;
    private final boolean syncable;
    private PhaseTimings timings = new PhaseTimings();
    private Cbt tree;
    private int D;
    private int packed;
    private int[] params;
    private int[] info;
    private int[] nodes;
    private long[] scanOut;
    private int[] heapOut;
    private String[] tasks;
    private WorkerGrid1D[] workers;
    private TornadoExecutionPlan plan;
    private TornadoExecutionResult last;
    private int leaves;
    private int badSoFar;
    /** The device's sums are older than its bitfield (an update ran after the last reduction). */
    private boolean stale;
    private long lastKernelNanos;
    private long lastWallNanos;

    /**
     * @param deviceIndex  device of the default TornadoVM backend, -1 for the default device
     * @param listCapacity most leaves {@link #decodeAll(int[])} can list (0: decode-all only counts)
     * @param syncable     allocate a device copy of the heap so that {@link #sync()} can download it
     */
    public TornadoCbtBackend(Integer deviceIndex, Integer listCapacity, Boolean syncable) {
        this.device = TornadoDevices.device(deviceIndex == null ? -1 : deviceIndex);
        this.listCapacity = listCapacity == null ? 0 : listCapacity;
        this.syncable = syncable == null || syncable;
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
        params = new int[CbtTaskGraphs.PARAMS];
        params[CbtTaskGraphs.DEPTH] = D;
        params[CbtTaskGraphs.PACKED] = packed;
        params[CbtTaskGraphs.TOP] = Math.min(CbtTaskGraphs.TOP_LEVEL, CbtTaskGraphs.firstLevel(D, packed));
        info = new int[4];
        nodes = new int[Math.max(1, listCapacity)];
        scanOut = new long[2];
        heapOut = new int[syncable ? t.heap().length : 1];
        tasks = CbtTaskGraphs.taskNames(D, packed);
        workers = new WorkerGrid1D[tasks.length];
        String name = "cbt" + PLANS.incrementAndGet();
        timings.time("build task graph", Kind.HOST, () -> {
            KernelContext c = new KernelContext();
            plan = new TornadoExecutionPlan(CbtTaskGraphs.graph(name, c, params, tree.heap(), info, nodes, scanOut, heapOut)
                    .snapshot());
            plan.withDevice(device).withGridScheduler(CbtTaskGraphs.grid(name, tasks, workers));
            if (Plans.PROFILE) {
                Plans.profiled(plan);
            }
        });
        leaves = tree.leafCount(); // reduces the host heap first if a change is pending
        stale = false;
        badSoFar = 0;
        execute("upload heap", 0); // first execution: the heap goes to the device, every kernel is compiled
    }

    /** Sizes the grids for the steps in {@code mode}, runs the plan once and charges its time. */
    private void execute(String phase, int mode) {
        params[CbtTaskGraphs.MODE] = mode;
        params[CbtTaskGraphs.LEAVES] = leaves;
        params[CbtTaskGraphs.SEQ]++;
        for (int i = 0; i < tasks.length; i++) {
            // the top of the reduction is one work-group whatever the local size asked for
            CbtTaskGraphs.size(workers[i], workItems(tasks[i], mode), tasks[i].equals("top") ? CbtTaskGraphs.TOP_GROUP : LOCAL);
        }
        long t0 = System.nanoTime();
        last = Plans.execute(plan, device);
        last.transferToHost(info);
        long wall = System.nanoTime() - t0;
        if (info[CbtTaskGraphs.INFO_BEAT] != params[CbtTaskGraphs.SEQ]) {
            throw new AccelGeomException("a TornadoVM kernel of the CBT did not run on " + device.getPhysicalDevice().getDeviceName()
                    + " during '" + phase + "' (see the OpenCL error above); try ACCELGEOM_JAVA_OPTS=-Daccelgeom.cbt.local=64, another --device or the jvm-parallel backend");
        }
        lastWallNanos = wall;
        long kernel = Plans.charge(timings, phase, last, wall);
        lastKernelNanos = kernel > 0 ? kernel : -1;
    }

    private long workItems(String task, int mode) {
        switch (task) {
            case "leaves":
                return (mode & (CbtTaskGraphs.MODE_UPDATE | CbtTaskGraphs.MODE_DECODE)) != 0 ? leaves : 1;
            case "words":
                return (mode & (CbtTaskGraphs.MODE_INIT | CbtTaskGraphs.MODE_SNAPSHOT)) != 0 ? tree.heap().length : 1;
            case "prepass":
                return (mode & CbtTaskGraphs.MODE_REDUCE) != 0 ? 1L << (D - 5) : 1;
            case "top":
                return CbtTaskGraphs.TOP_GROUP;
            default: // level<d>
                return (mode & CbtTaskGraphs.MODE_REDUCE) != 0 ? 1L << Integer.parseInt(task.substring(5)) : 1;
        }
    }

    /** Kernel nanoseconds of the last execution (TornadoVM profiler), or -1 with the profiler off. */
    @Override
    public long lastKernelNanos() {
        return lastKernelNanos;
    }

    /**
     * The empty pass: every task of the graph launched with one work-item and no step selected (mode 0), so its
     * wall time is TornadoVM's launch and transfer floor for this graph.
     */
    @Override
    public void idle() {
        execute("empty pass", 0);
    }

    /** Wall nanoseconds of the last {@code execute()} including the info download. */
    public long lastWallNanos() {
        return lastWallNanos;
    }

    /** Re-initialises the heap on the device at depth d (§2.9 step 1) and reduces it. */
    @Override
    public int init(int d) {
        Cbt.checkDepths(D, d, packed == 1);
        params[CbtTaskGraphs.INIT_DEPTH] = d;
        execute("init + reduce", CbtTaskGraphs.MODE_INIT | CbtTaskGraphs.MODE_REDUCE);
        stale = false;
        leaves = info[CbtTaskGraphs.INFO_LEAVES];
        return leaves;
    }

    @Override
    public int reduce() {
        execute("reduce", CbtTaskGraphs.MODE_REDUCE);
        stale = false;
        leaves = info[CbtTaskGraphs.INFO_LEAVES];
        return leaves;
    }

    /** One usage cycle of Fig. 10 in one execution: decode-and-update, then the reduction; returns the new L. */
    @Override
    public int cycle(int seed, int splitBelow, int mergeBelow, int minDepth) {
        setRule(seed, splitBelow, mergeBelow, minDepth);
        execute("update + reduce", CbtTaskGraphs.MODE_UPDATE | CbtTaskGraphs.MODE_REDUCE);
        stale = false;
        leaves = info[CbtTaskGraphs.INFO_LEAVES];
        return leaves;
    }

    @Override
    public int decodeAll(int[] out) {
        boolean list = out != null;
        if (list && (out.length < leaves || leaves > listCapacity)) {
            throw new IllegalArgumentException("decodeAll lists " + leaves + " leaves: capacity " + listCapacity);
        }
        execute("decode", CbtTaskGraphs.MODE_DECODE | (list ? CbtTaskGraphs.MODE_LIST : 0));
        if (list) {
            long t0 = System.nanoTime();
            last.transferToHost(nodes);
            timings.add("download", Kind.DOWNLOAD, System.nanoTime() - t0);
            System.arraycopy(nodes, 0, out, 0, leaves);
        }
        int bad = info[CbtTaskGraphs.INFO_BAD] - badSoFar; // the device counter only grows
        badSoFar = info[CbtTaskGraphs.INFO_BAD];
        return bad;
    }

    private void setRule(int seed, int splitBelow, int mergeBelow, int minDepth) {
        params[CbtTaskGraphs.SEED] = seed;
        params[CbtTaskGraphs.SPLIT] = splitBelow;
        params[CbtTaskGraphs.MERGE] = mergeBelow;
        params[CbtTaskGraphs.MIN_DEPTH] = minDepth;
    }

    @Override
    public void update(int seed, int splitBelow, int mergeBelow, int minDepth) {
        setRule(seed, splitBelow, mergeBelow, minDepth);
        execute("update", CbtTaskGraphs.MODE_UPDATE);
        stale = true;
    }

    @Override
    public long[] scan() {
        execute("bitfield scan (1 work-item)", CbtTaskGraphs.MODE_SCAN);
        last.transferToHost(scanOut);
        return scanOut.clone();
    }

    @Override
    public void sync() {
        if (!syncable) {
            throw new IllegalStateException("this tornado CBT backend was created without a heap copy to download");
        }
        execute("snapshot", CbtTaskGraphs.MODE_SNAPSHOT);
        long t0 = System.nanoTime();
        last.transferToHost(heapOut);
        timings.add("download", Kind.DOWNLOAD, System.nanoTime() - t0);
        System.arraycopy(heapOut, 0, tree.heap(), 0, heapOut.length);
        if (stale) {
            tree.markStale();
        } else {
            tree.markFresh();
        }
    }

    /** Bytes the device holds for this tree: the heap, its copy and the leaf list. */
    public long deviceBytes() {
        return 4L * (tree.heap().length + heapOut.length + nodes.length);
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
