package org.accelgeom.render.tornado;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.tornado.LaunchCheck;
import org.accelgeom.engine.tornado.GraphNames;
import org.accelgeom.engine.tornado.Plans;
import org.accelgeom.engine.tornado.TornadoDevices;
import org.accelgeom.kdtree.KdTree;
import org.accelgeom.render.RenderKernels;
import org.accelgeom.render.RenderBackend;

import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;

/**
 * The {@code tornado} backend of the ray caster: one execution plan over {@link RenderTaskGraphs#graph}, one
 * work-item per pixel. The plan is built for a tree and an image size and kept for the next renders of the same
 * tree at the same size (repeated renders, benchmarks): TornadoVM compiles a plan's kernels once, and the tree
 * and the triangles stay on the device; a render uploads only the camera and the parameters and downloads the
 * hits, counters and image.
 */
public final class TornadoRenderBackend implements RenderBackend {

    private final TornadoDevice device;
    private TornadoExecutionPlan plan;
    private KdTree tree;
    private int pixels;
    private float[] cam;
    private int[] params;
    private int[] hitId;
    private double[] hitT;
    private int[] counts;
    private int[] rgb;
    private final LaunchCheck check = RenderTaskGraphs.launchCheck();

    /** @param deviceIndex TornadoVM device of the default backend, or -1 for TornadoVM's default */
    /** The ray caster as a service of the tornado build (see {@link RenderBackend.Factory}). */
    public static final class Factory implements RenderBackend.Factory {
        @Override
        public RenderBackend create(org.accelgeom.engine.Execution execution) {
            return new TornadoRenderBackend(execution.device());
        }
    }

    public TornadoRenderBackend(Integer deviceIndex) {
        this.device = TornadoDevices.device(deviceIndex == null ? -1 : deviceIndex);
    }

    @Override
    public long render(KdTree t, float[] camera, int[] p, int[] outId, double[] outT, int[] outCounts, int[] outRgb,
            PhaseTimings timings) {
        int n = p[RenderKernels.WIDTH] * p[RenderKernels.HEIGHT];
        if (plan == null || tree != t || pixels != n) {
            timings.time("device plan", Kind.HOST, () -> load(t, n));
        }
        System.arraycopy(camera, 0, cam, 0, RenderKernels.CAMERA_FLOATS);
        System.arraycopy(p, 0, params, 0, RenderKernels.SEQ);
        params[RenderKernels.SEQ]++;
        long t0 = System.nanoTime();
        TornadoExecutionResult r = Plans.execute(plan, device, timings);
        long wall = System.nanoTime() - t0;
        check.verifyRange(params[RenderKernels.SEQ], device.getPhysicalDevice().getDeviceName(), "trace rays", 0, check.size());
        Plans.charge(timings, "trace rays", r, wall);
        long compile = Plans.wasProfiled(r) ? Math.max(r.getProfilerResult().getCompileTime(),
                r.getProfilerResult().getTornadoCompilerTime() + r.getProfilerResult().getDriverInstallTime()) : 0;
        timings.time("copy out (host)", Kind.HOST, () -> {
            System.arraycopy(hitId, 0, outId, 0, n);
            System.arraycopy(hitT, 0, outT, 0, n);
            System.arraycopy(counts, 0, outCounts, 0, RenderKernels.COUNTS * n);
            System.arraycopy(rgb, 0, outRgb, 0, n);
        });
        return Math.max(0, wall - compile);
    }

    private void load(KdTree t, int n) {
        close();
        long need = (long) n * (4 + 8 + 12 + 4 + 4 * RenderKernels.AUX + 8) + 8L * t.nodeCount() + 4L * t.leafTris().length
                + 36L * t.triangles().count();
        if (need > device.getMaxGlobalMemory() * 0.9) {
            throw new AccelGeomException(String.format("rendering %d pixels of %d triangles needs about %.1f GiB on the "
                    + "device, more than %s has (%.1f GiB)", n, t.triangles().count(), need / 1073741824.0,
                    device.getPhysicalDevice().getDeviceName(), device.getMaxGlobalMemory() / 1073741824.0));
        }
        tree = t;
        pixels = n;
        cam = new float[RenderKernels.CAMERA_FLOATS];
        params = new int[RenderKernels.PARAMS];
        hitId = new int[n];
        hitT = new double[n];
        counts = new int[RenderKernels.COUNTS * n];
        rgb = new int[n];
        float[] aux = new float[RenderKernels.AUX * n];
        double[] shadowT = new double[n];
        String name = GraphNames.unique("render");
        plan = new TornadoExecutionPlan(RenderTaskGraphs.graph(name, t.split(), t.info(), t.leafTris(), t.triangles().v(),
                t.bounds(), cam, params, hitId, hitT, counts, aux, shadowT, rgb, check.beat).snapshot());
        // IEEE arithmetic: the traversal relies on infinities (1/0 directions, the primary rays' far end), which
        // TornadoVM's default -cl-fast-relaxed-math lets the OpenCL compiler assume away
        plan.withDevice(device).withGridScheduler(RenderTaskGraphs.grid(name, n))
                .withCompilerFlags(TornadoVMBackendType.OPENCL, "-w");
    }

    @Override
    public void close() {
        if (plan != null) {
            Plans.release(plan);
            plan = null;
            tree = null;
        }
    }
}
