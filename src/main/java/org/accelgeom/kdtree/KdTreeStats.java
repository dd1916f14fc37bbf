package org.accelgeom.kdtree;

import java.util.Locale;

/**
 * The quality of a kd-tree.
 *
 * @param triangles  triangles in the tree
 * @param nodes      all nodes
 * @param inner      inner nodes
 * @param leaves     leaves
 * @param emptyLeaves leaves without triangles
 * @param depth      the deepest leaf's depth (the root has depth 0)
 * @param references triangle references in leaves (a straddling triangle counts once per leaf)
 * @param sahCost    the SAH cost of the whole tree ({@link KdTree#stats})
 */
public record KdTreeStats(int triangles, int nodes, int inner, int leaves, int emptyLeaves, int depth, long references,
        double sahCost) {

    /** Mean triangles per leaf, over all leaves. */
    public double meanPerLeaf() {
        return leaves == 0 ? 0 : (double) references / leaves;
    }

    /** Mean triangles per non-empty leaf. */
    public double meanPerFullLeaf() {
        return leaves == emptyLeaves ? 0 : (double) references / (leaves - emptyLeaves);
    }

    public String format() {
        return String.format(Locale.ROOT, "triangles %d, nodes %d (inner %d, leaves %d, empty %d), depth %d, "
                + "references %d, triangles/leaf %.2f (non-empty %.2f), SAH cost %.3f", triangles, nodes, inner, leaves,
                emptyLeaves, depth, references, meanPerLeaf(), meanPerFullLeaf(), sahCost);
    }
}
