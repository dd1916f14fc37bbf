package org.accelgeom.kdtree;

import java.util.concurrent.CompletableFuture;

/**
 * The flat arrays of a {@link KdTree} of a known size (plane and info per node, the leaf lists), each allocated on a
 * thread of its own while the backend places the tree: a fresh 20–30 MB heap array costs the JVM its zeroing and
 * the first touch of its pages (7–40 ms for the dragon's three on one thread, in the GPU machine's builds).
 */
public final class TreeArrays {

    private final int nodes;
    private final int words;
    private final CompletableFuture<float[]> split;
    private final CompletableFuture<int[]> info;
    private final CompletableFuture<int[]> leaf;

    public TreeArrays(int nodes, int words) {
        this.nodes = nodes;
        this.words = words;
        split = CompletableFuture.supplyAsync(() -> new float[nodes]);
        info = CompletableFuture.supplyAsync(() -> new int[nodes]);
        leaf = CompletableFuture.supplyAsync(() -> new int[words]);
    }

    /** Nodes of the tree (the length of the plane and info arrays). */
    public int nodes() {
        return nodes;
    }

    /** Words of the leaf lists. */
    public int words() {
        return words;
    }

    public float[] split() {
        return split.join();
    }

    public int[] info() {
        return info.join();
    }

    public int[] leaf() {
        return leaf.join();
    }
}
