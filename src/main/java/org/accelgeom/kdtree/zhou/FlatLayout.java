package org.accelgeom.kdtree.zhou;

import static org.accelgeom.kdtree.zhou.SubtreeKernels.T_NONE;

import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.kdtree.KdTree;
import org.accelgeom.kdtree.TreeWriter;

/**
 * The flat depth-first layout of {@link KdTree} over the global nodes of the large stage (ids 0 .. g-1; id 0 is the
 * root; a child's id is above its parent's, siblings adjacent): each split node's subtree, each small root's
 * subtree (its counts from the backend, or a host-built {@link TreeWriter}) is one block of the arrays. O(g), where
 * g is a few percent of the tree's nodes; the backend then writes the blocks ({@link SubtreeKernels#place}). The
 * result equals a recursive depth-first emission (tested).
 */
public final class FlatLayout {

    private FlatLayout() {
    }

    /**
     * Subtree totals bottom-up (ids g-1 .. 0), then each id's depth-first index and leaf-list offset top-down into
     * {@code s.at}, {@code s.off} (left child: parent + 1; right child: after the left subtree).
     *
     * @param sub the host-built subtrees by id (null where the backend built it); may be empty when there are none
     * @return the tree's {@code nodes << 32 | leaf-list words}
     */
    static long layout(int g, int[] gInt, SmallBuffers s, TreeWriter[] sub) {
        for (int id = 0; id < sub.length; id++) {
            if (sub[id] != null) { // a host-built root's counts where the backend's would be
                s.tNodes[id] = sub[id].nodes;
                s.tWords[id] = sub[id].leafSize;
            }
        }
        return layout(g, gInt, s.tStatus, s.tNodes, s.tWords, s.size, s.words, s.at, s.off);
    }

    /**
     * The layout over arrays, one thread (on a device: the same steps level by level in one work-group,
     * {@code SmallTaskGraphs.layout}): each root's counts in {@code tNodes}, {@code tWords}; {@code size},
     * {@code words}: scratch of g ints.
     *
     * @return the tree's {@code nodes << 32 | leaf-list words}
     */
    public static long layout(int g, int[] gInt, int[] tStatus, int[] tNodes, int[] tWords, int[] size, int[] words,
            int[] at, int[] off) {
        for (int id = g - 1; id >= 0; id--) {
            up(id, gInt, tStatus, tNodes, tWords, size, words);
        }
        at[0] = 0;
        off[0] = 0;
        for (int id = 0; id < g; id++) {
            down(id, gInt, tStatus, size, words, at, off);
        }
        return ((long) size[0] << 32) | words[0];
    }

    /** Global node id's subtree totals (nodes, words) from its children's (a higher id) or its root's counts. */
    public static void up(int id, int[] gInt, int[] tStatus, int[] tNodes, int[] tWords, int[] size, int[] words) {
        size[id] = tNodes[id];
        words[id] = tWords[id];
        if (tStatus[id] == T_NONE) {
            int l = gInt[2 * id + 1];
            size[id] = 1 + size[l] + size[l + 1];
            words[id] = words[l] + words[l + 1];
        }
    }

    /** A split global node id's children's depth-first indices and leaf-list offsets from its own. */
    public static void down(int id, int[] gInt, int[] tStatus, int[] size, int[] words, int[] at, int[] off) {
        if (tStatus[id] == T_NONE) {
            int l = gInt[2 * id + 1];
            at[l] = at[id] + 1;
            off[l] = off[id];
            at[l + 1] = at[id] + 1 + size[l];
            off[l + 1] = off[id] + words[l];
        }
    }

    /**
     * The first global id of depth d or more ({@code g} if none): the large stage numbers its nodes level by level, so
     * the depths {@code gDepth[0 .. g-1]} do not decrease and each depth is one run of ids (a device's layout goes
     * level by level, {@code SmallTaskGraphs.layout}).
     */
    public static int levelStart(int[] gDepth, int g, int d) {
        int lo = 0;
        int hi = g;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (gDepth[mid] < d) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The host-built subtrees of ids {@code host} copied to their blocks. */
    static void copyAll(int[] host, TreeWriter[] sub, SmallBuffers s, float[] split, int[] info, int[] leaf,
            ParallelLoops loops) {
        ParallelLoops.RangeBody body = (from, to) -> {
            for (int e = from; e < to; e++) {
                int id = host[e];
                copy(sub[id], s.at[id], s.off[id], split, info, leaf);
            }
        };
        if (loops == null) {
            body.run(0, host.length);
        } else {
            loops.forRange(host.length, 1, body);
        }
    }

    /** A subtree written on its own, placed at node {@code nodeOff} and leaf offset {@code leafOff}. */
    private static void copy(TreeWriter sub, int nodeOff, int leafOff, float[] split, int[] info, int[] leafTris) {
        for (int i = 0; i < sub.nodes; i++) {
            split[nodeOff + i] = sub.split[i];
            info[nodeOff + i] = SubtreeKernels.relocated(sub.info[i], nodeOff, leafOff);
        }
        System.arraycopy(sub.leafTris, 0, leafTris, leafOff, sub.leafSize);
    }
}
