package org.accelgeom.voronoi.tornado;

import java.util.concurrent.atomic.AtomicInteger;

import org.accelgeom.engine.AccelGeomException;
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
 * The {@code tornado} end-vertex search: one execution plan over {@link VoronoiTaskGraphs#graph}, built once per
 * diagram over fixed-capacity frame arrays (the batch size travels in ip[4]); one execution per batch (a tracing
 * level), its pruning passes and lane reductions inside.
 */
public final class TornadoEndVertexSearch implements EndVertexSearch {
    private static final AtomicInteger PLANS = new AtomicInteger();
    private final TornadoDevice device;
    private TornadoExecutionPlan plan;
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
    private int capacity;

    /** @param deviceIndex TornadoVM device of the default backend, or -1 for the default device */
    public TornadoEndVertexSearch(Integer deviceIndex) {
        this.device = TornadoDevices.device(deviceIndex == null ? -1 : deviceIndex);
    }

    @Override
    public void load(double[] bx, double[] by, double[] bz, double[] br, float[] fx, float[] fy, float[] fz,
            float[] fr, int[] cellStart, int[] cellBalls, double[] params, int[] iparams, int capacity) {
        this.capacity = capacity;
        this.ip = iparams;
        this.frames = new double[capacity * VoronoiKernels.FS];
        this.framesF = new float[capacity * VoronoiKernels.FS];
        this.gates = new int[capacity * VoronoiKernels.GS];
        this.out = new int[capacity * VoronoiKernels.OS];
        this.qs = new double[capacity];
        int lanes = iparams[VoronoiKernels.I_LANES];
        this.lf = new float[capacity * lanes];
        this.ld = new double[capacity * lanes];
        this.li = new int[capacity * lanes * EndVertexScans.LS];
        String name = "voronoi" + PLANS.incrementAndGet();
        plan = new TornadoExecutionPlan(VoronoiTaskGraphs.graph(name, bx, by, bz, br, fx, fy, fz, fr, cellStart,
                cellBalls, params, ip, frames, framesF, gates, qs, lf, ld, li, out, beat).snapshot());
        // IEEE arithmetic: TornadoVM's default OpenCL flags (-cl-fast-relaxed-math -cl-mad-enable) change double
        // results in the last bits, and the double phase is the reference the float phase is checked against;
        // -Daccelgeom.voronoi.clflags=a,b,... replaces "-w" for experiments (POCL rejects -ffp-contract=off and
        // crashed with -cl-opt-disable)
        plan.withDevice(device).withGridScheduler(VoronoiTaskGraphs.grid(name, capacity, lanes))
                .withCompilerFlags(TornadoVMBackendType.OPENCL, System.getProperty("accelgeom.voronoi.clflags", "-w").replace(",", " "));
    }

    @Override
    public void search(int count, double[] f, float[] ff, int[] g, int[] o) {
        if (count > capacity) {
            throw new IllegalArgumentException("batch of " + count + " edges over the capacity " + capacity);
        }
        System.arraycopy(f, 0, frames, 0, count * VoronoiKernels.FS);
        System.arraycopy(g, 0, gates, 0, count * VoronoiKernels.GS);
        ip[VoronoiKernels.I_COUNT] = count;
        ip[VoronoiTaskGraphs.SEQ]++;
        TornadoExecutionResult r = Plans.execute(plan, device);
        r.transferToHost(out, beat);
        if (beat[0] != ip[VoronoiTaskGraphs.SEQ] * 4 + EndVertexScans.PASSES - 1) {
            throw new AccelGeomException("the TornadoVM kernel of the Voronoi end-vertex search did not run on "
                    + device.getPhysicalDevice().getDeviceName()
                    + " (see the OpenCL error above); try another --device or the jvm-parallel backend");
        }
        System.arraycopy(out, 0, o, 0, count * VoronoiKernels.OS);
    }

    @Override
    public void close() {
        if (plan != null) {
            Plans.release(plan);
            plan = null;
        }
    }
}
