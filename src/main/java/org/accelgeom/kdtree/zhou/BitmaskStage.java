package org.accelgeom.kdtree.zhou;

import static org.accelgeom.kdtree.zhou.SubtreeKernels.T_EXACT;
import static org.accelgeom.kdtree.zhou.SubtreeKernels.T_HOST;

import java.util.Arrays;

import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.kdtree.BuildNode;
import org.accelgeom.kdtree.Clipper;
import org.accelgeom.kdtree.KdTree;
import org.accelgeom.kdtree.SahBuilder;
import org.accelgeom.kdtree.TreeArrays;
import org.accelgeom.kdtree.TreeWriter;
import org.accelgeom.kdtree.Triangles;

/**
 * The host's part of Zhou et al.'s small-node stage with bit masks ({@link SubtreeKernels} on the backend):
 * <ol>
 * <li>build: every small root's subtree in its region on the backend; a device also lays the tree out and places it
 * in the same execution, and when no root is left to the host that is all (it returns the tree's size); else the
 * host reads each global node's status and counts;
 * <li>the roots the backend left to the host: more than 64 references (the exact SAH, {@link SahBuilder}), or a
 * subtree beyond its region ({@link SubtreeKernels#build} again, with room enough: the same subtree);
 * <li>the layout ({@link FlatLayout}): each global node's depth-first index and leaf-list offset, O(global nodes);
 * <li>place: the backend writes the tree's arrays from them; the host copies its own subtrees in.
 * </ol>
 */
final class BitmaskStage {

    private BitmaskStage() {
    }

    static KdTree run(Triangles tris, float[] bounds, ZhouBackend steps, SahBuilder exact, ParallelLoops loops,
            PhaseTimings t) {
        LevelBuffers b = steps.buffers();
        SmallBuffers s = b.small;
        int[] st = b.state;
        int g = st[LevelBuffers.P_GBASE];
        int d = st[LevelBuffers.C_D];
        b.startSmall();
        long size;
        try (PhaseTimings.Region small = t.enclose("small nodes: subtrees of the small roots, bit masks", Kind.HOST)) {
            size = steps.subtrees(t);
        }
        int[] host = new int[0];
        TreeWriter[] sub = new TreeWriter[0];
        if (size < 0) { // the host's layout, with the roots left to it
            host = t.time("small nodes: status of the roots", Kind.HOST, () -> hostRoots(s, b, g, d));
            sub = new TreeWriter[host.length == 0 ? 0 : g];
            if (host.length > 0) {
                steps.downloadHostRoots(t);
                long t1 = System.nanoTime();
                hostSubtrees(tris, b, s, host, sub, exact, loops);
                int exactRoots = 0;
                for (int i : host) {
                    exactRoots += s.tStatus[i] == T_EXACT ? 1 : 0;
                }
                t.add("small nodes: " + host.length + " roots on the host (" + exactRoots + " roots of > "
                        + SmallKernels.MAX_REFS + " references: exact SAH; " + (host.length - exactRoots)
                        + " beyond their regions: again)", Kind.HOST, System.nanoTime() - t1);
            }
            long t2 = System.nanoTime();
            size = FlatLayout.layout(g, b.gInt, s, sub);
            t.add("assemble: layout of " + g + " global nodes", Kind.HOST, System.nanoTime() - t2);
        }
        TreeArrays arrays = steps.arrays(size);
        try (PhaseTimings.Region place = t.enclose("assemble: place the subtrees", Kind.HOST)) {
            steps.place(arrays, t);
        }
        float[] split = arrays.split();
        int[] info = arrays.info();
        int[] leaf = arrays.leaf();
        if (host.length > 0) {
            int[] roots = host;
            TreeWriter[] trees = sub;
            t.time("assemble: host subtrees", Kind.HOST, () -> FlatLayout.copyAll(roots, trees, s, split, info, leaf, loops));
        }
        return new KdTree(split, info, leaf, bounds, tris);
    }

    /**
     * The ids of the global nodes left to the host; checks that the runs cover the hand-off list (each handed node's
     * references contiguous, as the large stage writes them).
     */
    private static int[] hostRoots(SmallBuffers s, LevelBuffers b, int g, int d) {
        long covered = 0;
        int n = 0;
        for (int i = 0; i < g; i++) {
            if (b.gInt[2 * i] == LevelBuffers.HANDED) {
                covered += s.gEnd[i] - s.gFirst[i];
            }
            if (s.tStatus[i] == T_EXACT || s.tStatus[i] == T_HOST) {
                n++;
            }
        }
        if (covered != d) {
            throw new IllegalStateException("hand-off list not grouped by node: runs cover " + covered + " of " + d);
        }
        int[] host = new int[n];
        n = 0;
        for (int i = 0; i < g; i++) {
            if (s.tStatus[i] == T_EXACT || s.tStatus[i] == T_HOST) {
                host[n++] = i;
            }
        }
        return host;
    }

    /**
     * The subtrees of the roots left to the host: the exact SAH for large ones (references clipped exactly, as the
     * exact small stage), {@link SubtreeKernels#build} with growing room for the others.
     */
    private static void hostSubtrees(Triangles tris, LevelBuffers b, SmallBuffers s, int[] host, TreeWriter[] sub,
            SahBuilder exact, ParallelLoops loops) {
        float[] v = tris.v();
        ParallelLoops.RangeBody body = (from, to) -> {
            Clipper clipper = new Clipper();
            for (int e = from; e < to; e++) {
                int i = host[e];
                int f = s.gFirst[i];
                int m = s.gEnd[i] - f;
                if (s.tStatus[i] == T_HOST) {
                    sub[i] = again(b, s, i, m);
                    continue;
                }
                int[] tri = new int[m];
                float[] box = new float[6 * m];
                float[] voxel = Arrays.copyOfRange(b.gVox, 6 * i, 6 * i + 6);
                for (int j = 0; j < m; j++) {
                    tri[j] = b.doneInt[2 * (f + j)];
                    clipper.clip(v, tri[j], voxel, b.doneBox, 6 * (f + j), box, 6 * j);
                }
                sub[i] = exact.subtree(new BuildNode(m, tri, box, null), voxel, b.gDepth[i]);
            }
        };
        if (loops == null) {
            body.run(0, host.length);
        } else {
            loops.forRange(host.length, 1, body);
        }
    }

    /** Small root i built again by {@link SubtreeKernels#build}, with room doubled until it fits. */
    private static TreeWriter again(LevelBuffers b, SmallBuffers s, int i, int m) {
        int[] st = b.state;
        SubtreeKernels.Scratch w = new SubtreeKernels.Scratch(SubtreeKernels.STACK);
        for (int cap = 2 * SubtreeKernels.FACTOR * Math.max(1, m);; cap *= 2) {
            float[] split = new float[cap];
            int[] info = new int[cap];
            int[] leaf = new int[cap];
            long r = SubtreeKernels.build(st, b.c, i, b.v, b.doneInt, b.doneBox, s.gFirst, s.gEnd, b.gVox, b.gDepth, s.cPos,
                    s.cMask, split, info, leaf, 0, cap, 0, cap, w.sv, w.sm, w.si, w.ce, w.pos, w.child, w.cost, w.axis, w.cb, w.idx, w.poly);
            if (r >= 0) {
                TreeWriter tw = new TreeWriter();
                tw.split = split;
                tw.info = info;
                tw.leafTris = leaf;
                tw.nodes = (int) (r >>> 32);
                tw.leafSize = (int) r;
                return tw;
            }
            if (cap > (1 << 28)) {
                throw new IllegalStateException("small root " + i + " needs more than " + cap + " nodes");
            }
        }
    }
}
