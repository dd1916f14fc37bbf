package org.accelgeom.hull.tornado;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.accelgeom.engine.Tuning;
import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.tornado.GraphNames;
import org.accelgeom.engine.tornado.Plans;
import org.accelgeom.engine.tornado.TornadoDevices;
import org.accelgeom.hull.HullBackend;
import org.accelgeom.hull.HullKernels;
import org.accelgeom.hull.RoundDelta;

import uk.ac.manchester.tornado.api.ImmutableTaskGraph;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.WorkerGrid;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.common.TornadoDevice;

/**
 * The {@code tornado} backend of the QuickHull: one execution plan over the four graphs of
 * {@link HullTaskGraphs#graphs}.
 *
 * <p>Transfers (see docs/hull.md): the points go to the device once; labels, distances and the face tables
 * never leave it in the normal case. Per round the host uploads only the round's parameters and delta (new
 * face planes, deleted faces' cones, new vertices: at most {@code cap} entries per section) and downloads the
 * flags and the new faces' farthest points. Labels and distances come back only when some point was too close
 * to a plane for the floating-point filter (then the host decides it exactly and sends the answer back as a
 * fix). The face tables are sized once (see {@link #load}).
 */
public final class TornadoHullBackend implements HullBackend {

    /** Largest per-round delta; the small round graph's (most rounds fit in it) is accelgeom.hull.smallRoundCap. */
    private static final int CAP = Tuning.HULL_ROUND_CAP.intValue();

    /** The session's name for the resident plan of the hull. */
    static final String FAMILY = "hull";
    static final String STEP = "quickhull";

    /**
     * A resident plan, kept in the session with its device memory for the next hull of the same point arrays on the
     * same device (repeated runs, benchmarks): TornadoVM compiles a new plan's kernels again, which costs far more
     * than a hull, and releasing a plan's device memory makes it compile them again too.
     */
    private record Resident(HullBuffers buffers, TornadoExecutionPlan plan, List<WorkerGrid> grids, int device) {
    }

    /** The tornado backend as a service of the tornado build (see {@link HullBackend.Factory}). */
    public static final class Factory implements HullBackend.Factory {
        @Override
        public HullBackend create(DeviceSession session) {
            return new TornadoHullBackend(session);
        }
    }

    private final DeviceSession session;
    private final TornadoDevice device;
    private final int deviceIndex;
    private PhaseTimings timings;
    private HullBuffers b;
    private TornadoExecutionPlan plan;
    private TornadoExecutionResult last;
    private List<WorkerGrid> pointGrids;
    private int active;
    private final boolean resident;

    /**
     * On the session's device; with {@link org.accelgeom.engine.Execution#resident()} the plan and the points stay
     * in the session for a next hull of the same arrays.
     */
    public TornadoHullBackend(DeviceSession session) {
        this.session = session;
        this.resident = session.execution().resident();
        this.deviceIndex = session.execution().device();
        this.device = TornadoDevices.device(this.deviceIndex);
    }

    @Override
    public void load(double[] x, double[] y, double[] z, int faceCapacity, PhaseTimings timings) {
        this.timings = timings;
        int n = x.length;
        // face tables sized once: a hull of n points creates about 6 faces per inserted point; 8n (at most 2^23)
        // covers every point becoming a vertex up to a million points (rebuilding a plan with larger tables broke
        // its kernels on TornadoVM 5.2, so there is no growth; a hull that needs more fails with a clear message)
        int faces = Tuning.HULL_INITIAL_FACES.intValue();
        int cap = Math.max(faceCapacity, faces > 0 ? faces : 16 + (int) Math.min(8L * n, 1 << 23));
        int groups = Math.max(1, Math.min(8192, n / 256));
        long need = 40L * n + 60L * cap;
        if (need > device.getMaxGlobalMemory() * 0.9) {
            throw new AccelGeomException(String.format("%d points need about %.1f GiB on the device, more than %s has (%.1f GiB)",
                    n, need / 1073741824.0, device.getPhysicalDevice().getDeviceName(), device.getMaxGlobalMemory() / 1073741824.0));
        }
        Resident r = session.take(FAMILY, STEP, Resident.class, c -> resident && c.buffers().x == x
                && c.buffers().y == y && c.buffers().z == z && c.device() == deviceIndex);
        if (r != null) {
            b = r.buffers();
            plan = r.plan();
            pointGrids = r.grids();
            setActive(b.n);
            b.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_INIT;
            execute(HullTaskGraphs.G_SETUP, b.setup, "init (points resident)");
            return;
        }
        build(new HullBuffers(x, y, z, cap, CAP, Tuning.HULL_SMALL_ROUND_CAP.intValue(), groups));
    }

    private void build(HullBuffers buffers) {
        this.b = buffers;
        timings.time("build task graphs", Kind.HOST, () -> {
            // a new name per plan, so that no two plans share TornadoVM's per-graph state
            String name = GraphNames.unique("quickhull");
            TaskGraph[] graphs;
            try (var scope = org.accelgeom.engine.tornado.KernelCache.onDevice(device)) {
                graphs = HullTaskGraphs.graphs(name, b);
            }
            ImmutableTaskGraph[] frozen = new ImmutableTaskGraph[graphs.length];
            for (int i = 0; i < graphs.length; i++) {
                frozen[i] = graphs[i].snapshot();
            }
            pointGrids = new ArrayList<>();
            plan = new TornadoExecutionPlan(frozen);
            session.planBuilt();
            plan.withDevice(device).withGridScheduler(HullTaskGraphs.grid(name, b, pointGrids));
            if (Plans.PROFILE) {
                Plans.profiled(plan);
            }
        });
        setActive(b.n);
        b.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_INIT;
        execute(HullTaskGraphs.G_SETUP, b.setup, "upload points + init");
        // every graph runs once (as a no-op) right after the setup graph has made the shared buffers, so that each
        // takes them over (TornadoVM syncs consumed buffers from the graph executed last) and is compiled now
        execute(HullTaskGraphs.G_ROUND, b.round, "compile round graphs");
        execute(HullTaskGraphs.G_BIG_ROUND, b.bigRound, "compile round graphs");
        execute(HullTaskGraphs.G_PASSES, b.passes, "compile round graphs");
    }

    /** The per-point tasks of the round graphs visit the first m entries of the index list. */
    private void setActive(int m) {
        active = m;
        for (WorkerGrid w : pointGrids) {
            w.setGlobalWork(Math.max(1, m), 1, 1);
        }
    }

    /**
     * Runs graph {@code graph} once, checks its heartbeats and charges upload, kernel and download time (from
     * TornadoVM's profiler).
     */
    private void execute(int graph, HullBuffers.PerGraph g, String phase) {
        long t0 = System.nanoTime();
        g.params[HullTaskGraphs.SEQ] = ++b.seq;
        g.params[HullTaskGraphs.N_ACTIVE] = active;
        plan.withGraph(graph);
        last = Plans.execute(plan, device);
        // TornadoVM reports a kernel that failed to launch (CL_OUT_OF_RESOURCES, ...) on stderr and goes on:
        // every task writes the execution's number to its heartbeat slot, and a missing beat is an error
        last.transferToHost(g.beat);
        for (int k : BEATS[graph]) {
            if (g.beat[k] != b.seq) {
                throw new AccelGeomException("a TornadoVM kernel of the hull (task slot " + k + ") did not run on "
                        + device.getPhysicalDevice().getDeviceName() + " during '" + phase
                        + "' (see the OpenCL error above); try another --device or the jvm-parallel backend");
            }
        }
        Plans.charge(timings, phase, last, System.nanoTime() - t0);
    }

    /** Heartbeat slots of each graph's tasks (see {@link HullTaskGraphs#BEAT}). */
    private static final int[][] BEATS = {
        {0, 1, 2, 3, 23, 24, 25},
        slots(4, 5, 22),
        slots(4, 5, 22),
        slots(22),
    };

    private static int[] slots(int... fixed) {
        int[] s = Arrays.copyOf(fixed, fixed.length + HullTaskGraphs.PASSES);
        for (int p = 0; p < HullTaskGraphs.PASSES; p++) {
            s[fixed.length + p] = HullTaskGraphs.BEAT + p;
        }
        return s;
    }

    private void download(Object... arrays) {
        long t0 = System.nanoTime();
        last.transferToHost(arrays);
        timings.add("download", Kind.DOWNLOAD, System.nanoTime() - t0);
    }

    @Override
    public int[] extremes(double[] dirs, int nDirs) {
        if (nDirs > 128) {
            throw new IllegalArgumentException("at most 128 directions");
        }
        System.arraycopy(dirs, 0, b.dD, 0, 3 * nDirs);
        b.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_EXTREMES;
        b.params[HullTaskGraphs.N_DIRS] = nDirs;
        execute(HullTaskGraphs.G_SETUP, b.setup, "extreme points");
        download(b.red);
        return Arrays.copyOf(b.red, nDirs);
    }

    @Override
    public int farthest(double[] geom, int mode) {
        System.arraycopy(geom, 0, b.dD, 0, 6);
        b.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_FARTHEST;
        b.params[HullTaskGraphs.GEOM_MODE] = mode;
        execute(HullTaskGraphs.G_SETUP, b.setup, "extreme points");
        download(b.red);
        return b.red[0];
    }

    @Override
    public void kill(int[] points) {
        HullBuffers.PerGraph g = b.round;
        System.arraycopy(points, 0, g.dI, 3 * g.cap, points.length);
        g.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_KILL;
        g.params[HullTaskGraphs.APEX_COUNT] = points.length;
        g.params[HullTaskGraphs.NEW_COUNT] = 0;
        g.params[HullTaskGraphs.DELETED_COUNT] = 0;
        execute(HullTaskGraphs.G_ROUND, g, "kill points");
    }

    /**
     * Culls the points inside the inner polytope, then compacts the index list to the points left (block counts
     * on the device, their prefix sum here, the scatter on the device): the round graphs then visit only those.
     */
    @Override
    public int cull(double[] inner, int nInner) {
        if (nInner > HullTaskGraphs.MAX_INNER) {
            return 0;
        }
        System.arraycopy(inner, 0, b.dD, 0, HullKernels.PLANE_STRIDE * nInner);
        b.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_CULL;
        b.params[HullTaskGraphs.N_INNER] = nInner;
        execute(HullTaskGraphs.G_SETUP, b.setup, "cull interior");
        b.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_COUNT;
        execute(HullTaskGraphs.G_SETUP, b.setup, "compact index list");
        download(b.counts);
        int left = 0;
        for (int k = 0; k < b.blocks; k++) {
            b.offsets[k] = left;
            left += b.counts[k];
        }
        if (left <= b.n / 2) {
            b.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_SCATTER;
            execute(HullTaskGraphs.G_SETUP, b.setup, "compact index list");
            setActive(left);
        }
        return b.n - left;
    }

    /** Sends a round's delta through the round graph it fits in; returns that graph's arrays. */
    private HullBuffers.PerGraph sendRound(RoundDelta d) {
        int biggest = Math.max(d.newCount, Math.max(d.deletedCount, d.apexCount));
        if (biggest > b.cap) {
            throw new AccelGeomException("one QuickHull round created " + biggest + " faces, more than the tornado "
                    + "backend's per-round limit of " + b.cap + "; use --backend jvm-parallel for this input");
        }
        ensureFaces(d.newBase + d.newCount);
        boolean small = biggest <= b.round.cap;
        HullBuffers.PerGraph g = small ? b.round : b.bigRound;
        int cap = g.cap;
        System.arraycopy(d.planes, 0, g.dD, 0, HullKernels.PLANE_STRIDE * d.newCount);
        System.arraycopy(d.deleted, 0, g.dI, 0, d.deletedCount);
        System.arraycopy(d.coneFirst, 0, g.dI, cap, d.deletedCount);
        System.arraycopy(d.coneCount, 0, g.dI, 2 * cap, d.deletedCount);
        System.arraycopy(d.apexes, 0, g.dI, 3 * cap, d.apexCount);
        // each new face's state at the end of the round: live, or deleted later in the same round
        Arrays.fill(g.dI, 6 * cap, 6 * cap + d.newCount, 0);
        Arrays.fill(g.dI, 7 * cap, 7 * cap + d.newCount, 0);
        for (int k = 0; k < d.deletedCount; k++) {
            int j = d.deleted[k] - d.newBase;
            if (j >= 0) {
                g.dI[6 * cap + j] = d.coneFirst[k];
                g.dI[7 * cap + j] = d.coneCount[k];
            }
        }
        int[] p = g.params;
        p[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_ROUND;
        p[HullTaskGraphs.NEW_BASE] = d.newBase;
        p[HullTaskGraphs.NEW_COUNT] = d.newCount;
        p[HullTaskGraphs.DELETED_COUNT] = d.deletedCount;
        p[HullTaskGraphs.APEX_COUNT] = d.apexCount;
        p[HullTaskGraphs.ROUND_BASE] = d.newBase;
        execute(small ? HullTaskGraphs.G_ROUND : HullTaskGraphs.G_BIG_ROUND, g, "round: delta, reassign, farthest");
        return g;
    }

    @Override
    public int[] round(RoundDelta d, UncertainResolver resolver) {
        HullBuffers.PerGraph g = sendRound(d);
        download(g.flags);
        if (g.flags[HullKernels.FLAG_UNCERTAIN] != 0) {
            g = fixUncertain(resolver, g.params);
        }
        // more farthest passes until the last one changed nothing
        while (g.flags[HullKernels.FLAG_PASS + HullTaskGraphs.PASSES - 1] != 0) {
            HullBuffers.PerGraph next = b.passes;
            copyRound(g.params, next.params);
            next.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_PASSES;
            Arrays.fill(next.flags, 0);
            execute(HullTaskGraphs.G_PASSES, next, "farthest point (extra passes)");
            g = next;
            download(g.flags);
        }
        download(g.out);
        return Arrays.copyOf(g.out, d.newCount);
    }

    private static void copyRound(int[] from, int[] to) {
        to[HullTaskGraphs.NEW_BASE] = from[HullTaskGraphs.NEW_BASE];
        to[HullTaskGraphs.NEW_COUNT] = from[HullTaskGraphs.NEW_COUNT];
        to[HullTaskGraphs.ROUND_BASE] = from[HullTaskGraphs.ROUND_BASE];
    }

    /** Brings the labels to the host, into labelOut. */
    private void snapshot() {
        b.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_SNAPSHOT;
        execute(HullTaskGraphs.G_SETUP, b.setup, "snapshot labels");
        download(b.labelOut);
    }

    /**
     * Decides the uncertain points of a round exactly on the host and sends the answers back through the small
     * round graph (MODE_FIX: set them, farthest passes, gather); returns that graph's arrays.
     */
    private HullBuffers.PerGraph fixUncertain(UncertainResolver resolver, int[] roundParams) {
        snapshot();
        long t0 = System.nanoTime();
        int[] fp = new int[64];
        int[] fl = new int[64];
        double[] fd = new double[64];
        int count = 0;
        double[] out = new double[1];
        for (int p = 0; p < b.n; p++) {
            int l = b.labelOut[p];
            if (l <= -2) {
                int f = resolver.resolve(p, -2 - l, out);
                if (count == fp.length) {
                    fp = Arrays.copyOf(fp, 2 * count);
                    fl = Arrays.copyOf(fl, 2 * count);
                    fd = Arrays.copyOf(fd, 2 * count);
                }
                fp[count] = p;
                fl[count] = f;
                fd[count] = f >= 0 ? out[0] : 0;
                count++;
            }
        }
        timings.add("resolve uncertain (exact)", Kind.HOST, System.nanoTime() - t0);
        HullBuffers.PerGraph g = b.round;
        copyRound(roundParams, g.params);
        int cap = g.cap;
        for (int lo = 0; lo < count; lo += cap) {
            int k = Math.min(cap, count - lo);
            System.arraycopy(fp, lo, g.dI, 4 * cap, k);
            System.arraycopy(fl, lo, g.dI, 5 * cap, k);
            System.arraycopy(fd, lo, g.dD, HullKernels.PLANE_STRIDE * cap, k);
            g.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_FIX;
            g.params[HullTaskGraphs.FIX_COUNT] = k;
            execute(HullTaskGraphs.G_ROUND, g, "fix uncertain points");
        }
        download(g.flags);
        return g;
    }

    /** Fails clearly when a round would overflow the face tables (see {@link #load}). */
    private void ensureFaces(int need) {
        if (need > b.faceCapacity) {
            throw new AccelGeomException("the hull needs more than " + b.faceCapacity + " faces on the device, the "
                    + "tornado backend's limit for " + b.n + " points; use --backend jvm-parallel for this input");
        }
    }

    @Override
    public void compact() {
        // the device scans all points; labels of finished points cost one read each
    }

    private void closePlan() {
        if (plan != null) {
            Plans.release(plan);
            plan = null;
        }
    }

    /** Releases the plan, or with {@code resident} keeps it (and the points on the device) for a next hull. */
    @Override
    public void close() {
        if (plan == null) {
            return;
        }
        if (!resident) {
            closePlan();
            return;
        }
        session.keep(FAMILY, STEP, new Resident(b, plan, pointGrids, deviceIndex), c -> Plans.release(c.plan()));
        plan = null;
    }
}
