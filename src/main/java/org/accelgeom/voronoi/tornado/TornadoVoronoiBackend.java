package org.accelgeom.voronoi.tornado;


import org.accelgeom.engine.Tuning;
import org.accelgeom.engine.Capacity;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.tornado.GraphNames;
import org.accelgeom.engine.tornado.KernelCache;
import org.accelgeom.engine.tornado.Plans;
import org.accelgeom.engine.tornado.TornadoDevices;
import org.accelgeom.voronoi.VoronoiBackend;
import org.accelgeom.voronoi.VoronoiKernels;

import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;

/**
 * The {@code tornado} end-vertex search: one execution plan over {@link VoronoiTaskGraphs#load} and
 * {@link VoronoiTaskGraphs#search}, built over a {@link VoronoiBuffers} of its own (the batch size travels in ip[4]); one
 * execution of the search graph per batch (a tracing level), its pruning passes and lane reductions inside.
 *
 * <p>A later {@link #load} of balls whose number, grid and capacity fit (the next frame of a trajectory, or the
 * same molecule again) copies the new balls into the plan's arrays and runs only the load graph, which uploads them
 * into the device buffers the search graph reads: no new plan, no JIT compilation. Otherwise the plan is released and
 * a new one built (the session counts them: {@link DeviceSession#planBuilds}).
 */
public final class TornadoVoronoiBackend implements VoronoiBackend {
    /** Headroom of the grid's cell table for later loads (a trajectory's bounding box changes a little per frame). */
    private static final double CELL_ROOM = 1.25;
    private final TornadoDevice device;
    private TornadoExecutionPlan plan;
    private VoronoiBuffers b;

    private final DeviceSession session;

    /** The tornado search as a service of the tornado build (see {@link VoronoiBackend.Factory}). */
    public static final class Factory implements VoronoiBackend.Factory {
        @Override
        public VoronoiBackend create(DeviceSession session) {
            return new TornadoVoronoiBackend(session);
        }
    }

    /** On the session's device; each plan built is counted by the session ({@link DeviceSession#planBuilds}). */
    public TornadoVoronoiBackend(DeviceSession session) {
        this.session = session;
        this.device = TornadoDevices.device(session.execution().device());
    }

    @Override
    public void load(double[] bx, double[] by, double[] bz, double[] br, float[] fx, float[] fy, float[] fz,
            float[] fr, int[] cellStart, int[] cellBalls, double[] params, int[] iparams, int capacity) {
        int n = bx.length;
        int lanes = iparams[VoronoiKernels.I_LANES];
        int cells = cellStart.length, balls = Math.max(1, cellBalls.length);
        boolean fits = plan != null && b.fits(n, cells, balls, capacity, lanes);
        if (!fits) {
            // sizes grow geometrically (a quarter of headroom at first, then at least doubling what was held): a batch
            // of inputs of different sizes builds a few plans, not one per size; the headroom costs idle work-items
            boolean first = plan == null;
            close();
            b = new VoronoiBuffers(grown(n, first ? 0 : b.bx.length),
                    (int) Math.min(Integer.MAX_VALUE - 8, (long) (grown(cells, first ? 0 : b.cellStart.length) * CELL_ROOM) + 64),
                    Math.max(grown(balls, first ? 0 : b.cellBalls.length), n), grown(capacity, first ? 0 : b.capacity), lanes);
        }
        b.fill(bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, params, iparams);
        if (!fits) {
            build();
        }
        upload(!fits);
    }

    /** {@code need} and a quarter, or twice {@code held} when that is more (the geometric growth of a plan's arrays). */
    private static int grown(int need, int held) {
        return Capacity.rung(Math.max(need + need / 4L, 2L * held)); // on one ladder: nearby sizes share cached kernels
    }

    private void build() {
        String name = GraphNames.unique("voronoi");
        session.planBuilt();
        try (var scope = KernelCache.onDevice(device)) { // tasks an earlier process compiled skip Graal
            plan = new TornadoExecutionPlan(VoronoiTaskGraphs.load(name, b).snapshot(),
                    VoronoiTaskGraphs.search(name, b).snapshot());
        }
        // IEEE arithmetic: TornadoVM's default OpenCL flags (-cl-fast-relaxed-math -cl-mad-enable) change double
        // results in the last bits, and the double phase is the reference the float phase is checked against;
        // -Daccelgeom.voronoi.clflags=a,b,... replaces "-w" for experiments (POCL rejects -ffp-contract=off and
        // crashed with -cl-opt-disable)
        plan.withDevice(device).withGridScheduler(VoronoiTaskGraphs.grid(name, b))
                .withCompilerFlags(TornadoVMBackendType.OPENCL, Tuning.VORONOI_CLFLAGS.stringValue("-w").replace(",", " "));
    }

    /**
     * Runs the load graph (the balls go up into the buffers the search graph reads), then, for a new plan, an empty
     * search, so that the search graph takes the load graph's buffers over now (TornadoVM hands a consumed buffer on
     * from the graph executed last).
     */
    private void upload(boolean fresh) {
        b.seq[0]++;
        plan.withGraph(0);
        TornadoExecutionResult r = Plans.execute(plan, device);
        r.transferToHost(b.loadCheck.beat);
        b.loadCheck.verify(b.seq[0], device.getPhysicalDevice().getDeviceName(), "upload of the balls",
                VoronoiTaskGraphs.LOAD);
        if (fresh) {
            search(0, b.frames, b.framesF, b.gates, b.out);
        }
    }

    @Override
    public int capacity() {
        return b.capacity;
    }

    @Override
    public void search(int count, double[] f, float[] ff, int[] g, int[] o) {
        if (count > b.capacity) {
            throw new IllegalArgumentException("batch of " + count + " edges over the capacity " + b.capacity);
        }
        if (f != b.frames) {
            System.arraycopy(f, 0, b.frames, 0, count * VoronoiKernels.FS);
            System.arraycopy(g, 0, b.gates, 0, count * VoronoiKernels.GS);
        }
        b.ip[VoronoiKernels.I_COUNT] = count;
        int seq = ++b.ip[VoronoiTaskGraphs.SEQ];
        plan.withGraph(1);
        TornadoExecutionResult r = Plans.execute(plan, device);
        r.transferToHost(b.out, b.searchCheck.beat);
        b.searchCheck.verifyRange(seq, device.getPhysicalDevice().getDeviceName(), "end-vertex search", 0,
                b.searchCheck.size());
        if (o != b.out) {
            System.arraycopy(b.out, 0, o, 0, count * VoronoiKernels.OS);
        }
    }

    @Override
    public void close() {
        if (plan != null) {
            Plans.release(plan);
            plan = null;
        }
    }
}
