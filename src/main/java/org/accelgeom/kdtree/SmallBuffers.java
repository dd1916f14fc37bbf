package org.accelgeom.kdtree;

/**
 * The arrays of the bit-mask small-node stage ({@link SmallKernels}, Zhou et al. 2008, §4.3), sized from the
 * large-node stage's capacities ({@link LevelBuffers}) so that a device allocates them once per plan:
 * <ul>
 * <li>per global node of the large stage: the first and end index of its references in the hand-off list;
 * <li>per hand-off reference r: its six split candidates (slot {@code 6r + 2k + e}: axis k, e = 0 the box's
 * minimum, 1 its maximum), each a position and two 64-bit masks over its small root's reference list (bit q: the
 * root's q-th reference has its box's minimum below the plane (left mask) / its maximum above it (right mask));
 * <li>the small nodes of a level, double-buffered ({@code base = parity·smCap}): small root (global id, -1:
 * inactive), reference mask, voxel, depth, output id; each node's decision (axis, plane, children's masks, split);
 * per chunk of {@link LevelBuffers#CHUNK} nodes the number of children and its prefix sum;
 * <li>the output records of every node of the tree, by id ({@link SmallKernels#LEAF} / {@link SmallKernels#EXTERNAL}
 * or split axis, then left child's id or small root; plane; leaf mask).
 * </ul>
 */
public final class SmallBuffers {

    /** Nodes per small level. */
    public final int smCap;
    /** Output records (all nodes of the tree). */
    public final int oCap;
    public final int cCap;

    /** Zhou et al.'s precomputed masks (no clipping), or masks per node over clipped boxes. */
    public final boolean masks;

    public final int[] gFirst;
    public final int[] gEnd;

    public final float[] cPos;
    public final long[] cMask;

    public final int[] sRoot;
    public final long[] sMask;
    public final float[] sVox;
    public final int[] sDepth;
    public final int[] sId;
    public final int[] sAxis;
    public final float[] sPos;
    public final long[] sChild;
    public final int[] sSplit;
    public final int[] sChunk;

    public final int[] oInt;
    public final float[] oPos;
    public final long[] oMask;

    /** @param masks with Zhou et al.'s precomputed candidate masks (else those arrays are empty) */
    SmallBuffers(int rCap, int gCap, boolean masks) {
        this(rCap, gCap, masks, -1);
    }

    /** @param extra records beyond the large stage's gCap (-1: 4·rCap; tests make it small to force levels) */
    SmallBuffers(int rCap, int gCap, boolean masks, int extra) {
        smCap = (int) Math.min(Integer.MAX_VALUE / 16, (long) gCap + rCap);
        oCap = (int) Math.min(Integer.MAX_VALUE / 4, (long) gCap + (extra < 0 ? 4L * rCap : extra));
        cCap = (smCap + LevelBuffers.CHUNK - 1) / LevelBuffers.CHUNK;
        gFirst = new int[gCap];
        gEnd = new int[gCap];
        cPos = new float[masks ? 6 * rCap : 1];
        cMask = new long[masks ? 12 * rCap : 2];
        this.masks = masks;
        sRoot = new int[2 * smCap];
        sMask = new long[2 * smCap];
        sVox = new float[12 * smCap];
        sDepth = new int[2 * smCap];
        sId = new int[2 * smCap];
        sAxis = new int[smCap];
        sPos = new float[smCap];
        sChild = new long[2 * smCap];
        sSplit = new int[smCap];
        sChunk = new int[2 * cCap];
        oInt = new int[2 * oCap];
        oPos = new float[oCap];
        oMask = new long[oCap];
    }

    /** Approximate bytes of the arrays for these capacities. */
    static long bytes(long rCap, long gCap, boolean masks) {
        long sm = gCap + rCap;
        long o = gCap + 4 * rCap;
        return 8 * gCap + (masks ? rCap * (24 + 96) : 0) + sm * (2 * (4 + 8 + 24 + 4 + 4) + 28 + 1) + o * 20;
    }
}
