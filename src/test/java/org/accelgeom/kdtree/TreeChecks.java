package org.accelgeom.kdtree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.SplittableRandom;

/** Structural and geometric invariants of a kd-tree. */
public final class TreeChecks {

    private TreeChecks() {
    }

    /**
     * Every node reached once from the root in depth-first order; planes inside their voxels; leaves' lists in
     * range; depth within the limit; every listed triangle's box meets its leaf's voxel; and {@code samples}
     * random points of every triangle are found in the leaf (or leaves, on a plane) that contains them.
     */
    public static void check(KdTree tree, int depthLimit, int samples) {
        int nodes = tree.nodeCount();
        boolean[] seen = new boolean[nodes];
        walk(tree, 0, tree.bounds().clone(), 0, depthLimit, seen, 0);
        for (int i = 0; i < nodes; i++) {
            assertTrue(seen[i], "node " + i + " unreachable");
        }
        float[] v = tree.triangles().v();
        SplittableRandom r = new SplittableRandom(1);
        int n = tree.triangles().count();
        for (int s = 0; s < samples && n > 0; s++) {
            int t = r.nextInt(n);
            double a = r.nextDouble();
            double b = r.nextDouble() * (1 - a);
            double[] p = new double[3];
            for (int k = 0; k < 3; k++) {
                p[k] = v[9 * t + k] + a * ((double) v[9 * t + 3 + k] - v[9 * t + k]) + b * ((double) v[9 * t + 6 + k] - v[9 * t + k]);
            }
            if (!found(tree, 0, p, t)) {
                fail("a point of triangle " + t + " is not in its leaf");
            }
        }
    }

    private static boolean found(KdTree tree, int node, double[] p, int t) {
        if (tree.isLeaf(node)) {
            for (int i = 0; i < tree.leafSize(node); i++) {
                if (tree.leafTriangle(node, i) == t) {
                    return true;
                }
            }
            return false;
        }
        double x = tree.split()[node];
        int k = tree.axis(node);
        if (p[k] < x) {
            return found(tree, node + 1, p, t);
        }
        if (p[k] > x) {
            return found(tree, tree.right(node), p, t);
        }
        return found(tree, node + 1, p, t) || found(tree, tree.right(node), p, t);
    }

    private static void walk(KdTree tree, int node, float[] box, int depth, int depthLimit, boolean[] seen, int guard) {
        assertTrue(node >= 0 && node < tree.nodeCount());
        assertTrue(!seen[node], "node " + node + " reached twice");
        seen[node] = true;
        assertTrue(depth <= depthLimit, "depth " + depth);
        if (tree.isLeaf(node)) {
            int m = tree.leafSize(node);
            float[] v = tree.triangles().v();
            for (int i = 0; i < m; i++) {
                int t = tree.leafTriangle(node, i);
                assertTrue(t >= 0 && t < tree.triangles().count());
                for (int k = 0; k < 3; k++) {
                    float lo = Math.min(v[9 * t + k], Math.min(v[9 * t + 3 + k], v[9 * t + 6 + k]));
                    float hi = Math.max(v[9 * t + k], Math.max(v[9 * t + 3 + k], v[9 * t + 6 + k]));
                    assertTrue(lo <= box[3 + k] && hi >= box[k], "triangle " + t + " outside its leaf's voxel");
                }
            }
            return;
        }
        int k = tree.axis(node);
        float x = tree.split()[node];
        assertTrue(box[k] <= x && x <= box[3 + k], "plane outside voxel");
        assertEquals(node + 1 < tree.right(node), true, "right child before left");
        float[] l = box.clone();
        l[3 + k] = x;
        float[] r = box.clone();
        r[k] = x;
        walk(tree, node + 1, l, depth + 1, depthLimit, seen, guard);
        walk(tree, tree.right(node), r, depth + 1, depthLimit, seen, guard);
    }
}
