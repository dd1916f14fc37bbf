package org.accelgeom.kdtree;

/**
 * The arrays of the breadth-first large-node stage ({@link LevelBuilder}, Zhou et al. 2008, §4.2): one level's
 * triangle references as flat (triangle, node, clipped box) arrays, double-buffered by the level's parity; the
 * level's nodes (voxel, global id); per-node bin histograms; per-chunk counts and their prefix sums; the global
 * node records of every node the stage creates; and the references of the nodes it hands to the small-node stage.
 * On a device backend they stay resident across levels; only {@link #counters} comes back after each level.
 *
 * <p>Capacities: {@link #rCap} references per level and in the hand-off list together (a level whose output
 * would not fit hands all its nodes to the small-node stage instead, {@link LevelKernels#scan}); {@link #mCap}
 * nodes per level, {@link #gCap} nodes in all.
 */
public final class LevelBuffers {

    /** Bins per axis (Zhou et al. use a fixed number of candidate planes per axis for large nodes). */
    public static final int BINS = 64;
    /** References per chunk of the count and scatter kernels. */
    public static final int CHUNK = 256;
    /** Ints of one node's histograms: 3 axes × (starts, ends) × {@link #BINS}. */
    public static final int NODE_BINS = 6 * BINS;

    /** params: mode, level nodes M, references R, chunks, global id of the level's first node, depth, parity. */
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
    public static final int PARAMS = 16;

    /** First level of a build: the root's references are made from {@link #rootBox}. */
    public static final int MODE_LOAD = 1;
    public static final int MODE_LEVEL = 2;

    /** counters: next level's nodes and references, hand-off references so far, forced flag, this level's hand-off base, left total. */
    public static final int C_M = 0;
    public static final int C_R = 1;
    public static final int C_D = 2;
    public static final int C_FORCE = 3;
    public static final int C_DBASE = 4;
    public static final int C_L = 5;
    /** Heartbeats of the five kernels (the execution number). */
    public static final int C_BEAT = 8;
    public static final int COUNTERS = 16;

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

    public final int[] params = new int[PARAMS];
    public final int[] counters = new int[COUNTERS];
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

    public final int[] tri0;
    public final int[] tri1;
    public final int[] node0;
    public final int[] node1;
    public final float[] box0;
    public final float[] box1;
    public final int[] side;

    public final float[] vox0;
    public final float[] vox1;
    public final int[] g0;
    public final int[] g1;
    public final int[] bins;
    public final int[] nodeAxis;
    public final float[] nodePos;
    public final int[] nodeSplit;
    public final int[] nodeChild;

    public final int[] chunkCnt;
    public final int[] chunkOff;

    public final int[] gAxis;
    public final float[] gPos;
    public final int[] gChild;
    public final float[] gVox;

    public final int[] doneTri;
    public final int[] doneNode;
    public final float[] doneBox;

    /**
     * @param n     triangles
     * @param small the small-node threshold (nodes of at most this many references are handed on)
     */
    public LevelBuffers(int n, int small) {
        this.n = n;
        this.rCap = (int) Math.min(Integer.MAX_VALUE / 8, 2L * Math.max(n, 1) + CHUNK);
        // a split node has more than `small` references, so a level has at most 2·rCap/(small+1) nodes
        this.mCap = (int) Math.min(rCap, 2L * rCap / (small + 1) + 2);
        this.gCap = (int) Math.min(Integer.MAX_VALUE / 8, 4L * mCap + 64);
        this.cCap = (rCap + CHUNK - 1) / CHUNK;
        v = new float[9 * Math.max(n, 1)];
        rootBox = new float[6 * Math.max(n, 1)];
        tri0 = new int[rCap];
        tri1 = new int[rCap];
        node0 = new int[rCap];
        node1 = new int[rCap];
        box0 = new float[6 * rCap];
        box1 = new float[6 * rCap];
        side = new int[rCap];
        vox0 = new float[6 * mCap];
        vox1 = new float[6 * mCap];
        g0 = new int[mCap];
        g1 = new int[mCap];
        bins = new int[NODE_BINS * mCap];
        nodeAxis = new int[mCap];
        nodePos = new float[mCap];
        nodeSplit = new int[mCap];
        nodeChild = new int[mCap];
        chunkCnt = new int[3 * cCap];
        chunkOff = new int[3 * cCap];
        gAxis = new int[gCap];
        gPos = new float[gCap];
        gChild = new int[gCap];
        gVox = new float[6 * gCap];
        doneTri = new int[rCap];
        doneNode = new int[rCap];
        doneBox = new float[6 * rCap];
        params[P_SMALL] = small;
        params[P_RCAP] = rCap;
        params[P_MCAP] = mCap;
        params[P_GCAP] = gCap;
    }

    /** Approximate bytes of all arrays (device memory check). */
    public static long bytes(int n, int small) {
        long r = 2L * Math.max(n, 1) + CHUNK;
        long m = 2 * r / (small + 1) + 2;
        long g = 4 * m + 64;
        return 60L * n + r * (4 * 5 + 24 * 3 + 4) + m * (4 * NODE_BINS + 24 * 2 + 4 * 6) + g * (12 + 24) + r / CHUNK * 24;
    }
}
