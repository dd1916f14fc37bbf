package org.accelgeom.render.tornado;

import org.accelgeom.engine.Tuning;
import org.accelgeom.engine.tornado.LaunchCheck;
import org.accelgeom.render.RenderKernels;
import org.accelgeom.render.TraceBuffers;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/**
 * TornadoVM task methods of the ray caster: one work-item per pixel, each task one {@code @Parallel} loop around an
 * element kernel of {@link RenderKernels} (the same methods the jvm backends run). Four tasks in one graph, in the
 * order of the jvm loop: primary rays, surface (normal, light factor, shadow-ray origin), shadow rays (when
 * {@code params[SHADOWS]}), colour. Work-item 0 of each task writes the execution's sequence number to its
 * heartbeat slot so that the host can tell that the kernel ran.
 */
public final class RenderTaskGraphs {

    /** Heartbeat slots ({@link LaunchCheck}): one per task, written by its work-item 0. */
    static final int SLOT_PRIMARY = 0;
    static final int SLOT_SURFACE = 1;
    static final int SLOT_SHADOW = 2;
    static final int SLOT_COLOUR = 3;
    /** The task names, in slot order. */
    static final java.util.List<String> NAMES = java.util.List.of("primary", "surface", "shadow", "colour");
    /** Heartbeat slots: one per task. */
    public static final int TASKS = NAMES.size();

    /** A launch check of the render graph: the slots' names in slot order. */
    static LaunchCheck launchCheck() {
        return new LaunchCheck("ray caster", NAMES.toArray(String[]::new));
    }

    private RenderTaskGraphs() {
    }

    public static void primary(float[] split, int[] info, int[] leafTris, float[] tri, float[] bounds, float[] cam,
            int[] params, int[] hitId, double[] hitT, int[] counts, int[] beat) {
        for (@Parallel int i = 0; i < hitId.length; i++) {
            if (i == 0) {
                beat[SLOT_PRIMARY] = params[RenderKernels.SEQ];
            }
            RenderKernels.primary(split, info, leafTris, tri, bounds, cam, params, i, hitId, hitT, counts);
        }
    }

    public static void surface(float[] tri, float[] cam, int[] params, int[] hitId, double[] hitT, float[] aux, int[] beat) {
        for (@Parallel int i = 0; i < hitId.length; i++) {
            if (i == 0) {
                beat[SLOT_SURFACE] = params[RenderKernels.SEQ];
            }
            RenderKernels.surface(tri, cam, params, i, hitId, hitT, aux);
        }
    }

    public static void shadow(float[] split, int[] info, int[] leafTris, float[] tri, float[] bounds, float[] cam,
            int[] params, int[] hitId, double[] shadowT, int[] counts, float[] aux, int[] beat) {
        for (@Parallel int i = 0; i < hitId.length; i++) {
            if (i == 0) {
                beat[SLOT_SHADOW] = params[RenderKernels.SEQ];
            }
            RenderKernels.shadow(split, info, leafTris, tri, bounds, cam, params, i, hitId, shadowT, counts, aux);
        }
    }

    public static void colour(int[] params, int[] hitId, float[] aux, int[] rgb, int[] beat) {
        for (@Parallel int i = 0; i < hitId.length; i++) {
            if (i == 0) {
                beat[SLOT_COLOUR] = params[RenderKernels.SEQ];
            }
            RenderKernels.colour(params, i, hitId, aux, rgb);
        }
    }

    /**
     * The render graph: the tree and the triangles go to the device on the first execution only (they stay there
     * for later renders of the same tree); the camera and parameters on every execution; the image, hits and
     * counters come back on every execution; the shading scratch arrays never leave the device.
     */
    public static TaskGraph graph(String name, float[] split, int[] info, int[] leafTris, float[] tri, float[] bounds,
            float[] cam, int[] params, int[] hitId, double[] hitT, int[] counts, float[] aux, double[] shadowT, int[] rgb,
            int[] beat) {
        return new TaskGraph(name)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, split, info, leafTris, tri, bounds, aux, shadowT)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, cam, params)
                .task(NAMES.get(0), RenderTaskGraphs::primary, split, info, leafTris, tri, bounds, cam, params, hitId, hitT,
                        counts, beat)
                .task(NAMES.get(1), RenderTaskGraphs::surface, tri, cam, params, hitId, hitT, aux, beat)
                .task(NAMES.get(2), RenderTaskGraphs::shadow, split, info, leafTris, tri, bounds, cam, params, hitId, shadowT,
                        counts, aux, beat)
                .task(NAMES.get(3), RenderTaskGraphs::colour, params, hitId, aux, rgb, beat)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, hitId, hitT, counts, rgb, beat);
    }

    /**
     * Work-group size of the render kernels, {@code -Daccelgeom.render.localSize=N} (benchmarks); 0, the default,
     * leaves it to the OpenCL driver (TornadoVM's own default gave CL_OUT_OF_RESOURCES on the H200 for big kernels,
     * see hull/tornado/HullTaskGraphs). Used only where it divides the number of pixels.
     */
    public static final int LOCAL_SIZE = Tuning.RENDER_LOCAL_SIZE.intValue();

    /** One work-item per pixel. */
    public static GridScheduler grid(String name, int pixels) {
        GridScheduler gs = new GridScheduler();
        for (String task : NAMES) {
            WorkerGrid1D w = new WorkerGrid1D(pixels);
            if (LOCAL_SIZE > 0 && pixels % LOCAL_SIZE == 0) {
                w.setLocalWork(LOCAL_SIZE, 1, 1);
            } else {
                w.setLocalWorkToNull();
            }
            gs.addWorkerGrid(name + "." + task, w);
        }
        return gs;
    }

    // ---- the embeddable trace step (docs/embedding.md, "Ray casting")

    /** The task of {@link #trace}: its name in the graph is {@code "hits"}. */
    public static final String TRACE_TASK = "hits";

    /**
     * OpenCL compiler flags a plan that runs {@link #trace} must set ({@code plan.withCompilerFlags(
     * TornadoVMBackendType.OPENCL, RenderTaskGraphs.COMPILER_FLAGS)}): IEEE arithmetic, since the traversal relies on
     * infinities that TornadoVM's default {@code -cl-fast-relaxed-math} lets the compiler assume away.
     */
    public static final String COMPILER_FLAGS = "-w";

    /** {@link RenderKernels#closestHit} for every ray, one work-item per ray. */
    public static void hits(float[] split, int[] info, int[] leafTris, float[] tri, float[] bounds, float[] rays, int[] hitId,
            double[] hitT, int[] counts) {
        for (@Parallel int i = 0; i < hitId.length; i++) {
            RenderKernels.closestHit(split, info, leafTris, tri, bounds, rays, i, hitId, hitT, counts);
        }
    }

    /**
     * The trace step as a graph of one task ({@link #TRACE_TASK}) over {@code b}: the closest hit of every ray.
     * Protocol: one execution per batch of rays; launch geometry {@link #traceGrid}; compiler flags
     * {@link #COMPILER_FLAGS}.
     *
     * @param treeFrom  the name of the user's graph that left the tree's arrays ({@code split, info, leafTris, tri,
     *                  bounds}) on the device, or null: they go from the host on the first execution only
     * @param raysFrom  the name of the user's graph that left {@code b.rays} on the device, or null: from the host on
     *                  every execution
     * @param keepHits  true: {@code hitId}, {@code hitT} (and {@code counts}) stay on the device for the user's next
     *                  graph ({@code consumeFromDevice(name, b.hitId, b.hitT)}; also the tree and the rays); false: they
     *                  come to the host on every execution
     */
    public static TaskGraph trace(String name, TraceBuffers b, String treeFrom, String raysFrom, boolean keepHits) {
        TaskGraph g = new TaskGraph(name);
        if (treeFrom == null) {
            g = g.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.split, b.info, b.leafTris, b.tri, b.bounds);
        } else {
            g = g.consumeFromDevice(treeFrom, b.split, b.info, b.leafTris, b.tri, b.bounds);
        }
        if (raysFrom == null) {
            g = g.transferToDevice(DataTransferMode.EVERY_EXECUTION, b.rays);
        } else {
            g = g.consumeFromDevice(raysFrom, b.rays);
        }
        g = g.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.counts)
                .task(TRACE_TASK, RenderTaskGraphs::hits, b.split, b.info, b.leafTris, b.tri, b.bounds, b.rays, b.hitId, b.hitT,
                        b.counts);
        if (keepHits) {
            return g.persistOnDevice(b.hitId, b.hitT, b.counts, b.split, b.info, b.leafTris, b.tri, b.bounds, b.rays);
        }
        return g.transferToHost(DataTransferMode.EVERY_EXECUTION, b.hitId, b.hitT, b.counts);
    }

    /** One work-item per ray for the graph {@code name} of {@link #trace}, added to {@code gs}. */
    public static GridScheduler traceGrid(String name, TraceBuffers b, GridScheduler gs) {
        WorkerGrid1D w = new WorkerGrid1D(b.count());
        w.setLocalWorkToNull();
        gs.addWorkerGrid(name + "." + TRACE_TASK, w);
        return gs;
    }
}
