package org.accelgeom.kdtree.zhou;

/**
 * The arrays of the breadth-first large-node stage ({@link ZhouBuilder}, Zhou et al. 2008, §4.2): one level's
 * triangle references as flat (triangle, node, clipped box) arrays, double-buffered by the level's parity; the
 * level's nodes (voxel, global id); per-node bin histograms; per-chunk counts and their prefix sums; the global
 * node records of every node the stage creates; and the references of the nodes it hands to the small-node stage.
 * On a device backend they stay resident across levels; only the small {@link #state} array goes there and back per level.
 *
 * <p>Capacities: {@link #rCap} references per level and in the hand-off list together (a level whose output
 * would not fit hands all its nodes to the small-node stage instead, {@link LevelKernels#scan}); {@link #mCap}
 * nodes per level, {@link #gCap} nodes in all.
 */
public final class LevelBuffers {

    /**
     * Bins per axis (a fixed number of candidate planes per axis for large nodes). 128 rather than 64: on the
     * dragon's 202 520-triangle resolution the tree's SAH cost is 1.8 % above the exact tree's instead of 2.5 %.
     */
    public static final int BINS = 128;
    /** References per chunk of the count and scatter kernels. */
    public static final int CHUNK = 256;
    /** Ints of one node's histograms: 3 axes × (starts, ends) × {@link #BINS}. */
    public static final int NODE_BINS = 6 * BINS;

    /**
     * {@link #state}: the level's parameters (set by the host, slots 0..15) and counters (set by the kernels,
     * 16..31); the host sends the whole array before a level and reads it back after, so the counters persist.
     * Parameters: mode, level nodes M, references R, chunks, global id of the level's first node, depth, parity of
     * the level's input buffers, the small-node threshold, the depth limit, the execution number, capacities.
     */
    public static final int P_MODE = 0;
    public static final int P_M = 1;
    public static final int P_R = 2;
    public static final int P_CHUNKS = 3;
    public static final int P_GBASE = 4;
    public static final int P_DEPTH = 5;
    public static final int P_PARITY = 6;
    /** Nodes of at most this many references go to the small-node stage. */
    public static final int P_SMALL = 7;
    public static final int P_DEPTH_LIMIT = 8;
    /** Execution number (heartbeats). */
    public static final int P_SEQ = 9;
    public static final int P_RCAP = 10;
    public static final int P_MCAP = 11;
    public static final int P_GCAP = 12;
    /** 1: hand every node of this level to the small-node stage (the host's tail cut). */
    public static final int P_HAND_ALL = 13;
    /** A level of fewer references than this hands all its nodes on ({@link #P_HAND_ALL}; -1: never). */
    public static final int P_TAIL = 14;
    /** Levels run so far in this build ({@link LevelKernels#advance}). */
    public static final int C_LEVELS = 15;

    /** First level of a build: the root's references are made from {@link #rootBox}. */
    public static final int MODE_LOAD = 1;
    public static final int MODE_LEVEL = 2;

    /**
     * Counters: next level's nodes and references, hand-off references so far, the forced flag, this level's
     * hand-off base, this level's left outputs; heartbeats of the five kernels (the execution number).
     */
    public static final int C_M = 16;
    public static final int C_R = 17;
    public static final int C_D = 18;
    public static final int C_FORCE = 19;
    public static final int C_DBASE = 20;
    public static final int C_L = 21;
    public static final int C_BEAT = 24;
    /** Heartbeats of the second level of a device execution (five tasks). */
    public static final int C_BEAT2 = 57;
    /** Slots 37..56 belong to the bit-mask small-node stage ({@link SmallKernels}). */
    public static final int STATE = 64;

    /** Per-node ints: split axis, split flag, index of the left child in the next level. */
    public static final int N_AXIS = 0;
    public static final int N_SPLIT = 1;
    public static final int N_CHILD = 2;

    /** Reference sides of a level (bits: 1 left child, 2 right child, 4 handed to the small-node stage). */
    public static final int LEFT = 1;
    public static final int RIGHT = 2;
    public static final int BOTH = 3;
    public static final int DONE = 4;

    /** Global node kinds: split axis 0..2, or a node handed to the small-node stage. */
    public static final int HANDED = 3;

    public final int n;
    public final int rCap;
    public final int mCap;
    public final int gCap;
    public final int cCap;

    public final int[] state = new int[STATE];
    /**
     * The state of the level being scattered, on the device: the tornado scan copies the state here and then advances
     * it to the next level ({@link LevelKernels#advance}), so the scatter reads its level's values from this copy.
     */
    public final int[] snap = new int[STATE];
    public final float[] rootBounds = new float[6];
    /** K_T, K_I, λ. */
    public final double[] c = new double[3];
    /**
     * The triangles (9 floats each) and their boxes (the root's references, 6 floats each). A device backend
     * binds these arrays to its kernels and copies each build's input into them; the loop backends point them at
     * the input.
     */
    public float[] v;
    public float[] rootBox;

    /** References of a level, two buffers (parity): (triangle, node) pairs and boxes; {@code base = parity·rCap}. */
    public final int[] refInt;
    public final float[] refBox;
    /** Each reference's side in the current level. */
    public final int[] side;

    /** Nodes of a level, two buffers: voxels and global ids; {@code base = parity·mCap}. */
    public final float[] vox;
    public final int[] g;
    /** Per-node bin histograms (cleared by the split kernel after use). */
    public final int[] bins;
    /** Per-node split axis, flag and child index ({@link #N_AXIS} ...), and plane position. */
    public final int[] nodeInt;
    public final float[] nodePos;

    /** Per chunk: counts (left, right, handed on) and their exclusive prefix sums. */
    public final int[] chunk;

    /** Global nodes: (split axis or {@link #HANDED}, left child's id), plane, voxel. */
    public final int[] gInt;
    public final float[] gPos;
    public final float[] gVox;
    /** Each global node's depth. */
    public final int[] gDepth;

    /** The hand-off list: (triangle, global node) pairs and boxes. */
    public final int[] doneInt;
    public final float[] doneBox;

    /** The bit-mask small-node stage's arrays, or null when the small nodes are built on the host. */
    public final SmallBuffers small;

    /**
     * @param n     triangles
     * @param small the small-node threshold (nodes of at most this many references are handed on)
     */
    public LevelBuffers(int n, int small) {
        this(n, small, null);
    }

    /**
     * @param n       triangles
     * @param small   the small-node threshold (nodes of at most this many references are handed on)
     * @param stage   the small-node stage (the arrays of a bit-mask stage; null or EXACT: none)
     */
    public LevelBuffers(int n, int small, ZhouBuilder.SmallStage stage) {
        this(n, small, stage, -1);
    }

    /** As above; {@code regionFactor}: the small stage's region slots per reference (-1: the default; tests). */
    public LevelBuffers(int n, int small, ZhouBuilder.SmallStage stage, int regionFactor) {
        this.n = n;
        this.rCap = (int) Math.min(Integer.MAX_VALUE / 8, 2L * Math.max(n, 1) + CHUNK);
        // a split node has more than `small` references, so a level has at most 2·rCap/(small+1) nodes
        this.mCap = (int) Math.min(rCap, 2L * rCap / (small + 1) + 2);
        this.gCap = (int) Math.min(Integer.MAX_VALUE / 8, 4L * mCap + 64);
        this.cCap = (rCap + CHUNK - 1) / CHUNK;
        v = new float[9 * Math.max(n, 1)];
        rootBox = new float[6 * Math.max(n, 1)];
        refInt = new int[4 * rCap];
        refBox = new float[12 * rCap];
        side = new int[rCap];
        vox = new float[12 * mCap];
        g = new int[2 * mCap];
        bins = new int[NODE_BINS * mCap];
        nodeInt = new int[3 * mCap];
        nodePos = new float[mCap];
        chunk = new int[6 * cCap];
        gInt = new int[2 * gCap];
        gPos = new float[gCap];
        gVox = new float[6 * gCap];
        gDepth = new int[gCap];
        doneInt = new int[2 * rCap];
        doneBox = new float[6 * rCap];
        this.small = stage == null || stage == ZhouBuilder.SmallStage.EXACT ? null
                : new SmallBuffers(rCap, gCap, stage == ZhouBuilder.SmallStage.ZHOU_MASKS,
                        regionFactor < 0 ? SubtreeKernels.FACTOR : regionFactor);
        state[P_SMALL] = small;
        state[P_RCAP] = rCap;
        state[P_MCAP] = mCap;
        state[P_GCAP] = gCap;
    }

    /**
     * The state of a build's first level over all {@link #n} triangles, with the costs of {@code o}: the root's
     * references from {@link #rootBox}, the root's voxel {@link #rootBounds} (both set by the caller or a device's load).
     * {@code bitmask}: the bit-mask small-node stage follows (the large stage runs to the end; else the host takes the
     * tail, {@link #P_TAIL}).
     */
    public void start(org.accelgeom.kdtree.KdTreeOptions o, boolean bitmask) {
        int[] p = state;
        System.arraycopy(org.accelgeom.kdtree.SahBuilder.costs(o), 0, c, 0, 3);
        p[P_DEPTH_LIMIT] = o.depthLimit(n);
        p[P_MODE] = MODE_LOAD;
        p[P_M] = 1;
        p[P_R] = n;
        p[P_GBASE] = 0;
        p[P_DEPTH] = 0;
        p[P_PARITY] = 0;
        p[P_HAND_ALL] = 0;
        p[P_CHUNKS] = JvmZhouBackend.chunks(n);
        // the tail: a level of few references costs its launches but little work; the host takes it (the
        // bit-mask stage takes only nodes of <= 64 references: there the large stage runs to the end)
        p[P_TAIL] = bitmask ? -1 : n / ZhouBuilder.TAIL_FRACTION;
        p[C_LEVELS] = 0;
    }

    /**
     * The state of the bit-mask small-node stage after the last level ({@link #small} must exist): the level counts
     * zero (the large stage has ended), the stage's parameters from the levels' counters (global nodes, hand-off list).
     */
    public void startSmall() {
        int[] st = state;
        SmallBuffers s = small;
        st[P_M] = 0;
        st[P_R] = 0;
        st[P_CHUNKS] = 0;
        st[P_MODE] = MODE_LEVEL;
        st[SmallKernels.S_G] = st[P_GBASE];
        st[SmallKernels.S_D] = st[C_D];
        st[SmallKernels.S_CLIP] = s.masks ? 0 : 1;
        st[SmallKernels.S_CSLOTS] = s.cPos.length;
        st[SmallKernels.S_FACTOR] = s.factor;
        st[SmallKernels.S_REGION] = s.regionCap;
    }

    /** Approximate bytes of all arrays (device memory check). */
    public static long bytes(int n, int small, ZhouBuilder.SmallStage stage) {
        long r = 2L * Math.max(n, 1) + CHUNK;
        long m = 2 * r / (small + 1) + 2;
        long g = 4 * m + 64;
        return 60L * n + r * (4 * 5 + 24 * 3 + 4) + m * (4 * NODE_BINS + 24 * 2 + 4 * 6) + g * (16 + 24) + r / CHUNK * 24
                + (stage == null || stage == ZhouBuilder.SmallStage.EXACT ? 0
                        : SmallBuffers.bytes(r, g, stage == ZhouBuilder.SmallStage.ZHOU_MASKS));
    }
}
