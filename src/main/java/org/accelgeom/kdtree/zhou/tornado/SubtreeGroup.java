package org.accelgeom.kdtree.zhou.tornado;

import static org.accelgeom.kdtree.zhou.LevelBuffers.P_DEPTH_LIMIT;
import static org.accelgeom.kdtree.zhou.SmallKernels.MAX_REFS;
import static org.accelgeom.kdtree.zhou.SmallKernels.S_CLIP;
import static org.accelgeom.kdtree.zhou.SmallKernels.S_FACTOR;
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
 * {@link SubtreeKernels#root} on the device: work-groups of {@link #LANES} work-items, split into sub-groups of
 * {@code state[S_SUB]} lanes (8, 16 or 32: {@link #subs} sub-groups per work-group); each sub-group builds small
 * roots' subtrees one after another, depth-first (its stack in local memory), each node with all its lanes:
 * <ol>
 * <li>the node's references (the set bits of its mask) are numbered by rank; each is clipped to the node's voxel
 * ({@link SmallKernels#clipBox}) into local memory at its rank;
 * <li>the node's candidates (6 per reference: its clipped box's ends, inside the voxel) are dealt round-robin to the
 * lanes; each lane counts the boxes left of, right of and in each of its candidates (counts, not masks: the SAH needs
 * only those) and keeps its best by {@link LevelKernels#better};
 * <li>the lanes' bests are reduced in local memory (a tree of {@code better});
 * <li>every lane forms the winner's masks (one pass over the boxes); the decision (every lane reads the same); a
 * leaf's triangles are written by all lanes at their ranks; lane 0 writes the node and pushes its children (the right
 * one below the left one).
 * </ol>
 * A sub-group takes the roots {@code order[j], order[j + T], ...} ({@code j} its number, {@code T =
 * state[S_SUBGROUPS]} the sub-groups launched; {@link SmallTaskGraphs#roots} lists them, those with the most
 * references first) and moves to its next root as soon as its stack is empty, whatever the other sub-groups do (they
 * share only the barriers): most nodes of the small stage hold a handful of references (the dragon: 3.9 on average,
 * 4.37 M nodes under 30,150 roots), so a root per warp left most lanes idle. The stack holds per entry a voxel
 * ({@code sv}), a mask ({@code sm}) and (depth, parent to patch, reference budget) ({@code si}), as
 * {@link SubtreeKernels#build}'s; {@link #STACK_LOCAL} entries per sub-group, so a root whose depth limit less its
 * depth needs more is the host's ({@link #rootStatus}).
 * The subtree equals {@link SubtreeKernels#build}'s bit for bit: {@code better} orders (cost, position, axis)
 * strictly, and two candidates equal in all three have equal masks and costs, so the order of the reduction cannot
 * matter; which sub-group builds a root, and when, changes nothing in its region. The loops over local arrays are
 * written here, not in callees: TornadoVM 5.2 addresses a local array passed to another method as a global one
 * (docs/cbt.md); callees get private copies.
 */
public final class SubtreeGroup {

    /** Work-items per work-group. */
    public static final int LANES = 32;
    /** Sub-groups per work-group at most (the local arrays' room): sub-groups of at least 8 lanes. */
    public static final int SUBS_MAX = 4;
    /** Stack entries per sub-group (a root needs its depth limit less its depth plus 2). */
    public static final int STACK_LOCAL = 40;
    /** Slots of the state array set by the host: lanes per sub-group, sub-groups launched. */
    public static final int S_SUB = 39;
    public static final int S_SUBGROUPS = 40;
    /** Per sub-group in {@code ctl}: stack top, nodes, words, failed, root (-1: none), first, refs, next list entry. */
    private static final int CTL = 8;

    private SubtreeGroup() {
    }

    public static void build(KernelContext kc, int[] state, double[] c, float[] v, int[] doneInt, float[] doneBox,
            float[] gVox, int[] gDepth, int[] gFirst, int[] gEnd, int[] order, int[] tStatus, int[] tNodes, int[] tWords,
            float[] rSplit, int[] rInfo, int[] rLeaf) {
        int l = kc.localIdx;
        int w = state[S_SUB];
        int s = l / w; // this lane's sub-group, u its lane in it
        int u = l - s * w;
        float[] cb = kc.allocateFloatLocalArray(SUBS_MAX * 6 * MAX_REFS);
        int[] id = kc.allocateIntLocalArray(SUBS_MAX * MAX_REFS);
        double[] bc = kc.allocateDoubleLocalArray(LANES);
        float[] bp = kc.allocateFloatLocalArray(LANES);
        int[] ba = kc.allocateIntLocalArray(LANES);
        float[] sv = kc.allocateFloatLocalArray(SUBS_MAX * 6 * STACK_LOCAL);
        long[] sm = kc.allocateLongLocalArray(SUBS_MAX * STACK_LOCAL);
        int[] si = kc.allocateIntLocalArray(SUBS_MAX * 3 * STACK_LOCAL);
        int[] ctl = kc.allocateIntLocalArray(SUBS_MAX * CTL);
        float[] box = new float[6];
        float[] vx = new float[6];
        float[] cv = new float[12]; // the stack entries to push: voxels (right child or root, then left child)
        long[] cm = new long[2]; // the winner's masks (left, right), then the entries' masks
        int[] ce = new int[6]; // the entries' (depth, parent, budget)
        int[] next = new int[CTL]; // a sub-group's next root: its ctl entries
        double[] poly = new double[60];
        double[] bestC = new double[1]; // the lane's best candidate: cost, position, 2·axis + planar side (1: left)
        float[] bestP = new float[1];
        int[] bestA = new int[1];
        int o = s * CTL;
        int ob = s * 6 * MAX_REFS; // the sub-group's boxes and ranks, its stack entries
        int os = s * STACK_LOCAL;
        if (u == 0) {
            for (int a = 0; a < CTL; a++) {
                ctl[o + a] = initial(a, kc.groupIdx * subs(w) + s);
            }
        }
        int busy = 1;
        while (busy == 1) {
            kc.localBarrier();
            int live = same(ctl[o], 0) ^ 1; // a node to build (the first pass has none: its end takes the roots)
            int e = os + Math.max(ctl[o] - 1, 0); // the stack's top entry
            int n = ctl[o + 1];
            int words = ctl[o + 2];
            int f = ctl[o + 5];
            int cap = state[S_FACTOR] * ctl[o + 6]; // read here: lane 0 rewrites ctl after step 4
            long mask = sm[e] * live;
            int depth = si[3 * e];
            int par = si[3 * e + 1];
            int budget = si[3 * e + 2];
            for (int a = 0; a < 6; a++) {
                vx[a] = sv[6 * e + a];
            }
            int mm = SmallKernels.popcount(mask);
            // 1: the references by rank; lane u clips ranks u, u + w, ... to the node's voxel (one round up to w refs)
            for (int q = u; q < MAX_REFS; q += w) {
                if (((mask >>> q) & 1L) != 0L) {
                    id[s * MAX_REFS + SmallKernels.popcount(mask & ((1L << q) - 1L))] = q;
                }
            }
            kc.localBarrier();
            for (int j = u; j < mm; j += w) {
                refBox(state[S_CLIP], v, doneInt, doneBox, f + id[s * MAX_REFS + j], vx, poly, box);
                for (int a = 0; a < 6; a++) {
                    cb[ob + 6 * j + a] = box[a];
                }
            }
            kc.localBarrier();
            // 2: candidate t = 6·j + 2·k + e (reference j by rank, axis k, minimum or maximum): left, right, either
            none(bestC, bestP, bestA);
            for (int t = u; t < 6 * mm; t += w) {
                int j = t / 6;
                int k = (t % 6) / 2;
                float x = cb[ob + 6 * j + 3 * (t % 2) + k];
                if (candidate(x, cb[ob + 6 * j + k], vx, k, t % 2) == 1) {
                    int cnt = 0; // left, right, either: 8 bits each (at most 64)
                    for (int jj = 0; jj < mm; jj++) {
                        int lo = below(cb[ob + 6 * jj + k], x);
                        int hi = below(x, cb[ob + 6 * jj + 3 + k]);
                        cnt += lo + (hi << 8) + ((lo | hi) << 16);
                    }
                    consider(vx, k, x, cnt & 255, (cnt >> 8) & 255, mm - (cnt >> 16), c, bestC, bestP, bestA);
                }
            }
            bc[l] = bestC[0];
            bp[l] = bestP[0];
            ba[l] = bestA[0];
            kc.localBarrier();
            // 3: the arg-min over the sub-group's lanes (not @Reduce: it carries the plane with the cost, per sub-group)
            for (int h = w / 2; h > 0; h >>= 1) {
                if (u < h) {
                    if (LevelKernels.wins(bc[l + h], bp[l + h], ba[l + h], bc[l], bp[l], ba[l]) == 1) {
                        bc[l] = bc[l + h];
                        bp[l] = bp[l + h];
                        ba[l] = ba[l + h];
                    }
                }
                kc.localBarrier();
            }
            // 4: masks, decision, leaf (all lanes); lane 0: the node, its children, or (stack empty) the next root
            int b0 = s * w;
            int k0 = Math.max(0, ba[b0] >> 1);
            zero(cm);
            for (int jj = 0; jj < mm; jj++) {
                long bit = 1L << id[s * MAX_REFS + jj];
                cm[0] = cm[0] | (bit * below(cb[ob + 6 * jj + k0], bp[b0]));
                cm[1] = cm[1] | (bit * below(bp[b0], cb[ob + 6 * jj + 3 + k0]));
            }
            sides(mask, ba[b0] & 1, cm);
            int nl = SmallKernels.popcount(cm[0]);
            int nr = SmallKernels.popcount(cm[1]);
            int axis = decide(state, c, ba[b0] >> 1, bc[b0], depth, mm, nl + nr, budget);
            int fail = overflow(n, words, mm, cap, axis);
            leafTriangles(fail, axis, u, w, mask, f, doneInt, rLeaf, SubtreeKernels.base(state, f) + words + 1);
            if (u == 0) {
                int pushes = 0;
                if (live == 1) {
                    ctl[o] = e - os; // popped
                    ctl[o + 1] = n + 1;
                    ctl[o + 3] = fail;
                    if (fail == 0) {
                        ctl[o + 2] = writeNode(SubtreeKernels.base(state, f), n, par, axis, bp[b0], words, mm, rSplit, rInfo, rLeaf);
                        if (axis >= 0) {
                            children(state[S_CLIP], v, doneInt, f, vx, axis, bp[b0], cm[0], cm[1], cv, cm);
                            SubtreeKernels.childEntries(depth, n, budget, nl, nr, ce);
                            pushes = 2;
                        }
                    }
                }
                if (same(ctl[o] + pushes, 0) + ctl[o + 3] > 0) { // the root is done (or none yet)
                    finish(ctl[o + 4], ctl[o + 1], ctl[o + 2], ctl[o + 3], tStatus, tNodes, tWords);
                    pushes = take(state, order, gVox, gDepth, gFirst, gEnd, ctl[o + 7], next, cv, cm, ce);
                    for (int a = 0; a < CTL; a++) {
                        ctl[o + a] = next[a];
                    }
                    e = os;
                }
                for (int a = 0; a < 6 * pushes; a++) { // entries e (right child, or root) and e + 1 (left child)
                    sv[6 * e + a] = cv[a];
                    si[3 * e + a / 2] = ce[a / 2];
                    sm[e + a / 6] = cm[a / 6];
                }
                ctl[o] = ctl[o] + pushes;
            }
            kc.localBarrier();
            busy = 0;
            for (int j = 0; j < subs(w); j++) {
                busy = busy | same(ctl[CTL * j + 4] >>> 31, 0);
            }
        }
        beat(kc.globalIdx, state);
    }

    // The steps of build that touch no local array (TornadoVM 5.2 addresses a local array passed to a callee as a
    // global one, docs/cbt.md): scalars, private and global arrays only; inlined into the kernel.

    /** The sub-groups of a work-group of sub-groups of w lanes. */
    static int subs(int w) {
        return LANES / w;
    }

    /** Entry a of a sub-group's {@code ctl} before its first root: no stack, no root; j its first entry of the order. */
    static int initial(int a, int j) {
        int x = 0;
        if (a == 4) {
            x = -1;
        }
        if (a == 7) {
            x = j;
        }
        return x;
    }

    /**
     * Global node id before the build ({@link SmallTaskGraphs#roots}): a root to build here is marked T_DEVICE, every
     * other node gets its status and counts ({@link #rootStatus}, {@link #counts}).
     */
    static void mark(int[] state, int[] gInt, int[] gDepth, int[] gFirst, int[] gEnd, int id, int[] tStatus,
            int[] tNodes, int[] tWords) {
        int st = rootStatus(state, gInt, gDepth, id, gFirst[id], gEnd[id] - gFirst[id]);
        counts(id, st, 0, 0, 0, tStatus, tNodes, tWords);
    }

    /** 1 when global node id is a root to build here whose reference count lies in band {@code band} of {@code bands}. */
    static int inBand(int[] tStatus, int[] gFirst, int[] gEnd, int id, int band, int bands) {
        int r = 0;
        if (tStatus[id] == T_DEVICE) {
            if ((gEnd[id] - gFirst[id]) * bands / (MAX_REFS + 1) == band) {
                r = 1;
            }
        }
        return r;
    }

    /**
     * A sub-group's next root, entry {@code start} of {@code order} (state[S_ROOTS] entries): its ctl entries into
     * {@code next} (an empty stack; root -1 when none is left; its next entry start + T, T the sub-groups launched) and
     * its stack entry into cv, cm, ce (voxel, every reference of its run, (depth, no parent, reference budget));
     * returns 1, or 0 when none is left.
     */
    static int take(int[] state, int[] order, float[] gVox, int[] gDepth, int[] gFirst, int[] gEnd, int start,
            int[] next, float[] cv, long[] cm, int[] ce) {
        int roots = state[SmallTaskGraphs.S_ROOTS];
        int found = 0;
        if (start < roots) {
            found = 1;
        }
        int i = order[Math.min(start, Math.max(roots - 1, 0))]; // a global node's id when none is left too
        int m = found * (gEnd[i] - gFirst[i]);
        for (int a = 0; a < CTL; a++) {
            next[a] = 0;
        }
        next[4] = found * (i + 1) - 1;
        next[5] = found * gFirst[i];
        next[6] = m;
        next[7] = start + state[S_SUBGROUPS];
        for (int a = 0; a < 6; a++) {
            cv[a] = gVox[6 * i + a];
        }
        cm[0] = SubtreeKernels.lowBits(Math.max(m, 1));
        ce[0] = gDepth[i];
        ce[1] = -1;
        ce[2] = ReferenceBudget.FACTOR * m;
        return found;
    }

    /** Lane 0 of a sub-group: its root's status and counts after its build (none when root &lt; 0). */
    static void finish(int root, int nodes, int words, int failed, int[] tStatus, int[] tNodes, int[] tWords) {
        if (root >= 0) {
            counts(root, T_DEVICE, nodes, words, failed, tStatus, tNodes, tWords);
        }
    }

    /** Work-item 0's heartbeat. */
    static void beat(int globalIdx, int[] state) {
        if (globalIdx == 0) {
            SmallKernels.beat(state, SmallTaskGraphs.BUILD);
        }
    }

    /** Both masks zero. */
    static void zero(long[] cm) {
        cm[0] = 0L;
        cm[1] = 0L;
    }

    /** No best candidate yet (axis -1; the other fields zero). */
    static void none(double[] bestC, float[] bestP, int[] bestA) {
        bestC[0] = 0.0;
        bestP[0] = 0f;
        bestA[0] = -1;
    }

    /** 1 when a &lt; b, else 0. */
    static int below(float a, float b) {
        int r = 0;
        if (a < b) {
            r = 1;
        }
        return r;
    }

    /**
     * {@link SubtreeKernels#consider} from the counts (nl left, nr right, np planar) instead of the masks: the same
     * cost, kept with the code 2·k + 1 when the planar references go left, 2·k when right. The codes order as the axes
     * do ({@link LevelKernels#better}: the side is the plane's, so equal planes have equal codes).
     */
    static void consider(float[] vx, int k, float x, int nl, int nr, int np, double[] c, double[] bestC, float[] bestP,
            int[] bestA) {
        double side = SubtreeKernels.planarSide(vx, 0, k, x, nl, nr, np, c);
        int code = 2 * k;
        if (side < 0) {
            code = 2 * k + 1;
        }
        double cost = Math.abs(side);
        if (LevelKernels.wins(cost, x, code, bestC[0], bestP[0], bestA[0]) == 1) {
            bestC[0] = cost;
            bestP[0] = x;
            bestA[0] = code;
        }
    }

    /**
     * The children's masks from the plane's left and right masks {@code cm} (in place): the node's planar references
     * (in neither) join the left when {@code left} is 1, else the right ({@link SubtreeKernels#consider}).
     */
    static void sides(long mask, int left, long[] cm) {
        long planar = mask & ~(cm[0] | cm[1]);
        if (left == 1) {
            cm[0] = cm[0] | planar;
        }
        if (left == 0) {
            cm[1] = cm[1] | planar;
        }
    }

    /**
     * Global node i's status before the build ({@link SubtreeKernels#kind}): a root whose region does not fit, or
     * whose depth-first stack could outgrow {@link #STACK_LOCAL} entries, is the host's.
     */
    static int rootStatus(int[] state, int[] gInt, int[] gDepth, int i, int f, int m) {
        int status = SubtreeKernels.kind(gInt, i, m);
        if (status == T_DEVICE) {
            if (SubtreeKernels.fits(state, f, m) == 0) {
                status = T_HOST;
            }
            if (state[P_DEPTH_LIMIT] - gDepth[i] + 2 > STACK_LOCAL) {
                status = T_HOST;
            }
        }
        return status;
    }

    /** Reference r's box in the node's voxel {@code vx} into {@code box}: clipped exactly, or as handed on (masks). */
    static void refBox(int clip, float[] v, int[] doneInt, float[] doneBox, int r, float[] vx, double[] poly, float[] box) {
        if (clip == 1) {
            SmallKernels.clipBox(v, doneInt[2 * r], vx, 0, doneBox, 6 * r, poly, box, 0);
        }
        if (clip == 0) {
            for (int a = 0; a < 6; a++) {
                box[a] = doneBox[6 * r + a];
            }
        }
    }

    /** 1 when x, end e of a box whose minimum on axis k is lo, is a candidate: inside the voxel, not a flat box's max. */
    static int candidate(float x, float lo, float[] vx, int k, int e) {
        int inside = 0;
        if (x > vx[k]) {
            inside = 1;
        }
        if (!(x < vx[3 + k])) {
            inside = 0;
        }
        if (e == 1) {
            if (lo == x) {
                inside = 0; // a flat box: one candidate, its minimum
            }
        }
        return inside;
    }

    /** The best plane's axis, or -1 for a leaf: the depth limit, the leaf cost, the reference budget (ReferenceBudget). */
    static int decide(int[] state, double[] c, int axis0, double cost, int depth, int mm, int children, int budget) {
        int axis = axis0;
        if (depth >= state[P_DEPTH_LIMIT]) {
            axis = -1;
        }
        if (cost > c[KdTreeKernels.KI] * mm) {
            axis = -1;
        }
        if (children > budget) {
            axis = -1; // on the counts before culling
        }
        return axis;
    }

    /** 1 when the node (a leaf of mm references when axis < 0) does not fit the region's {@code cap} slots. */
    static int overflow(int n, int words, int mm, int cap, int axis) {
        int fail = 0;
        if (n == cap) {
            fail = 1;
        }
        if (axis < 0) {
            if (words + 1 + mm > cap) {
                fail = 1;
            }
        }
        return fail;
    }

    /** Lane u's share (of w) of a leaf's triangles (axis < 0 and no overflow), at their ranks from {@code at}. */
    static void leafTriangles(int fail, int axis, int u, int w, long mask, int f, int[] doneInt, int[] rLeaf, int at) {
        int leaf = 0;
        if (fail == 0) {
            if (axis < 0) {
                leaf = 1;
            }
        }
        int end = MAX_REFS * leaf; // loop bounds before the loop (docs/cbt.md)
        for (int q = u; q < end; q += w) {
            if (((mask >>> q) & 1L) != 0L) {
                int rank = SmallKernels.popcount(mask & ((1L << q) - 1L));
                rLeaf[at + rank] = doneInt[2 * (f + q)];
            }
        }
    }

    /**
     * Node n of the region: its link from the parent (a right child), and a leaf of mm references or a plane x on
     * {@code axis}; returns the region's leaf-list words after it.
     */
    static int writeNode(int nBase, int n, int par, int axis, float x, int words, int mm, float[] rSplit, int[] rInfo,
            int[] rLeaf) {
        int newWords = words;
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
            rSplit[nBase + n] = x;
            rInfo[nBase + n] = axis;
        }
        return newWords;
    }

    /**
     * The children of {@code vx} split at x on {@code axis}: their voxels into cv (right, then left) and their masks
     * into cm (right, then left; with Zhou et al.'s masks a straddler whose triangle misses a child leaves it).
     */
    static void children(int clip, float[] v, int[] doneInt, int f, float[] vx, int axis, float x, long lm, long rm,
            float[] cv, long[] cm) {
        for (int a = 0; a < 6; a++) {
            cv[a] = vx[a];
            cv[6 + a] = vx[a];
        }
        cv[axis] = x;
        cv[6 + 3 + axis] = x;
        cm[0] = rm;
        cm[1] = lm;
        if (clip == 0) {
            cm[0] = SmallKernels.cull(v, doneInt, f, rm, lm & rm, cv, 0);
            cm[1] = SmallKernels.cull(v, doneInt, f, lm, lm & rm, cv, 6);
        }
    }

    /** 1 when a == b. */
    static int same(int a, int b) {
        int r = 0;
        if (a == b) {
            r = 1;
        }
        return r;
    }

    /** Global node i's status and counts after its build (a region overflow: the host's). */
    static void counts(int i, int status, int nodes, int words, int failed, int[] tStatus, int[] tNodes, int[] tWords) {
        int st = status;
        int nn = 0;
        int ww = 0;
        if (st == T_DEVICE) {
            nn = nodes;
            ww = words;
            if (failed == 1) {
                st = T_HOST;
                nn = 0;
                ww = 0;
            }
        }
        if (st == T_EMPTY) {
            nn = 1;
            ww = 1;
        }
        tStatus[i] = st;
        tNodes[i] = nn;
        tWords[i] = ww;
    }
}
