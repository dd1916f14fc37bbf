package org.accelgeom.kdtree;

import org.accelgeom.engine.PhaseTimings;

/**
 * One backend's run of the large-node stage's kernels ({@link LevelKernels}) over its {@link LevelBuffers}: the
 * host ({@link LevelBuilder}) sets the level's parameters, runs a level, reads the counters, and at the end takes
 * the global node records and the hand-off list.
 */
public interface LevelSteps extends AutoCloseable {

    /** The arrays these steps work on (a device backend's own, resident set). */
    LevelBuffers buffers();

    /**
     * Prepares a build over the triangles: their coordinates and boxes (the root's references) in
     * {@link LevelBuffers#v} and {@link LevelBuffers#rootBox}; a device uploads them once per set of triangles.
     */
    void load(Triangles tris, PhaseTimings t);

    /** One level: bins, split, count, scan, scatter; afterwards {@link LevelBuffers#state} holds its counters on the host. */
    void level(PhaseTimings t);

    /** Brings the global node records and the hand-off list to the host arrays. */
    void download(PhaseTimings t);

    /**
     * One execution of the bit-mask small-node stage ({@link SmallKernels}; {@link LevelBuffers#small} must exist):
     * in {@link SmallKernels#MODE_SEED} the runs, the first level and the candidates, then one level; afterwards
     * {@link LevelBuffers#state} holds its counters on the host.
     */
    default void small(PhaseTimings t) {
        throw new UnsupportedOperationException("no bit-mask small-node stage in these steps");
    }

    /**
     * Brings the small stage's output records and what the assembly reads (the runs, the hand-off list's triangle
     * ids; with {@code external}, also the voxels, depths and boxes the host needs for its exact subtrees) to the host.
     */
    default void downloadSmall(boolean external, PhaseTimings t) {
    }

    /** Whether these steps can build over these triangles (a device's plan is bound to one triangle array). */
    default boolean accepts(Triangles tris) {
        return true;
    }

    @Override
    default void close() {
    }
}
