package org.accelgeom.kdtree;

/**
 * A node's triangle references during construction: n references, triangle ids {@code tri[i]} and their clipped
 * boxes B(t ∩ V) {@code box[6i .. 6i+5]}; in the O(N log N) variant also the node's events, per axis, sorted
 * ({@link Events}).
 */
public final class BuildNode {
    public final int n;
    final int[] tri;
    public final float[] box;
    final long[][] events;

    public BuildNode(int n, int[] tri, float[] box, long[][] events) {
        this.n = n;
        this.tri = tri;
        this.box = box;
        this.events = events;
    }
}
