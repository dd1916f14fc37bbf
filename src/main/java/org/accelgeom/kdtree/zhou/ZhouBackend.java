package org.accelgeom.kdtree.zhou;

import org.accelgeom.engine.Execution;
import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.kdtree.TreeArrays;
import org.accelgeom.kdtree.Triangles;

/**
 * One backend's run of the large-node stage's kernels ({@link LevelKernels}) over its {@link LevelBuffers}: the
 * host ({@link ZhouBuilder}) sets the level's parameters, runs a level, reads the counters, and at the end takes
 * the global node records and the hand-off list.
 */
public interface ZhouBackend extends AutoCloseable {

    /**
     * Makes the {@code tornado} level kernels for {@code n} triangles; implemented in {@code kdtree.tornado} and found
     * as a service ({@link org.accelgeom.engine.TornadoSupport#factory}).
     */
    interface Factory {
        ZhouBackend create(Execution execution, int n, int small, ZhouBuilder.SmallStage stage);
    }

    /** The arrays these steps work on (a device backend's own, resident set). */
    LevelBuffers buffers();

    /**
     * The triangles' bounds ({@link Triangles#bounds}, the root's voxel) on {@code loops} (null: this thread). A device
     * whose plan holds the triangles from its first build (they are not uploaded again) keeps their bounds too.
     */
    default float[] bounds(Triangles tris, ParallelLoops loops) {
        return tris.bounds(loops);
    }

    /**
     * Prepares a build over the triangles: their coordinates and boxes (the root's references) in
     * {@link LevelBuffers#v} and {@link LevelBuffers#rootBox}; a device uploads them once per set of triangles.
     */
    void load(Triangles tris, PhaseTimings t);

    /**
     * One level or more (a device runs two per execution): bins, split, count, scan, scatter, then
     * {@link LevelKernels#advance}; afterwards {@link LevelBuffers#state} holds the next level's parameters on the host.
     */
    void level(PhaseTimings t);

    /** Brings the global node records and the hand-off list to the host arrays. */
    void download(PhaseTimings t);

    /**
     * The bit-mask small-node stage's subtrees ({@link LevelBuffers#small} must exist): the runs, the candidates, and
     * every small root's subtree in its region ({@link SubtreeKernels}). A backend that also lays the tree out and
     * places it (a device, in the same execution: {@code SmallTaskGraphs.subtrees}) returns its size,
     * {@code nodes << 32 | leaf-list words}, when no root was left to the host: then {@link #place} only brings it
     * back. Else it returns -1, and the status and counts of each global node ({@link SmallBuffers#tStatus} ...), its
     * runs and the global records ({@link LevelBuffers#gInt}, {@link LevelBuffers#gPos}) are on the host for its
     * layout ({@link FlatLayout}).
     */
    default long subtrees(PhaseTimings t) {
        throw new UnsupportedOperationException("no bit-mask small-node stage in these steps");
    }

    /**
     * The heap arrays of a tree of {@code size} ({@code nodes << 32 | leaf-list words}), allocated on other threads
     * ({@link TreeArrays}); a device may have started them before, from its last tree's size (the same triangles give
     * the same tree).
     */
    default TreeArrays arrays(long size) {
        return new TreeArrays((int) (size >>> 32), (int) size);
    }

    /**
     * Brings what the host needs to build the roots left to it to the host: the voxels, depths and the hand-off list
     * (and Zhou et al.'s candidate masks).
     */
    default void downloadHostRoots(PhaseTimings t) {
    }

    /**
     * The tree's arrays, each of its exact length, written but for the host-built subtrees: from the layout of
     * {@link SmallBuffers#at} and {@link SmallBuffers#off} set by the host, or, after {@link #subtrees} returned the
     * size, as the backend placed them.
     */
    default void place(TreeArrays arrays, PhaseTimings t) {
        throw new UnsupportedOperationException("no bit-mask small-node stage in these steps");
    }

    /** Whether these steps can build over these triangles (a device's plan is bound to one triangle array). */
    default boolean accepts(Triangles tris) {
        return true;
    }

    @Override
    default void close() {
    }
}
