package org.accelgeom.kdtree;

import java.util.Arrays;

/**
 * Grows the flat node arrays of a {@link KdTree} in depth-first order (a left child follows its parent). A
 * subtree built on its own (the parallel builder) is appended with its indices shifted, giving the same arrays
 * a sequential build writes.
 */
public final class TreeWriter {
    public float[] split = new float[64];
    public int[] info = new int[64];
    public int nodes;
    public int[] leafTris = new int[64];
    public int leafSize;

    /** Reserves the next node and returns its index. */
    public int reserve() {
        if (nodes == split.length) {
            split = Arrays.copyOf(split, 2 * nodes);
            info = Arrays.copyOf(info, 2 * nodes);
        }
        return nodes++;
    }

    public void inner(int node, int axis, float pos, int right) {
        split[node] = pos;
        info[node] = (right << 2) | axis;
    }

    public void leaf(int node, int[] tri, int n) {
        ensureLeaf(n + 1);
        split[node] = 0f;
        info[node] = (leafSize << 2) | 3;
        leafTris[leafSize++] = n;
        System.arraycopy(tri, 0, leafTris, leafSize, n);
        leafSize += n;
    }

    private void ensureLeaf(int extra) {
        if (leafSize + extra > leafTris.length) {
            leafTris = Arrays.copyOf(leafTris, Math.max(leafSize + extra, 2 * leafTris.length));
        }
    }

    /** Appends a subtree written on its own; its root becomes node {@link #nodes} before the call. */
    public void append(TreeWriter sub) {
        int nodeOff = nodes;
        int leafOff = leafSize;
        for (int i = 0; i < sub.nodes; i++) {
            int n = reserve();
            int inf = sub.info[i];
            split[n] = sub.split[i];
            int shift = (inf & 3) == 3 ? leafOff : nodeOff;
            info[n] = (((inf >>> 2) + shift) << 2) | (inf & 3);
        }
        ensureLeaf(sub.leafSize);
        System.arraycopy(sub.leafTris, 0, leafTris, leafSize, sub.leafSize);
        leafSize += sub.leafSize;
    }
}
