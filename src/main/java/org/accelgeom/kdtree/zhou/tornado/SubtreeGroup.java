package org.accelgeom.kdtree.zhou.tornado;

import static org.accelgeom.kdtree.zhou.LevelBuffers.P_DEPTH_LIMIT;
import static org.accelgeom.kdtree.zhou.SmallKernels.MAX_REFS;
import static org.accelgeom.kdtree.zhou.SmallKernels.MODE_BUILD;
import static org.accelgeom.kdtree.zhou.SmallKernels.S_CLIP;
import static org.accelgeom.kdtree.zhou.SmallKernels.S_CSLOTS;
import static org.accelgeom.kdtree.zhou.SmallKernels.S_FACTOR;
import static org.accelgeom.kdtree.zhou.SmallKernels.S_G;
import static org.accelgeom.kdtree.zhou.SmallKernels.S_MODE;
import static org.accelgeom.kdtree.zhou.SubtreeKernels.STACK;
import static org.accelgeom.kdtree.zhou.SubtreeKernels.T_DEVICE;
import static org.accelgeom.kdtree.zhou.SubtreeKernels.T_EMPTY;
import static org.accelgeom.kdtree.zhou.SubtreeKernels.T_HOST;

import uk.ac.manchester.tornado.api.KernelContext;

import org.accelgeom.kdtree.KdTreeKernels;
import org.accelgeom.kdtree.ReferenceBudget;
import org.accelgeom.kdtree.zhou.LevelKernels;
import org.accelgeom.kdtree.zhou.SmallKernels;
import org.accelgeom.kdtree.zhou.SubtreeKernels;

/**
 * {@link SubtreeKernels#root} on the device: one work-group of {@link #LANES} work-items per global node, which
 * builds a small root's whole subtree depth-first (its stack in local memory), each node with all lanes:
 * <ol>
 * <li>the node's references (the set bits of its mask) are numbered by rank; each is clipped to the node's voxel
 * ({@link SmallKernels#clipBox}) into local memory at its rank;
 * <li>the node's candidates (6 per reference: its clipped box's ends, inside the voxel) are dealt round-robin to the
 * lanes; each lane counts its candidates against the clipped boxes and keeps its best by {@link LevelKernels#better};
 * <li>the lanes' bests are reduced in local memory (a tree of {@code better}); lane 0 writes the node and pushes its
 * children.
 * </ol>
 * The subtree equals {@link SubtreeKernels#build}'s bit for bit: {@code better} orders (cost, position, axis)
 * strictly, and two candidates equal in all three have equal masks and costs, so the order of the reduction cannot
 * matter. The loops over local arrays are written here, not in callees: TornadoVM 5.2 addresses a local array passed
 * to another method as a global one (docs/cbt.md); callees get private copies.
 */
public final class SubtreeGroup {

    /** Work-items per root. */
    public static final int LANES = 32;

    private SubtreeGroup() {
    }

    public static void build(KernelContext kc, int[] state, double[] c, float[] v, int[] gInt, int[] doneInt,
            float[] doneBox, float[] gVox, int[] gDepth, int[] gFirst, int[] gEnd, float[] cPos, long[] cMask,
            int[] tStatus, int[] tNodes, int[] tWords, float[] rSplit, int[] rInfo, int[] rLeaf) {
        int l = kc.localIdx;
        int i = kc.groupIdx;
        float[] cb = kc.allocateFloatLocalArray(6 * MAX_REFS);
        int[] id = kc.allocateIntLocalArray(MAX_REFS);
        double[] bc = kc.allocateDoubleLocalArray(LANES);
        float[] bp = kc.allocateFloatLocalArray(LANES);
        int[] ba = kc.allocateIntLocalArray(LANES);
        long[] bl = kc.allocateLongLocalArray(LANES);
        long[] br = kc.allocateLongLocalArray(LANES);
        float[] sv = kc.allocateFloatLocalArray(6 * STACK);
        long[] sm = kc.allocateLongLocalArray(STACK);
        int[] sd = kc.allocateIntLocalArray(STACK);
        int[] sp = kc.allocateIntLocalArray(STACK);
        int[] sb = kc.allocateIntLocalArray(STACK);
        int[] ctl = kc.allocateIntLocalArray(4);
        float[] box = new float[6];
        float[] vx = new float[6];
        float[] lv = new float[6];
        float[] rv = new float[6];
        double[] poly = new double[60];
        int on = 0;
        if (state[S_MODE] == MODE_BUILD) {
            if (i < state[S_G]) {
                on = 1;
            }
        }
        int f = 0;
        int m = 0;
        int status = 0;
        if (on == 1) {
            f = gFirst[i];
            m = gEnd[i] - f;
            status = SubtreeKernels.kind(gInt, i, m);
        }
        int clip = state[S_CLIP];
        int nBase = SubtreeKernels.base(state, f);
        int cap = state[S_FACTOR] * m;
        if (status == T_DEVICE) {
            if (SubtreeKernels.fits(state, f, m) == 0) {
                status = T_HOST;
            }
        }
        int loop = 0;
        if (status == T_DEVICE) {
            loop = 1;
        }
        if (l == 0) {
            if (loop == 1) {
                for (int a = 0; a < 6; a++) {
                    sv[a] = gVox[6 * i + a];
                }
                sm[0] = ((1L << (m - 1)) << 1) - 1L;
                sd[0] = gDepth[i];
                sp[0] = -1;
                sb[0] = ReferenceBudget.FACTOR * m;
            }
            ctl[0] = 1;
            ctl[1] = 0;
            ctl[2] = 0;
            ctl[3] = 0;
        }
        kc.localBarrier();
        while (loop == 1) {
            int top = ctl[0] - 1;
            int n = ctl[1];
            int words = ctl[2];
            long mask = sm[top];
            int depth = sd[top];
            int par = sp[top];
            int budget = sb[top];
            for (int a = 0; a < 6; a++) {
                vx[a] = sv[6 * top + a];
            }
            kc.localBarrier();
            int mm = SmallKernels.popcount(mask);
            // 1: the references' boxes in the node's voxel, at their ranks
            for (int q = l; q < MAX_REFS; q += LANES) {
                if (((mask >>> q) & 1L) != 0L) {
                    int r = f + q;
                    int rank = SmallKernels.popcount(mask & ((1L << q) - 1L));
                    if (clip == 1) {
                        SmallKernels.clipBox(v, doneInt[2 * r], vx, 0, doneBox, 6 * r, poly, box, 0);
                    }
                    if (clip == 0) {
                        for (int a = 0; a < 6; a++) {
                            box[a] = doneBox[6 * r + a];
                        }
                    }
                    for (int a = 0; a < 6; a++) {
                        cb[6 * rank + a] = box[a];
                    }
                    id[rank] = q;
                }
            }
            kc.localBarrier();
            // 2: candidate t = 6·j + 2·k + e (reference j by rank, axis k, its box's minimum e = 0 or maximum e = 1)
            double best = 0.0;
            float bestPos = 0f;
            int bestAxis = -1;
            long bestL = 0L;
            long bestR = 0L;
            for (int t = l; t < 6 * mm; t += LANES) {
                int j = t / 6;
                int k = (t % 6) / 2;
                int e = t % 2;
                float x = cb[6 * j + 3 * e + k];
                int inside = 0;
                if (x > vx[k]) {
                    inside = 1;
                }
                if (!(x < vx[3 + k])) {
                    inside = 0;
                }
                if (e == 1) {
                    if (cb[6 * j + k] == x) {
                        inside = 0; // a flat box: one candidate, its minimum
                    }
                }
                if (inside == 1) {
                    long lm = 0L;
                    long rm = 0L;
                    if (clip == 0) {
                        int slot = Math.min(6 * (f + id[j]) + 2 * k + e, state[S_CSLOTS] - 1);
                        lm = mask & cMask[2 * slot];
                        rm = mask & cMask[2 * slot + 1];
                    }
                    if (clip == 1) {
                        for (int jj = 0; jj < mm; jj++) {
                            long bit = 1L << id[jj];
                            if (cb[6 * jj + k] < x) {
                                lm = lm | bit;
                            }
                            if (cb[6 * jj + 3 + k] > x) {
                                rm = rm | bit;
                            }
                        }
                    }
                    long planar = mask & ~(lm | rm);
                    double side = SubtreeKernels.planarSide(vx, 0, k, x, SmallKernels.popcount(lm),
                            SmallKernels.popcount(rm), SmallKernels.popcount(planar), c);
                    double cost = Math.abs(side);
                    long cl = lm;
                    long cr = rm | planar;
                    if (side < 0) {
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
            bc[l] = best;
            bp[l] = bestPos;
            ba[l] = bestAxis;
            bl[l] = bestL;
            br[l] = bestR;
            kc.localBarrier();
            // 3: the arg-min over the lanes (not @Reduce: it carries the plane and its masks with the cost, in local memory)
            for (int s = LANES / 2; s > 0; s >>= 1) {
                if (l < s) {
                    int u = l + s;
                    int take = 0;
                    if (ba[u] >= 0) {
                        take = 1;
                        if (ba[l] >= 0) {
                            take = LevelKernels.better(bc[u], bp[u], ba[u], bc[l], bp[l], ba[l]);
                        }
                    }
                    if (take == 1) {
                        bc[l] = bc[u];
                        bp[l] = bp[u];
                        ba[l] = ba[u];
                        bl[l] = bl[u];
                        br[l] = br[u];
                    }
                }
                kc.localBarrier();
            }
            // 4: the decision (every lane reads the same); a leaf's triangles by all lanes at their ranks; lane 0
            // writes the node and pushes its children (the right one below the left one)
            int axis = ba[0];
            if (depth >= state[P_DEPTH_LIMIT]) {
                axis = -1;
            }
            if (bc[0] > c[KdTreeKernels.KI] * mm) {
                axis = -1;
            }
            int nl = SmallKernels.popcount(bl[0]);
            int nr = SmallKernels.popcount(br[0]);
            if (nl + nr > budget) {
                axis = -1; // the reference budget (ReferenceBudget), on the counts before culling
            }
            int fail = 0;
            if (n == cap) {
                fail = 1;
            }
            if (axis < 0) {
                if (words + 1 + mm > cap) {
                    fail = 1;
                }
            }
            if (fail == 0) {
                if (axis < 0) {
                    for (int q = l; q < MAX_REFS; q += LANES) {
                        if (((mask >>> q) & 1L) != 0L) {
                            int rank = SmallKernels.popcount(mask & ((1L << q) - 1L));
                            rLeaf[nBase + words + 1 + rank] = doneInt[2 * (f + q)];
                        }
                    }
                }
            }
            if (l == 0) {
                int newTop = top;
                int newWords = words;
                if (fail == 0) {
                    if (par >= 0) {
                        rInfo[nBase + par] = rInfo[nBase + par] | (n << 2);
                    }
                    if (axis < 0) {
                        rSplit[nBase + n] = 0f;
                        rInfo[nBase + n] = (words << 2) | 3;
                        rLeaf[nBase + words] = mm;
                        newWords = words + 1 + mm;
                    }
                    if (axis >= 0) {
                        float x = bp[0];
                        long lm = bl[0];
                        long rm = br[0];
                        rSplit[nBase + n] = x;
                        rInfo[nBase + n] = axis;
                        for (int a = 0; a < 6; a++) {
                            lv[a] = vx[a];
                            rv[a] = vx[a];
                        }
                        lv[3 + axis] = x;
                        rv[axis] = x;
                        if (clip == 0) {
                            long both = lm & rm;
                            lm = SmallKernels.cull(v, doneInt, f, lm, both, lv, 0);
                            rm = SmallKernels.cull(v, doneInt, f, rm, both, rv, 0);
                        }
                        int rt = top;
                        int lt = top + 1;
                        for (int a = 0; a < 6; a++) {
                            sv[6 * rt + a] = rv[a];
                            sv[6 * lt + a] = lv[a];
                        }
                        int lb = ReferenceBudget.leftSmall(budget, nl, nr);
                        sm[rt] = rm;
                        sd[rt] = depth + 1;
                        sp[rt] = n;
                        sb[rt] = budget - lb;
                        sm[lt] = lm;
                        sd[lt] = depth + 1;
                        sp[lt] = -1;
                        sb[lt] = lb;
                        newTop = top + 2;
                    }
                }
                ctl[0] = newTop;
                ctl[1] = n + 1;
                ctl[2] = newWords;
                ctl[3] = fail;
            }
            kc.localBarrier();
            if (ctl[0] == 0) {
                loop = 0;
            }
            if (ctl[3] == 1) {
                loop = 0;
            }
        }
        if (l == 0) {
            if (on == 1) {
                int nodes = 0;
                int words = 0;
                if (status == T_DEVICE) {
                    nodes = ctl[1];
                    words = ctl[2];
                    if (ctl[3] == 1) {
                        status = T_HOST;
                        nodes = 0;
                        words = 0;
                    }
                }
                if (status == T_EMPTY) {
                    nodes = 1;
                    words = 1;
                }
                tStatus[i] = status;
                tNodes[i] = nodes;
                tWords[i] = words;
            }
            if (i == 0) {
                SmallKernels.beat(state, SmallTaskGraphs.BUILD);
            }
        }
    }
}
