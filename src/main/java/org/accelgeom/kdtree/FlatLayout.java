package org.accelgeom.kdtree;

import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;

/**
 * The flat depth-first layout of {@link KdTree} from node records by id ({@link SmallBuffers#oInt} ...), in O(nodes)
 * without per-node objects, the small roots' subtrees in parallel:
 * <ol>
 * <li>per small root (in parallel): its subtree's node count and leaf-list length, by an iterative traversal of its
 * records (children: left id, left id + 1); a host-built subtree ({@link SmallKernels#EXTERNAL}) has its
 * {@link TreeWriter}'s;
 * <li>the large stage's nodes (ids below g, children after parents): one backward pass for their subtrees' totals
 * and one forward pass for each node's depth-first index and leaf offset (left child: parent + 1; right child: after
 * the left subtree);
 * <li>per global node (in parallel): a large node's entry; a small root's subtree written by an iterative pre-order
 * traversal from its index (a right child's index, known once the left subtree is written, is patched into its
 * parent); a host-built subtree copied with its indices shifted.
 * </ol>
 * The result equals a recursive depth-first emission (tested).
 */
final class FlatLayout {

    /** Traversal stack: a subtree is at most {@link KdTreeOptions#MAX_DEPTH_LIMIT} deep. */
    private static final int STACK = 2 * KdTreeOptions.MAX_DEPTH_LIMIT + 4;

    private FlatLayout() {
    }

    /**
     * @param g        the large stage's global nodes (ids 0 .. g-1; id 0 is the root)
     * @param gInt     their (split axis or {@link LevelBuffers#HANDED}, left child's id)
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
    static KdTree assemble(int g, int[] gInt, int[] kind, float[] pos, long[] mask, int[] first, int[] doneInt,
            TreeWriter[] external, float[] bounds, Triangles tris, ParallelLoops loops, PhaseTimings t) {
        long t0 = System.nanoTime();
        int[] size = new int[g];
        int[] words = new int[g];
        forRange(loops, g, (from, to) -> {
            int[] stack = new int[STACK];
            for (int i = from; i < to; i++) {
                if (gInt[2 * i] != LevelBuffers.HANDED) {
                    continue;
                }
                if (kind[2 * i] == SmallKernels.EXTERNAL) {
                    size[i] = external[i].nodes;
                    words[i] = external[i].leafSize;
                    continue;
                }
                int nodes = 0;
                int w = 0;
                int sp = 0;
                stack[sp++] = i;
                while (sp > 0) {
                    int id = stack[--sp];
                    nodes++;
                    int k = kind[2 * id];
                    if (k < SmallKernels.LEAF) {
                        int l = kind[2 * id + 1];
                        stack[sp++] = l + 1;
                        stack[sp++] = l;
                    } else {
                        w += 1 + Long.bitCount(mask[id]);
                    }
                }
                size[i] = nodes;
                words[i] = w;
            }
        });
        for (int i = g - 1; i >= 0; i--) {
            if (gInt[2 * i] != LevelBuffers.HANDED) {
                int l = gInt[2 * i + 1];
                size[i] = 1 + size[l] + size[l + 1];
                words[i] = words[l] + words[l + 1];
            }
        }
        int nodes = size[0];
        int leafWords = words[0];
        // size and words become each id's depth-first index and leaf offset; the children's totals are read first
        int[] at = size;
        int[] off = words;
        at[0] = 0;
        off[0] = 0;
        for (int i = 0; i < g; i++) {
            if (gInt[2 * i] != LevelBuffers.HANDED) {
                int l = gInt[2 * i + 1];
                int leftSize = size[l];
                int leftWords = words[l];
                at[l] = at[i] + 1;
                off[l] = off[i];
                at[l + 1] = at[i] + 1 + leftSize;
                off[l + 1] = off[i] + leftWords;
            }
        }
        long t1 = System.nanoTime();
        t.add("assemble: subtree sizes, depth-first indices (host)", Kind.HOST, t1 - t0);
        float[] split = new float[nodes];
        int[] info = new int[nodes];
        int[] leafTris = new int[leafWords];
        forRange(loops, g, (from, to) -> {
            int[] stack = new int[2 * STACK];
            for (int i = from; i < to; i++) {
                int gk = gInt[2 * i];
                if (gk != LevelBuffers.HANDED) {
                    split[at[i]] = pos[i];
                    info[at[i]] = (at[gInt[2 * i + 1] + 1] << 2) | gk;
                } else if (kind[2 * i] == SmallKernels.EXTERNAL) {
                    copy(external[i], at[i], off[i], split, info, leafTris);
                } else {
                    emit(i, at[i], off[i], kind, pos, mask, first[i], doneInt, split, info, leafTris, stack);
                }
            }
        });
        t.add("assemble: write split, info, leafTris (host)", Kind.HOST, System.nanoTime() - t1);
        return new KdTree(split, info, leafTris, bounds, tris);
    }

    /** The subtree of small root {@code root} in pre-order from node index {@code n} and leaf offset {@code w}. */
    private static void emit(int root, int n, int w, int[] kind, float[] pos, long[] mask, int base, int[] doneInt,
            float[] split, int[] info, int[] leafTris, int[] stack) {
        int cur = n;
        int o = w;
        int sp = 0;
        stack[sp++] = root;
        stack[sp++] = -1; // the parent whose right child this is (-1: none)
        while (sp > 0) {
            int parent = stack[--sp];
            int id = stack[--sp];
            int idx = cur++;
            if (parent >= 0) {
                info[parent] |= idx << 2;
            }
            int k = kind[2 * id];
            if (k < SmallKernels.LEAF) {
                split[idx] = pos[id];
                info[idx] = k;
                int l = kind[2 * id + 1];
                stack[sp++] = l + 1;
                stack[sp++] = idx;
                stack[sp++] = l;
                stack[sp++] = -1;
            } else {
                long m = mask[id];
                info[idx] = (o << 2) | 3;
                leafTris[o] = Long.bitCount(m);
                int j = o + 1;
                while (m != 0) {
                    int q = Long.numberOfTrailingZeros(m);
                    leafTris[j++] = doneInt[2 * (base + q)];
                    m &= m - 1;
                }
                o = j;
            }
        }
    }

    private static void forRange(ParallelLoops loops, int n, ParallelLoops.RangeBody body) {
        if (loops == null) {
            body.run(0, n);
        } else {
            loops.forRange(n, 256, body);
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
