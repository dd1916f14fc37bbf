package org.accelgeom.kdtree.zhou;

/**
 * The arrays of the bit-mask small-node stage ({@link SmallKernels}, {@link SubtreeKernels}; Zhou et al. 2008, §4.3),
 * sized from the large-node stage's capacities ({@link LevelBuffers}) so that a device allocates them once per plan:
 * <ul>
 * <li>per global node of the large stage: the first and end index of its references in the hand-off list; its
 * status ({@link SubtreeKernels#T_NONE} ...) and its subtree's node and leaf-list word counts; its depth-first
 * index and leaf-list offset in the tree (set by the host from the counts);
 * <li>per hand-off reference r (Zhou et al.'s masks only): its six split candidates (slot {@code 6r + 2k + e}: axis
 * k, e = 0 the box's minimum, 1 its maximum), each a position and two 64-bit masks over its small root's references;
 * <li>the regions: {@link #factor} node slots (plane, info) and leaf-list words per hand-off reference, where each
 * small root writes its subtree ({@link SubtreeKernels#build}).
 * </ul>
 */
public final class SmallBuffers {

    /** Region slots per reference. */
    public final int factor;
    /** Zhou et al.'s precomputed candidate masks (no clipping), or masks per node over clipped boxes. */
    public final boolean masks;
    /** Node slots (and words) of the regions: factor·rCap. */
    public final int regionCap;

    public final int[] gFirst;
    /** The small roots the device builds, largest bands of references first (tornado's {@code sroots}). */
    public final int[] order;
    public final int[] gEnd;
    public final int[] tStatus;
    public final int[] tNodes;
    public final int[] tWords;
    public final int[] at;
    public final int[] off;
    /** Scratch of the layout ({@link FlatLayout#layout}): each global node's subtree nodes and leaf-list words. */
    public final int[] size;
    public final int[] words;

    public final float[] cPos;
    public final long[] cMask;

    public final float[] rSplit;
    public final int[] rInfo;
    public final int[] rLeaf;

    /** @param masks with Zhou et al.'s precomputed candidate masks (else those arrays are empty) */
    SmallBuffers(int rCap, int gCap, boolean masks) {
        this(rCap, gCap, masks, SubtreeKernels.FACTOR);
    }

    /** @param factor region slots per reference (tests make it small so that roots overflow to the host) */
    SmallBuffers(int rCap, int gCap, boolean masks, int factor) {
        this.factor = factor;
        this.masks = masks;
        regionCap = (int) Math.min(Integer.MAX_VALUE / 4, (long) factor * rCap);
        gFirst = new int[gCap];
        order = new int[gCap];
        gEnd = new int[gCap];
        tStatus = new int[gCap];
        tNodes = new int[gCap];
        tWords = new int[gCap];
        at = new int[gCap];
        off = new int[gCap];
        size = new int[gCap];
        words = new int[gCap];
        cPos = new float[masks ? 6 * rCap : 1];
        cMask = new long[masks ? 12 * rCap : 2];
        rSplit = new float[regionCap];
        rInfo = new int[regionCap];
        rLeaf = new int[regionCap];
    }

    /** Approximate bytes of the arrays for these capacities (with a device's flat output arrays of the same size). */
    static long bytes(long rCap, long gCap, boolean masks) {
        long region = SubtreeKernels.FACTOR * rCap;
        return 40 * gCap + (masks ? rCap * (24 + 96) : 0) + 2 * 12 * (region + gCap);
    }
}
