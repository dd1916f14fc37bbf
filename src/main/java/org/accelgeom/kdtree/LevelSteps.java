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
     * Prepares a build over the triangles {@code v} (9 floats each) and their boxes {@code rootBox} (6 floats
     * each): the jvm takes them, a device uploads them (or keeps them from the last build of the same arrays).
     */
    void load(float[] v, float[] rootBox, PhaseTimings t);

    /** One level: bins, split, count, scan, scatter; afterwards {@link LevelBuffers#counters} is valid on the host. */
    void level(PhaseTimings t);

    /** Brings the global node records and the hand-off list to the host arrays. */
    void download(PhaseTimings t);

    @Override
    default void close() {
    }
}
