package org.accelgeom.kdtree.zhou.tornado;

import static org.accelgeom.kdtree.zhou.LevelBuffers.P_DEPTH_LIMIT;
import static org.accelgeom.kdtree.zhou.SmallKernels.MAX_REFS;
import static org.accelgeom.kdtree.zhou.SmallKernels.S_CSLOTS;
import static org.accelgeom.kdtree.zhou.SmallKernels.S_FACTOR;
import static org.accelgeom.kdtree.zhou.SmallKernels.S_G;
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
 * {@link SubtreeKernels#root} on the device: one work-group of {@link #LANES} work-items per small root of the list
 * {@link SmallTaskGraphs#roots} makes (those with the most references first), which builds the root's whole subtree
 * depth-first (its stack in local memory), each node with all lanes:
 * <ol>
 * <li>the node's references (the set bits of its mask) are numbered by rank; item l clips ranks l and l + 32 to
 * the node's voxel ({@link SmallKernels#clipBox}) into local memory at their ranks (by bit position, a node's few
 * references fell into both rounds of clips);
 * <li>the node's candidates (6 per reference: its clipped box's ends, inside the voxel) are dealt round-robin to the
 * lanes; each lane counts the boxes left of, right of and in each of its candidates (counts, not masks: the SAH needs
 * only those) and keeps its best by {@link LevelKernels#better};
 * <li>the lanes' bests are reduced in local memory (a tree of {@code better}) over the lanes that hold candidates
 * (6 per reference: 3 rounds for one reference, 4 for two, 5 from three; none for an empty node, which also skips the
 * clip's two barriers);
 * <li>every lane forms the winner's masks (one pass over the boxes); the decision (every lane reads the same); a
 * leaf's triangles are written by all lanes at their ranks; lane 0 writes the node and pushes its children (the right
 * one below the left one).
 * </ol>
 * The stack holds per entry a voxel ({@code sv}), a mask ({@code sm}) and (depth, parent to patch, reference budget)
 * ({@code si}), as {@link SubtreeKernels#build}'s, except that a right child's parent carries the parent's axis
 * ({@code index << 2 | axis}), so that lane 0 writes the parent's info word without reading it back. Each mode of the
 * stage has its task method ({@link #build}, {@link #buildMasks}) around one body with the mode a constant: the
 * clipped kernel has no code of Zhou et al.'s culling (fewer registers: no spills at 96 per work-item).
 * <p>Measured and reverted (the H100, session 14): skipping the Sutherland–Hodgman planes that cut nothing made the
 * kernel slower (3.5 ms with the skip only while the polygon is the triangle, about 10 with a test loop per plane);
 * register caps of 64, 72 and 80 instead of 96 changed nothing measurable.
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

    /** The subtrees over clipped boxes (the default small stage): the kernel without Zhou et al.'s culling. */
    public static void build(KernelContext kc, int[] state, double[] c, float[] v, int[] gInt, int[] doneInt,
            float[] doneBox, float[] gVox, int[] gDepth, int[] gFirst, int[] gEnd, int[] order, int[] tStatus,
            int[] tNodes, int[] tWords, float[] rSplit, int[] rInfo, int[] rLeaf) {
        grow(kc, state, c, v, gInt, doneInt, doneBox, gVox, gDepth, gFirst, gEnd, order, tStatus, tNodes, tWords, rSplit,
                rInfo, rLeaf, 1);
    }

    /** The subtrees with Zhou et al.'s masks over the small roots' boxes ({@code --small-stage zhou-masks}). */
    public static void buildMasks(KernelContext kc, int[] state, double[] c, float[] v, int[] gInt, int[] doneInt,
            float[] doneBox, float[] gVox, int[] gDepth, int[] gFirst, int[] gEnd, int[] order, int[] tStatus,
            int[] tNodes, int[] tWords, float[] rSplit, int[] rInfo, int[] rLeaf) {
        grow(kc, state, c, v, gInt, doneInt, doneBox, gVox, gDepth, gFirst, gEnd, order, tStatus, tNodes, tWords, rSplit,
                rInfo, rLeaf, 0);
    }

    /**
     * The kernel's body; {@code clip} ({@link SmallKernels#S_CLIP}) is a constant of each task method, so that the
     * compiler drops the other mode's code (Zhou et al.'s culling: registers the clipped kernel does not need).
     */
    static void grow(KernelContext kc, int[] state, double[] c, float[] v, int[] gInt, int[] doneInt, float[] doneBox,
            float[] gVox, int[] gDepth, int[] gFirst, int[] gEnd, int[] order, int[] tStatus, int[] tNodes, int[] tWords,
            float[] rSplit, int[] rInfo, int[] rLeaf, int clip) {
        int l = kc.localIdx;
        int on = active(state, kc.groupIdx);
        int i = order[Math.min(kc.groupIdx, Math.max(state[SmallTaskGraphs.S_ROOTS] - 1, 0))]; // its root
        float[] cb = kc.allocateFloatLocalArray(6 * MAX_REFS);
        int[] id = kc.allocateIntLocalArray(MAX_REFS);
        double[] bc = kc.allocateDoubleLocalArray(LANES);
        float[] bp = kc.allocateFloatLocalArray(LANES);
        int[] ba = kc.allocateIntLocalArray(LANES);
        float[] sv = kc.allocateFloatLocalArray(6 * STACK);
        long[] sm = kc.allocateLongLocalArray(STACK);
        int[] si = kc.allocateIntLocalArray(3 * STACK);
        int[] ctl = kc.allocateIntLocalArray(4); // top, nodes, words, failed
        float[] box = new float[6];
        float[] vx = new float[6];
        float[] cv = new float[12]; // the children's voxels, right then left
        long[] cm = new long[2]; // the winner's masks (left, right), then the children's (right, left)
        int[] ce = new int[6]; // their (depth, parent, budget)
        double[] poly = new double[60];
        double[] bestC = new double[1]; // the lane's best candidate: cost, position, 2·axis + planar side (1: left)
        float[] bestP = new float[1];
        int[] bestA = new int[1];
        int f = first(on, gFirst, i);
        int m = refs(on, gFirst, gEnd, i);
        int status = status(state, gInt, on, i, f, m);
        int cap = state[S_FACTOR] * m;
        int loop = same(status, T_DEVICE);
        if (l == 0) {
            if (loop == 1) { // the root: every reference of its run
                for (int a = 0; a < 6; a++) {
                    sv[a] = gVox[6 * i + a];
                }
                sm[0] = SubtreeKernels.lowBits(m);
                si[0] = gDepth[i];
                si[1] = -1;
                si[2] = ReferenceBudget.FACTOR * m;
            }
            for (int a = 0; a < 4; a++) {
                ctl[a] = same(a, 0);
            }
        }
        kc.localBarrier();
        while (loop == 1) {
            int top = ctl[0] - 1;
            int n = ctl[1];
            int words = ctl[2];
            long mask = sm[top];
            int depth = si[3 * top];
            int par = si[3 * top + 1];
            int budget = si[3 * top + 2];
            for (int a = 0; a < 6; a++) {
                vx[a] = sv[6 * top + a];
            }
            kc.localBarrier();
            int mm = SmallKernels.popcount(mask);
            if (mm > 0) { // 1: the references by rank; item l clips ranks l, l + 32 (an empty node skips it)
                for (int q = l; q < MAX_REFS; q += LANES) {
                    if (((mask >>> q) & 1L) != 0L) {
                        id[SmallKernels.popcount(mask & ((1L << q) - 1L))] = q;
                    }
                }
                kc.localBarrier();
                for (int j = l; j < mm; j += LANES) {
                    refBox(clip, v, doneInt, doneBox, f + id[j], vx, poly, box);
                    for (int a = 0; a < 6; a++) {
                        cb[6 * j + a] = box[a];
                    }
                }
                kc.localBarrier();
            }
            // 2: candidate t = 6·j + 2·k + e (reference j by rank, axis k, box minimum e = 0 or maximum 1), counted
            // over the boxes in local memory (as Zhou et al.'s masks would be): left, right, either
            none(bestC, bestP, bestA);
            for (int t = l; t < 6 * mm; t += LANES) {
                int j = t / 6;
                int k = (t % 6) / 2;
                int e = t % 2;
                float x = cb[6 * j + 3 * e + k];
                if (candidate(x, cb[6 * j + k], vx, k, e) == 1) {
                    int cnt = 0; // left, right, either: 8 bits each (at most 64)
                    for (int jj = 0; jj < mm; jj++) {
                        int lo = below(cb[6 * jj + k], x);
                        int hi = below(x, cb[6 * jj + 3 + k]);
                        cnt += lo + (hi << 8) + ((lo | hi) << 16);
                    }
                    consider(vx, k, x, cnt & 255, (cnt >> 8) & 255, mm - (cnt >> 16), c, bestC, bestP, bestA);
                }
            }
            bc[l] = bestC[0];
            bp[l] = bestP[0];
            ba[l] = bestA[0];
            kc.localBarrier();
            // 3: the arg-min over the lanes holding candidates (not @Reduce: it carries the plane with the cost)
            for (int s = firstRound(mm); s > 0; s >>= 1) {
                if (l < s) {
                    int u = l + s;
                    if (LevelKernels.wins(bc[u], bp[u], ba[u], bc[l], bp[l], ba[l]) == 1) {
                        bc[l] = bc[u];
                        bp[l] = bp[u];
                        ba[l] = ba[u];
                    }
                }
                kc.localBarrier();
            }
            // 4: the winner's masks and the decision (every lane), a leaf's triangles; lane 0: the node, its children
            int k0 = Math.max(0, ba[0] >> 1);
            cm[0] = 0L;
            cm[1] = 0L;
            for (int jj = 0; jj < mm; jj++) {
                long bit = 1L << id[jj];
                cm[0] = cm[0] | (bit * below(cb[6 * jj + k0], bp[0]));
                cm[1] = cm[1] | (bit * below(bp[0], cb[6 * jj + 3 + k0]));
            }
            sides(mask, ba[0] & 1, cm);
            int nl = SmallKernels.popcount(cm[0]);
            int nr = SmallKernels.popcount(cm[1]);
            int axis = decide(state, c, ba[0] >> 1, bc[0], depth, mm, nl + nr, budget);
            int fail = overflow(n, words, mm, cap, axis);
            leafTriangles(fail, axis, l, mask, f, doneInt, rLeaf, SubtreeKernels.base(state, f) + words + 1);
            if (l == 0) {
                ctl[0] = top;
                ctl[1] = n + 1;
                ctl[2] = words;
                ctl[3] = fail;
                if (fail == 0) {
                    ctl[2] = writeNode(SubtreeKernels.base(state, f), n, par, axis, bp[0], words, mm, rSplit, rInfo, rLeaf);
                    if (axis >= 0) {
                        children(clip, v, doneInt, f, vx, axis, bp[0], cm[0], cm[1], cv, cm);
                        SubtreeKernels.childEntries(depth, n, budget, nl, nr, ce);
                        ce[1] = (n << 2) | axis; // the right child's parent with its axis (writeNode)
                        for (int a = 0; a < 6; a++) {
                            sv[6 * top + a] = cv[a];
                            sv[6 * top + 6 + a] = cv[6 + a];
                            si[3 * top + a] = ce[a];
                        }
                        sm[top] = cm[0];
                        sm[top + 1] = cm[1];
                        ctl[0] = top + 2;
                    }
                }
            }
            kc.localBarrier();
            loop = going(ctl[0], ctl[3]);
        }
        finish(state, l, on, i, kc.groupIdx, status, ctl[1], ctl[2], ctl[3], tStatus, tNodes, tWords);
    }

    // The steps of build that touch no local array (TornadoVM 5.2 addresses a local array passed to a callee as a
    // global one, docs/cbt.md): scalars, private and global arrays only; inlined into the kernel.

    /**
     * The first round of the lanes' arg-min for a node of mm references: the largest power of two below the lanes that
     * hold candidates (6·mm at most; lanes without one hold none), 0 for one lane or none.
     */
    static int firstRound(int mm) {
        int span = 6 * mm;
        if (span > LANES) {
            span = LANES;
        }
        int s0 = 0;
        for (int p = 1; p < span; p <<= 1) {
            s0 = p;
        }
        return s0;
    }

    /** The first reference of global node i's run in the hand-off list (0 when the work-group is idle). */
    static int first(int on, int[] gFirst, int i) {
        int f = 0;
        if (on == 1) {
            f = gFirst[i];
        }
        return f;
    }

    /** The number of references of global node i's run (0 when the work-group is idle). */
    static int refs(int on, int[] gFirst, int[] gEnd, int i) {
        int m = 0;
        if (on == 1) {
            m = gEnd[i] - gFirst[i];
        }
        return m;
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

    /** 1 when this work-group's global node i exists (the launch is rounded up to whole work-groups). */
    static int active(int[] state, int group) {
        int on = 0;
        if (group < state[SmallTaskGraphs.S_ROOTS]) {
            on = 1;
        }
        return on;
    }

    /**
     * Global node id before the build ({@link SmallTaskGraphs#roots}): a root to build here is marked T_DEVICE, every
     * other node gets its status and counts ({@link #status}, {@link #counts}).
     */
    static void mark(int[] state, int[] gInt, int id, int[] gFirst, int[] gEnd, int[] tStatus, int[] tNodes,
            int[] tWords) {
        counts(id, status(state, gInt, 1, id, gFirst[id], gEnd[id] - gFirst[id]), 0, 0, 0, tStatus, tNodes, tWords);
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

    /** The root's status before the build ({@link SubtreeKernels#kind}; a region that does not fit: the host's). */
    static int status(int[] state, int[] gInt, int on, int i, int f, int m) {
        int status = 0;
        if (on == 1) {
            status = SubtreeKernels.kind(gInt, i, m);
        }
        if (status == T_DEVICE) {
            if (SubtreeKernels.fits(state, f, m) == 0) {
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

    /** Lane l's share of a leaf's triangles (axis < 0 and no overflow), at their ranks from {@code at}. */
    static void leafTriangles(int fail, int axis, int l, long mask, int f, int[] doneInt, int[] rLeaf, int at) {
        int leaf = 0;
        if (fail == 0) {
            if (axis < 0) {
                leaf = 1;
            }
        }
        int end = MAX_REFS * leaf; // loop bounds before the loop (docs/cbt.md)
        for (int q = l; q < end; q += LANES) {
            if (((mask >>> q) & 1L) != 0L) {
                int rank = SmallKernels.popcount(mask & ((1L << q) - 1L));
                rLeaf[at + rank] = doneInt[2 * (f + q)];
            }
        }
    }

    /**
     * Node n of the region: its link from the parent (a right child; {@code par}: the parent's index and axis,
     * {@code index << 2 | axis}), and a leaf of mm references or a plane x on {@code axis}; returns the region's
     * leaf-list words after it.
     */
    static int writeNode(int nBase, int n, int par, int axis, float x, int words, int mm, float[] rSplit, int[] rInfo,
            int[] rLeaf) {
        int newWords = words;
        if (par >= 0) {
            rInfo[nBase + (par >> 2)] = (n << 2) | (par & 3); // its info word was its axis: not read back
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

    /** 1 while the stack holds entries and no region overflowed. */
    static int going(int top, int failed) {
        int r = 1;
        if (top == 0) {
            r = 0;
        }
        if (failed == 1) {
            r = 0;
        }
        return r;
    }

    /**
     * The masks (left, right) into cm: with Zhou et al.'s masks ({@code clip == 0}) the precomputed ones of candidate
     * (reference r, axis k, end e) within the node's mask, else zero (the caller forms them over the clipped boxes).
     */
    static void zhouMasks(int[] state, long[] cMask, int clip, int r, int k, int e, long mask, long[] cm) {
        cm[0] = 0L;
        cm[1] = 0L;
        if (clip == 0) {
            int slot = Math.min(6 * r + 2 * k + e, state[S_CSLOTS] - 1);
            cm[0] = mask & cMask[2 * slot];
            cm[1] = mask & cMask[2 * slot + 1];
        }
    }

    /**
     * Lane 0: global node i's status and counts after its build (a region overflow: the host's), and work-group 0's
     * heartbeat.
     */
    static void finish(int[] state, int l, int on, int i, int group, int status, int nodes, int words, int failed,
            int[] tStatus, int[] tNodes, int[] tWords) {
        if (l == 0) {
            if (on == 1) {
                counts(i, status, nodes, words, failed, tStatus, tNodes, tWords);
            }
            if (group == 0) {
                SmallKernels.beat(state, SmallTaskGraphs.BUILD);
            }
        }
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
