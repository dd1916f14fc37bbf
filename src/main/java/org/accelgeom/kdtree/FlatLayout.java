package org.accelgeom.kdtree;

import org.accelgeom.engine.ParallelLoops;

/**
 * The flat depth-first layout of {@link KdTree} from node records by id ({@link SmallBuffers#oInt} ...), in O(nodes)
 * without per-node objects: children always have larger ids than their parent (both stages number a level's
 * children after every earlier node) and siblings are adjacent (left id, left id + 1), so one pass over the ids
 * from the last to the first gives each subtree's node count and leaf-list length, one pass from the first gives
 * each node's depth-first index and leaf-list offset (left child: parent + 1; right child: after the left
 * subtree), and a parallel pass writes the arrays. A node built on the host ({@link SmallKernels#EXTERNAL}) is a
 * {@link TreeWriter} copied in with its indices shifted. The result equals a recursive depth-first emission.
 */
final class FlatLayout {

    private FlatLayout() {
    }

    /**
     * @param total    records (ids 0 .. total-1; id 0 is the root)
     * @param kind     (kind, left child id / small root) per id: split axis 0..2, {@link SmallKernels#LEAF} or
     *                 {@link SmallKernels#EXTERNAL}
     * @param pos      the split plane per id
     * @param mask     a leaf's references: bit q is reference {@code first[root] + q} of the hand-off list
     * @param first    each small root's first reference in the hand-off list
     * @param doneInt  the hand-off list's (triangle, node) pairs
     * @param external the host-built subtree of an EXTERNAL id (indexed by id), else null
     * @param loops    parallel loops for the writing pass, or null
     */
    static KdTree assemble(int total, int[] kind, float[] pos, long[] mask, int[] first, int[] doneInt,
            TreeWriter[] external, float[] bounds, Triangles tris, ParallelLoops loops) {
        int[] size = new int[total];
        int[] words = new int[total];
        for (int id = total - 1; id >= 0; id--) {
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
        int nodes = size[0];
        int leafWords = words[0];
        // size and words become each id's depth-first index and leaf offset; the children's totals are read first
        int[] at = size;
        int[] off = words;
        at[0] = 0;
        off[0] = 0;
        for (int id = 0; id < total; id++) {
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
        float[] split = new float[nodes];
        int[] info = new int[nodes];
        int[] leafTris = new int[leafWords];
        ParallelLoops.RangeBody body = (from, to) -> {
            for (int id = from; id < to; id++) {
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
        };
        if (loops == null) {
            body.run(0, total);
        } else {
            loops.forRange(total, 1 << 14, body);
        }
        return new KdTree(split, info, leafTris, bounds, tris);
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
