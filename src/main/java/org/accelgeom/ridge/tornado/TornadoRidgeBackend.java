package org.accelgeom.ridge.tornado;

import java.util.Arrays;

import org.accelgeom.engine.Tuning;
import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.tornado.GraphNames;
import org.accelgeom.engine.tornado.KernelCache;
import org.accelgeom.engine.tornado.Plans;
import org.accelgeom.engine.tornado.TornadoDevices;
import org.accelgeom.ridge.EvolutionLayout;
import org.accelgeom.ridge.Precision;
import org.accelgeom.ridge.RidgeBackend;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.common.TornadoDevice;

/**
 * The {@code tornado} evolution: {@link RidgeTaskGraphs} in one execution plan. The cloud goes to the device once
 * per run and stays there; each execution uploads the parameters, the work list and tile ranges (a few bytes; the
 * representatives only after a decimation) and downloads the flags and the tiles still active (the next execution
 * launches over their points only); the representatives come back when a call converges.
 *
 * <p>The last plan is kept in the session, with the cloud on the device, and reused when the next run brings the same points
 * (compared by content) on the same device: repeated runs and benchmarks then skip TornadoVM's compilation and
 * the upload, as the thesis's timings exclude transfers. A new plan builds its tasks through the kernel cache, so a
 * later process over a cloud of the same size skips Graal too.
 */
public final class TornadoRidgeBackend implements RidgeBackend.Streamed {

    /**
     * Iterations per execution (-Daccelgeom.ridge.unroll, even, 2..10, default 8): fewer host round trips and
     * downloads; the iterations after convergence cost only their (empty) launches.
     */
    private static final int UNROLL = Math.min(RidgeTaskGraphs.MAX_UNROLL,
            Math.max(2, Tuning.RIDGE_UNROLL.intValue() & ~1));

    /** Points per work-item of closest (-Daccelgeom.ridge.chunk; 0, the default: {@link RidgeBuffers#chunkFor}). */
    private static final int CHUNK = Tuning.RIDGE_CHUNK.intValue();

    /** Copies of the accumulators (-Daccelgeom.ridge.stripes, default 16: {@link RidgeBuffers#stripes}). */
    private static final int STRIPES = Tuning.RIDGE_STRIPES.intValue();

    /** Whether the device holds each tile's points in {@link TileOrder} (-Daccelgeom.ridge.order, default true). */
    private static final boolean ORDER = Tuning.RIDGE_ORDER.booleanValue();

    /**
     * Cells of {@link TileOrder} per R1: a cell must be well inside one representative's share of the points (they
     * are R1 to R2 apart), or its points, in input order within it, alternate between representatives (a JVM model
     * of the 10^6-point spiral3d's first iteration, chunk 64: 1.9 points a run with cells of side R1, 8.9 with R1/16).
     */
    private static final double CELLS_PER_R1 = 16;

    private static final String FAMILY = "ridge";
    private static final String STEP = "evolve";

    /** A plan kept in the session, with the cloud on the device, for the next run over the same points. */
    private record Kept(RidgeBuffers buffers, TornadoExecutionPlan plan, String name, int device) {
    }

    /** The tornado evolution as a service of the tornado build (see {@link RidgeBackend.Factory}). */
    public static final class Factory implements RidgeBackend.Factory {
        @Override
        public RidgeBackend create(DeviceSession session, Parameters prm) {
            return new TornadoRidgeBackend(session, prm);
        }
    }

    private final DeviceSession session;
    private final Parameters prm;
    private final int deviceIndex;
    private final TornadoDevice device;
    private RidgeBuffers b;
    private TornadoExecutionPlan plan;
    private String name;
    private TornadoExecutionResult last;

    /** On the session's device; the plan stays in the session after {@link #close}. */
    public TornadoRidgeBackend(DeviceSession session, Parameters prm) {
        this.session = session;
        this.prm = prm;
        this.deviceIndex = session.execution().device();
        this.device = TornadoDevices.device(this.deviceIndex);
    }

    @Override
    public void load(EvolutionLayout layout, int capacity, PhaseTimings timings) {
        load(layout, capacity, timings, null);
    }

    /**
     * The load of a layout that arrives as it goes (a worker process's file): with the device order, each tile is
     * read just before its order is computed, beside the other tiles' ({@link TileOrder#of(EvolutionLayout, double,
     * int, TileOrder.Fill)}); without, it is read first.
     */
    @Override
    public void load(RidgeBackend.Arriving source, int capacity, PhaseTimings timings) {
        if (!ORDER) {
            timings.time("layout read", Kind.HOST, source::fillAll);
        }
        load(source.layout(), capacity, timings, ORDER ? source : null);
    }

    /** {@code source}: null, or where the layout's coordinates still arrive from (filled by the device order). */
    private void load(EvolutionLayout layout, int capacity, PhaseTimings timings, RidgeBackend.Arriving source) {
        long need = RidgeBuffers.bytes(layout, prm.precision(), capacity);
        if (need > device.getMaxGlobalMemory() * 0.9) {
            throw new AccelGeomException(String.format(
                    "%d points of dimension %d need about %.1f GiB on the device, more than %s has (%.1f GiB); "
                            + "use --precision float, the jvm-parallel backend or fewer points",
                    layout.n(), layout.d(), need / 1073741824.0, device.getPhysicalDevice().getDeviceName(),
                    device.getMaxGlobalMemory() / 1073741824.0));
        }
        Kept kept = session.take(FAMILY, STEP, Kept.class, k -> k.device() == deviceIndex
                && filled(source) && sameData(k.buffers(), layout, capacity));
        if (kept != null) {
            b = kept.buffers();
            plan = kept.plan();
            name = kept.name();
            return;
        }
        int[] order = !ORDER ? null
                : source == null
                        ? timings.time("device order", Kind.HOST, () -> TileOrder.of(layout, prm.r1() / CELLS_PER_R1))
                        : timings.time("layout read and device order, tile by tile", Kind.HOST,
                                () -> TileOrder.of(layout, prm.r1() / CELLS_PER_R1, source.cores(), source::fill));
        timings.time("build task graph", Kind.HOST, () -> {
            b = new RidgeBuffers(layout, prm.precision(), capacity, UNROLL, chunk(layout), order, STRIPES);
            b.setParameters(prm);
            name = GraphNames.unique("ridge");
            session.planBuilt();
            TaskGraph graph;
            try (var scope = KernelCache.onDevice(device)) { // tasks an earlier process compiled skip Graal
                graph = RidgeTaskGraphs.graph(name, b);
            }
            plan = new TornadoExecutionPlan(graph.snapshot());
            plan.withDevice(device).withGridScheduler(RidgeTaskGraphs.grid(name, b));
        });
    }

    /** Every point of {@code source} filled (a kept plan is compared with the whole cloud); true. */
    private static boolean filled(RidgeBackend.Arriving source) {
        if (source != null) {
            source.fillAll();
        }
        return true;
    }

    private static int chunk(EvolutionLayout layout) {
        return CHUNK > 0 ? CHUNK : RidgeBuffers.chunkFor(layout.n());
    }

    private boolean sameData(RidgeBuffers c, EvolutionLayout layout, int capacity) {
        return c.precision == prm.precision() && c.n == layout.n() && c.d == layout.d()
                && c.tiles == layout.numTiles() && capacity <= c.cap && c.unroll == UNROLL && c.chunk == chunk(layout)
                && c.stripes == RidgeBuffers.stripesFor(STRIPES, c.cap, layout.d())
                && c.fparams[RidgeBuffers.R1SQ] == prm.r1() * prm.r1()
                && c.fparams[RidgeBuffers.SCALE] == prm.scale()
                && Arrays.equals(c.pointTile, layout.pointTile())
                && sameCloud(c, layout.coords());
    }

    /**
     * Whether the device's cloud holds {@code p} in the buffers' order (compared in place, without a copy; float: p
     * rounded to float).
     */
    private static boolean sameCloud(RidgeBuffers c, double[] p) {
        boolean f = c.precision == Precision.FLOAT;
        if ((f ? c.pf.length : c.p.length) != p.length) {
            return false;
        }
        int n = c.n;
        for (int k = 0; k < p.length; k++) {
            int at = c.order == null ? k : k - k % n + c.order[k % n];
            boolean same = f ? Float.floatToIntBits(c.pf[k]) == Float.floatToIntBits((float) p[at])
                    : Double.doubleToLongBits(c.p[k]) == Double.doubleToLongBits(p[at]);
            if (!same) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int evolve(double[] reps, int ns, int[] tileStart, PhaseTimings timings) {
        b.start(reps, ns, tileStart, prm.maxIterations());
        execute(timings);
        while (b.live()) { // each execution runs b.unroll iterations; those after convergence do nothing
            download(timings, b.changed1);
            b.narrow(); // the next execution's closest over the active tiles' points only
            execute(timings);
        }
        download(timings, b.representatives());
        download(timings, b.check.beat);
        b.verify(device.getPhysicalDevice().getDeviceName());
        b.result(reps, ns);
        return b.iterations();
    }

    /** One execution of b.unroll iterations, and the download of its flags. */
    private void execute(PhaseTimings timings) {
        long t0 = System.nanoTime();
        last = Plans.execute(plan, device, timings);
        long t1 = System.nanoTime();
        last.transferToHost(b.flags);
        timings.add("download", Kind.DOWNLOAD, System.nanoTime() - t1);
        Plans.charge(timings, "evolve executions", last, System.nanoTime() - t0);
    }

    private void download(PhaseTimings timings, Object array) {
        long t0 = System.nanoTime();
        last.transferToHost(array);
        timings.add("download", Kind.DOWNLOAD, System.nanoTime() - t0);
    }

    /** Keeps the plan (and the cloud on the device) for a next run over the same points. */
    @Override
    public void close() {
        if (plan == null) {
            return;
        }
        session.keep(FAMILY, STEP, new Kept(b, plan, name, deviceIndex), k -> Plans.release(k.plan()));
        plan = null;
    }
}
