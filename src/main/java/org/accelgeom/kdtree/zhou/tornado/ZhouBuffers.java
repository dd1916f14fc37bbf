package org.accelgeom.kdtree.zhou.tornado;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.kdtree.zhou.LevelBuffers;
import org.accelgeom.kdtree.zhou.ZhouBuilder;
import org.accelgeom.kdtree.zhou.SmallKernels;
import org.accelgeom.render.TraceBuffers;

/**
 * The arrays of the embeddable breadth-first build ({@link ZhouTaskGraphs}): the large-node stage's and the bit-mask
 * small-node stage's ({@link LevelBuffers}, its {@code v} the user's triangles, not a copy), and the finished tree in
 * the layout of {@link org.accelgeom.kdtree.KdTree} ({@link #split}, {@link #info}, {@link #leaf}; the triangles
 * {@code level.v}; the bounds {@code level.rootBounds}), sized for the largest tree the device can write. Plain Java
 * arrays: the ray kernels take them as they are ({@link #trace}).
 */
public final class ZhouBuffers {

    /** The build's level and small-stage arrays; {@code level.v} is the triangles array given. */
    public final LevelBuffers level;
    /**
     * The heartbeats of the load graph ({@link ZhouTaskGraphs#launchCheck}), the level graph and the small graph
     * ({@link SmallTaskGraphs#launchCheck}).
     */
    public final org.accelgeom.engine.tornado.LaunchCheck check = ZhouTaskGraphs.launchCheck(),
            levelCheck = LevelTaskGraphs.launchCheck(), smallCheck = SmallTaskGraphs.launchCheck();
    /** The tree: node planes, node infos, leaf lists (their first {@link #nodes()} / {@link #words()} entries). */
    public final float[] split;
    public final int[] info;
    public final int[] leaf;

    /**
     * Buffers for the triangles {@code v} (9 floats a triangle: three vertices; none degenerate, as
     * {@link org.accelgeom.kdtree.Triangles#of} would keep them), nodes of at most {@code small} (at most 64) references
     * built by the bit-mask small-node stage.
     */
    public ZhouBuffers(float[] v, int small) {
        if (v.length == 0 || v.length % 9 != 0) {
            throw new AccelGeomException("the triangles array holds 9 floats per triangle and at least one, got "
                    + v.length + " floats");
        }
        if (small < 1 || small > SmallKernels.MAX_REFS) {
            throw new AccelGeomException("the small-node threshold of the bit-mask stage is 1 .. 64, got " + small);
        }
        level = new LevelBuffers(v.length / 9, small, ZhouBuilder.SmallStage.BITMASK);
        level.v = v;
        // the tree's flat arrays: at most the global nodes plus every region's slots
        int cap = (int) Math.min(Integer.MAX_VALUE - 64, (long) level.gCap + level.small.regionCap);
        split = new float[cap];
        info = new int[cap];
        leaf = new int[cap];
    }

    /** The number of triangles. */
    public int count() {
        return level.n;
    }

    /** The tree's nodes, after the build execution ({@code state} slot {@link ZhouTaskGraphs#S_NODES}). */
    public int nodes() {
        return level.state[ZhouTaskGraphs.S_NODES];
    }

    /** The tree's leaf-list words, after the build execution. */
    public int words() {
        return level.state[ZhouTaskGraphs.S_WORDS];
    }

    /** Trace buffers for {@code rays} rays over this tree's arrays (not copies): {@code RenderTaskGraphs.trace}. */
    public TraceBuffers trace(int rays) {
        return new TraceBuffers(split, info, leaf, level.v, level.rootBounds, rays);
    }
}
