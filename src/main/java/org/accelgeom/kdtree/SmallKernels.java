package org.accelgeom.kdtree;

import static org.accelgeom.kdtree.LevelBuffers.CHUNK;
import static org.accelgeom.kdtree.LevelBuffers.HANDED;
import static org.accelgeom.kdtree.LevelBuffers.P_DEPTH_LIMIT;
import static org.accelgeom.kdtree.LevelBuffers.P_SEQ;

/**
 * Element kernels of the small-node stage of Zhou, Hou, Wang &amp; Guo, "Real-time kd-tree construction on graphics
 * hardware" (SIGGRAPH Asia 2008), §4.3 (Alg. 4 "preprocess small nodes", Alg. 5 "process small nodes"), in the
 * TornadoVM subset, over {@link SmallBuffers}. A small root is a node the large-node stage handed on with at most
 * {@link #MAX_REFS} references; its references are a contiguous run of the hand-off list (the large stage writes
 * each level's outputs grouped by node, in node order), so bit q of a mask stands for the run's q-th reference.
 * <ol>
 * <li>{@link #clear}, {@link #bounds}: each global node's run [first, end) in the hand-off list;
 * <li>{@link #seed}: the first small level = every global node (inactive unless a small root); the large nodes'
 * records copied to the output records; a handed node of more than 64 references becomes an
 * {@link #EXTERNAL} record (the host builds it by the exact SAH);
 * <li>{@link #candidates}: per hand-off reference, Zhou et al.'s split candidates, the ends of its box on each axis,
 * with the masks of the root's references whose boxes start below (left) and end above (right) the plane;
 * <li>per level: {@link #splitNode} (per node: the SAH of every candidate of its references inside its voxel from
 * popcounts, C = λ·(K_T + K_I·(P_L·N_L + P_R·N_R)), planar references tried on both sides, the arg-min, and the
 * decision), {@link #countChunk}, {@link #scan} (children's offsets, capacity check), {@link #scatter} (output
 * records; the children: masks {@code mask & left}, {@code mask & right}, the planar ones on the chosen side).
 * </ol>
 *
 * <p>Clipping: none inside the small stage (as in Zhou et al.): a reference keeps its box from the hand-off, which
 * the large stage clipped to each child's side at every split ({@link LevelKernels#clipToSide}), so it bounds the
 * triangle's part in the small root's voxel; a straddler goes to both children with that box. Every count is a
 * popcount and every order comes from prefix sums: the jvm and the device build the same records.
 */
public final class SmallKernels {

    /** One 64-bit mask per node: small roots have at most 64 references. */
    public static final int MAX_REFS = 64;

    /** Record kinds besides split axes 0..2: a leaf (mask over its small root's references), a host subtree. */
    public static final int LEAF = 3;
    public static final int EXTERNAL = 4;

    /** {@link LevelBuffers#state} slots of this stage: parameters set by the host. */
    public static final int S_MODE = 32;
    /** Nodes of this small level. */
    public static final int S_M = 33;
    public static final int S_PARITY = 34;
    public static final int S_CHUNKS = 35;
    /** Id of the first child record this level writes. */
    public static final int S_OUT = 36;
    /** Global nodes of the large stage. */
    public static final int S_G = 37;
    /** References in the hand-off list. */
    public static final int S_D = 38;
    public static final int S_SMCAP = 39;
    public static final int S_OCAP = 40;
    /** 1: references clipped exactly to each node's voxel; 0: Zhou et al.'s masks over the small root's boxes. */
    public static final int S_CLIP = 41;
    /** Length of the candidates' position array (indices are clamped to it: loads under a false guard stay in bounds). */
    public static final int S_CSLOTS = 42;
    /** Counters set by the kernels: next level's nodes, the forced flag, records so far; heartbeats. */
    public static final int S_NEXT_M = 48;
    public static final int S_FORCE = 49;
    public static final int S_TOTAL = 50;
    public static final int S_BEAT = 52;

    /** No small-stage work in this execution (the large-node levels). */
    public static final int MODE_OFF = 0;
    /** The first small execution: runs, seed, candidates, then level 0. */
    public static final int MODE_SEED = 1;
    public static final int MODE_LEVEL = 2;

    private SmallKernels() {
    }

    /** The number of set bits (OpenCL popcount on the device: TornadoVM 5.2 maps Long.bitCount to it). */
    public static int popcount(long x) {
        return Long.bitCount(x);
    }

    /** Global node i: an empty run (nodes without references keep it). */
    public static void clear(int[] state, int i, int[] gFirst, int[] gEnd) {
        if (i < state[S_G]) {
            gFirst[i] = 0;
            gEnd[i] = 0;
        }
    }

    /** Hand-off reference r: the start and end of its node's run (each written by one work-item). */
    public static void bounds(int[] state, int r, int[] doneInt, int[] gFirst, int[] gEnd) {
        int d = state[S_D];
        if (r < d) {
            int gid = doneInt[2 * r + 1];
            int prev = doneInt[2 * Math.max(0, r - 1) + 1];
            int next = doneInt[2 * Math.min(d - 1, r + 1) + 1];
            if (r == 0) {
                prev = -1;
            }
            if (r == d - 1) {
                next = -1;
            }
            if (prev != gid) {
                gFirst[gid] = r;
            }
            if (next != gid) {
                gEnd[gid] = r + 1;
            }
        }
    }

    /**
     * Global node i: slot i of the first small level (active for a handed node of at most 64 references: all its
     * references in the mask), and its output record: the large stage's split, or {@link #EXTERNAL} for a handed
     * node of more references (its record is written by the host).
     */
    public static void seed(int[] state, int i, int[] gInt, float[] gPos, float[] gVox, int[] gDepth, int[] gFirst,
            int[] gEnd, int[] sRoot, long[] sMask, float[] sVox, int[] sDepth, int[] sId, int[] oInt, float[] oPos,
            long[] oMask) {
        if (i < state[S_G]) {
            int kind = gInt[2 * i];
            int cnt = gEnd[i] - gFirst[i];
            int root = -1;
            long mask = 0L;
            oInt[2 * i] = kind;
            oInt[2 * i + 1] = gInt[2 * i + 1];
            oPos[i] = gPos[i];
            oMask[i] = 0L;
            if (kind == HANDED) {
                if (cnt <= MAX_REFS) {
                    root = i;
                    if (cnt > 0) {
                        // the cnt low bits (2^cnt - 1, also for cnt = 64), with left shifts only: TornadoVM 5.2
                        // emits Java's >>> on a long as OpenCL's arithmetic >>
                        mask = ((1L << (cnt - 1)) << 1) - 1L;
                    }
                }
                if (cnt > MAX_REFS) {
                    oInt[2 * i] = EXTERNAL;
                    oInt[2 * i + 1] = i;
                }
            }
            sRoot[i] = root;
            sMask[i] = mask;
            sDepth[i] = gDepth[i];
            sId[i] = i;
            for (int q = 0; q < 6; q++) {
                sVox[6 * i + q] = gVox[6 * i + q];
            }
        }
    }

    /**
     * Alg. 4 for hand-off reference r of a small root: its six candidates (slot 6r + 2k + e: the minimum (e = 0)
     * or maximum (e = 1) of its box on axis k) and, over the root's references q, the left mask (box minimum below
     * the plane) and the right mask (box maximum above it); a reference in neither is flat in the plane.
     */
    public static void candidates(int[] state, int r, int[] doneInt, float[] doneBox, int[] gFirst, int[] gEnd,
            float[] cPos, long[] cMask) {
        int slots = 0;
        if (r < state[S_D]) {
            slots = 1;
        }
        if (state[S_CLIP] == 1) {
            slots = 0;
        }
        if (slots == 1) {
            int gid = doneInt[2 * r + 1];
            int f = gFirst[gid];
            int cnt = gEnd[gid] - f;
            if (cnt <= MAX_REFS) {
                for (int k = 0; k < 3; k++) {
                    for (int e = 0; e < 2; e++) {
                        float x = doneBox[6 * r + 3 * e + k];
                        long left = 0L;
                        long right = 0L;
                        for (int q = 0; q < cnt; q++) {
                            float lo = doneBox[6 * (f + q) + k];
                            float hi = doneBox[6 * (f + q) + 3 + k];
                            if (lo < x) {
                                left |= 1L << q;
                            }
                            if (hi > x) {
                                right |= 1L << q;
                            }
                        }
                        int slot = Math.min(6 * r + 2 * k + e, state[S_CSLOTS] - 1);
                        cPos[slot] = x;
                        cMask[2 * slot] = left;
                        cMask[2 * slot + 1] = right;
                    }
                }
            }
        }
    }

    /**
     * Alg. 5, node i of the level: the best plane among the candidates of its references strictly inside its voxel
     * (lowest cost, then position, then axis: {@link LevelKernels#better}; planar references on the cheaper side,
     * right on a tie) and the decision: split, or a leaf when it has no candidate, is at the depth limit, or its best
     * cost exceeds K_I·|T| (eq. 3.6, as the exact builder); the children's masks. An inactive slot (not a small
     * root) gets split = -1.
     *
     * <p>Boxes: with {@link #S_CLIP} 1, each reference's box is clipped exactly to the node's voxel first
     * ({@link #clipBox}: perfect splits, as the exact builder) and the masks of each candidate are formed over these
     * boxes (O(m²) per node of m references); with 0, Zhou et al.'s precomputed masks over the small root's boxes
     * ({@link #candidates}) are used as they are.
     *
     * @param cb   scratch, 6·64 floats (the clipped boxes)
     * @param idx  scratch, 64 ints (the node's references)
     * @param poly scratch, 60 doubles (the clipper's polygons)
     */
    public static void splitNode(int[] state, double[] c, int i, float[] v, int[] doneInt, float[] doneBox, int[] gFirst,
            int[] sRoot, long[] sMask, float[] sVox, int[] sDepth, float[] cPos, long[] cMask, int[] sAxis,
            float[] sPos, long[] sChild, int[] sSplit, float[] cb, int[] idx, double[] poly) {
        int node = state[S_PARITY] * state[S_SMCAP] + i;
        int root = sRoot[node];
        int clip = state[S_CLIP];
        int split = -1;
        long bestL = 0L;
        long bestR = 0L;
        double best = 0.0;
        float bestPos = 0f;
        int bestAxis = -1;
        if (root >= 0) {
            long mask = sMask[node];
            int f = gFirst[root];
            int o = 6 * node;
            int m = 0;
            for (int q = 0; q < MAX_REFS; q++) {
                if (((mask >>> q) & 1L) != 0L) {
                    idx[m] = q;
                    m++;
                }
            }
            for (int j = 0; j < m; j++) {
                int r = f + idx[j];
                int q = idx[j];
                if (clip == 1) {
                    clipBox(v, doneInt[2 * r], sVox, o, doneBox, 6 * r, poly, cb, 6 * q);
                }
                if (clip == 0) {
                    for (int a = 0; a < 6; a++) {
                        cb[6 * q + a] = doneBox[6 * r + a];
                    }
                }
            }
            for (int j = 0; j < m; j++) {
                int q = idx[j];
                int r = f + q;
                for (int k = 0; k < 3; k++) {
                    float lo = sVox[o + k];
                    float hi = sVox[o + 3 + k];
                    int flat = 0;
                    if (cb[6 * q + k] == cb[6 * q + 3 + k]) {
                        flat = 1; // one candidate (its maximum repeats its minimum)
                    }
                    for (int e = 0; e < 2 - flat; e++) {
                        float x = cb[6 * q + 3 * e + k];
                        int inside = 0;
                        if (x > lo) {
                            inside = 1;
                        }
                        if (!(x < hi)) {
                            inside = 0;
                        }
                        if (inside == 1) {
                            long lm = 0L;
                            long rm = 0L;
                            if (clip == 0) {
                                int slot = Math.min(6 * r + 2 * k + e, state[S_CSLOTS] - 1);
                                lm = mask & cMask[2 * slot];
                                rm = mask & cMask[2 * slot + 1];
                            }
                            if (clip == 1) {
                                for (int jj = 0; jj < m; jj++) {
                                    int p = idx[jj];
                                    if (cb[6 * p + k] < x) {
                                        lm = lm | (1L << p);
                                    }
                                    if (cb[6 * p + 3 + k] > x) {
                                        rm = rm | (1L << p);
                                    }
                                }
                            }
                            int nl = popcount(lm);
                            int nr = popcount(rm);
                            long planar = mask & ~(lm | rm);
                            int np = popcount(planar);
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
                }
            }
            split = 1;
            if (bestAxis < 0) {
                split = 0;
            }
            if (sDepth[node] >= state[P_DEPTH_LIMIT]) {
                split = 0;
            }
            if (best > c[KdTreeKernels.KI] * m) {
                split = 0;
            }
        }
        sAxis[i] = Math.max(0, bestAxis);
        sPos[i] = bestPos;
        sChild[2 * i] = bestL;
        sChild[2 * i + 1] = bestR;
        sSplit[i] = split;
    }

    /**
     * B(t ∩ V) ∩ box: the box of triangle t clipped to the voxel {@code vox[o .. o+5]} by Sutherland–Hodgman in
     * double (as {@link Clipper}), rounded outwards ({@link LevelKernels#down}, {@link LevelKernels#up}) and
     * intersected with the reference's box {@code box[bo .. bo+5]}; when rounding empties the polygon (a grazing
     * contact) or the intersection, the box cut to the voxel. Written to {@code out[oo .. oo+5]}.
     */
    public static void clipBox(float[] v, int t, float[] vox, int o, float[] box, int bo, double[] poly, float[] out,
            int oo) {
        int n = 3;
        for (int a = 0; a < 9; a++) {
            poly[a] = v[9 * t + a];
        }
        int src = 0;
        for (int plane = 0; plane < 6; plane++) {
            int k = plane % 3;
            double cpos = vox[o + plane];
            double sign = 1.0;
            if (plane >= 3) {
                sign = -1.0; // inside: sign·(x - c) >= 0
            }
            int dst = 30 - src;
            int m = 0;
            for (int a = 0; a < n; a++) {
                int b = a + 1;
                if (b == n) {
                    b = 0;
                }
                double pa = poly[src + 3 * a + k];
                double pb = poly[src + 3 * b + k];
                double da = (pa - cpos) * sign;
                double db = (pb - cpos) * sign;
                int inA = 0;
                int inB = 0;
                if (da >= 0) {
                    inA = 1;
                }
                if (db >= 0) {
                    inB = 1;
                }
                if (inA == 1) {
                    for (int q = 0; q < 3; q++) {
                        poly[dst + 3 * m + q] = poly[src + 3 * a + q];
                    }
                    m++;
                }
                if (inA != inB) {
                    double s = (cpos - pa) / (pb - pa);
                    for (int q = 0; q < 3; q++) {
                        double qa = poly[src + 3 * a + q];
                        double qb = poly[src + 3 * b + q];
                        poly[dst + 3 * m + q] = qa - s * (qa - qb); // a difference of a product (LevelKernels.halfArea)
                    }
                    poly[dst + 3 * m + k] = cpos;
                    m++;
                }
            }
            n = m;
            src = dst;
        }
        for (int k = 0; k < 3; k++) {
            double mn = 1e300; // finite starts (TornadoVM 5.2, see LevelKernels.clipToSide)
            double mx = -1e300;
            for (int a = 0; a < n; a++) {
                mn = Math.min(mn, poly[src + 3 * a + k]);
                mx = Math.max(mx, poly[src + 3 * a + k]);
            }
            float lo = Math.max(Math.max(LevelKernels.down(mn), vox[o + k]), box[bo + k]);
            float hi = Math.min(Math.min(LevelKernels.up(mx), vox[o + 3 + k]), box[bo + 3 + k]);
            int bad = 0;
            if (n == 0) {
                bad = 1;
            }
            if (lo > hi) {
                bad = 1;
            }
            if (bad == 1) {
                lo = Math.max(vox[o + k], box[bo + k]);
                hi = Math.min(vox[o + 3 + k], box[bo + 3 + k]);
            }
            out[oo + k] = lo + 0.0f;
            out[oo + 3 + k] = hi + 0.0f;
        }
    }

    /** Chunk ch of the level's nodes: the number of children its split nodes create. */
    public static void countChunk(int[] state, int ch, int[] sSplit, int[] sChunk) {
        int from = ch * CHUNK;
        int to = Math.min(state[S_M], from + CHUNK);
        int cnt = 0;
        for (int i = from; i < to; i++) {
            if (sSplit[i] == 1) {
                cnt += 2;
            }
        }
        sChunk[2 * ch] = cnt;
    }

    /**
     * One work-item: the chunks' exclusive prefix sums, the next level's size and the records' count. Should the
     * next level or the records not fit, the level is forced: every node becomes a leaf (a build never fails for
     * space).
     */
    public static void scan(int[] state, int[] sChunk) {
        int chunks = state[S_CHUNKS];
        int run = 0;
        for (int ch = 0; ch < chunks; ch++) {
            sChunk[2 * ch + 1] = run;
            run += sChunk[2 * ch];
        }
        scanTail(state, run);
    }

    /** The end of the small scan from its total (the next level's nodes): its counts, or a forced level. */
    public static void scanTail(int[] state, int total) {
        int run = total;
        int force = 0;
        if (run > state[S_SMCAP]) {
            force = 1;
        }
        if (state[S_OUT] + run > state[S_OCAP]) {
            force = 1;
        }
        if (force == 1) {
            run = 0;
        }
        state[S_FORCE] = force;
        state[S_NEXT_M] = run;
        state[S_TOTAL] = state[S_OUT] + run;
    }

    /**
     * Chunk ch: each node's output record (a leaf with its mask, or its split with the left child's id) and its
     * children in the next level's buffer (ids S_OUT + offset, left then right; voxels cut at the plane; masks from
     * the split). Without clipping ({@link #S_CLIP} 0), a straddler whose triangle misses a child's voxel leaves
     * that child ({@link #cull}).
     */
    public static void scatter(int[] state, int ch, float[] v, int[] doneInt, int[] gFirst, int[] sRoot, long[] sMask,
            float[] sVox, int[] sDepth, int[] sId, int[] sAxis, float[] sPos, long[] sChild, int[] sSplit, int[] sChunk,
            int[] oInt, float[] oPos, long[] oMask) {
        int from = ch * CHUNK;
        int to = Math.min(state[S_M], from + CHUNK);
        int run = sChunk[2 * ch + 1];
        for (int i = from; i < to; i++) {
            scatterNode(state, i, run, v, doneInt, gFirst, sRoot, sMask, sVox, sDepth, sId, sAxis, sPos, sChild, sSplit,
                    oInt, oPos, oMask);
            run += children(state, i, sSplit);
        }
    }

    /** The children node i of the level creates: 2 when it splits (and the level is not forced), else 0. */
    public static int children(int[] state, int i, int[] sSplit) {
        int n = 0;
        if (sSplit[i] == 1) {
            n = 2;
        }
        if (state[S_FORCE] == 1) {
            n = 0;
        }
        return n;
    }

    /** Node i of the level, whose children (if it splits) are the next level's nodes {@code run, run + 1}. */
    public static void scatterNode(int[] state, int i, int run, float[] v, int[] doneInt, int[] gFirst, int[] sRoot,
            long[] sMask, float[] sVox, int[] sDepth, int[] sId, int[] sAxis, float[] sPos, long[] sChild, int[] sSplit,
            int[] oInt, float[] oPos, long[] oMask) {
        int smCap = state[S_SMCAP];
        int node = state[S_PARITY] * smCap + i;
        int outBase = (1 - state[S_PARITY]) * smCap;
        int split = sSplit[i];
        int id = sId[node];
        long mask = sMask[node];
        if (split == 1) {
            if (state[S_FORCE] == 1) {
                split = 0;
            }
        }
        if (split == 0) {
            oInt[2 * id] = LEAF;
            oInt[2 * id + 1] = sRoot[node];
            oPos[id] = 0f;
            oMask[id] = mask;
        }
        if (split == 1) {
            int k = sAxis[i];
            float x = sPos[i];
            long lm = sChild[2 * i];
            long rm = sChild[2 * i + 1];
            int left = state[S_OUT] + run;
            oInt[2 * id] = k;
            oInt[2 * id + 1] = left;
            oPos[id] = x;
            oMask[id] = 0L;
            int a = outBase + run;
            int b = a + 1;
            sRoot[a] = sRoot[node];
            sRoot[b] = sRoot[node];
            sDepth[a] = sDepth[node] + 1;
            sDepth[b] = sDepth[node] + 1;
            sId[a] = left;
            sId[b] = left + 1;
            for (int q = 0; q < 6; q++) {
                sVox[6 * a + q] = sVox[6 * node + q];
                sVox[6 * b + q] = sVox[6 * node + q];
            }
            sVox[6 * a + 3 + k] = x;
            sVox[6 * b + k] = x;
            if (state[S_CLIP] == 0) {
                long both = lm & rm;
                int f = gFirst[sRoot[node]];
                lm = cull(v, doneInt, f, lm, both, sVox, 6 * a);
                rm = cull(v, doneInt, f, rm, both, sVox, 6 * b);
            }
            sMask[a] = lm;
            sMask[b] = rm;
        }
    }

    /**
     * Whether triangle t may meet the closed box {@code box[o .. o+5]}: 0 only when one of the 13 separating axes of
     * Akenine-Möller's triangle–box test (the box's normals, the triangle's normal, the 9 edge × box-axis
     * products) separates them by more than a relative margin of 1e-6, so rounding (and a device's fused
     * multiply-adds) can only keep a triangle, never drop one that touches the box.
     */
    public static int overlaps(float[] v, int t, float[] box, int o) {
        double cx = 0.5 * ((double) box[o] + box[o + 3]);
        double cy = 0.5 * ((double) box[o + 1] + box[o + 4]);
        double cz = 0.5 * ((double) box[o + 2] + box[o + 5]);
        double hx = 0.5 * ((double) box[o + 3] - box[o]);
        double hy = 0.5 * ((double) box[o + 4] - box[o + 1]);
        double hz = 0.5 * ((double) box[o + 5] - box[o + 2]);
        double ax = v[9 * t] - cx;
        double ay = v[9 * t + 1] - cy;
        double az = v[9 * t + 2] - cz;
        double bx = v[9 * t + 3] - cx;
        double by = v[9 * t + 4] - cy;
        double bz = v[9 * t + 5] - cz;
        double dx = v[9 * t + 6] - cx;
        double dy = v[9 * t + 7] - cy;
        double dz = v[9 * t + 8] - cz;
        int apart = 0;
        // the box's normals
        apart |= separated(ax, bx, dx, hx);
        apart |= separated(ay, by, dy, hy);
        apart |= separated(az, bz, dz, hz);
        // the triangle's normal
        double e0x = bx - ax;
        double e0y = by - ay;
        double e0z = bz - az;
        double e1x = dx - bx;
        double e1y = dy - by;
        double e1z = dz - bz;
        double e2x = ax - dx;
        double e2y = ay - dy;
        double e2z = az - dz;
        double nx = e0y * e1z - e0z * e1y;
        double ny = e0z * e1x - e0x * e1z;
        double nz = e0x * e1y - e0y * e1x;
        double s = nx * ax + ny * ay + nz * az;
        double r = hx * Math.abs(nx) + hy * Math.abs(ny) + hz * Math.abs(nz);
        apart |= separated(s, s, s, r);
        // edge × x, edge × y, edge × z for the three edges
        apart |= edgeAxis(e0z, e0y, ay, az, by, bz, dy, dz, hy, hz);
        apart |= edgeAxis(e1z, e1y, ay, az, by, bz, dy, dz, hy, hz);
        apart |= edgeAxis(e2z, e2y, ay, az, by, bz, dy, dz, hy, hz);
        apart |= edgeAxis(e0x, e0z, az, ax, bz, bx, dz, dx, hz, hx);
        apart |= edgeAxis(e1x, e1z, az, ax, bz, bx, dz, dx, hz, hx);
        apart |= edgeAxis(e2x, e2z, az, ax, bz, bx, dz, dx, hz, hx);
        apart |= edgeAxis(e0y, e0x, ax, ay, bx, by, dx, dy, hx, hy);
        apart |= edgeAxis(e1y, e1x, ax, ay, bx, by, dx, dy, hx, hy);
        apart |= edgeAxis(e2y, e2x, ax, ay, bx, by, dx, dy, hx, hy);
        return 1 - apart;
    }

    /**
     * The axis (0, -eq, ep) in the plane of box axes p, q (the cross product of a box axis with an edge e): the
     * vertices project to -eq·p + ep·q, the box to ±(hp·|eq| + hq·|ep|).
     */
    private static int edgeAxis(double eq, double ep, double ap, double aq, double bp, double bq, double dp, double dq,
            double hp, double hq) {
        double pa = ep * aq - eq * ap;
        double pb = ep * bq - eq * bp;
        double pd = ep * dq - eq * dp;
        double r = hp * Math.abs(eq) + hq * Math.abs(ep);
        return separated(pa, pb, pd, r);
    }

    /** 1 when the projections a, b, d lie all beyond r or all below -r, by more than the margin. */
    private static int separated(double a, double b, double d, double r) {
        double lo = Math.min(a, Math.min(b, d));
        double hi = Math.max(a, Math.max(b, d));
        double tol = 1e-6 * (r + Math.max(Math.abs(lo), Math.abs(hi))) + 1e-30;
        int out = 0;
        if (lo - r > tol) {
            out = 1;
        }
        if (-r - hi > tol) {
            out = 1;
        }
        return out;
    }

    /**
     * The references of {@code mask} (over the run starting at hand-off index f) whose triangles may meet the voxel
     * {@code vox[o .. o+5]}, of those in {@code test}; the others are kept as they are.
     */
    public static long cull(float[] v, int[] doneInt, int f, long mask, long test, float[] vox, int o) {
        long out = mask;
        for (int q = 0; q < MAX_REFS; q++) {
            if (((test >>> q) & 1L) != 0L) {
                int t = doneInt[2 * (f + q)];
                if (overlaps(v, t, vox, o) == 0) {
                    out = out & ~(1L << q);
                }
            }
        }
        return out;
    }

    /** Heartbeat j of this execution (work-item 0 of each task). */
    public static void beat(int[] state, int j) {
        state[S_BEAT + j] = state[P_SEQ];
    }
}
