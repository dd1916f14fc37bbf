package org.accelgeom.kdtree;

/**
 * The reference budget that bounds a kd-tree's size on any mesh (issue 16): perfect splits put a straddling
 * triangle into both children, and on sliver triangles (a polygon fan: long thin triangles through one point)
 * the SAH keeps finding splits cheaper than a leaf until the depth limit, so the references grew as
 * N·2<sup>depth</sup> (a 1000-vertex fan: 25.7 million references for 993 triangles).
 *
 * <p>Every node carries a budget, at least its reference count. The root of a build gets
 * {@value #FACTOR}·N (N its references); a node of budget B splits into children of n<sub>L</sub> and
 * n<sub>R</sub> references only if n<sub>L</sub> + n<sub>R</sub> ≤ B, else it becomes a leaf; the left child gets
 * ⌊B·n<sub>L</sub>/(n<sub>L</sub> + n<sub>R</sub>)⌋ ≥ n<sub>L</sub> and the right child the rest, B minus that,
 * ≥ n<sub>R</sub>. The budgets of a subtree's leaves therefore sum to its root's, and each leaf holds at most its
 * budget: <b>a tree built from N references holds at most {@value #FACTOR}·N references</b>. The budget splits
 * in proportion to the children's counts, so it binds only where the references along a path from the root have
 * multiplied by more than {@value #FACTOR}. Measured on the trees built without it (the largest such product over
 * the tree's nodes): random:2000 32, random triangles of size 0.15 (20 000) 122, the bunny 72, the dragon at
 * resolution 3 77 (docs/kdtree.md lists the full dragon): all below {@value #FACTOR}, so their trees are the same
 * node for node; it binds on slivers (a fan) and on heavily overlapping triangles (5000 random triangles of size
 * 0.8 in the unit cube need 1063).
 *
 * <p>Integer arithmetic only, in the same order in every builder, so every backend gives the same tree; the
 * small-node stage's kernels use the {@code int} form (a small root has at most 64 references, so budgets stay
 * below 2<sup>15</sup>).
 */
public final class ReferenceBudget {

    /** References per input reference that a tree (or a small root's subtree) may hold. */
    public static final int FACTOR = 256;

    private ReferenceBudget() {
    }

    /** The budget of a root of n references. */
    static long root(int n) {
        return (long) FACTOR * n;
    }

    /** ⌊budget·nl/(nl + nr)⌋ without overflow (budget &lt; 2<sup>62</sup>, nl + nr &gt; 0). */
    static long left(long budget, int nl, int nr) {
        long m = (long) nl + nr;
        return budget / m * nl + budget % m * nl / m;
    }

    /** The same for the small-node stage's kernels (budget·nl &lt; 2<sup>31</sup>). */
    public static int leftSmall(int budget, int nl, int nr) {
        return budget * nl / (nl + nr);
    }
}
