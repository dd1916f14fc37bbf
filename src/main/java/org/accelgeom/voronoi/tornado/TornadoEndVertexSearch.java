package org.accelgeom.voronoi.tornado;


import org.accelgeom.engine.Tuning;
import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.tornado.GraphNames;
import org.accelgeom.engine.tornado.Plans;
import org.accelgeom.engine.tornado.TornadoDevices;
import org.accelgeom.voronoi.EndVertexScans;
import org.accelgeom.voronoi.EndVertexSearch;
import org.accelgeom.voronoi.VoronoiKernels;

import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;

/**
 * The {@code tornado} end-vertex search: one execution plan over {@link VoronoiTaskGraphs#load} and
 * {@link VoronoiTaskGraphs#graph}, built over fixed-capacity arrays of its own (the batch size travels in ip[4]); one
 * execution of the search graph per batch (a tracing level), its pruning passes and lane reductions inside.
 *
 * <p>A later {@link #load} of as many balls whose grid and capacity fit (the next frame of a trajectory, or the
 * same molecule again) copies the new balls into the plan's arrays and runs only the load graph, which uploads them
 * into the device buffers the search graph reads: no new plan, no JIT compilation. Otherwise the plan is released and
 * a new one built (the session counts them: {@link DeviceSession#planBuilds}).
 */
public final class TornadoEndVertexSearch implements EndVertexSearch {
    /** Headroom of the grid's cell table for later loads (a trajectory's bounding box changes a little per frame). */
    private static final double CELL_ROOM = 1.25;
    private final TornadoDevice device;
    private TornadoExecutionPlan plan;
    // the plan's own arrays: balls, grid and parameters (load graph), frames, scratch and results (search graph)
    private double[] bx, by, bz, br, p;
    private float[] fx, fy, fz, fr;
    private int[] cellStart, cellBalls;
    private int[] ip;
    private double[] frames;
    private float[] framesF;
    private int[] gates;
    private int[] out;
    private double[] qs;
    private float[] lf;
    private double[] ld;
    private int[] li;
    private final int[] beat = new int[1];
    private final int[] seq = new int[1];
    private final int[] loadBeat = new int[2];
    private int capacity;
    private int lanes;

    private final DeviceSession session;

    /** The tornado search as a service of the tornado build (see {@link EndVertexSearch.Factory}). */
    public static final class Factory implements EndVertexSearch.Factory {
        @Override
        public EndVertexSearch create(DeviceSession session) {
            return new TornadoEndVertexSearch(session);
        }
    }

    /** On the session's device; each plan built is counted by the session ({@link DeviceSession#planBuilds}). */
    public TornadoEndVertexSearch(DeviceSession session) {
        this.session = session;
        this.device = TornadoDevices.device(session.execution().device());
    }

    @Override
    public void load(double[] bx, double[] by, double[] bz, double[] br, float[] fx, float[] fy, float[] fz,
            float[] fr, int[] cellStart, int[] cellBalls, double[] params, int[] iparams, int capacity) {
        int n = bx.length;
        int lanes = iparams[VoronoiKernels.I_LANES];
        boolean fits = plan != null && n <= this.bx.length && lanes == this.lanes && capacity <= this.capacity
                && cellStart.length <= this.cellStart.length && cellBalls.length <= this.cellBalls.length;
        if (!fits) {
            // sizes grow geometrically (a quarter of headroom at first, then at least doubling what was held): a batch
            // of inputs of different sizes builds a few plans, not one per size; the headroom costs idle work-items
            int cells = cellStart.length, balls = Math.max(1, cellBalls.length);
            n = grown(n, plan == null ? 0 : this.bx.length);
            cells = grown(cells, plan == null ? 0 : this.cellStart.length);
            balls = grown(balls, plan == null ? 0 : this.cellBalls.length);
            capacity = grown(capacity, plan == null ? 0 : this.capacity);
            close();
            allocate(n, cells, balls, capacity, lanes);
            n = bx.length;
        }
        System.arraycopy(bx, 0, this.bx, 0, n);
        System.arraycopy(by, 0, this.by, 0, n);
        System.arraycopy(bz, 0, this.bz, 0, n);
        System.arraycopy(br, 0, this.br, 0, n);
        System.arraycopy(fx, 0, this.fx, 0, n);
        System.arraycopy(fy, 0, this.fy, 0, n);
        System.arraycopy(fz, 0, this.fz, 0, n);
        System.arraycopy(fr, 0, this.fr, 0, n);
        System.arraycopy(cellStart, 0, this.cellStart, 0, cellStart.length);
        System.arraycopy(cellBalls, 0, this.cellBalls, 0, cellBalls.length);
        System.arraycopy(params, 0, this.p, 0, params.length);
        int launches = ip[VoronoiTaskGraphs.SEQ];
        System.arraycopy(iparams, 0, ip, 0, iparams.length);
        ip[VoronoiTaskGraphs.SEQ] = launches;
        if (!fits) {
            build();
        }
        upload(!fits);
    }

    /** {@code need} and a quarter, or twice {@code held} when that is more (the geometric growth of a plan's arrays). */
    private static int grown(int need, int held) {
        return (int) Math.min(Integer.MAX_VALUE - 64, Math.max(need + need / 4L, 2L * held));
    }

    /** The plan's arrays for n balls, a grid of up to cells - 1 cells (with headroom) and balls, capacity edges. */
    private void allocate(int n, int cells, int balls, int capacity, int lanes) {
        this.capacity = capacity;
        this.lanes = lanes;
        bx = new double[n];
        by = new double[n];
        bz = new double[n];
        br = new double[n];
        fx = new float[n];
        fy = new float[n];
        fz = new float[n];
        fr = new float[n];
        cellStart = new int[(int) Math.min(Integer.MAX_VALUE - 8, (long) (cells * CELL_ROOM) + 64)];
        cellBalls = new int[Math.max(balls, n)];
        p = new double[VoronoiKernels.PN];
        ip = new int[VoronoiKernels.IN];
        frames = new double[capacity * VoronoiKernels.FS];
        framesF = new float[capacity * VoronoiKernels.FS];
        gates = new int[capacity * VoronoiKernels.GS];
        out = new int[capacity * VoronoiKernels.OS];
        qs = new double[capacity];
        lf = new float[capacity * lanes];
        ld = new double[capacity * lanes];
        li = new int[capacity * lanes * EndVertexScans.LS];
    }

    private void build() {
        String name = GraphNames.unique("voronoi");
        session.planBuilt();
        plan = new TornadoExecutionPlan(
                VoronoiTaskGraphs.load(name, bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, p, seq, loadBeat).snapshot(),
                VoronoiTaskGraphs.graph(name, bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, p, ip, frames, framesF,
                        gates, qs, lf, ld, li, out, beat).snapshot());
        // IEEE arithmetic: TornadoVM's default OpenCL flags (-cl-fast-relaxed-math -cl-mad-enable) change double
        // results in the last bits, and the double phase is the reference the float phase is checked against;
        // -Daccelgeom.voronoi.clflags=a,b,... replaces "-w" for experiments (POCL rejects -ffp-contract=off and
        // crashed with -cl-opt-disable)
        plan.withDevice(device).withGridScheduler(VoronoiTaskGraphs.grid(name, capacity, lanes))
                .withCompilerFlags(TornadoVMBackendType.OPENCL, Tuning.VORONOI_CLFLAGS.stringValue("-w").replace(",", " "));
    }

    /**
     * Runs the load graph (the balls go up into the buffers the search graph reads), then, for a new plan, an empty
     * search, so that the search graph takes the load graph's buffers over now (TornadoVM hands a consumed buffer on
     * from the graph executed last).
     */
    private void upload(boolean fresh) {
        seq[0]++;
        plan.withGraph(0);
        TornadoExecutionResult r = Plans.execute(plan, device);
        r.transferToHost(loadBeat);
        if (loadBeat[0] != seq[0]) {
            throw new AccelGeomException("the TornadoVM upload of the Voronoi balls did not run on "
                    + device.getPhysicalDevice().getDeviceName()
                    + " (see the OpenCL error above); try another --device or the jvm-parallel backend");
        }
        if (fresh) {
            search(0, frames, framesF, gates, out);
        }
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public void search(int count, double[] f, float[] ff, int[] g, int[] o) {
        if (count > capacity) {
            throw new IllegalArgumentException("batch of " + count + " edges over the capacity " + capacity);
        }
        if (f != frames) {
            System.arraycopy(f, 0, frames, 0, count * VoronoiKernels.FS);
            System.arraycopy(g, 0, gates, 0, count * VoronoiKernels.GS);
        }
        ip[VoronoiKernels.I_COUNT] = count;
        ip[VoronoiTaskGraphs.SEQ]++;
        plan.withGraph(1);
        TornadoExecutionResult r = Plans.execute(plan, device);
        r.transferToHost(out, beat);
        if (beat[0] != ip[VoronoiTaskGraphs.SEQ] * 4 + EndVertexScans.PASSES - 1) {
            throw new AccelGeomException("the TornadoVM kernel of the Voronoi end-vertex search did not run on "
                    + device.getPhysicalDevice().getDeviceName()
                    + " (see the OpenCL error above); try another --device or the jvm-parallel backend");
        }
        if (o != out) {
            System.arraycopy(out, 0, o, 0, count * VoronoiKernels.OS);
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
