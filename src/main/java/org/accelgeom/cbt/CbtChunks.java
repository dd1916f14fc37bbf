package org.accelgeom.cbt;

import org.accelgeom.engine.Tuning;

/**
 * The partition of a packed heap behind the tornado backend's one-launch usage cycle (§2.9, Fig. 12): the heap's
 * nodes at level g = {@link #level} are the <b>chunk roots</b>, one work-group each. Work-group j owns the
 * subtree of node c = 2^g + j below level g: its 2^(D−g) bitfield bits and the fields of levels g + 1 .. D − 1 that
 * lie in that subtree. In one launch it decodes the leaves of its subtree from a local copy of those fields, applies
 * their split and merge bits, reduces its subtree in local memory and writes its fields; the last work-group to
 * finish reduces levels g .. 0 from the chunks' sums.
 *
 * <p>Why this needs no device-wide barrier: a leaf's update changes one bitfield bit, the first bit of an odd node q
 * (q = 2k + 1 for a split of k, q = k for a merge), and that bit lies in the chunk whose root is q or below q's
 * leftmost descendant at level g. So every write of the update falls in a chunk that the decisions of
 * its own leaves, plus at most two leaves above level g ({@link #shallowTarget}), determine.
 */
public final class CbtChunks {

    /** log2 of a chunk's bitfield bits where the depth allows ({@code -Daccelgeom.cbt.chunkLog}, 5..10, default 10). */
    public static final int CHUNK_LOG = Tuning.CBT_CHUNK_LOG.intValue();
    /** Depths served by the chunked cycle (packed heaps): 2^5 .. 2^10 bits per chunk, at most 2^11 chunks. */
    public static final int MIN_D = 9;
    public static final int MAX_D = 11 + CHUNK_LOG;

    private CbtChunks() {
    }

    /** Whether a heap of depth D in this layout is cycled in chunks. */
    public static boolean eligible(int D, int packed) {
        return packed == 1 && D >= MIN_D && D <= MAX_D;
    }

    /**
     * g, the level of the chunk roots: D − {@link #CHUNK_LOG} (chunks of 2^10 bitfield bits), at least 4, so that every level below
     * g starts on a word boundary (level d starts at bit 2^d (D − d + 3), a multiple of 32 when d ≥ 5) and no word
     * mixes a chunk's fields with level g's.
     */
    public static int level(int D) {
        return Math.max(4, D - CHUNK_LOG);
    }

    /** First bit of chunk j's fields at level d &gt; g: levelStart(d) + j·2^(d−g)·(D − d + 1). */
    public static int start(int D, int g, int d, int j) {
        return WordReduction.levelStart(D, d) + (j << (d - g)) * (D - d + 1);
    }

    /** One past the last bit of chunk j's fields at level d. */
    public static int end(int D, int g, int d, int j) {
        return start(D, g, d, j) + (1 << (d - g)) * (D - d + 1);
    }

    /** Heap words holding chunk j's fields at level d (the first and last may be shared with its neighbours). */
    public static int words(int D, int g, int d, int j) {
        return ((end(D, g, d, j) - 1) >> 5) - (start(D, g, d, j) >> 5) + 1;
    }

    /** The chunk whose bitfield holds the bit of level-D node {@code bitNode} (a {@link CbtKernels#bitElement}). */
    public static int chunkOf(int D, int bitNode) {
        int g = level(D);
        return (bitNode >> (D - g)) - (1 << g);
    }

    /**
     * q* = c >> tz(c), the odd node whose first bitfield bit is the first bit of chunk root c (c itself when c is odd).
     * A leaf above level g changes a bit of chunk c only as the split of q*'s parent or the merge of q* (when q* is
     * above level g): the two shallow candidates of the chunk.
     */
    public static int shallowTarget(int c) {
        return c >> CbtKernels.depth(c & -c);
    }
}
