package org.accelgeom.kdtree;

import java.util.Arrays;

/**
 * An SAH kd-tree over triangles in a flat, compact layout: two arrays of one entry per node, 8 bytes per node
 * (the classic layout of Wald's and pbrt's trees, as two arrays so that a GPU kernel reads them as they are).
 *
 * <ul>
 * <li>inner node n: {@code split[n]} the plane's position ξ; {@code info[n] = right << 2 | axis} (axis 0, 1, 2);
 * the left child is n + 1 (depth-first order), the right child {@code right};
 * <li>leaf n: {@code info[n] = offset << 2 | 3}; {@code leafTris[offset]} is its number of triangles, followed by
 * their indices in {@link #triangles()}.
 * </ul>
 * The root is node 0; its voxel is {@link #bounds()}, the box of all triangles (min x y z, max x y z).
 * Triangles straddling a plane are in both children; a triangle flat in a plane is on one side.
 */
public record KdTree(float[] split, int[] info, int[] leafTris, float[] bounds, Triangles triangles) {

    public int nodeCount() {
        return info.length;
    }

    public boolean isLeaf(int n) {
        return (info[n] & 3) == 3;
    }

    /** Split axis of inner node n. */
    public int axis(int n) {
        return info[n] & 3;
    }

    /** Right child of inner node n (the left one is n + 1). */
    public int right(int n) {
        return info[n] >>> 2;
    }

    /** Number of triangles of leaf n. */
    public int leafSize(int n) {
        return leafTris[info[n] >>> 2];
    }

    /** Triangle i of leaf n. */
    public int leafTriangle(int n, int i) {
        return leafTris[(info[n] >>> 2) + 1 + i];
    }

    /** True when both trees have the same nodes, planes and leaves, bit for bit. */
    public boolean sameTree(KdTree o) {
        return Arrays.equals(info, o.info) && Arrays.equals(split, o.split) && Arrays.equals(leafTris, o.leafTris)
                && Arrays.equals(bounds, o.bounds);
    }

    /**
     * The tree's statistics, its SAH cost by eq. 3.3 of the thesis with the leaves' triangle counts that the
     * printed formula lacks (Wald &amp; Havran's form): C(T) = Σ_inner SA(V_n)/SA(V_S)·K_T +
     * Σ_leaves SA(V_l)/SA(V_S)·K_I·|T_l|.
     */
    public KdTreeStats stats(double kT, double kI) {
        int nodes = nodeCount();
        double rootArea = area(bounds);
        double cost = 0;
        int leaves = 0;
        int empty = 0;
        int maxDepth = 0;
        long refs = 0;
        int[] stack = new int[2 * KdTreeKernels.STACK_SIZE + 2];
        float[] boxes = new float[6 * stack.length];
        int[] depths = new int[stack.length];
        int sp = 0;
        stack[sp] = 0;
        System.arraycopy(bounds, 0, boxes, 0, 6);
        depths[sp++] = 0;
        float[] box = new float[6];
        while (sp > 0) {
            sp--;
            int n = stack[sp];
            int d = depths[sp];
            System.arraycopy(boxes, 6 * sp, box, 0, 6);
            maxDepth = Math.max(maxDepth, d);
            double p = rootArea > 0 ? area(box) / rootArea : 0;
            if (isLeaf(n)) {
                int m = leafSize(n);
                leaves++;
                empty += m == 0 ? 1 : 0;
                refs += m;
                cost += p * kI * m;
            } else {
                cost += p * kT;
                int k = axis(n);
                System.arraycopy(box, 0, boxes, 6 * sp, 6);
                boxes[6 * sp + k] = split[n];
                stack[sp] = right(n);
                depths[sp++] = d + 1;
                System.arraycopy(box, 0, boxes, 6 * sp, 6);
                boxes[6 * sp + 3 + k] = split[n];
                stack[sp] = n + 1;
                depths[sp++] = d + 1;
            }
        }
        return new KdTreeStats(triangles.count(), nodes, nodes - leaves, leaves, empty, maxDepth, refs, cost);
    }

    private static double area(float[] b) {
        double dx = (double) b[3] - b[0];
        double dy = (double) b[4] - b[1];
        double dz = (double) b[5] - b[2];
        return 2 * (dx * dy + dy * dz + dz * dx);
    }

    /** Bytes of the node arrays and the leaves' triangle lists. */
    public long bytes() {
        return 8L * nodeCount() + 4L * leafTris.length;
    }
}
