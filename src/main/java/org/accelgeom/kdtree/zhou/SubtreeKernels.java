package org.accelgeom.kdtree.zhou;

import org.accelgeom.engine.Tuning;
import org.accelgeom.kdtree.KdTreeKernels;
import org.accelgeom.kdtree.KdTreeOptions;
import org.accelgeom.kdtree.ReferenceBudget;

import static org.accelgeom.kdtree.zhou.LevelBuffers.HANDED;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_DEPTH_LIMIT;
import static org.accelgeom.kdtree.zhou.SmallKernels.MAX_REFS;
import static org.accelgeom.kdtree.zhou.SmallKernels.S_CLIP;
import static org.accelgeom.kdtree.zhou.SmallKernels.S_CSLOTS;
import static org.accelgeom.kdtree.zhou.SmallKernels.S_FACTOR;
import static org.accelgeom.kdtree.zhou.SmallKernels.S_REGION;
import static org.accelgeom.kdtree.zhou.SmallKernels.popcount;

/**
 * Zhou et al.'s small-node stage (2008, §4.3, Alg. 5: the SAH of every candidate from 64-bit reference masks),
 * scheduled per small root: each small root's whole subtree is built depth-first by one work-item (jvm) or one
 * work-group (tornado, {@code SubtreeGroup}), in one launch for all roots instead of one launch per level. The
 * decisions are those of the level-by-level stage, node by node; only the order of the work differs.
 *
 * <p>Each root writes its subtree in depth-first order (left child next, the right child's index patched in when it
 * is reached) into its own region of the region arrays: {@link #FACTOR}·m node slots and as many leaf-list words at
 * {@link #FACTOR}·first, where the root's m references are the run [first, first + m) of the hand-off list (runs are
 * disjoint, so the regions are). Indices in a region are relative to the subtree; {@link #place} relocates them into
 * the tree's flat arrays. A root whose subtree needs more room (none in the meshes tried: at most 11 slots per
 * reference) is marked {@link #T_HOST} and built again on the host by the
 * same code with room enough ({@link #build}): the tree never depends on the capacities.
 */
public final class SubtreeKernels {

    /**
     * Region slots (nodes; and leaf-list words) per reference of the hand-off list: 16, or
     * {@code -Daccelgeom.kdtree.regionFactor} (tests make it small so that roots overflow to the host).
     */
    public static final int FACTOR = Tuning.KDTREE_REGION_FACTOR.intValue();
    /**
     * Entries of a subtree's stack: a depth-first stack holds at most one entry per level below the root plus one,
     * so the deepest tree the options allow ({@link KdTreeOptions#MAX_DEPTH_LIMIT}) always fits.
     */
    public static final int STACK = KdTreeOptions.MAX_DEPTH_LIMIT + 2;

    /** Status per global node: not a small root (a node of the large stage). */
    public static final int T_NONE = 0;
    /** A small root built in its region. */
    public static final int T_DEVICE = 1;
    /** A handed node without references: one empty leaf. */
    public static final int T_EMPTY = 2;
    /** A small root whose region or stack was too small: built again on the host. */
    public static final int T_HOST = 3;
    /** A handed node of more than 64 references: the exact SAH on the host. */
    public static final int T_EXACT = 4;

    private SubtreeKernels() {
    }

    /** The status of global node i before its subtree is built: T_NONE, T_EMPTY, T_EXACT, or T_DEVICE to build. */
    public static int kind(int[] gInt, int i, int m) {
        int s = T_NONE;
        if (gInt[2 * i] == HANDED) {
            s = T_DEVICE;
            if (m == 0) {
                s = T_EMPTY;
            }
            if (m > MAX_REFS) {
                s = T_EXACT;
            }
        }
        return s;
    }

    /**
     * Alg. 5 for one node of the small root whose references start at hand-off index f: the best plane among the
     * candidates of its references (bit q of {@code mask}: reference f + q) strictly inside its voxel
     * {@code vox[o .. o+5]} (lowest cost, then position, then axis: {@link LevelKernels#better}; planar references on
     * the cheaper side, right on a tie), and the decision: a leaf when it has no candidate, is at the depth limit, or
     * its best cost exceeds K_I·|T| (eq. 3.6, as the exact builder).
     *
     * <p>Boxes: with {@link SmallKernels#S_CLIP} 1, each reference's box is clipped exactly to the voxel first
     * ({@link SmallKernels#clipBox}: perfect splits) and each candidate's masks are formed over these boxes (O(m²)
     * per node); with 0, Zhou et al.'s masks over the small root's boxes ({@link SmallKernels#candidates}).
     *
     * @param pos   gets the plane
     * @param child gets the children's masks (left, right)
     * @param cb    scratch, 6·64 floats (the clipped boxes); idx scratch, 64 ints; poly scratch, 60 doubles
     * @return the split axis, or -1 for a leaf
     */
    public static int evaluate(int[] state, double[] c, float[] v, int[] doneInt, float[] doneBox, int f, long mask,
            float[] vox, int o, int depth, float[] cPos, long[] cMask, float[] pos, long[] child, double[] cost, int[] axis,
            float[] cb, int[] idx, double[] poly) {
        int clip = state[S_CLIP];
        int m = 0;
        for (int q = 0; q < MAX_REFS; q++) {
            if (((mask >>> q) & 1L) != 0L) {
                idx[m] = q;
                m++;
            }
        }
        for (int j = 0; j < m; j++) {
            int q = idx[j];
            int r = f + q;
            if (clip == 1) {
                SmallKernels.clipBox(v, doneInt[2 * r], vox, o, doneBox, 6 * r, poly, cb, 6 * q);
            }
            if (clip == 0) {
                for (int a = 0; a < 6; a++) {
                    cb[6 * q + a] = doneBox[6 * r + a];
                }
            }
        }
        cost[0] = 0.0;
        pos[0] = 0f;
        axis[0] = -1;
        child[0] = 0L;
        child[1] = 0L;
        for (int j = 0; j < m; j++) {
            int q = idx[j];
            int r = f + q;
            for (int k = 0; k < 3; k++) {
                float lo = vox[o + k];
                float hi = vox[o + 3 + k];
                int flat = 0;
                if (cb[6 * q + k] == cb[6 * q + 3 + k]) {
                    flat = 1; // one candidate (its maximum repeats its minimum)
                }
                for (int e = 0; e < 2 - flat; e++) {
                    float x = cb[6 * q + 3 * e + k];
                    if (x > lo && x < hi) {
                        long lm = 0L;
                        long rm = 0L;
                        if (clip == 0) {
                            int slot = Math.min(6 * r + 2 * k + e, state[S_CSLOTS] - 1);
                            lm = mask & cMask[2 * slot];
                            rm = mask & cMask[2 * slot + 1];
                        } else {
                            for (int jj = 0; jj < m; jj++) {
                                int p = idx[jj];
                                if (cb[6 * p + k] < x) {
                                    lm |= 1L << p;
                                }
                                if (cb[6 * p + 3 + k] > x) {
                                    rm |= 1L << p;
                                }
                            }
                        }
                        consider(vox, o, k, x, mask, lm, rm, c, cost, pos, axis, child);
                    }
                }
            }
        }
        if (depth >= state[P_DEPTH_LIMIT] || cost[0] > c[KdTreeKernels.KI] * m) {
            axis[0] = -1;
        }
        return axis[0];
    }

    /**
     * The candidate plane x on axis k of voxel {@code vox[o .. o+5]}, with the masks lm, rm of the node's references
     * left and right of it: its SAH with the planar references on the cheaper side ({@link #planarSide}), kept as
     * (bestC, bestP, bestA, bestM: cost, plane, axis, the children's masks) when {@link LevelKernels#better} than the
     * best so far (bestA[0] &lt; 0: none yet). The device's lanes run it too ({@code SubtreeGroup}).
     */
    public static void consider(float[] vox, int o, int k, float x, long mask, long lm, long rm, double[] c,
            double[] bestC, float[] bestP, int[] bestA, long[] bestM) {
        long planar = mask & ~(lm | rm);
        double side = planarSide(vox, o, k, x, popcount(lm), popcount(rm), popcount(planar), c);
        double cost = Math.abs(side);
        long cl = lm;
        long cr = rm | planar;
        if (side < 0) {
            cl = lm | planar;
            cr = rm;
        }
        if (LevelKernels.wins(cost, x, k, bestC[0], bestP[0], bestA[0]) == 1) {
            bestC[0] = cost;
            bestP[0] = x;
            bestA[0] = k;
            bestM[0] = cl;
            bestM[1] = cr;
        }
    }

    /**
     * The SAH cost (eq. 3.6) of plane x on axis k of the voxel {@code vox[o .. o+5]} with nl references left, nr right
     * and np planar, the planar ones on the cheaper side, right on a tie; negated when they go left (a cost is never
     * zero: it holds λ·K_T).
     */
    public static double planarSide(float[] vox, int o, int k, float x, int nl, int nr, int np, double[] c) {
        double costL = LevelKernels.sahAt(vox, o, k, x, nl + np, nr, c);
        double costR = LevelKernels.sahAt(vox, o, k, x, nl, nr + np, c);
        double side = costR;
        if (costL < costR) {
            side = -costL;
        }
        return side;
    }

    /**
     * The subtree of small root i, depth-first, into the region arrays from node slot {@code nBase} (at most
     * {@code nCap} nodes) and word {@code wBase} (at most {@code wCap} words): inner node n has {@code split[n]} its
     * plane and {@code info[n] = right << 2 | axis} (right relative to the subtree); leaf n {@code info[n] = w << 2 | 3}
     * with {@code leaf[w]} its count followed by its triangles (references in mask order). Without {@link SmallKernels#S_CLIP},
     * a straddler whose triangle misses a child's voxel leaves that child ({@link SmallKernels#cull}).
     *
     * <p>The stack arrays must hold {@code depth limit − root depth + 2} entries ({@link #STACK} do); {@code sv} has six
     * floats per entry (the voxels), {@code sm} one (the mask), {@code si} three (depth, parent to patch, reference
     * budget: a node whose children would hold more references than its budget is a leaf, {@link ReferenceBudget}, the
     * small root's budget {@value ReferenceBudget#FACTOR}·m); {@code ce}: six ints of scratch ({@link #childEntries}).
     *
     * @return {@code nodes << 32 | words} of the subtree, or -1 when the region is too small
     */
    public static long build(int[] state, double[] c, int i, float[] v, int[] doneInt, float[] doneBox, int[] gFirst,
            int[] gEnd, float[] gVox, int[] gDepth, float[] cPos, long[] cMask, float[] split, int[] info, int[] leaf,
            int nBase, int nCap, int wBase, int wCap, float[] sv, long[] sm, int[] si, int[] ce, float[] pos,
            long[] child, double[] cost, int[] best, float[] cb, int[] idx, double[] poly) {
        int f = gFirst[i];
        int m = gEnd[i] - f;
        // the root: every reference of its run
        for (int a = 0; a < 6; a++) {
            sv[a] = gVox[6 * i + a];
        }
        sm[0] = lowBits(m);
        si[0] = gDepth[i];
        si[1] = -1;
        si[2] = ReferenceBudget.FACTOR * m;
        int top = 1;
        int nodes = 0;
        int words = 0;
        while (top > 0) {
            top--;
            int n = nodes;
            if (n == nCap) {
                return -1L;
            }
            nodes++;
            if (si[3 * top + 1] >= 0) {
                info[nBase + si[3 * top + 1]] |= n << 2; // the parent's right child
            }
            long mask = sm[top];
            int depth = si[3 * top];
            int axis = evaluate(state, c, v, doneInt, doneBox, f, mask, sv, 6 * top, depth, cPos, cMask, pos, child, cost,
                    best, cb, idx, poly);
            int budget = si[3 * top + 2];
            int nl = popcount(child[0]);
            int nr = popcount(child[1]);
            if (nl + nr > budget) {
                axis = -1; // the reference budget (ReferenceBudget), on the counts before culling
            }
            if (axis < 0) {
                int cnt = popcount(mask);
                if (words + 1 + cnt > wCap) {
                    return -1L;
                }
                split[nBase + n] = 0f;
                info[nBase + n] = (words << 2) | 3;
                leaf[wBase + words] = cnt;
                words++;
                for (int q = 0; q < MAX_REFS; q++) {
                    if (((mask >>> q) & 1L) != 0L) {
                        leaf[wBase + words] = doneInt[2 * (f + q)];
                        words++;
                    }
                }
            } else {
                float x = pos[0];
                long lm = child[0];
                long rm = child[1];
                split[nBase + n] = x;
                info[nBase + n] = axis;
                // right child below the left one on the stack: the left is visited next, as node n + 1
                int r = top;
                int l = top + 1;
                for (int a = 0; a < 6; a++) {
                    sv[6 * l + a] = sv[6 * r + a];
                }
                sv[6 * l + 3 + axis] = x;
                sv[6 * r + axis] = x;
                if (state[S_CLIP] == 0) {
                    long both = lm & rm;
                    lm = SmallKernels.cull(v, doneInt, f, lm, both, sv, 6 * l);
                    rm = SmallKernels.cull(v, doneInt, f, rm, both, sv, 6 * r);
                }
                childEntries(depth, n, budget, nl, nr, ce);
                System.arraycopy(ce, 0, si, 3 * top, 6);
                sm[r] = rm;
                sm[l] = lm;
                top += 2;
            }
        }
        return ((long) nodes << 32) | words;
    }

    /**
     * Global node i in the build execution (the loops' form of the device's work-group kernel): its status, and for a
     * small root its subtree in its region ({@link #build}) or {@link #T_HOST} when that does not fit.
     *
     * @param w scratch of one thread
     */
    public static void root(int[] state, double[] c, int i, float[] v, int[] gInt, int[] doneInt, float[] doneBox,
            float[] gVox, int[] gDepth, int[] gFirst, int[] gEnd, float[] cPos, long[] cMask, int[] tStatus,
            int[] tNodes, int[] tWords, float[] rSplit, int[] rInfo, int[] rLeaf, Scratch w) {
        int f = gFirst[i];
        int m = gEnd[i] - f;
        int status = kind(gInt, i, m);
        int nodes = 0;
        int words = 0;
        if (status == T_EMPTY) {
            nodes = 1;
            words = 1;
        }
        if (status == T_DEVICE) {
            int nBase = base(state, f);
            int cap = state[S_FACTOR] * m;
            long r = -1L;
            if (fits(state, f, m) == 1) {
                r = build(state, c, i, v, doneInt, doneBox, gFirst, gEnd, gVox, gDepth, cPos, cMask, rSplit, rInfo, rLeaf,
                        nBase, cap, nBase, cap, w.sv, w.sm, w.si, w.ce, w.pos, w.child, w.cost, w.axis, w.cb, w.idx, w.poly);
            }
            if (r < 0) {
                status = T_HOST;
            } else {
                nodes = (int) (r >>> 32);
                words = (int) r;
            }
        }
        tStatus[i] = status;
        tNodes[i] = nodes;
        tWords[i] = words;
    }

    /**
     * Global node i in the place execution: its record or subtree written at its depth-first index {@code at[i]}
     * and leaf-list offset {@code off[i]} of the tree's arrays (a split node of the large stage: its plane and its right
     * child's index; an empty root: an empty leaf; a root built in its region: the region relocated). Roots built on
     * the host are left to the host.
     */
    public static void place(int i, int[] gInt, float[] gPos, int[] gFirst, int[] tStatus, int[] tNodes, int[] tWords,
            int[] at, int[] off, float[] rSplit, int[] rInfo, int[] rLeaf, int factor, float[] split, int[] info,
            int[] leaf) {
        int status = tStatus[i];
        int a = at[i];
        int o = off[i];
        if (status == T_NONE) {
            int l = gInt[2 * i + 1];
            split[a] = gPos[i];
            info[a] = (at[l + 1] << 2) | gInt[2 * i];
        }
        if (status == T_EMPTY) {
            split[a] = 0f;
            info[a] = (o << 2) | 3;
            leaf[o] = 0;
        }
        if (status == T_DEVICE) {
            int base = factor * gFirst[i];
            for (int j = 0; j < tNodes[i]; j++) {
                split[a + j] = rSplit[base + j];
                info[a + j] = relocated(rInfo[base + j], a, o);
            }
            for (int j = 0; j < tWords[i]; j++) {
                leaf[o + j] = rLeaf[base + j];
            }
        }
    }

    /** One thread's scratch arrays for {@link #build}. */
    public static final class Scratch {
        final float[] sv;
        final long[] sm;
        final int[] si;
        final int[] ce = new int[6];
        final float[] pos = new float[1];
        final long[] child = new long[2];
        final double[] cost = new double[1];
        final int[] axis = new int[1];
        final float[] cb = new float[6 * MAX_REFS];
        final int[] idx = new int[MAX_REFS];
        final double[] poly = new double[60];

        /** @param stack stack entries */
        public Scratch(int stack) {
            sv = new float[6 * stack];
            sm = new long[stack];
            si = new int[3 * stack];
        }
    }

    /**
     * 1 when the region of a small root of m references from hand-off index f lies within the region arrays (their
     * length is capped for huge inputs), else 0: the root goes to the host ({@link #T_HOST}).
     */
    public static int fits(int[] state, int f, int m) {
        int ok = 1;
        if ((long) base(state, f) + (long) state[S_FACTOR] * m > state[S_REGION]) {
            ok = 0;
        }
        return ok;
    }

    /** A region's node slots and words start here for the root whose run starts at hand-off index {@code first}. */
    public static int base(int[] state, int first) {
        return state[S_FACTOR] * first;
    }

    /** The mask of m references (the m low bits, also for m = 64): a small root's. */
    public static long lowBits(int m) {
        return ((1L << (m - 1)) << 1) - 1L;
    }

    /**
     * The stack entries (depth, parent to patch, reference budget) of split node n's children into {@code e}: the
     * right one at e[0..2] (its parent's info gets its index), the left at e[3..5] ({@link ReferenceBudget#leftSmall}).
     */
    public static void childEntries(int depth, int n, int budget, int nl, int nr, int[] e) {
        int lb = ReferenceBudget.leftSmall(budget, nl, nr);
        e[0] = depth + 1;
        e[1] = n;
        e[2] = budget - lb;
        e[3] = depth + 1;
        e[4] = -1;
        e[5] = lb;
    }

    /** An info word of a subtree moved to node offset {@code at} and leaf-list offset {@code off}. */
    public static int relocated(int inf, int at, int off) {
        int shift = at;
        if ((inf & 3) == 3) {
            shift = off;
        }
        return (((inf >>> 2) + shift) << 2) | (inf & 3);
    }
}
