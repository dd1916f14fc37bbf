package org.accelgeom.cbt;

/**
 * Index arithmetic of the concurrent binary tree (Grachev &amp; Ushakov 2023, §2.1–2.8; Dupuy 2020): heap
 * indices, node depths, the bitfield encoding and the bit offsets of the packed heap. Pure functions of
 * {@code D} (the maximum depth, 1..30) and a heap index {@code k} (1..2^(D+1)−1), usable inside kernels.
 *
 * <p>Packed layout (§2.7–2.8): 2^(D+2) bits in 32-bit words; element {@code k ≥ 1} of depth d_k occupies
 * bits [x_k, x_k + D − d_k + 1) with x_k = 2^(d_k+1) + k·(D − d_k + 1) (Fig. 9); element 0 holds D as the value
 * 2^D in bits [2, D+3); bits 0 and 1 are unused. Bit addresses reach 2^(D+2) − 1, which does not fit a Java
 * {@code int} beyond D = 28, so they are {@code long}.
 */
public final class CbtLayout {

    /** The largest supported maximum depth: 2^32 bits (512 MiB) packed, node indices still fit an int. */
    public static final int MAX_DEPTH = 30;
    /** The largest maximum depth of the unpacked heap: 2^(D+1) ints must fit one Java array. */
    public static final int MAX_DEPTH_UNPACKED = 29;

    private CbtLayout() {
    }

    /** d_k = FindMSB(k), eq. (2). */
    public static int depth(int k) {
        return 31 - Integer.numberOfLeadingZeros(k);
    }

    /** Number of bits of element k in the packed heap, eq. (11): D − d_k + 1. */
    public static int width(int D, int k) {
        return D - depth(k) + 1;
    }

    /** Bit offset of element k ≥ 1 in the packed heap (Fig. 9): x_k = 2^(d_k+1) + k·(D − d_k + 1). */
    public static long bitOffset(int D, int k) {
        int d = depth(k);
        return (1L << (d + 1)) + (long) k * (D - d + 1);
    }

    /** Total bits of the packed heap, §2.7: 2^(D+2). */
    public static long packedBits(int D) {
        return 1L << (D + 2);
    }

    /** Number of 32-bit words of the packed heap: 2^(D+2)/32, at least one. */
    public static int packedWords(int D) {
        return (int) Math.max(1, packedBits(D) >>> 5);
    }

    /** Number of ints of the unpacked heap: element 0 (D) and one counter per node, 2^(D+1). */
    public static int unpackedWords(int D) {
        return 1 << (D + 1);
    }

    /** Eq. (24): bits of levels n..D of the packed heap, 2^(D+2) − D·2^n + n·2^n − 3·2^n. */
    public static long levelBits(int D, int n) {
        return (1L << (D + 2)) - (long) D * (1L << n) + (long) n * (1L << n) - 3L * (1L << n);
    }

    /** Bit of the bitfield (level D) that encodes node k (§2.2): x = k·2^(D−d_k) − 2^D. */
    public static long encode(int D, int k) {
        return ((long) k << (D - depth(k))) - (1L << D);
    }

    /** Heap index of bit x of the bitfield, i.e. the level-D node 2^D + x. */
    public static int bitNode(int D, long x) {
        return (int) ((1L << D) + x);
    }

    /** Eq. (6): number of nodes bit x can encode, D + 1 for x = 0 and FindLSB(x) + 1 otherwise (capped at D + 1). */
    public static int candidateCount(int D, long x) {
        return x == 0 ? D + 1 : Math.min(D, Long.numberOfTrailingZeros(x)) + 1;
    }

    /** Eq. (7): the candidate nodes of bit x, k_n = (2^D + x)·2^(−n) for n = 0..N_x − 1, deepest first. */
    public static int[] candidates(int D, long x) {
        int n = candidateCount(D, x);
        int[] k = new int[n];
        for (int i = 0; i < n; i++) {
            k[i] = (int) (((1L << D) + x) >>> i);
        }
        return k;
    }

    /** The path of node k from the root (eq. 1): one entry per level below the root, 0 = left, 1 = right. */
    public static int[] path(int k) {
        int d = depth(k);
        int[] p = new int[d];
        for (int i = 0; i < d; i++) {
            p[i] = (k >>> (d - 1 - i)) & 1;
        }
        return p;
    }
}
