package org.accelgeom.cbt;

import static org.accelgeom.cbt.CbtKernels.ushr;

/**
 * The sum reduction of a packed heap (§2.5) by <b>word ownership</b>: a writer composes a whole 32-bit word of the
 * heap from the sums that fall into it and stores it once, so that no word is shared by two writers, nothing is
 * read before it is written and no atomics are needed (the delta writes of {@link CbtKernels} need the field's old
 * value, one dependent read per field). Used by the tornado backend, where a read costs a device memory round
 * trip; the JVM backends keep the per-node deltas.
 *
 * <p>Level d of the heap occupies bits [2^d (D − d + 3), 2^(d+1) (D − d + 2)): its 2^d fields of D − d + 1 bits
 * start at x_k = 2^(d+1) + k (D − d + 1), k = 2^d .. 2^(d+1) − 1 (Fig. 9), so the levels are contiguous, the
 * deepest at the end.
 */
public final class WordReduction {

    private WordReduction() {
    }

    /**
     * Whether the five levels above the bitfield can be written word by word from the bitfield alone: packed heaps
     * with D ≥ 10, where those levels' regions start and end on word boundaries (level D − m starts at bit
     * 2^(D−m) (m + 3), a multiple of 32 when D − m ≥ 5).
     */
    public static boolean prepass(int D, int packed) {
        return packed == 1 && D >= 10;
    }

    /** First word of the prepass region (level D − 5 starts at bit 2^(D−5)·8 = 2^(D−2)). */
    public static int prepassFirstWord(int D) {
        return 1 << (D - 7);
    }

    /** Words of the prepass region: bits [2^(D−2), 3·2^D), i.e. 11·2^(D−7) words. */
    public static int prepassWordCount(int D) {
        return 11 << (D - 7);
    }

    /**
     * Word W of the region of levels D − 1 .. D − 5 (D ≥ 10), composed from the bitfield: the field of node i at
     * level D − m is the popcount of bitfield bits [i·2^m, (i+1)·2^m), inside one bitfield word
     * ({@link CbtKernels#popcountField}).
     */
    public static int prepassWord(int[] heap, int D, int W) {
        // level D − m starts at word (m + 3)·2^(D−m−5); the levels lie deepest last, so m counts the starts above W
        int m = 1 + (W < (4 << (D - 6)) ? 1 : 0) + (W < (5 << (D - 7)) ? 1 : 0) + (W < (6 << (D - 8)) ? 1 : 0)
                + (W < (7 << (D - 9)) ? 1 : 0);
        int n = m + 1;
        int r = (W - ((m + 3) << (D - m - 5))) << 5; // bit of the word in its level's region
        int per = 5 - m;                             // log2 of the fields per bitfield word
        int base = 3 << (D - 5);                     // the bitfield's first word
        int i0 = r / n;
        int i1 = (r + 31) / n;                       // the region ends on a word boundary: i1 is a field of it
        int v = 0;
        for (int i = i0; i <= i1; i++) {
            int c = CbtKernels.popcountField(heap[base + (i >> per)], m, i & ((1 << per) - 1));
            int o = i * n - r;
            v |= ushr(c << Math.max(o, 0), Math.max(-o, 0));
        }
        return v;
    }

    /** Words holding the fields of levels 0..T (the last one may also hold level T + 1's first bits). */
    public static int topWordCount(int D, int T) {
        int end = (D - T + 2) << (T + 1);
        return (end + 31) >> 5;
    }

    /**
     * Word W of the region of levels 0..T, composed from the sums {@code cnt[k]} of nodes k = 1 .. 2^(T+1) − 1: their
     * fields are replaced, every other bit of {@code old} (element 0, level T + 1) is kept. The tornado kernel runs
     * the same loops inline over a local array (TornadoVM 5.2 addresses a local array passed to a callee as a global
     * one, header offset included).
     */
    public static int topWord(int old, int[] cnt, int D, int T, int W) {
        int v = 0;
        int mask = 0;
        for (int d = 0; d <= T; d++) {
            int last = lastField(D, d, W);
            for (int i = firstField(D, d, W); i <= last; i++) {
                int o = fieldOffset(D, d, i, W);
                v |= place(cnt[(1 << d) + i], o);
                mask |= place(ones(D, d), o);
            }
        }
        return (old & ~mask) | v;
    }

    /** First bit of level d: 2^d (D − d + 3). */
    public static int levelStart(int D, int d) {
        return (D - d + 3) << d;
    }

    /** The first field i (node 2^d + i) of level d with a bit in word W. */
    public static int firstField(int D, int d, int W) {
        int s = levelStart(D, d);
        return (Math.max(W << 5, s) - s) / (D - d + 1);
    }

    /** The last field of level d with a bit in word W, below {@link #firstField} when there is none. */
    public static int lastField(int D, int d, int W) {
        int s = levelStart(D, d);
        int b = Math.min((W << 5) + 32, levelStart(D, d + 1)) - s; // level d + 1 starts where level d ends
        return b > 0 ? (b - 1) / (D - d + 1) : -1;
    }

    /** Where field i of level d starts relative to bit 0 of word W (negative: it began in the word before). */
    public static int fieldOffset(int D, int d, int i, int W) {
        return levelStart(D, d) + i * (D - d + 1) - (W << 5);
    }

    /** The field width's mask, D − d + 1 ones (at most 31). */
    public static int ones(int D, int d) {
        return (1 << (D - d + 1)) - 1;
    }

    /** A field's bits as they appear in a word where it starts at offset o, −31 &lt; o &lt; 32. */
    public static int place(int v, int o) {
        return ushr(v << Math.max(o, 0), Math.max(-o, 0));
    }
}
