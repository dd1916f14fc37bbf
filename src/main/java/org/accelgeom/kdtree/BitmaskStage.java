package org.accelgeom.kdtree;

import static org.accelgeom.kdtree.SmallKernels.EXTERNAL;

import java.util.Arrays;

import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;

/**
 * The host's part of Zhou et al.'s small-node stage with bit masks ({@link SmallKernels} on the backend): it sets
 * each small level's parameters, runs it, reads the counters, and at the end assembles the flat layout from the
 * node records ({@link FlatLayout}). Handed-on nodes of more than 64 references (at the depth limit, above the
 * binned cost bound, or forced by the large stage's capacity) are built on the host by the exact SAH.
 */
final class BitmaskStage {

    private BitmaskStage() {
    }

    static KdTree run(Triangles tris, LevelSteps steps, SahBuilder exact, ParallelLoops loops, PhaseTimings t) {
        LevelBuffers b = steps.buffers();
        SmallBuffers s = b.small;
        int[] st = b.state;
        int g = st[LevelBuffers.P_GBASE];
        int d = st[LevelBuffers.C_D];
        // the large-node kernels idle in these executions
        st[LevelBuffers.P_M] = 0;
        st[LevelBuffers.P_R] = 0;
        st[LevelBuffers.P_CHUNKS] = 0;
        st[LevelBuffers.P_MODE] = LevelBuffers.MODE_LEVEL;
        st[SmallKernels.S_MODE] = SmallKernels.MODE_SEED;
        st[SmallKernels.S_M] = g;
        st[SmallKernels.S_PARITY] = 0;
        st[SmallKernels.S_CHUNKS] = LoopLevelSteps.chunks(g);
        st[SmallKernels.S_OUT] = g;
        st[SmallKernels.S_G] = g;
        st[SmallKernels.S_D] = d;
        st[SmallKernels.S_SMCAP] = s.smCap;
        st[SmallKernels.S_OCAP] = s.oCap;
        st[SmallKernels.S_CLIP] = s.masks ? 0 : 1;
        st[SmallKernels.S_CSLOTS] = s.cPos.length;
        int levels = 0;
        int forced = 0;
        int[] bounds = new int[64]; // bounds[k] .. bounds[k+1]: the records of small level k + 1 (bounds[0] = g)
        bounds[0] = g;
        long t0 = System.nanoTime();
        try {
            while (true) {
                steps.small(t);
                levels++;
                forced += st[SmallKernels.S_FORCE];
                if (levels == bounds.length) {
                    bounds = Arrays.copyOf(bounds, 2 * levels);
                }
                bounds[levels] = st[SmallKernels.S_TOTAL]; // the next level's records end here
                if (st[SmallKernels.S_NEXT_M] == 0) {
                    break;
                }
                st[SmallKernels.S_MODE] = SmallKernels.MODE_LEVEL;
                st[SmallKernels.S_M] = st[SmallKernels.S_NEXT_M];
                st[SmallKernels.S_PARITY] ^= 1;
                st[SmallKernels.S_OUT] = st[SmallKernels.S_TOTAL];
                st[SmallKernels.S_CHUNKS] = LoopLevelSteps.chunks(st[SmallKernels.S_M]);
            }
        } finally {
            st[SmallKernels.S_MODE] = SmallKernels.MODE_OFF;
        }
        int total = st[SmallKernels.S_TOTAL];
        t.add("small nodes: " + levels + " levels, bit masks, " + total + " records (total)"
                + (forced > 0 ? ", " + forced + " forced" : ""), Kind.HOST, System.nanoTime() - t0);
        steps.downloadSmall(false, t);
        int[] ext = t.time("small nodes: check runs, find host roots", Kind.HOST, () -> externals(s, b, g, d));
        TreeWriter[] sub = new TreeWriter[ext.length == 0 ? 0 : g];
        if (ext.length > 0) {
            steps.downloadSmall(true, t);
            long t1 = System.nanoTime();
            hostSubtrees(tris, b, s, ext, sub, exact, loops);
            t.add("small nodes: " + ext.length + " roots of > " + SmallKernels.MAX_REFS + " references (host, exact SAH)",
                    Kind.HOST, System.nanoTime() - t1);
        }
        return FlatLayout.assemble(g, Arrays.copyOf(bounds, levels + 1), s.oInt, s.oPos, s.oMask, s.gFirst,
                b.doneInt, sub, tris.bounds(), tris, loops, t);
    }

    /**
     * The ids of the handed-on nodes the device left to the host; checks that the runs cover the hand-off list
     * (each handed node's references contiguous, as the large stage writes them).
     */
    private static int[] externals(SmallBuffers s, LevelBuffers b, int g, int d) {
        long covered = 0;
        int n = 0;
        for (int i = 0; i < g; i++) {
            if (b.gInt[2 * i] == LevelBuffers.HANDED) {
                covered += s.gEnd[i] - s.gFirst[i];
            }
            if (s.oInt[2 * i] == EXTERNAL) {
                n++;
            }
        }
        if (covered != d) {
            throw new IllegalStateException("hand-off list not grouped by node: runs cover " + covered + " of " + d);
        }
        int[] ext = new int[n];
        n = 0;
        for (int i = 0; i < g; i++) {
            if (s.oInt[2 * i] == EXTERNAL) {
                ext[n++] = i;
            }
        }
        return ext;
    }

    /** The exact SAH subtrees of the large handed-on nodes (references clipped exactly, as the exact small stage). */
    private static void hostSubtrees(Triangles tris, LevelBuffers b, SmallBuffers s, int[] ext, TreeWriter[] sub,
            SahBuilder exact, ParallelLoops loops) {
        float[] v = tris.v();
        ParallelLoops.RangeBody body = (from, to) -> {
            Clipper clipper = new Clipper();
            for (int e = from; e < to; e++) {
                int i = ext[e];
                int f = s.gFirst[i];
                int m = s.gEnd[i] - f;
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
            body.run(0, ext.length);
        } else {
            loops.forRange(ext.length, 1, body);
        }
    }
}
