package org.accelgeom.render;

import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.kdtree.KdTree;

/** {@code jvm} and {@code jvm-parallel}: the pixel kernel in a plain or fork/join loop (its own pool). */
record JvmRenderBackend(ParallelLoops loops) implements RenderBackend {
    @Override
    public void close() {
        if (loops != null) {
            loops.close();
        }
    }

    @Override
    public long render(KdTree tree, float[] cam, int[] params, int[] hitId, double[] hitT, int[] counts, int[] rgb,
            PhaseTimings t) {
        int n = params[RenderKernels.WIDTH] * params[RenderKernels.HEIGHT];
        float[] tri = tree.triangles().v();
        float[] aux = new float[RenderKernels.AUX * n];
        double[] shadowT = new double[n];
        ParallelLoops.RangeBody body = (a, b) -> {
            for (int i = a; i < b; i++) {
                RenderKernels.primary(tree.split(), tree.info(), tree.leafTris(), tri, tree.bounds(), cam, params, i,
                        hitId, hitT, counts);
                RenderKernels.surface(tri, cam, params, i, hitId, hitT, aux);
                RenderKernels.shadow(tree.split(), tree.info(), tree.leafTris(), tri, tree.bounds(), cam, params, i,
                        hitId, shadowT, counts, aux);
                RenderKernels.colour(params, i, hitId, aux, rgb);
            }
        };
        long t0 = System.nanoTime();
        t.time("trace rays", Kind.HOST, () -> {
            if (loops == null) {
                body.run(0, n);
            } else {
                loops.forRange(n, 256, body);
            }
        });
        return System.nanoTime() - t0;
    }
}
