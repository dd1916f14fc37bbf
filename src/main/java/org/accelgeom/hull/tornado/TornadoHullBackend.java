package org.accelgeom.hull.tornado;

import java.util.Arrays;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.tornado.Plans;
import org.accelgeom.engine.tornado.TornadoDevices;
import org.accelgeom.hull.HullBackend;
import org.accelgeom.hull.HullKernels;
import org.accelgeom.hull.RoundDelta;

import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.ProfilerMode;

/**
 * The {@code tornado} backend of the QuickHull: one execution plan over {@link HullTaskGraphs#graph}.
 *
 * <p>Transfers (see docs/hull.md): the points go to the device once; labels, distances and the face tables
 * never leave it in the normal case. Per round the host uploads only the round's parameters and delta (new
 * face planes, deleted faces' cones, new vertices: at most {@code cap} entries per section) and downloads the
 * flags and the new faces' farthest points. Labels and distances come back only when some point was too close
 * to a plane for the floating-point filter (then the host decides it exactly and sends the answer back as a
 * fix). The face tables are sized once (see {@link #load}).
 */
public final class TornadoHullBackend implements HullBackend {

    private static final int CAP = Integer.getInteger("accelgeom.hull.roundCap", 1 << 16);
    private static final java.util.concurrent.atomic.AtomicInteger PLANS = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * The last resident plan, kept with its device memory for the next hull of the same point arrays on the same
     * device (repeated runs, benchmarks): TornadoVM compiles a new plan's kernels again, which costs far more than
     * a hull, and releasing a plan's device memory makes it compile them again too.
     */
    private static HullBuffers cachedBuffers;
    private static TornadoExecutionPlan cachedPlan;
    private static int cachedDevice;


    private final TornadoDevice device;
    private final int deviceIndex;
    private PhaseTimings timings;
    private HullBuffers b;
    private TornadoExecutionPlan plan;
    private TornadoExecutionResult last;
    private final boolean resident;

    /**
     * @param deviceIndex TornadoVM device of the default backend, or -1 for TornadoVM's default
     * @param resident    keep the plan and the points on the device for a next hull of the same arrays
     */
    public TornadoHullBackend(Integer deviceIndex, Boolean resident) {
        this.resident = resident != null && resident;
        this.deviceIndex = deviceIndex == null ? -1 : deviceIndex;
        this.device = TornadoDevices.device(this.deviceIndex);
    }

    @Override
    public void load(double[] x, double[] y, double[] z, int faceCapacity, PhaseTimings timings) {
        this.timings = timings;
        int n = x.length;
        // face tables sized once: a hull of n points creates about 6 faces per inserted point; 8n (at most 2^23)
        // covers every point becoming a vertex up to a million points (rebuilding a plan with larger tables broke
        // its kernels on TornadoVM 5.2, so there is no growth; a hull that needs more fails with a clear message)
        int cap = Math.max(faceCapacity, Integer.getInteger("accelgeom.hull.initialFaces",
                16 + (int) Math.min(8L * n, 1 << 23)));
        int groups = Math.max(1, Math.min(8192, n / 256));
        long need = 40L * n + 60L * cap;
        if (need > device.getMaxGlobalMemory() * 0.9) {
            throw new AccelGeomException(String.format("%d points need about %.1f GiB on the device, more than %s has (%.1f GiB)",
                    n, need / 1073741824.0, device.getPhysicalDevice().getDeviceName(), device.getMaxGlobalMemory() / 1073741824.0));
        }
        synchronized (TornadoHullBackend.class) {
            if (resident && cachedPlan != null && cachedBuffers.x == x && cachedBuffers.y == y && cachedBuffers.z == z
                    && cachedDevice == deviceIndex) {
                b = cachedBuffers;
                plan = cachedPlan;
                cachedPlan = null;
                b.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_INIT;
                execute("init (points resident)");
                return;
            }
            if (cachedPlan != null) {
                Plans.release(cachedPlan);
                cachedPlan = null;
            }
            cachedBuffers = null;
        }
        build(new HullBuffers(x, y, z, cap, CAP, groups), true);
    }

    private void build(HullBuffers buffers, boolean init) {
        this.b = buffers;
        timings.time("build task graph", Kind.HOST, () -> {
            // a new name per plan, so that no two plans share TornadoVM's per-graph state
            String name = "quickhull" + PLANS.incrementAndGet();
            plan = new TornadoExecutionPlan(HullTaskGraphs.graph(name, b).snapshot());
            plan.withDevice(device).withGridScheduler(HullTaskGraphs.grid(name, b));
            if (Plans.PROFILE) {
                plan.withProfiler(ProfilerMode.SILENT);
            }
        });
        if (init) {
            b.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_INIT;
            execute("upload points + init");
        }
    }

    /** Runs one execution and charges upload, kernel and download time (from TornadoVM's profiler). */
    private void execute(String phase) {
        long t0 = System.nanoTime();
        b.params[HullTaskGraphs.SEQ]++;
        last = Plans.execute(plan, device);
        // TornadoVM reports a kernel that failed to launch (CL_OUT_OF_RESOURCES, ...) on stderr and goes on:
        // every task writes the execution's number to its heartbeat slot, and a missing beat is an error
        last.transferToHost(b.beat);
        for (int k = 0; k < HullTaskGraphs.BEATS; k++) {
            if (k >= HullTaskGraphs.BEAT + HullTaskGraphs.PASSES && k < 22) {
                continue; // farthest passes not in this graph
            }
            if (b.beat[k] != b.params[HullTaskGraphs.SEQ]) {
                throw new AccelGeomException("a TornadoVM kernel of the hull (task slot " + k + ") did not run on "
                        + device.getPhysicalDevice().getDeviceName() + " during '" + phase
                        + "' (see the OpenCL error above); try another --device or the jvm-parallel backend");
            }
        }
        Plans.charge(timings, phase, last, System.nanoTime() - t0);
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
        execute("extreme points");
        download(b.red);
        return Arrays.copyOf(b.red, nDirs);
    }

    @Override
    public int farthest(double[] geom, int mode) {
        System.arraycopy(geom, 0, b.dD, 0, 6);
        b.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_FARTHEST;
        b.params[HullTaskGraphs.GEOM_MODE] = mode;
        execute("extreme points");
        download(b.red);
        return b.red[0];
    }

    @Override
    public void kill(int[] points) {
        System.arraycopy(points, 0, b.dI, 3 * b.cap, points.length);
        b.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_KILL;
        b.params[HullTaskGraphs.APEX_COUNT] = points.length;
        execute("kill points");
    }

    @Override
    public int cull(double[] inner, int nInner) {
        if (nInner > b.cap) {
            return 0;
        }
        System.arraycopy(inner, 0, b.dD, 0, HullKernels.PLANE_STRIDE * nInner);
        b.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_CULL;
        b.params[HullTaskGraphs.N_INNER] = nInner;
        execute("cull interior");
        // the count is a statistic: read the labels back once (one int per point)
        snapshot();
        int culled = 0;
        for (int l : b.labelOut) {
            if (l == -1) {
                culled++;
            }
        }
        return culled;
    }

    private void sendRound(RoundDelta d) {
        int biggest = Math.max(d.newCount, Math.max(d.deletedCount, d.apexCount));
        if (biggest > b.cap) {
            throw new AccelGeomException("one QuickHull round created " + biggest + " faces, more than the tornado "
                    + "backend's per-round limit of " + b.cap + "; use --backend jvm-parallel for this input");
        }
        ensureFaces(d.newBase + d.newCount);
        int cap = b.cap;
        System.arraycopy(d.planes, 0, b.dD, 0, HullKernels.PLANE_STRIDE * d.newCount);
        System.arraycopy(d.deleted, 0, b.dI, 0, d.deletedCount);
        System.arraycopy(d.coneFirst, 0, b.dI, cap, d.deletedCount);
        System.arraycopy(d.coneCount, 0, b.dI, 2 * cap, d.deletedCount);
        System.arraycopy(d.apexes, 0, b.dI, 3 * cap, d.apexCount);
        // each new face's state at the end of the round: live, or deleted later in the same round
        java.util.Arrays.fill(b.dI, 6 * cap, 6 * cap + d.newCount, 0);
        java.util.Arrays.fill(b.dI, 7 * cap, 7 * cap + d.newCount, 0);
        for (int k = 0; k < d.deletedCount; k++) {
            int j = d.deleted[k] - d.newBase;
            if (j >= 0) {
                b.dI[6 * cap + j] = d.coneFirst[k];
                b.dI[7 * cap + j] = d.coneCount[k];
            }
        }
        int[] p = b.params;
        p[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_ROUND;
        p[HullTaskGraphs.NEW_BASE] = d.newBase;
        p[HullTaskGraphs.NEW_COUNT] = d.newCount;
        p[HullTaskGraphs.DELETED_COUNT] = d.deletedCount;
        p[HullTaskGraphs.APEX_COUNT] = d.apexCount;
        p[HullTaskGraphs.ROUND_BASE] = d.newBase;
        execute("round: delta, reassign, farthest");
    }

    @Override
    public int[] round(RoundDelta d, UncertainResolver resolver) {
        sendRound(d);
        download(b.flags);
        if (b.flags[HullKernels.FLAG_UNCERTAIN] != 0) {
            fixUncertain(resolver);
        }
        // more farthest passes until the last one changed nothing
        while (b.flags[HullKernels.FLAG_PASS + HullTaskGraphs.PASSES - 1] != 0) {
            b.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_PASSES;
            execute("farthest point (extra passes)");
            download(b.flags);
        }
        download(b.out);
        return Arrays.copyOf(b.out, d.newCount);
    }

    /** Brings the labels to the host, into labelOut. */
    private void snapshot() {
        b.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_SNAPSHOT;
        execute("snapshot labels");
        download(b.labelOut);
    }

    private void fixUncertain(UncertainResolver resolver) {
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
        int cap = b.cap;
        for (int lo = 0; lo < count; lo += cap) {
            int k = Math.min(cap, count - lo);
            System.arraycopy(fp, lo, b.dI, 4 * cap, k);
            System.arraycopy(fl, lo, b.dI, 5 * cap, k);
            System.arraycopy(fd, lo, b.dD, HullKernels.PLANE_STRIDE * cap, k);
            b.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_FIX;
            b.params[HullTaskGraphs.FIX_COUNT] = k;
            execute("fix uncertain points");
        }
        download(b.flags);
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
        synchronized (TornadoHullBackend.class) {
            if (cachedPlan != null) {
                Plans.release(cachedPlan);
            }
            cachedPlan = plan;
            cachedBuffers = b;
            cachedDevice = deviceIndex;
        }
        plan = null;
    }
}
