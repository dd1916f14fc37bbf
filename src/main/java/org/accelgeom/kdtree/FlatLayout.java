package org.accelgeom.kdtree;

import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;

/**
 * The flat depth-first layout of {@link KdTree} from node records by id ({@link SmallBuffers#oInt} ...), in O(nodes)
 * without per-node objects. Every node is one record; siblings are adjacent (left id, left id + 1) and a child's id
 * is above its parent's: the large stage's nodes and the small roots are ids 0 .. g-1 (the large stage numbers each
 * level after the previous one), the small stage's level k is the id range {@code bounds[k-1] .. bounds[k]-1}.
 * <ol>
 * <li>subtree totals (nodes, leaf-list words), bottom-up: the small levels from the deepest, each in parallel, then
 * ids g-1 .. 0 in one pass;
 * <li>each node's depth-first index and leaf offset, top-down: ids 0 .. g-1 in one pass, then the small levels in
 * order, each in parallel (left child: parent + 1; right child: after the left subtree);
 * <li>the arrays, all ids in parallel (a leaf's triangles in its run's order; a host-built subtree,
 * {@link SmallKernels#EXTERNAL}, copied with its indices shifted).
 * </ol>
 * Within a level the children of consecutive parents are consecutive, so every pass streams. The result equals a
 * recursive depth-first emission (tested).
 */
final class FlatLayout {

    private FlatLayout() {
    }

    /**
     * @param g        ids of the large stage's nodes and small roots (0 .. g-1; id 0 is the root)
     * @param bounds   {@code bounds[0] = g}; the small stage's level k is ids {@code bounds[k-1] .. bounds[k]-1}
     * @param kind     (kind, left child id / small root) per id: split axis 0..2, {@link SmallKernels#LEAF} or
     *                 {@link SmallKernels#EXTERNAL}
     * @param pos      the split plane per id
     * @param mask     a leaf's references: bit q is reference {@code first[root] + q} of the hand-off list
     * @param first    each small root's first reference in the hand-off list
     * @param doneInt  the hand-off list's (triangle, node) pairs
     * @param external the host-built subtree of an EXTERNAL id (indexed by id), else null
     * @param loops    parallel loops, or null
     * @param t        gets the parts' times
     */
    static KdTree assemble(int g, int[] bounds, int[] kind, float[] pos, long[] mask, int[] first, int[] doneInt,
            TreeWriter[] external, float[] box, Triangles tris, ParallelLoops loops, PhaseTimings t) {
        long t0 = System.nanoTime();
        int total = bounds[bounds.length - 1];
        int[] size = new int[total];
        int[] words = new int[total];
        for (int k = bounds.length - 1; k >= 1; k--) {
            int from = bounds[k - 1];
            forRange(loops, bounds[k] - from, (a, b) -> {
                for (int id = from + a; id < from + b; id++) {
                    totals(id, kind, mask, external, size, words);
                }
            });
        }
        for (int id = g - 1; id >= 0; id--) {
            totals(id, kind, mask, external, size, words);
        }
        int nodes = size[0];
        int leafWords = words[0];
        // size and words become each id's depth-first index and leaf offset: a parent reads its left child's totals
        // and then overwrites both children's entries, which no other parent touches
        int[] at = size;
        int[] off = words;
        at[0] = 0;
        off[0] = 0;
        for (int id = 0; id < g; id++) {
            place(id, kind, size, words, at, off);
        }
        for (int k = 1; k < bounds.length; k++) {
            int from = bounds[k - 1];
            forRange(loops, bounds[k] - from, (a, b) -> {
                for (int id = from + a; id < from + b; id++) {
                    place(id, kind, size, words, at, off);
                }
            });
        }
        long t1 = System.nanoTime();
        t.add("assemble: subtree totals, depth-first indices (host, " + total + " records)", Kind.HOST, t1 - t0);
        float[] split = new float[nodes];
        int[] info = new int[nodes];
        int[] leafTris = new int[leafWords];
        forRange(loops, total, (a, b) -> {
            for (int id = a; id < b; id++) {
                int k = kind[2 * id];
                int n = at[id];
                if (k < SmallKernels.LEAF) {
                    split[n] = pos[id];
                    info[n] = (at[kind[2 * id + 1] + 1] << 2) | k;
                } else if (k == SmallKernels.LEAF) {
                    int o = off[id];
                    info[n] = (o << 2) | 3;
                    long m = mask[id];
                    leafTris[o] = Long.bitCount(m);
                    int base = first[kind[2 * id + 1]];
                    int j = o + 1;
                    while (m != 0) {
                        int q = Long.numberOfTrailingZeros(m);
                        leafTris[j++] = doneInt[2 * (base + q)];
                        m &= m - 1;
                    }
                } else {
                    copy(external[id], n, off[id], split, info, leafTris);
                }
            }
        });
        t.add("assemble: write split, info, leafTris (host)", Kind.HOST, System.nanoTime() - t1);
        return new KdTree(split, info, leafTris, box, tris);
    }

    /** Node count and leaf-list words of id's subtree (its children's already known). */
    private static void totals(int id, int[] kind, long[] mask, TreeWriter[] external, int[] size, int[] words) {
        int k = kind[2 * id];
        if (k < SmallKernels.LEAF) {
            int l = kind[2 * id + 1];
            size[id] = 1 + size[l] + size[l + 1];
            words[id] = words[l] + words[l + 1];
        } else if (k == SmallKernels.LEAF) {
            size[id] = 1;
            words[id] = 1 + Long.bitCount(mask[id]);
        } else {
            size[id] = external[id].nodes;
            words[id] = external[id].leafSize;
        }
    }

    /** The depth-first index and leaf offset of an inner node's children from its own. */
    private static void place(int id, int[] kind, int[] size, int[] words, int[] at, int[] off) {
        if (kind[2 * id] < SmallKernels.LEAF) {
            int l = kind[2 * id + 1];
            int leftSize = size[l];
            int leftWords = words[l];
            at[l] = at[id] + 1;
            off[l] = off[id];
            at[l + 1] = at[id] + 1 + leftSize;
            off[l + 1] = off[id] + leftWords;
        }
    }

    private static void forRange(ParallelLoops loops, int n, ParallelLoops.RangeBody body) {
        if (loops == null) {
            body.run(0, n);
        } else {
            loops.forRange(n, 1 << 13, body);
        }
    }

    /** A subtree written on its own, placed at node {@code nodeOff} and leaf offset {@code leafOff}. */
    private static void copy(TreeWriter sub, int nodeOff, int leafOff, float[] split, int[] info, int[] leafTris) {
        for (int i = 0; i < sub.nodes; i++) {
            int inf = sub.info[i];
            split[nodeOff + i] = sub.split[i];
            int shift = (inf & 3) == 3 ? leafOff : nodeOff;
            info[nodeOff + i] = (((inf >>> 2) + shift) << 2) | (inf & 3);
        }
        System.arraycopy(sub.leafTris, 0, leafTris, leafOff, sub.leafSize);
    }
}
