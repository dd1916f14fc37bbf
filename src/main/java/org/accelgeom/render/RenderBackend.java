package org.accelgeom.render;

import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.kdtree.KdTree;

/**
 * Runs {@link RenderKernels#primary}, {@link RenderKernels#surface}, {@link RenderKernels#shadow} and {@link RenderKernels#colour}
 * for every pixel of an image on one backend.
 */
public interface RenderBackend extends AutoCloseable {

    /**
     * Makes the {@code tornado} ray caster on the execution's device (it owns its plan until closed); implemented in
     * {@code kdtree.tornado} and found as a service ({@link org.accelgeom.engine.TornadoSupport#factory}).
     */
    interface Factory {
        RenderBackend create(org.accelgeom.engine.Execution execution);
    }

    /**
     * Renders: {@code params} holds width, height and the shadow flag ({@link RenderKernels#WIDTH} ...); the outputs
     * have one entry per pixel ({@code counts}: {@link RenderKernels#COUNTS} per pixel). Returns the wall time of the
     * tracing step in nanoseconds, transfers to and from a device included, TornadoVM's JIT compilation and host-side
     * copies excluded.
     */
    long render(KdTree tree, float[] cam, int[] params, int[] hitId, double[] hitT, int[] counts, int[] rgb, PhaseTimings t);

    @Override
    default void close() {
    }
}
