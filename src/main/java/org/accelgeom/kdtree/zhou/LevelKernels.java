package org.accelgeom.kdtree.zhou;

import static org.accelgeom.kdtree.zhou.LevelBuffers.BINS;
import static org.accelgeom.kdtree.zhou.LevelBuffers.CHUNK;
import static org.accelgeom.kdtree.zhou.LevelBuffers.C_BEAT;
import static org.accelgeom.kdtree.zhou.LevelBuffers.C_D;
import static org.accelgeom.kdtree.zhou.LevelBuffers.C_DBASE;
import static org.accelgeom.kdtree.zhou.LevelBuffers.C_FORCE;
import static org.accelgeom.kdtree.zhou.LevelBuffers.C_L;
import static org.accelgeom.kdtree.zhou.LevelBuffers.C_M;
import static org.accelgeom.kdtree.zhou.LevelBuffers.C_R;
import static org.accelgeom.kdtree.zhou.LevelBuffers.DONE;
import static org.accelgeom.kdtree.zhou.LevelBuffers.HANDED;
import static org.accelgeom.kdtree.zhou.LevelBuffers.N_AXIS;
import static org.accelgeom.kdtree.zhou.LevelBuffers.N_CHILD;
import static org.accelgeom.kdtree.zhou.LevelBuffers.N_SPLIT;
import static org.accelgeom.kdtree.zhou.LevelBuffers.NODE_BINS;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_CHUNKS;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_DEPTH;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_DEPTH_LIMIT;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_GBASE;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_GCAP;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_M;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_MODE;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_PARITY;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_MCAP;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_R;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_RCAP;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_SEQ;
import static org.accelgeom.kdtree.zhou.LevelBuffers.P_SMALL;

import org.accelgeom.kdtree.KdTreeKernels;

/**
 * Element kernels of the breadth-first large-node stage (Zhou, Hou, Wang &amp; Guo, "Real-time kd-tree
 * construction on graphics hardware", SIGGRAPH Asia 2008, §4.2, Alg. 2 "process large nodes"), in the TornadoVM
 * subset. One level is five kernels over the flat arrays of {@link LevelBuffers}:
 * <ol>
 * <li>{@link #binRef}: per reference, the start and end bins of its clipped box on each axis in its node's
 * histograms (atomic increments on the device; Zhou et al.'s per-node reductions, here as counts);
 * <li>{@link #splitNode}: per node, the binned SAH over the {@link LevelBuffers#BINS} − 1 inner bin boundaries
 * per axis (planes with an empty side get λ: empty-space cutting at bin resolution), and the decision: split, or
 * hand the node to the small-node stage (at most {@code small} references, the depth limit, or a cost above
 * K_I·|T|, eq. 3.6); it clears its histograms for the next level;
 * <li>{@link #countChunk}: per chunk of {@link LevelBuffers#CHUNK} references, each reference's side and the
 * chunk's numbers of left, right and handed-on outputs;
 * <li>{@link #scan}: one work-item, the exclusive prefix sums of the chunks' counts and of the split nodes'
 * children (Zhou et al.'s scans for compaction), the next level's sizes, and the capacity check;
 * <li>{@link #scatterChunk} and {@link #scatterNode}: the compaction: each chunk writes its references to the next
 * level (left outputs first, then right outputs, each in reference order) or to the hand-off list, straddlers
 * clipped to the child on the split axis; each node writes its global record and its children's voxels.
 * </ol>
 * Every count is an integer and every order follows from prefix sums, so the result does not depend on the
 * order in which work-items run: the jvm reference and the device build the same arrays.
 *
 * <p>Precision: boxes and planes float; bin indices and plane positions from double arithmetic (one IEEE
 * operation each, the same on every backend); SAH in double. No product feeds a sum: TornadoVM 5.2 fuses such
 * pairs into fma() on the device, which would round differently from Java ({@link #halfArea}).
 */
public final class LevelKernels {

    private LevelKernels() {
    }

    /** The bin of x in [lo, hi] split into {@link LevelBuffers#BINS} equal bins, clamped (a flat extent: bin 0). */
    public static int bin(float x, float lo, float hi) {
        double w = (double) hi - lo;
        int b = 0;
        if (w > 0) {
            b = (int) (((double) x - lo) * BINS / w);
        }
        return Math.max(0, Math.min(BINS - 1, b));
    }

    /** Position of inner bin boundary j (1 .. BINS-1) of [lo, hi]. */
    public static float boundary(float lo, float hi, int j) {
        return (float) (lo - (-j * ((double) hi - lo)) / BINS); // lo + j·w/BINS, written without a sum of a product (see sahAt)
    }

    /**
     * Kernel 1 for reference r: its six histogram slots ({@code slots[so .. so+5]}: start and end bin per axis in
     * its node's histograms), or -1 for r beyond the level. MODE_LOAD first makes the root's reference r
     * (triangle r, its own box, node 0), and work-item 0 the root node.
     */
    public static void binRef(int[] state, float[] rootBounds, float[] rootBox, int[] refInt, float[] refBox,
            float[] vox, int[] g, int r, int[] slots, int so) {
        int in = state[P_PARITY];
        int load = 0;
        if (state[P_MODE] == LevelBuffers.MODE_LOAD) {
            load = 1;
        }
        if (r == 0 && load == 1) {
            for (int q = 0; q < 6; q++) {
                vox[q] = rootBounds[q];
            }
            g[0] = 0;
            state[C_D] = 0;
        }
        int rCap = state[P_RCAP];
        int mCap = state[P_MCAP];
        for (int q = 0; q < 6; q++) {
            slots[so + q] = -1;
        }
        if (r < state[P_R]) {
            int ref = in * rCap + r;
            if (load == 1) {
                refInt[2 * ref] = r;
                refInt[2 * ref + 1] = 0;
                for (int q = 0; q < 6; q++) {
                    refBox[6 * ref + q] = rootBox[6 * r + q];
                }
            }
            int n = refInt[2 * ref + 1];
            if (load == 1) {
                n = 0;
            }
            int vo = 6 * (in * mCap + n);
            for (int k = 0; k < 3; k++) {
                float lo = rootBounds[k];
                float hi = rootBounds[3 + k];
                if (load == 0) {
                    lo = vox[vo + k];
                    hi = vox[vo + 3 + k];
                }
                for (int e = 0; e < 2; e++) {
                    float x = refBox[6 * ref + 3 * e + k];
                    slots[so + 2 * k + e] = n * NODE_BINS + (2 * k + e) * BINS + bin(x, lo, hi);
                }
            }
        }
    }

    /**
     * The SAH cost (the thesis's Algorithm 2, {@link KdTreeKernels#sah}) of splitting voxel {@code v[o .. o+5]}
     * at (k, ξ) with nL and nR references on the sides (no planar set: binned counts).
     */
    public static double sahAt(float[] v, int o, int k, float xi, int nL, int nR, double[] c) {
        double dx = (double) v[o + 3] - v[o];
        double dy = (double) v[o + 4] - v[o + 1];
        double dz = (double) v[o + 5] - v[o + 2];
        double nz = (double) v[o + 2] - v[o + 5]; // -dz, exactly
        double left = (double) xi - v[o + k];
        double right = (double) v[o + 3 + k] - xi;
        double l = left; // the children's extents on axis k (negated on z, as nz)
        double r = right;
        if (k == 2) {
            l = (double) v[o + k] - xi;
            r = (double) xi - v[o + 3 + k];
        }
        double a = halfArea(dx, dy, nz);
        double pL = halfArea(KdTreeKernels.with(dx, dy, nz, k, l, 0), KdTreeKernels.with(dx, dy, nz, k, l, 1),
                KdTreeKernels.with(dx, dy, nz, k, l, 2)) / a;
        double pR = halfArea(KdTreeKernels.with(dx, dy, nz, k, r, 0), KdTreeKernels.with(dx, dy, nz, k, r, 1),
                KdTreeKernels.with(dx, dy, nz, k, r, 2)) / a;
        double lam = 1.0;
        int wideL = 0; // flags as ints, no compound conditions over doubles (TornadoVM 5.2, see clipToSide)
        int wideR = 0;
        if (left > 0) {
            wideL = 1;
        }
        if (right > 0) {
            wideR = 1;
        }
        if (nL == 0) {
            if (wideL == 1) {
                lam = c[KdTreeKernels.LAMBDA]; // the empty-space bonus (eq. 3.7), for a child of non-zero width
            }
        }
        if (nR == 0) {
            if (wideR == 1) {
                lam = c[KdTreeKernels.LAMBDA];
            }
        }
        double minusSum = pR * (double) (-nR) - pL * nL; // -(P_L·N_L + P_R·N_R)
        double result = lam * (c[KdTreeKernels.KT] - c[KdTreeKernels.KI] * minusSum);
        if (!(a > 0)) {
            result = Double.POSITIVE_INFINITY;
        }
        return result;
    }

    /**
     * 1 when (cost a, position a, axis a) comes before b in {@link KdTreeKernels#better}'s order (lower cost, then
     * position, then axis), else 0; with int flags instead of compound conditions over doubles (TornadoVM 5.2).
     */
    public static int better(double costA, float posA, int axisA, double costB, float posB, int axisB) {
        int lower = 0;
        int same = 0;
        int before = 0;
        int samePos = 0;
        int axisBefore = 0;
        if (costA < costB) {
            lower = 1;
        }
        if (costA == costB) {
            same = 1;
        }
        if (posA < posB) {
            before = 1;
        }
        if (posA == posB) {
            samePos = 1;
        }
        if (axisA < axisB) {
            axisBefore = 1;
        }
        return Math.min(1, lower + same * before + same * samePos * axisBefore);
    }

    /**
     * 1 when A (axis −1: none) is kept over the best so far B (axis −1: none): A exists and B does not, or A comes
     * first ({@link #better}); the arg-min step of every plane choice (kernel 2, the small stage's lanes).
     */
    public static int wins(double costA, float posA, int axisA, double costB, float posB, int axisB) {
        int take = 0;
        if (axisA >= 0) {
            take = 1;
            if (axisB >= 0) {
                take = better(costA, posA, axisA, costB, posB, axisB);
            }
        }
        return take;
    }

    /**
     * dx·dy + dy·dz + dz·dx from dx, dy and nz = −dz, as differences of products: TornadoVM's OpenCL backend fuses
     * a product that feeds a sum into fma(), which rounds once where Java rounds twice; differences are left alone,
     * so the jvm and the device compute the same bits and pick the same planes.
     */
    static double halfArea(double dx, double dy, double nz) {
        return dx * dy - dy * nz - nz * dx;
    }

    /**
     * Kernel 2, node i of the level: its reference count (the starts of axis 0), the best binned plane (lowest cost,
     * then position, then axis: {@link KdTreeKernels#better}) and the decision; records its voxel globally and
     * clears its histograms for the next level. The tornado backend runs it as a work-group per node, one item per
     * bin boundary, with the same per-plane steps ({@link #boundary}, {@link #inner}, {@link #sahAt}, {@link #better})
     * and the same end ({@link #decide}, {@link #record}).
     */
    public static void splitNode(int[] state, double[] c, int[] bins, float[] vox, int i, int[] nodeInt,
            float[] nodePos, float[] gVox, int[] gDepth) {
        int base = i * NODE_BINS;
        int count = 0;
        for (int b = 0; b < BINS; b++) {
            count += bins[base + b];
        }
        double best = 0.0;
        float bestPos = 0f;
        int bestAxis = -1;
        int o = 6 * (state[P_PARITY] * state[P_MCAP] + i);
        for (int k = 0; k < 3; k++) {
            float lo = vox[o + k];
            float hi = vox[o + 3 + k];
            int nl = 0;
            int nr = count;
            for (int j = 1; j < BINS; j++) {
                nl += bins[base + 2 * k * BINS + j - 1];
                nr -= bins[base + (2 * k + 1) * BINS + j - 1];
                float xi = boundary(lo, hi, j);
                if (inner(lo, hi, xi) == 1) {
                    double cost = sahAt(vox, o, k, xi, nl, nr, c);
                    if (wins(cost, xi, k, best, bestPos, bestAxis) == 1) {
                        best = cost;
                        bestPos = xi;
                        bestAxis = k;
                    }
                }
            }
        }
        record(state, vox, i, bestAxis, decide(state, c, count, best, bestAxis), bestPos, nodeInt, nodePos, gVox, gDepth);
        for (int q = 0; q < NODE_BINS; q++) {
            bins[base + q] = 0;
        }
    }

    /** 1 when the plane ξ lies strictly inside (lo, hi), a candidate of kernel 2; else 0 (a flat or tiny extent). */
    public static int inner(float lo, float hi, float xi) {
        int inside = 0;
        if (xi > lo) {
            inside = 1;
        }
        if (!(xi < hi)) {
            inside = 0;
        }
        return inside;
    }

    /**
     * Kernel 2's decision for a node of {@code count} references whose best plane costs {@code best} ({@code bestAxis}
     * -1: no candidate): 1 to split, 0 to hand it to the small-node stage (at most {@code small} references, the depth
     * limit, no plane, a cost above K_I·|T| (eq. 3.6), or a level that hands everything on).
     */
    public static int decide(int[] state, double[] c, int count, double best, int bestAxis) {
        int split = 1;
        if (count <= state[P_SMALL]) {
            split = 0;
        }
        if (state[P_DEPTH] >= state[P_DEPTH_LIMIT]) {
            split = 0;
        }
        if (bestAxis < 0) {
            split = 0;
        }
        if (best > c[KdTreeKernels.KI] * count) {
            split = 0;
        }
        if (state[LevelBuffers.P_HAND_ALL] == 1) {
            split = 0;
        }
        return split;
    }

    /** The end of kernel 2 for node i: its split axis (0 when none), decision and plane; its voxel and depth globally. */
    public static void record(int[] state, float[] vox, int i, int bestAxis, int split, float bestPos, int[] nodeInt,
            float[] nodePos, float[] gVox, int[] gDepth) {
        int o = 6 * (state[P_PARITY] * state[P_MCAP] + i);
        nodeInt[3 * i + N_AXIS] = Math.max(0, bestAxis);
        nodeInt[3 * i + N_SPLIT] = split;
        nodePos[i] = bestPos;
        int gi = state[P_GBASE] + i;
        for (int q = 0; q < 6; q++) {
            gVox[6 * gi + q] = vox[o + q];
        }
        gDepth[gi] = state[P_DEPTH];
    }

    /**
     * Kernel 3, chunk ch of the level's references: each one's side (a box ending at or before ξ goes left, one
     * starting at or after ξ right, a flat one at ξ right, others both; a node that is not split hands its
     * references on) and the chunk's counts of left, right and handed-on outputs.
     */
    public static void countChunk(int[] state, int[] refInt, float[] refBox, int[] nodeInt, float[] nodePos, int ch,
            int[] side, int[] chunk) {
        int from = ch * CHUNK;
        int to = Math.min(state[P_R], from + CHUNK);
        int cl = 0;
        int cr = 0;
        int cd = 0;
        for (int r = from; r < to; r++) {
            int s = side(state, r, refInt, refBox, nodeInt, nodePos);
            side[r] = s;
            cl += s & 1;
            cr += (s >> 1) & 1;
            cd += (s >> 2) & 1;
        }
        chunk[6 * ch] = cl;
        chunk[6 * ch + 1] = cr;
        chunk[6 * ch + 2] = cd;
    }

    /** Kernel 3 for reference r of the level: its side (LEFT, RIGHT, BOTH, or DONE when its node is not split). */
    public static int side(int[] state, int r, int[] refInt, float[] refBox, int[] nodeInt, float[] nodePos) {
        int ref = state[P_PARITY] * state[P_RCAP] + r;
        int n = refInt[2 * ref + 1];
        int k = nodeInt[3 * n + N_AXIS];
        float xi = nodePos[n];
        float lo = refBox[6 * ref + k];
        float hi = refBox[6 * ref + 3 + k];
        int s = LevelBuffers.BOTH;
        if (hi <= xi) {
            s = LevelBuffers.LEFT;
        }
        if (lo >= xi) {
            s = LevelBuffers.RIGHT; // also a flat box at ξ: the binned planes send planar references right
        }
        if (nodeInt[3 * n + N_SPLIT] == 0) {
            s = DONE;
        }
        return s;
    }

    /**
     * The step from one level to the next (the host's, and on the device the task between the two levels of one
     * execution): the next level's nodes and references become the level's, depth and parity advance, the tail cut
     * ({@link LevelBuffers#P_TAIL}) and the chunks are set, and the level count grows; nothing after a level without
     * nodes (the stage has ended).
     */
    public static void advance(int[] state) {
        if (state[P_M] > 0) {
            state[P_MODE] = LevelBuffers.MODE_LEVEL;
            state[P_GBASE] = state[P_GBASE] + state[P_M];
            state[P_M] = state[C_M];
            state[P_R] = state[C_R];
            state[P_DEPTH] = state[P_DEPTH] + 1;
            state[P_PARITY] = 1 - state[P_PARITY];
            int hand = 0;
            if (state[P_R] < state[LevelBuffers.P_TAIL]) {
                hand = 1;
            }
            state[LevelBuffers.P_HAND_ALL] = hand;
            state[P_CHUNKS] = (state[P_R] + CHUNK - 1) / CHUNK;
            state[LevelBuffers.C_LEVELS] = state[LevelBuffers.C_LEVELS] + 1;
        }
    }

    /**
     * Kernel 4, one work-item: exclusive prefix sums of the split nodes' children and of the chunks' counts; the
     * next level's node and reference counts. When the next level or the hand-off list would not fit the
     * capacities, the level is forced: every node is handed to the small-node stage (a build never fails for space).
     */
    public static void scan(int[] state, int[] nodeInt, int[] chunk) {
        int m = state[P_M];
        int run = 0;
        for (int i = 0; i < m; i++) {
            run += 2 * nodeInt[3 * i + N_SPLIT];
        }
        childOffsets(nodeInt, 0, m, 0);
        int chunks = state[P_CHUNKS];
        int l = 0;
        int r = 0;
        int d = 0;
        for (int ch = 0; ch < chunks; ch++) {
            l += chunk[6 * ch];
            r += chunk[6 * ch + 1];
            d += chunk[6 * ch + 2];
        }
        chunkOffsets(chunk, 0, chunks, 0, 0, 0);
        scanTail(state, run, l, r, d);
    }

    /** Nodes [from, to) of kernel 4: each split node's children's offset, from {@code run} on. */
    public static void childOffsets(int[] nodeInt, int from, int to, int run) {
        int x = run;
        for (int i = from; i < to; i++) {
            nodeInt[3 * i + N_CHILD] = x;
            x += 2 * nodeInt[3 * i + N_SPLIT];
        }
    }

    /** Chunks [from, to) of kernel 4: each chunk's left, right and handed-on offsets, from (l, r, d) on. */
    public static void chunkOffsets(int[] chunk, int from, int to, int l, int r, int d) {
        int xl = l;
        int xr = r;
        int xd = d;
        for (int ch = from; ch < to; ch++) {
            chunk[6 * ch + 3] = xl;
            chunk[6 * ch + 4] = xr;
            chunk[6 * ch + 5] = xd;
            xl += chunk[6 * ch];
            xr += chunk[6 * ch + 1];
            xd += chunk[6 * ch + 2];
        }
    }

    /**
     * The end of kernel 4 from its totals (split children {@code run}, left, right and handed-on references): the
     * next level's counts, or a forced level when they would not fit. The tornado backend's work-group scan ends here
     * too.
     */
    public static void scanTail(int[] state, int run, int l, int r, int d) {
        int m = state[P_M];
        int dBase = state[C_D];
        int cap = state[P_RCAP];
        int force = 0;
        if (l + r > cap) {
            force = 1;
        }
        if (dBase + d + l + r > cap) {
            force = 1;
        }
        if (run > state[P_MCAP]) {
            force = 1;
        }
        if (state[P_GBASE] + m + run > state[P_GCAP]) {
            force = 1;
        }
        int nextM = run;
        int nextR = l + r;
        int newD = dBase + d;
        if (force == 1) {
            nextM = 0;
            nextR = 0;
            newD = dBase + state[P_R];
        }
        state[C_DBASE] = dBase;
        state[C_L] = l;
        state[C_M] = nextM;
        state[C_R] = nextR;
        state[C_D] = newD;
        state[C_FORCE] = force;
    }

    /**
     * Kernel 5, chunk ch: its references to the next level (left outputs from the chunk's left offset, right ones
     * after all left ones; children's ids from the scan; straddlers clipped, {@link #clipToSide}) or to the
     * hand-off list.
     */
    public static void scatterChunk(int[] state, int ch, float[] v, int[] refInt, float[] refBox, int[] side,
            int[] nodeInt, float[] nodePos, int[] g, int[] chunk, int[] doneInt, float[] doneBox) {
        int from = ch * CHUNK;
        int to = Math.min(state[P_R], from + CHUNK);
        int force = state[C_FORCE];
        int ol = chunk[6 * ch + 3];
        int or = chunk[6 * ch + 4];
        int od = chunk[6 * ch + 5];
        if (force == 1) {
            od = from;
        }
        for (int r = from; r < to; r++) {
            int s = side[r];
            if (force == 1) {
                s = DONE;
            }
            scatterRef(state, r, s, ol, or, od, v, refInt, refBox, nodeInt, nodePos, g, doneInt, doneBox);
            ol += s & 1;
            or += (s >> 1) & 1;
            od += (s >> 2) & 1;
        }
    }

    /**
     * Kernel 5 for reference r of the level on side s (DONE on a forced level): to the next level's left outputs at
     * index {@code ol}, its right outputs at {@code or} (after all left ones), or the hand-off list at {@code od}
     * (indices relative to those lists' starts this level).
     */
    public static void scatterRef(int[] state, int r, int s, int ol, int or, int od, float[] v, int[] refInt,
            float[] refBox, int[] nodeInt, float[] nodePos, int[] g, int[] doneInt, float[] doneBox) {
        int in = state[P_PARITY];
        int rCap = state[P_RCAP];
        int ref = in * rCap + r;
        int outBase = (1 - in) * rCap;
        int t = refInt[2 * ref];
        int n = refInt[2 * ref + 1];
        int k = nodeInt[3 * n + N_AXIS];
        int child = nodeInt[3 * n + N_CHILD];
        float xi = nodePos[n];
        if (s == DONE) {
            int d = state[C_DBASE] + od;
            doneInt[2 * d] = t;
            doneInt[2 * d + 1] = g[in * state[P_MCAP] + n];
            for (int q = 0; q < 6; q++) {
                doneBox[6 * d + q] = refBox[6 * ref + q];
            }
        }
        if ((s & 1) != 0) {
            int o = outBase + ol;
            refInt[2 * o] = t;
            refInt[2 * o + 1] = child;
            for (int q = 0; q < 6; q++) {
                refBox[6 * o + q] = refBox[6 * ref + q];
            }
            if (s == LevelBuffers.BOTH) {
                clipToSide(v, t, k, xi, 1, refBox, 6 * ref, refBox, 6 * o);
            }
        }
        if ((s & 2) != 0) {
            int o = outBase + state[C_L] + or;
            refInt[2 * o] = t;
            refInt[2 * o + 1] = child + 1;
            for (int q = 0; q < 6; q++) {
                refBox[6 * o + q] = refBox[6 * ref + q];
            }
            if (s == LevelBuffers.BOTH) {
                clipToSide(v, t, k, xi, 0, refBox, 6 * ref, refBox, 6 * o);
            }
        }
    }

    /** The largest float at most x, or a little below (x - 2^-22·|x| - 1e-30, rounded: conservative, branch-free). */
    static float down(double x) {
        return (float) (x - Math.abs(x) * 0x1p-22 - 1e-30); // differences only (see halfArea)
    }

    /** The smallest float at least x, or a little above. */
    static float up(double x) {
        return (float) (x - Math.abs(x) * -0x1p-22 - -1e-30);
    }

    /** The box {@code e} (min x y z, max x y z) extended by the point (x, y, z). */
    static void extend(double[] e, double x, double y, double z) {
        for (int a = 0; a < 3; a++) {
            double p = KdTreeKernels.comp(x, y, z, a);
            e[a] = Math.min(e[a], p);
            e[3 + a] = Math.max(e[3 + a], p);
        }
    }

    /**
     * Split clipping of a straddler: the box of the part of triangle t on one side of the plane (k, ξ) (left:
     * x_k ≤ ξ; right: x_k ≥ ξ), from its vertices on that side and its edges' crossings of the plane (in double,
     * rounded outwards), intersected with the reference's box {@code box[bo .. bo+5]}, which bounds t ∩ V: so the
     * result bounds t ∩ V_child. Repeated at every level, it keeps the boxes close to the perfect-split boxes
     * (Wald &amp; Havran §4.4) without a polygon clipper on the device; the hand-off clips exactly. Should
     * rounding empty the box, the reference's box cut at ξ is kept.
     */
    public static void clipToSide(float[] v, int t, int k, float xi, int left, float[] box, int bo, float[] out, int oo) {
        // the kept part's box (min x y z, max x y z); finite starts beyond any float (TornadoVM 5.2 narrowed
        // min(+inf, (double) f) to an ill-typed fmin)
        double[] e = new double[6];
        for (int a = 0; a < 3; a++) {
            e[a] = 1e300;
            e[3 + a] = -1e300;
        }
        double sign = 1.0;
        if (left == 1) {
            sign = -1.0;
        }
        for (int i = 0; i < 3; i++) {
            int j = i + 1;
            if (j == 3) {
                j = 0;
            }
            double ax = v[9 * t + 3 * i];
            double ay = v[9 * t + 3 * i + 1];
            double az = v[9 * t + 3 * i + 2];
            double bx = v[9 * t + 3 * j];
            double by = v[9 * t + 3 * j + 1];
            double bz = v[9 * t + 3 * j + 2];
            double ak = KdTreeKernels.comp(ax, ay, az, k);
            double bk = KdTreeKernels.comp(bx, by, bz, k);
            double da = (ak - xi) * sign; // >= 0: on the kept side
            double db = (bk - xi) * sign;
            if (da >= 0) {
                extend(e, ax, ay, az);
            }
            // sign flags as ints: TornadoVM 5.2 miscompiled (da < 0 && db > 0) here (edges below the plane "crossed")
            int an = 0;
            int ap = 0;
            int bn = 0;
            int bp = 0;
            if (da < 0) {
                an = 1;
            }
            if (da > 0) {
                ap = 1;
            }
            if (db < 0) {
                bn = 1;
            }
            if (db > 0) {
                bp = 1;
            }
            if (an * bp + ap * bn == 1) {
                double s = da / (da - db); // the crossing's parameter along a→b
                double px = ax - s * (ax - bx); // a difference of a product (see halfArea)
                double py = ay - s * (ay - by);
                double pz = az - s * (az - bz);
                if (k == 0) {
                    px = xi;
                }
                if (k == 1) {
                    py = xi;
                }
                if (k == 2) {
                    pz = xi;
                }
                extend(e, px, py, pz);
            }
        }
        float lx = Math.max(box[bo], down(e[0]));
        float ly = Math.max(box[bo + 1], down(e[1]));
        float lz = Math.max(box[bo + 2], down(e[2]));
        float hx = Math.min(box[bo + 3], up(e[3]));
        float hy = Math.min(box[bo + 4], up(e[4]));
        float hz = Math.min(box[bo + 5], up(e[5]));
        int bad = 0;
        if (lx > hx) {
            bad = 1;
        }
        if (ly > hy) {
            bad = 1;
        }
        if (lz > hz) {
            bad = 1;
        }
        if (bad == 1) {
            lx = box[bo];
            ly = box[bo + 1];
            lz = box[bo + 2];
            hx = box[bo + 3];
            hy = box[bo + 4];
            hz = box[bo + 5];
        }
        out[oo] = lx + 0.0f;
        out[oo + 1] = ly + 0.0f;
        out[oo + 2] = lz + 0.0f;
        out[oo + 3] = hx + 0.0f;
        out[oo + 4] = hy + 0.0f;
        out[oo + 5] = hz + 0.0f;
        // the side's half-space: the kept part lies on the plane's side
        if (left == 1) {
            out[oo + 3 + k] = Math.min(out[oo + 3 + k], xi);
        }
        if (left == 0) {
            out[oo + k] = Math.max(out[oo + k], xi);
        }
    }

    /**
     * Kernel 5, node i: its global record (split axis, plane and left child's id, or handed on) and its children's
     * voxels and ids in the next level's node buffer.
     */
    public static void scatterNode(int[] state, int i, int[] nodeInt, float[] nodePos, float[] vox, int[] g,
            int[] gInt, float[] gPos) {
        int in = state[P_PARITY];
        int mCap = state[P_MCAP];
        int gi = g[in * mCap + i];
        int split = nodeInt[3 * i + N_SPLIT];
        if (state[C_FORCE] == 1) {
            split = 0;
        }
        int k = nodeInt[3 * i + N_AXIS];
        float xi = nodePos[i];
        int ch = nodeInt[3 * i + N_CHILD];
        int gNext = state[P_GBASE] + state[P_M];
        gInt[2 * gi] = HANDED;
        gInt[2 * gi + 1] = -1;
        gPos[gi] = 0f;
        if (split == 1) {
            gInt[2 * gi] = k;
            gInt[2 * gi + 1] = gNext + ch;
            gPos[gi] = xi;
            int out = (1 - in) * mCap + ch;
            g[out] = gNext + ch;
            g[out + 1] = gNext + ch + 1;
            int io = 6 * (in * mCap + i);
            for (int q = 0; q < 6; q++) {
                vox[6 * out + q] = vox[io + q];
                vox[6 * out + 6 + q] = vox[io + q];
            }
            vox[6 * out + 3 + k] = xi;
            vox[6 * out + 6 + k] = xi;
        }
    }
}
