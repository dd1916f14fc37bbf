package org.accelgeom.render.tornado;

import org.accelgeom.engine.Tuning;
import org.accelgeom.render.RayKernels;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/**
 * TornadoVM task methods of the ray caster: one work-item per pixel, each task one {@code @Parallel} loop around an
 * element kernel of {@link RayKernels} (the same methods the jvm backends run). Four tasks in one graph, in the
 * order of the jvm loop: primary rays, surface (normal, light factor, shadow-ray origin), shadow rays (when
 * {@code params[SHADOWS]}), colour. Work-item 0 of each task writes the execution's sequence number to its
 * heartbeat slot so that the host can tell that the kernel ran.
 */
public final class RenderTaskGraphs {

    /** Heartbeat slots: one per task. */
    public static final int TASKS = 4;
    static final java.util.List<String> NAMES = java.util.List.of("primary", "surface", "shadow", "colour");

    private RenderTaskGraphs() {
    }

    public static void primary(float[] split, int[] info, int[] leafTris, float[] tri, float[] bounds, float[] cam,
            int[] params, int[] hitId, double[] hitT, int[] counts, int[] beat) {
        for (@Parallel int i = 0; i < hitId.length; i++) {
            if (i == 0) {
                beat[0] = params[RayKernels.SEQ];
            }
            RayKernels.primary(split, info, leafTris, tri, bounds, cam, params, i, hitId, hitT, counts);
        }
    }

    public static void surface(float[] tri, float[] cam, int[] params, int[] hitId, double[] hitT, float[] aux, int[] beat) {
        for (@Parallel int i = 0; i < hitId.length; i++) {
            if (i == 0) {
                beat[1] = params[RayKernels.SEQ];
            }
            RayKernels.surface(tri, cam, params, i, hitId, hitT, aux);
        }
    }

    public static void shadow(float[] split, int[] info, int[] leafTris, float[] tri, float[] bounds, float[] cam,
            int[] params, int[] hitId, double[] shadowT, int[] counts, float[] aux, int[] beat) {
        for (@Parallel int i = 0; i < hitId.length; i++) {
            if (i == 0) {
                beat[2] = params[RayKernels.SEQ];
            }
            RayKernels.shadow(split, info, leafTris, tri, bounds, cam, params, i, hitId, shadowT, counts, aux);
        }
    }

    public static void colour(int[] params, int[] hitId, float[] aux, int[] rgb, int[] beat) {
        for (@Parallel int i = 0; i < hitId.length; i++) {
            if (i == 0) {
                beat[3] = params[RayKernels.SEQ];
            }
            RayKernels.colour(params, i, hitId, aux, rgb);
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
}
