package org.accelgeom.kdtree;

/**
 * The best plane of a node: axis k, position ξ, the side its planar triangles go to, and its SAH cost.
 * {@code NONE} when the node has no candidate plane.
 */
public record Split(int axis, float pos, int side, double cost) {

    static final Split NONE = new Split(-1, Float.NaN, KdTreeKernels.RIGHT, Double.POSITIVE_INFINITY);

    /** The better of this and a candidate, in the sweep's order ({@link KdTreeKernels#better}). */
    Split orBetter(int k, float xi, int s, double c) {
        return KdTreeKernels.better(c, xi, k, cost, pos, axis) ? new Split(k, xi, s, c) : this;
    }
}
