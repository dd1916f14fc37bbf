package org.accelgeom.kdtree.tornado;

import static org.accelgeom.kdtree.LevelBuffers.P_DEPTH_LIMIT;
import static org.accelgeom.kdtree.SmallKernels.MAX_REFS;
import static org.accelgeom.kdtree.SmallKernels.MODE_OFF;
import static org.accelgeom.kdtree.SmallKernels.S_CLIP;
import static org.accelgeom.kdtree.SmallKernels.S_CSLOTS;
import static org.accelgeom.kdtree.SmallKernels.S_M;
import static org.accelgeom.kdtree.SmallKernels.S_MODE;
import static org.accelgeom.kdtree.SmallKernels.S_PARITY;
import static org.accelgeom.kdtree.SmallKernels.S_SMCAP;

import org.accelgeom.kdtree.KdTreeKernels;
import org.accelgeom.kdtree.LevelKernels;
import org.accelgeom.kdtree.SmallKernels;

import uk.ac.manchester.tornado.api.KernelContext;

/**
 * {@link SmallKernels#splitNode} (Zhou et al. 2008, Alg. 5: the best split of a small node) with {@link #LANES}
 * work-items per node, {@link #NODES} nodes per work-group (one warp each on NVIDIA):
 * <ol>
 * <li>the node's references (the set bits of its mask) are numbered by rank; each is clipped to the node's voxel
 * ({@link SmallKernels#clipBox}) into local memory at its rank;
 * <li>the node's candidates (6 per reference: its clipped box's ends, inside the voxel, as {@code splitNode}) are
 * dealt round-robin to the lanes; each lane counts its candidates against the m clipped boxes in local memory and
 * keeps its best by {@link LevelKernels#better};
 * <li>the lanes' bests are reduced in local memory (a tree of {@code better}) and lane 0 writes the decision.
 * </ol>
 * The result equals {@code splitNode}'s bit for bit: {@code better} orders (cost, position, axis) strictly, and two
 * candidates equal in all three have equal masks and costs, so the order of the reduction cannot matter.
 * A node of m references costs ⌈6m/32⌉·m steps per lane: a few for the typical node of a handful of references.
 *
 * <p>The loops over local arrays are written here, not in a callee: TornadoVM 5.2 addresses a local array passed
 * to another method as a global one (docs/cbt.md).
 */
public final class SmallSplitGroup {

    /** Work-items per node. */
    public static final int LANES = 32;
    /** Nodes per work-group. */
    public static final int NODES = 2;
    /** Work-items per work-group. */
    public static final int GROUP = LANES * NODES;

    private SmallSplitGroup() {
    }

    public static void split(KernelContext kc, int[] state, double[] c, float[] v, int[] doneInt, float[] doneBox,
            int[] gFirst, int[] sRoot, long[] sMask, float[] sVox, int[] sDepth, float[] cPos, long[] cMask,
            int[] sAxis, float[] sPos, long[] sChild, int[] sSplit) {
        int l = kc.localIdx % LANES;
        int h = kc.localIdx / LANES;
        int i = kc.groupIdx * NODES + h;
        float[] cb = kc.allocateFloatLocalArray(6 * MAX_REFS * NODES);
        int[] id = kc.allocateIntLocalArray(MAX_REFS * NODES);
        double[] bc = kc.allocateDoubleLocalArray(GROUP);
        float[] bp = kc.allocateFloatLocalArray(GROUP);
        int[] ba = kc.allocateIntLocalArray(GROUP);
        long[] bl = kc.allocateLongLocalArray(GROUP);
        long[] br = kc.allocateLongLocalArray(GROUP);
        float[] box = new float[6];
        double[] poly = new double[60];
        int on = 0;
        if (state[S_MODE] != MODE_OFF) {
            if (i < state[S_M]) {
                on = 1;
            }
        }
        int node = state[S_PARITY] * state[S_SMCAP] + Math.min(i, state[S_SMCAP] - 1);
        int root = -1;
        if (on == 1) {
            root = sRoot[node];
        }
        long mask = 0L;
        int f = 0;
        if (root >= 0) {
            mask = sMask[node];
            f = gFirst[root];
        }
        int m = SmallKernels.popcount(mask);
        int clip = state[S_CLIP];
        int o = 6 * node;
        int cbo = 6 * MAX_REFS * h;
        int ido = MAX_REFS * h;
        // 1: each reference's box in the node's voxel, at its rank among the set bits
        for (int q = l; q < MAX_REFS; q += LANES) {
            if (((mask >>> q) & 1L) != 0L) {
                int r = f + q;
                int rank = SmallKernels.popcount(mask & ((1L << q) - 1L));
                if (clip == 1) {
                    SmallKernels.clipBox(v, doneInt[2 * r], sVox, o, doneBox, 6 * r, poly, box, 0);
                }
                if (clip == 0) {
                    for (int a = 0; a < 6; a++) {
                        box[a] = doneBox[6 * r + a];
                    }
                }
                for (int a = 0; a < 6; a++) {
                    cb[cbo + 6 * rank + a] = box[a];
                }
                id[ido + rank] = q;
            }
        }
        kc.localBarrier();
        // 2: candidate t = 6·j + 2·k + e (reference j by rank, axis k, its box's minimum e = 0 or maximum e = 1)
        double best = 0.0;
        float bestPos = 0f;
        int bestAxis = -1;
        long bestL = 0L;
        long bestR = 0L;
        for (int t = l; t < 6 * m; t += LANES) {
            int j = t / 6;
            int k = (t % 6) / 2;
            int e = t % 2;
            float lo = sVox[o + k];
            float hi = sVox[o + 3 + k];
            float x = cb[cbo + 6 * j + 3 * e + k];
            int inside = 0;
            if (x > lo) {
                inside = 1;
            }
            if (!(x < hi)) {
                inside = 0;
            }
            if (e == 1) {
                if (cb[cbo + 6 * j + k] == x) {
                    inside = 0; // a flat box: one candidate, its minimum
                }
            }
            if (inside == 1) {
                long lm = 0L;
                long rm = 0L;
                if (clip == 0) {
                    int slot = Math.min(6 * (f + id[ido + j]) + 2 * k + e, state[S_CSLOTS] - 1);
                    lm = mask & cMask[2 * slot];
                    rm = mask & cMask[2 * slot + 1];
                }
                if (clip == 1) {
                    for (int jj = 0; jj < m; jj++) {
                        long bit = 1L << id[ido + jj];
                        if (cb[cbo + 6 * jj + k] < x) {
                            lm = lm | bit;
                        }
                        if (cb[cbo + 6 * jj + 3 + k] > x) {
                            rm = rm | bit;
                        }
                    }
                }
                int nl = SmallKernels.popcount(lm);
                int nr = SmallKernels.popcount(rm);
                long planar = mask & ~(lm | rm);
                int np = SmallKernels.popcount(planar);
                double costL = LevelKernels.sahAt(sVox, o, k, x, nl + np, nr, c);
                double costR = LevelKernels.sahAt(sVox, o, k, x, nl, nr + np, c);
                double cost = costR;
                long cl = lm;
                long cr = rm | planar;
                if (costL < costR) {
                    cost = costL;
                    cl = lm | planar;
                    cr = rm;
                }
                int take = LevelKernels.better(cost, x, k, best, bestPos, bestAxis);
                if (bestAxis < 0) {
                    take = 1;
                }
                if (take == 1) {
                    best = cost;
                    bestPos = x;
                    bestAxis = k;
                    bestL = cl;
                    bestR = cr;
                }
            }
        }
        int me = kc.localIdx;
        bc[me] = best;
        bp[me] = bestPos;
        ba[me] = bestAxis;
        bl[me] = bestL;
        br[me] = bestR;
        kc.localBarrier();
        // 3: the arg-min over the node's lanes
        for (int s = LANES / 2; s > 0; s >>= 1) {
            if (l < s) {
                int u = me + s;
                int take = 0;
                if (ba[u] >= 0) {
                    take = 1;
                    if (ba[me] >= 0) {
                        take = LevelKernels.better(bc[u], bp[u], ba[u], bc[me], bp[me], ba[me]);
                    }
                }
                if (take == 1) {
                    bc[me] = bc[u];
                    bp[me] = bp[u];
                    ba[me] = ba[u];
                    bl[me] = bl[u];
                    br[me] = br[u];
                }
            }
            kc.localBarrier();
        }
        if (l == 0) {
            if (on == 1) {
                int split = -1;
                if (root >= 0) {
                    split = 1;
                    if (ba[me] < 0) {
                        split = 0;
                    }
                    if (sDepth[node] >= state[P_DEPTH_LIMIT]) {
                        split = 0;
                    }
                    if (bc[me] > c[KdTreeKernels.KI] * m) {
                        split = 0;
                    }
                }
                sAxis[i] = Math.max(0, ba[me]);
                sPos[i] = bp[me];
                sChild[2 * i] = bl[me];
                sChild[2 * i + 1] = br[me];
                sSplit[i] = split;
            }
            if (i == 0) {
                SmallKernels.beat(state, SmallTaskGraphs.SPLIT);
            }
        }
    }
}
