package org.accelgeom.render;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.TornadoSupport;
import org.accelgeom.kdtree.KdTree;

/**
 * Ray casting through a kd-tree on any backend: one primary ray per pixel from a pinhole {@link Camera}, a shadow
 * ray to the light from every lit hit, shading by the surface normal ({@link RenderKernels#primary},
 * {@link RenderKernels#surface}, {@link RenderKernels#shadow}, {@link RenderKernels#colour}).
 *
 * <p>Contract: each pixel's hit is the closest triangle along its ray (ties: the smaller index), the same as
 * intersecting every triangle ({@link RenderKernels#bruteForce}); {@code jvm} and {@code jvm-parallel} give identical
 * images. {@code tornado} runs the same element kernels on the device (one work-item per pixel) and gives the same
 * hit triangles except where two triangles are hit at the same distance up to the last bits of a double (an edge
 * or a vertex shared by both): a device that fuses multiply-adds computes the hit distance T/det slightly
 * differently (see {@link RenderKernels}), which may break such a tie the other way.
 */
public class Render {

    Render() {
    }

    /** Renders {@code tree} as seen by {@code camera} into the camera's width × height image. */
    public static RenderResult render(KdTree tree, Camera camera, RenderOptions o) {
        try (RenderBackend b = backend(o)) {
            return render(tree, camera, o, b);
        }
    }

    /** Renders with a backend the caller keeps (repeated renders, benchmarks: a device keeps its compiled kernels). */
    public static RenderResult render(KdTree tree, Camera camera, RenderOptions o, RenderBackend b) {
        int width = camera.width();
        int height = camera.height();
        int n = width * height;
        PhaseTimings t = o.execution().newTimings();
        int depth = t.time("check tree depth", Kind.HOST, () -> depth(tree.info()));
        if (depth > RenderKernels.STACK) {
            throw new AccelGeomException("the tree is " + depth + " levels deep; the ray caster's stack holds "
                    + RenderKernels.STACK + " (build it with --max-depth " + RenderKernels.STACK + " or less)");
        }
        float[] cam = cameraArray(tree, camera, o.light());
        int[] params = new int[RenderKernels.PARAMS];
        params[RenderKernels.WIDTH] = width;
        params[RenderKernels.HEIGHT] = height;
        params[RenderKernels.SHADOWS] = o.shadows() ? 1 : 0;
        int[] hitId = new int[n];
        double[] hitT = new double[n];
        int[] counts = new int[RenderKernels.COUNTS * n];
        int[] rgb = new int[n];
        long wall = b.render(tree, cam, params, hitId, hitT, counts, rgb, t);
        long trace = 0;
        for (PhaseTimings.Phase p : t.phases()) {
            if (p.kind() == Kind.KERNEL || p.name().equals("trace rays")) {
                trace += p.nanos();
            }
        }
        long nodes = total(counts, 0);
        long tests = total(counts, 1);
        long rays = total(counts, 2);
        return new RenderResult(width, height, hitId, hitT, rgb, rays, nodes, tests, trace, wall, t, o.backend());
    }

    /**
     * The kernels' camera array ({@link RenderKernels#EYE} ...) of {@code camera} over {@code tree}: the shadow rays'
     * offset is 1e-5 of the tree's diagonal; {@code light} null: {@link Camera#framingLight} of its bounds.
     */
    public static float[] cameraArray(KdTree tree, Camera camera, double[] light) {
        float[] bb = tree.bounds();
        double diag = Math.sqrt(Math.pow((double) bb[3] - bb[0], 2) + Math.pow((double) bb[4] - bb[1], 2)
                + Math.pow((double) bb[5] - bb[2], 2));
        return camera.toArray(light == null ? Camera.framingLight(bb) : light, 1e-5 * Math.max(diag, 1e-30));
    }

    /** The depth of the deepest node (the root's is 0), in one pass over the depth-first node array. */
    static int depth(int[] info) {
        int[] d = new int[info.length];
        int max = 0;
        for (int n = 0; n < info.length; n++) {
            max = Math.max(max, d[n]);
            if ((info[n] & 3) != 3) {
                d[n + 1] = d[n] + 1;
                d[info[n] >>> 2] = d[n] + 1;
            }
        }
        return max;
    }

    /** A backend for repeated renders; close it after (that shuts its threads or frees its plan). */
    public static RenderBackend backend(RenderOptions o) {
        return switch (o.backend()) {
            case JVM -> new JvmRenderBackend(null);
            case JVM_PARALLEL -> new JvmRenderBackend(new ParallelLoops(o.threads()));
            case TORNADO -> TornadoSupport.factory(RenderBackend.Factory.class).create(o.execution());
        };
    }

    /** The sum of counter {@code k} over all rays ({@link RenderKernels#COUNTS} counters a ray). */
    static long total(int[] counts, int k) {
        long sum = 0;
        for (int i = k; i < counts.length; i += RenderKernels.COUNTS) {
            sum += counts[i];
        }
        return sum;
    }
}
