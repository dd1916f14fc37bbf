package org.accelgeom.kdtree;

import org.accelgeom.engine.Execution;
import org.accelgeom.engine.PhaseTimings;

/**
 * The thesis's four per-node kernels (§5.2) as one backend runs them; {@link PlanePipeline} does the host steps
 * between them (sorting the events, listing the distinct planes) and is the same for every backend.
 * Arrays are sized by the caller and may be longer than the counts.
 */
public interface KdTreeBackend extends AutoCloseable {

    /**
     * Makes the {@code tornado} per-node kernels for nodes of up to {@code capacity} references; implemented in
     * {@code kdtree.tornado} and found as a service ({@link org.accelgeom.engine.TornadoSupport#factory}).
     */
    interface Factory {
        KdTreeBackend create(Execution execution, int capacity);
    }

    /** Kernel 1: the events of references 0..n-1 into 6n slots ({@link KdTreeKernels#events}). */
    void events(float[] box, int n, float[] evPos, int[] evType, PhaseTimings t);

    /**
     * Kernels 2 and 3: per plane, N_L/N_P/N_R ({@link KdTreeKernels#countPlane}) and cost and side
     * ({@link KdTreeKernels#sahPlane}).
     */
    void counts(float[] sorted, int events, int[] off, int n, float[] planePos, int[] planeAxis, int planes,
            int[] nl, int[] np, int[] nr, PhaseTimings t);

    /** Kernel 3: cost and side of every plane. */
    void costs(float[] voxel, float[] planePos, int[] planeAxis, int[] nl, int[] np, int[] nr, int planes,
            double[] c, double[] cost, int[] side, PhaseTimings t);

    /** Kernel 4: the index of the best plane in {@link KdTreeKernels#better}'s order. */
    int argmin(double[] cost, float[] planePos, int[] planeAxis, int planes, PhaseTimings t);

    /** The most references of a node these steps take. */
    default int capacity() {
        return Integer.MAX_VALUE;
    }

    /** The arrays for a node of n references: fresh ones, or for a device backend its own fixed set. */
    default PipelineBuffers buffers(int n) {
        return new PipelineBuffers(n);
    }

    @Override
    default void close() {
    }
}
