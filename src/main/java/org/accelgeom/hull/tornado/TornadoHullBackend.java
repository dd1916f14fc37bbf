package org.accelgeom.hull.tornado;

import java.util.Arrays;

import org.accelgeom.engine.Tuning;
import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Capacity;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.tornado.GraphNames;
import org.accelgeom.engine.tornado.KernelCache;
import org.accelgeom.engine.tornado.Plans;
import org.accelgeom.engine.tornado.TornadoDevices;
import org.accelgeom.hull.Hull;
import org.accelgeom.hull.HullBackend;
import org.accelgeom.hull.HullKernels;
import org.accelgeom.hull.HullOptions;
import org.accelgeom.hull.HullResult;
import org.accelgeom.hull.RoundDelta;

import uk.ac.manchester.tornado.api.ImmutableTaskGraph;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.common.TornadoDevice;

/**
 * The {@code tornado} backend of the QuickHull: one execution plan over the nine graphs of {@link HullTaskGraphs#graphs}.
 *
 * <p>The plan and its device buffers belong to the {@link DeviceSession}, sized by capacity ({@link HullBuffers}): an
 * input that fits is copied into the plan's point arrays and runs on the same plan, so a batch of similar inputs
 * builds one or two plans ({@link DeviceSession#planBuilds()}); a larger input replaces the plan by one of at least
 * twice the capacity (the old one's device memory is freed first).
 *
 * <p>Transfers (see docs/hull.md): the points go to the device once per input (not at all when the session is
 * resident and the same arrays come again); labels, distances and the face tables never leave it in the normal case.
 * Per round the host uploads only the round's parameters and delta (new face planes, deleted faces' cones, new
 * vertices: at most {@code cap} entries per section) and downloads the flags and the new faces' farthest points.
 * Labels and distances come back only when some point was too close to a plane for the floating-point filter (then
 * the host decides it exactly and sends the answer back as a fix).
 *
 * <p>{@link #onDevice} drives the same graphs in a user's plan over points the user's own graph left on the device
 * (docs/embedding.md).
 */
public final class TornadoHullBackend implements HullBackend {

    /** Largest per-round delta; the small round graph's (most rounds fit in it) is accelgeom.hull.smallRoundCap. */
    private static final int CAP = Tuning.HULL_ROUND_CAP.intValue();

    /** The session's name for the plan of the hull. */
    static final String FAMILY = "hull";
    static final String STEP = "quickhull";

    /**
     * A plan over capacity-sized buffers, kept in the session with its device memory for the next hull that fits:
     * TornadoVM compiles a new plan's kernels again, which costs far more than a hull. {@code lastX..lastZ}: the
     * caller's arrays last loaded (a resident session does not upload the same arrays again).
     */
    private static final class Held {
        final HullBuffers b;
        final TornadoExecutionPlan plan;
        final HullTaskGraphs.Grid grid;
        final int device;
        final int smallCap;
        double[] lastX;
        double[] lastY;
        double[] lastZ;
        /**
         * Whether the arrays last loaded were loaded ahead ({@link #prepare} with the input's points) and no hull has run
         * on them yet: the next hull of the same arrays takes them as they are on the device, as a resident session does.
         */
        boolean loadedAhead;

        Held(HullBuffers b, TornadoExecutionPlan plan, HullTaskGraphs.Grid grid, int device) {
            this.b = b;
            this.plan = plan;
            this.grid = grid;
            this.device = device;
            this.smallCap = b.smallCap;
        }
    }

    /** The tornado backend as a service of the tornado build (see {@link HullBackend.Factory}). */
    public static final class Factory implements HullBackend.Factory {
        @Override
        public HullBackend create(DeviceSession session) {
            return new TornadoHullBackend(session);
        }

        @Override
        public void prepare(DeviceSession session, int points) {
            TornadoHullBackend.prepare(session, points, null, null);
        }

        @Override
        public Runnable prepareAhead(DeviceSession session, int points) {
            return prepareAhead(session, points, null);
        }

        @Override
        public boolean holds(DeviceSession session, double[] x, double[] y, double[] z) {
            if (!session.execution().resident()) {
                return false;
            }
            Held h = session.take(FAMILY, STEP, Held.class, c -> true);
            if (h == null) {
                return false;
            }
            boolean same = h.lastX == x && h.lastY == y && h.lastZ == z && h.b.n == x.length;
            session.keep(FAMILY, STEP, h, c -> release(c.plan));
            return same;
        }

        @Override
        public Runnable prepareAhead(DeviceSession session, int points, java.util.function.Supplier<double[][]> input) {
            java.util.concurrent.CompletableFuture<HullBuffers> arrays = allocateAhead(points);
            return () -> TornadoHullBackend.prepare(session, points, arrays, input);
        }
    }

    /**
     * The host arrays of the plan that {@link #prepare} will build for {@code points} points, allocated now on a thread
     * of their own (they need no device: about 0.6 GB for 10^7 points, 0.3-1 s of allocation and GC on an H100 host,
     * which then overlaps TornadoVM's start and the read instead of following the start). A failure (no memory) is
     * left to the plan's build, which allocates again.
     */
    static java.util.concurrent.CompletableFuture<HullBuffers> allocateAhead(int points) {
        java.util.concurrent.CompletableFuture<HullBuffers> arrays = new java.util.concurrent.CompletableFuture<>();
        int c = capacityFor(Math.max(points, 0), 0);
        Thread t = new Thread(() -> {
            long t0 = System.nanoTime();
            try {
                arrays.complete(new HullBuffers(c, faceCapacity(c), CAP, Tuning.HULL_SMALL_ROUND_CAP.intValue()));
                org.accelgeom.hull.StartTrace.mark("the plan's host arrays allocated", System.nanoTime() - t0);
                long t1 = System.nanoTime();
                KernelCache.hashAhead(HullTaskGraphs.class); // the kernel cache's key of the plan's tasks
                org.accelgeom.hull.StartTrace.mark("the kernel cache's hash of the code", System.nanoTime() - t1);
            } catch (RuntimeException | OutOfMemoryError e) {
                arrays.completeExceptionally(e);
            }
        }, "accelgeom-hull-arrays");
        t.setDaemon(true);
        t.start();
        return arrays;
    }

    /**
     * Compiles ahead (issue 14, a short start): the plan that a hull of {@code points} points takes in {@code session}
     * (the one it holds if that fits, else a new one on the same capacity ladder), run once over a few dummy points so
     * that TornadoVM compiles every graph's kernels (or builds them from the kernel cache) and allocates its buffers,
     * then kept in the session. A hull that fits the plan then skips all of that (TornadoVM's code cache is per plan,
     * so it must be this plan); one that does not builds its own, as without this. Results never depend on it.
     */
    public static void prepare(DeviceSession session, int points) {
        prepare(session, points, null, null);
    }

    /**
     * {@link #prepare(DeviceSession, int)} over host arrays allocated ahead ({@link #allocateAhead}; null: none), and
     * over the input's own points when {@code input} has them now (see {@link HullBackend.Factory#prepareAhead(
     * DeviceSession, int, java.util.function.Supplier)}; null: the dummy points): the load that a one-shot's hull
     * would make after TornadoVM's start (the copy into the plan's arrays and the upload, 50 ms at 10^7 points on an
     * H100 host) is then made here, while the host's hull code warms up, and the hull finds the points on the device.
     */
    static void prepare(DeviceSession session, int points, java.util.concurrent.Future<HullBuffers> arrays,
            java.util.function.Supplier<double[][]> input) {
        double[][] real = ready(input);
        prepareOn(session, points, arrays, real);
        if (real == null && (real = ready(input)) != null) {
            // the points came while the plan compiled on dummy ones: loaded into it now, beside the host's warm-up
            prepareOn(session, points, null, real);
        }
    }

    /** The input's checked coordinate arrays if {@code input} has them now, else null. */
    private static double[][] ready(java.util.function.Supplier<double[][]> input) {
        double[][] real = input != null ? input.get() : null;
        return real != null && real.length == 3 && real[0].length > 0 ? real : null;
    }

    /** The plan of {@link #prepare} run on {@code real} points (null: 4 dummy ones), then kept in the session. */
    private static void prepareOn(DeviceSession session, int points, java.util.concurrent.Future<HullBuffers> arrays,
            double[][] real) {
        TornadoHullBackend t = new TornadoHullBackend(session);
        t.room = Math.max(points, 0);
        t.ahead = arrays;
        double[] x = real != null ? real[0] : new double[] {0, 1, 0, 0};
        double[] y = real != null ? real[1] : new double[] {0, 0, 1, 0};
        double[] z = real != null ? real[2] : new double[] {0, 0, 0, 1};
        try {
            t.load(x, y, z, 16, new PhaseTimings());
            t.held.loadedAhead = real != null;
            org.accelgeom.hull.StartTrace.mark(real != null ? "the input's points loaded into the plan"
                    : "the plan's graphs run once on 4 points");
        } catch (RuntimeException | Error e) {
            if (t.held != null) { // a plan that failed half-way is not kept
                release(t.held.plan);
                t.held = null;
            }
            throw e;
        }
        t.close();
    }

    private final DeviceSession session;
    private final TornadoDevice device;
    private final int deviceIndex;
    private final boolean resident;
    /** The first of the hull's graphs in the plan (0 in our own plan; after the user's graphs in an embedding). */
    private final int first;
    private PhaseTimings timings;
    private Held held;
    private HullBuffers b;
    private TornadoExecutionPlan plan;
    private TornadoExecutionResult last;
    private HullTaskGraphs.Grid grid;
    /** Points killed since the last round: they go with the next round's apexes. */
    private int[] killed = new int[0];
    private int killedCount;
    /** Points the plan must have room for besides the input's ({@link #prepare}: the predicted input). */
    private int room;
    /** The host arrays of the plan {@link #prepare} builds, allocated ahead (null: none). */
    private java.util.concurrent.Future<HullBuffers> ahead;

    /**
     * On the session's device; the plan stays in the session for the next hull that fits (with
     * {@link org.accelgeom.engine.Execution#resident()}, the same arrays are not uploaded again).
     */
    public TornadoHullBackend(DeviceSession session) {
        this.session = session;
        this.resident = session.execution().resident();
        this.deviceIndex = session.execution().device();
        this.device = TornadoDevices.device(this.deviceIndex);
        this.first = 0;
    }

    /** The session's host threads (those of its other host steps); outside a session, the common pool's. */
    @Override
    public org.accelgeom.engine.ParallelLoops hostLoops() {
        return session != null ? session.loops() : new org.accelgeom.engine.ParallelLoops(0);
    }

    private TornadoHullBackend(TornadoExecutionPlan plan, int first, HullBuffers b, HullTaskGraphs.Grid grid,
            TornadoDevice device) {
        this.session = null;
        this.resident = false;
        this.deviceIndex = -1;
        this.device = device;
        this.first = first;
        this.plan = plan;
        this.b = b;
        this.grid = grid;
        this.timings = new PhaseTimings();
    }

    /**
     * The hull of the points that a user's graph of {@code plan} left on the device in the arrays of {@code b}
     * ({@link HullBuffers#onDevice}), with the hull's graphs at {@code first} .. {@code first + 8} of the plan
     * ({@link HullTaskGraphs#graphs(String, HullBuffers, String)}) and its grid given to the plan. The points are not
     * uploaded: the load graph takes them where they are and copies them once to the host ({@code b.hx, hy, hz}), whose
     * exact predicates need them. Equal to {@code Hull.compute} of those points on any backend. The points must be
     * in the range where the kernels run on the coordinates themselves (every coordinate below 2^201 in magnitude and a
     * multiple of 2^-200, see {@code HullRange}); others fail with a message (hand them to {@code Hull} instead).
     */
    public static HullResult onDevice(TornadoExecutionPlan plan, int first, HullBuffers b, HullTaskGraphs.Grid grid,
            HullOptions options) {
        TornadoHullBackend backend = new TornadoHullBackend(plan, first, b, grid, plan.withAllGraphs().getDevice(first));
        backend.loadFromDevice();
        return Hull.compute(b.hx, b.hy, b.hz, options, () -> backend);
    }

    /** The embedding's load: init over the user's points and their copy to the host. */
    private void loadFromDevice() {
        grid.resize(b);
        execute(HullTaskGraphs.G_LOAD, b.load, "take points from the device + init");
        download(b.hx, b.hy, b.hz); // from the load graph's result, before another graph runs
        if (!b.started) {
            compileRest();
        }
    }

    @Override
    public void load(double[] x, double[] y, double[] z, int faceCapacity, PhaseTimings timings) {
        if (session == null) { // onDevice: the points are there already
            this.timings = timings;
            if (x != b.hx || y != b.hy || z != b.hz) {
                throw new AccelGeomException("the points made on the device span a range the hull kernels cannot take "
                        + "as they are (coordinates of 2^201 or more, or finer than 2^-200); compute their hull with "
                        + "Hull.compute from the host instead");
            }
            return;
        }
        this.timings = timings;
        int n = x.length;
        int need = Math.max(n, room);
        int[] replaced = {0};
        held = session.take(FAMILY, STEP, Held.class, c -> {
            replaced[0] = c.b.capacity;
            return c.device == deviceIndex && c.b.fits(need) && c.b.faceCapacity >= faceCapacity
                    && c.smallCap == Math.min(Tuning.HULL_SMALL_ROUND_CAP.intValue(), CAP);
        });
        if (held == null) {
            held = build(need, replaced[0], faceCapacity);
        }
        b = held.b;
        plan = held.plan;
        grid = held.grid;
        boolean ahead = held.loadedAhead;
        held.loadedAhead = false;
        if ((resident || ahead) && held.lastX == x && held.lastY == y && held.lastZ == z && b.n == n) {
            grid.resize(b);
            execute(HullTaskGraphs.G_RESET, b.reset, resident ? "init (points resident)" : "init (points loaded ahead)");
            return;
        }
        timings.time("copy points to the plan's arrays", Kind.HOST, () -> b.load(x, y, z));
        grid.resize(b);
        execute(HullTaskGraphs.G_LOAD, b.load, "upload points + init");
        held.lastX = x;
        held.lastY = y;
        held.lastZ = z;
        if (!b.started) {
            org.accelgeom.hull.StartTrace.mark("the load graph's first execution");
            compileRest();
        }
    }

    /**
     * A plan for n points: capacity at least 5n/4 and, when it replaces a smaller plan, twice that one's (so that a
     * batch of growing inputs builds few plans), within the device's memory.
     */
    private Held build(int n, int replaced, int faceCapacity) {
        long capacity = capacityFor(n, replaced);
        if (bytes(capacity) > device.getMaxGlobalMemory() * 0.9) {
            capacity = n;
        }
        if (bytes(capacity) > device.getMaxGlobalMemory() * 0.9) {
            throw new AccelGeomException(String.format("%d points need about %.1f GiB on the device, more than %s has (%.1f GiB)",
                    n, bytes(n) / 1073741824.0, device.getPhysicalDevice().getDeviceName(), device.getMaxGlobalMemory() / 1073741824.0));
        }
        int c = (int) capacity;
        int faces = Math.max(faceCapacity, faceCapacity(c));
        HullBuffers buffers = allocated(c, faces);
        buffers.resize(n);
        String phase = "build task graphs (" + HullTaskGraphs.GRAPH_COUNT + " graphs, " + HullTaskGraphs.taskCount(false)
                + " tasks)";
        return timings.time(phase, Kind.HOST, () -> {
            // a new name per plan, so that no two plans share TornadoVM's per-graph state
            String name = GraphNames.unique("quickhull");
            TaskGraph[] graphs;
            try (var scope = KernelCache.onDevice(device)) { // tasks an earlier process compiled skip Graal
                graphs = HullTaskGraphs.graphs(name, buffers);
            }
            ImmutableTaskGraph[] frozen = new ImmutableTaskGraph[graphs.length];
            for (int i = 0; i < graphs.length; i++) {
                frozen[i] = graphs[i].snapshot();
            }
            HullTaskGraphs.Grid g = HullTaskGraphs.grid(name, buffers);
            TornadoExecutionPlan p = new TornadoExecutionPlan(frozen);
            session.planBuilt();
            p.withDevice(device).withGridScheduler(g.scheduler());
            org.accelgeom.hull.StartTrace.mark("the plan's graphs built");
            return new Held(buffers, p, g, deviceIndex);
        });
    }

    /**
     * The capacity of a plan for n points: at least 5n/4 and, when it replaces a smaller plan, twice that one's (so that
     * a batch of growing inputs builds few plans), on one ladder of sizes (multiples of 1024), so that inputs of nearby
     * sizes, in any process, share a plan's cached kernels. {@link #build} may lower it to the device's memory.
     */
    static int capacityFor(int n, int replaced) {
        long want = Math.max(Math.max(n + n / 4L, n > replaced ? 2L * replaced : 0), 1024);
        return (int) ((Capacity.rung(want) + 1023L) / 1024 * 1024);
    }

    /** The plan's host arrays: those allocated ahead when they have these sizes, else new ones. */
    private HullBuffers allocated(int capacity, int faces) {
        java.util.concurrent.Future<HullBuffers> a = ahead;
        ahead = null;
        if (a != null) {
            long t0 = System.nanoTime();
            try {
                HullBuffers b = a.get();
                org.accelgeom.hull.StartTrace.mark("waited for the host arrays", System.nanoTime() - t0);
                if (b.capacity == capacity && b.faceCapacity == faces && b.cap == CAP
                        && b.smallCap == Math.min(Tuning.HULL_SMALL_ROUND_CAP.intValue(), CAP)) {
                    return b;
                }
            } catch (java.util.concurrent.ExecutionException e) {
                // allocated below (and failing there, reported as without the allocation ahead)
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return new HullBuffers(capacity, faces, CAP, Tuning.HULL_SMALL_ROUND_CAP.intValue());
    }

    /**
     * Face tables for a capacity (the first try): a hull of n points creates about 6 faces per inserted point. 2^20
     * faces (accelgeom.hull.firstFaces; 63 MB of host arrays and device memory) hold the hulls of 10^7 points in a ball
     * (28,424 facets) 37 times over; a hull that needs more starts again on {@link #fullFaces} (the tables do not grow
     * within a plan: rebuilding a plan with larger tables broke its kernels on TornadoVM 5.2). A size set by
     * accelgeom.hull.initialFaces is final: a hull that needs more fails with a clear message.
     */
    private static int faceCapacity(int capacity) {
        int faces = Tuning.HULL_INITIAL_FACES.intValue();
        return faces > 0 ? faces : 16 + (int) Math.min(8L * capacity, Tuning.HULL_FIRST_FACES.intValue());
    }

    /** The largest face tables of a plan: 8 faces per point (every point a vertex up to a million points), at most 2^23. */
    private static int fullFaces(int capacity) {
        return 16 + (int) Math.min(8L * capacity, 1 << 23);
    }

    /** Device bytes of a plan for {@code capacity} points (with the candidate slots of the largest round). */
    private static long bytes(long capacity) {
        return 40L * capacity + 60L * (16 + Math.min(8L * capacity, 1 << 23)) + 4L * HullKernels.SLOTS * CAP;
    }

    /**
     * Every other graph runs once right after the load graph has made the shared buffers, so that each takes them over
     * (TornadoVM syncs consumed buffers from the graph executed last) and is compiled now; the reset graph runs last and
     * undoes what the others did to the labels, index list and face tables (the cull graph with no planes culls
     * nothing, but the scatter's offsets are not set yet).
     */
    private void compileRest() {
        b.extremes.params[HullTaskGraphs.N_DIRS] = 0;
        b.farthest.params[HullTaskGraphs.N_DIRS] = 1;
        b.cull.params[HullTaskGraphs.N_INNER] = 0;
        for (int g = HullTaskGraphs.G_EXTREMES; g <= HullTaskGraphs.G_BIG_ROUND; g++) {
            HullBuffers.PerGraph pg = perGraph(g);
            if (g == HullTaskGraphs.G_ROUND || g == HullTaskGraphs.G_BIG_ROUND) {
                emptyDelta(pg.params);
            }
            execute(g, pg, "compile graphs");
        }
        execute(HullTaskGraphs.G_RESET, b.reset, "compile graphs");
        b.started = true;
    }

    private HullBuffers.PerGraph perGraph(int graph) {
        return switch (graph) {
            case HullTaskGraphs.G_LOAD -> b.load;
            case HullTaskGraphs.G_RESET -> b.reset;
            case HullTaskGraphs.G_EXTREMES -> b.extremes;
            case HullTaskGraphs.G_FARTHEST -> b.farthest;
            case HullTaskGraphs.G_CULL -> b.cull;
            case HullTaskGraphs.G_SCATTER -> b.scatter;
            case HullTaskGraphs.G_SNAPSHOT -> b.snapshot;
            case HullTaskGraphs.G_ROUND -> b.round;
            default -> b.bigRound;
        };
    }

    /** The per-point tasks of the round graphs visit the first m entries of the index list. */
    private void setActive(int m) {
        b.nActive = m;
        grid.activate(m);
    }

    /**
     * Runs graph {@code graph} once, reads back its heartbeats together with {@code results} (one transfer call),
     * checks the heartbeats and charges upload, kernel and the rest (from TornadoVM's profiler).
     */
    private void execute(int graph, HullBuffers.PerGraph g, String phase, Object... results) {
        long t0 = System.nanoTime();
        int[] p = g.params;
        p[HullTaskGraphs.SEQ] = ++b.seq;
        p[HullTaskGraphs.N_ACTIVE] = b.nActive;
        p[HullTaskGraphs.N_POINTS] = b.n;
        p[HullTaskGraphs.N_GROUPS] = graph == HullTaskGraphs.G_FARTHEST ? b.farGroups : b.groups;
        p[HullTaskGraphs.N_BLOCKS] = b.blocks;
        plan.withGraph(first + graph);
        last = Plans.execute(plan, device, timings);
        // TornadoVM reports a kernel that failed to launch (CL_OUT_OF_RESOURCES, ...) on stderr and goes on:
        // every task writes the execution's number to its heartbeat slot, and a missing beat is an error
        Object[] back = new Object[results.length + 1];
        back[0] = g.beat;
        System.arraycopy(results, 0, back, 1, results.length);
        last.transferToHost(back);
        g.check.verify(b.seq, device.getPhysicalDevice().getDeviceName(), phase, HullTaskGraphs.slots(graph, b));
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
        HullBuffers.PerGraph g = b.extremes;
        System.arraycopy(dirs, 0, g.dD, 0, 3 * nDirs);
        g.params[HullTaskGraphs.N_DIRS] = nDirs;
        execute(HullTaskGraphs.G_EXTREMES, g, "extreme points", g.out);
        extremePoints = Arrays.copyOf(g.out, nDirs);
        return extremePoints.clone();
    }

    @Override
    public int farthest(double[] geom, int mode) {
        HullBuffers.PerGraph g = b.farthest;
        System.arraycopy(geom, 0, g.dD, 0, 6);
        g.params[HullTaskGraphs.N_DIRS] = 1;
        g.params[HullTaskGraphs.GEOMETRY] = mode;
        execute(HullTaskGraphs.G_FARTHEST, g, "farthest point", g.out);
        return g.out[0];
    }

    /** The points leave play with the next round's delta (its apex section): one execution fewer. */
    @Override
    public void kill(int[] points) {
        int[] k = Arrays.copyOf(killed, killedCount + points.length);
        System.arraycopy(points, 0, k, killedCount, points.length);
        killed = k;
        killedCount += points.length;
    }

    /**
     * Culls the points inside the inner polytope and counts the points left per block (one execution), then compacts
     * the index list to them (their prefix sum here, the scatter on the device): the round graphs then visit only those.
     */
    @Override
    public int cull(double[] inner, int nInner) {
        if (nInner > HullTaskGraphs.MAX_INNER) {
            return 0;
        }
        HullBuffers.PerGraph g = b.cull;
        System.arraycopy(inner, 0, g.dD, 0, HullKernels.PLANE_STRIDE * nInner);
        System.arraycopy(cullBall(inner, nInner), 0, g.dD, HullTaskGraphs.CULL_BALL, 4);
        g.params[HullTaskGraphs.N_INNER] = nInner;
        execute(HullTaskGraphs.G_CULL, g, "cull interior + count", b.counts);
        int left = 0;
        for (int k = 0; k < b.blocks; k++) {
            b.offsets[k] = left;
            left += b.counts[k];
        }
        if (left <= b.n / 2) {
            execute(HullTaskGraphs.G_SCATTER, b.scatter, "compact index list");
            setActive(left);
        }
        return b.n - left;
    }

    /** The extreme points of the last {@link #extremes} (null before): the inner polytope's vertices. */
    private int[] extremePoints;

    /**
     * The ball of the cull graph (as the host backends' with accelgeom.hull.balls): around the mean of the distinct
     * extreme points (inside the inner polytope), the largest in which every point's plane tests would cull it.
     */
    private double[] cullBall(double[] inner, int nInner) {
        if (extremePoints == null || !Tuning.HULL_BALLS.booleanValue()) {
            return org.accelgeom.hull.InnerBall.none();
        }
        return b.hx != null ? org.accelgeom.hull.InnerBall.ofPlanes(inner, nInner, b.hx, b.hy, b.hz, extremePoints)
                : org.accelgeom.hull.InnerBall.ofPlanes(inner, nInner, b.x, b.y, b.z, extremePoints);
    }

    /** Sends a round's delta (and the points killed since the last round) through the round graph it fits in. */
    private HullBuffers.PerGraph sendRound(RoundDelta d) {
        int apexes = d.apexCount + killedCount;
        int biggest = Math.max(d.newCount, Math.max(d.deletedCount, apexes));
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
        System.arraycopy(killed, 0, g.dI, 3 * cap, killedCount);
        System.arraycopy(d.apexes, 0, g.dI, 3 * cap + killedCount, d.apexCount);
        killedCount = 0;
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
        p[HullTaskGraphs.NEW_PLANES] = d.newCount;
        p[HullTaskGraphs.NEW_BASE] = d.newBase;
        p[HullTaskGraphs.NEW_COUNT] = d.newCount;
        p[HullTaskGraphs.DELETED_COUNT] = d.deletedCount;
        p[HullTaskGraphs.APEX_COUNT] = apexes;
        p[HullTaskGraphs.FIX_COUNT] = 0;
        p[HullTaskGraphs.ROUND_BASE] = d.newBase;
        execute(small ? HullTaskGraphs.G_ROUND : HullTaskGraphs.G_BIG_ROUND, g, roundPhase(small, d),
                g.flags, g.out);
        return g;
    }

    /** The round's phase: one for all rounds, or with {@code accelgeom.hull.roundPhases} one per round. */
    private String roundPhase(boolean small, RoundDelta d) {
        if (!ROUND_PHASES) {
            return "round: delta, reassign, farthest";
        }
        int cone = 0;
        for (int k = 0; k < d.deletedCount; k++) {
            cone = Math.max(cone, d.coneCount[k]);
        }
        return String.format(java.util.Locale.ROOT, "round %02d (%s graph, %d active, %d new faces, %d deleted, "
                + "largest cone %d)", ++rounds, small ? "small" : "big", b.nActive, d.newCount, d.deletedCount, cone);
    }

    private static final boolean ROUND_PHASES = Tuning.HULL_ROUND_PHASES.booleanValue();
    /** Rounds sent in this hull (for {@link #roundPhase}). */
    private int rounds;

    /** A delta with no sections: the round graph then runs only its farthest passes and gather (the new faces kept). */
    private static void emptyDelta(int[] p) {
        p[HullTaskGraphs.NEW_PLANES] = 0;
        p[HullTaskGraphs.DELETED_COUNT] = 0;
        p[HullTaskGraphs.APEX_COUNT] = 0;
        p[HullTaskGraphs.FIX_COUNT] = 0;
    }

    @Override
    public int[] round(RoundDelta d, UncertainResolver resolver) {
        HullBuffers.PerGraph g = sendRound(d);
        int graph = g == b.round ? HullTaskGraphs.G_ROUND : HullTaskGraphs.G_BIG_ROUND;
        if (g.flags[HullKernels.FLAG_UNCERTAIN] != 0) {
            fixUncertain(resolver, graph, g);
        }
        // more farthest passes (the same graph over an empty delta) until the last one changed nothing
        while (g.flags[HullKernels.FLAG_PASS + HullTaskGraphs.PASSES - 1] != 0) {
            emptyDelta(g.params);
            execute(graph, g, "farthest point (extra passes)", g.flags, g.out);
        }
        return Arrays.copyOf(g.out, d.newCount);
    }

    /** Brings the labels to the host, into labelOut. */
    private void snapshot() {
        execute(HullTaskGraphs.G_SNAPSHOT, b.snapshot, "snapshot labels", b.labelOut);
    }

    /**
     * Decides the uncertain points of a round exactly on the host and sends the answers back through the round's graph
     * (its fix section; then farthest passes, gather), in chunks of its delta capacity.
     */
    private void fixUncertain(UncertainResolver resolver, int graph, HullBuffers.PerGraph g) {
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
        int cap = g.cap;
        for (int lo = 0; lo < count; lo += cap) {
            int k = Math.min(cap, count - lo);
            System.arraycopy(fp, lo, g.dI, 4 * cap, k);
            System.arraycopy(fl, lo, g.dI, 5 * cap, k);
            System.arraycopy(fd, lo, g.dD, HullKernels.PLANE_STRIDE * cap, k);
            emptyDelta(g.params);
            g.params[HullTaskGraphs.FIX_COUNT] = k;
            execute(graph, g, "fix uncertain points", g.flags, g.out);
        }
    }

    /**
     * When a round would overflow the face tables: asks for the largest tables ({@link HullBackend.MoreFaces}: the hull
     * starts again on a plan with them) where the plan has smaller ones, else fails clearly (see {@link #faceCapacity}).
     */
    private void ensureFaces(int need) {
        if (need > b.faceCapacity && session != null && Tuning.HULL_INITIAL_FACES.intValue() == 0
                && b.faceCapacity < fullFaces(b.capacity)) {
            throw new HullBackend.MoreFaces(fullFaces(b.capacity));
        }
        if (need > b.faceCapacity) {
            throw new AccelGeomException("the hull needs more than " + b.faceCapacity + " faces on the device, the "
                    + "tornado backend's limit for " + b.n + " points; use --backend jvm-parallel for this input");
        }
    }

    @Override
    public void compact() {
        // the device scans all points; labels of finished points cost one read each
    }

    /**
     * Gives the plan back to the session, which keeps it (device memory included) for the next hull that fits and
     * frees it when it closes or a larger input replaces it. An embedding's plan is the user's: nothing to do.
     */
    @Override
    public void close() {
        if (session == null || held == null) {
            return;
        }
        session.keep(FAMILY, STEP, held, c -> release(c.plan));
        held = null;
        plan = null;
    }

    /**
     * Frees the plan's device memory graph by graph: TornadoVM 5.2's {@code freeDeviceMemory()} stops at the first
     * buffer it fails to free ("trying to deallocate an invalid buffer", an Error), which left the rest of the plan's
     * memory allocated; freeing each graph on its own keeps such a failure to that graph.
     */
    static void release(TornadoExecutionPlan plan) {
        for (int g = 0; g < HullTaskGraphs.GRAPH_COUNT; g++) {
            try {
                plan.withGraph(g).freeDeviceMemory();
            } catch (RuntimeException | Error e) {
                // this graph's buffers are lost to TornadoVM's accounting; the next graphs are still freed
            }
        }
    }
}
