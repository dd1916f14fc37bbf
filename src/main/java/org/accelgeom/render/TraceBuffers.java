package org.accelgeom.render;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.kdtree.KdTree;

/**
 * The arrays of the embeddable trace step (render.tornado.RenderTaskGraphs#trace): a kd-tree as its kernels read it
 * (node planes and infos, leaf lists, triangles, bounds), the rays ({@link RenderKernels#RAY_FLOATS} floats each:
 * origin, direction, tMax) and, per ray, the closest hit (triangle id or -1, distance) and the work counters. Plain
 * Java arrays, the ones the kernels take: a TornadoVM program binds its own graphs to the same arrays
 * ({@code consumeFromDevice}), and {@link #traceOnJvm} runs the same element kernel as the reference.
 */
public final class TraceBuffers {

    public final float[] split;
    public final int[] info;
    public final int[] leafTris;
    public final float[] tri;
    public final float[] bounds;
    /** The rays, {@link RenderKernels#RAY_FLOATS} floats each: the caller writes them (on the host or in its own graph). */
    public final float[] rays;
    /** Per ray: the closest triangle, -1 for none. */
    public final int[] hitId;
    /** Per ray: the distance of the hit (tMax for none), in units of the ray's direction. */
    public final double[] hitT;
    /** Per ray: nodes visited, triangles tested, rays traced ({@link RenderKernels#COUNTS}). */
    public final int[] counts;

    /** Buffers for {@code rays} rays through {@code tree} (the tree's arrays are shared, not copied). */
    public TraceBuffers(KdTree tree, int rays) {
        this(tree.split(), tree.info(), tree.leafTris(), tree.triangles().v(), tree.bounds(), rays);
        if (Render.depth(tree.info()) > RenderKernels.STACK) {
            throw new AccelGeomException("the tree is deeper than the ray kernels' stack of " + RenderKernels.STACK);
        }
    }

    /**
     * Buffers for {@code rays} rays through a tree given by its arrays (a device build's, e.g.
     * {@code kdtree.zhou.tornado.ZhouBuffers}; not copied): node planes and infos, leaf lists, triangles, bounds. The
     * tree's depth is at most the builders' limit, within the ray kernels' stack.
     */
    public TraceBuffers(float[] split, int[] info, int[] leafTris, float[] tri, float[] bounds, int rays) {
        if (rays < 1) {
            throw new AccelGeomException("at least one ray, got " + rays);
        }
        this.split = split;
        this.info = info;
        this.leafTris = leafTris;
        this.tri = tri;
        this.bounds = bounds;
        this.rays = new float[RenderKernels.RAY_FLOATS * rays];
        this.hitId = new int[rays];
        this.hitT = new double[rays];
        this.counts = new int[RenderKernels.COUNTS * rays];
    }

    /** The number of rays. */
    public int count() {
        return hitId.length;
    }

    /** Sets ray i: origin o, direction d, far end tMax. */
    public void ray(int i, float ox, float oy, float oz, float dx, float dy, float dz, float tMax) {
        float[] r = {ox, oy, oz, dx, dy, dz, tMax};
        System.arraycopy(r, 0, rays, RenderKernels.RAY_FLOATS * i, RenderKernels.RAY_FLOATS);
    }

    /** The closest hits of all rays on the JVM (one thread): the reference of the device's trace graph. */
    public void traceOnJvm() {
        for (int i = 0; i < hitId.length; i++) {
            RenderKernels.closestHit(split, info, leafTris, tri, bounds, rays, i, hitId, hitT, counts);
        }
    }
}
