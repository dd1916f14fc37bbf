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

    /** Whether these steps can build over these triangles (a device's plan is bound to one triangle array). */
    default boolean accepts(Triangles tris) {
        return true;
    }

    @Override
    default void close() {
    }
}
