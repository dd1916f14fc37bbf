package org.accelgeom.cbt;

/**
 * Element kernels of the concurrent binary tree, shared by the {@code jvm}, {@code jvm-parallel} and
 * {@code tornado} backends (TornadoVM subset: static, primitives and int arrays, no objects).
 *
 * <p>A heap is an {@code int[]} in one of two layouts, chosen by {@code packed}:
 * <ul>
 * <li>{@code packed = 1}: the paper's memory optimisation (§2.7–2.8), 2^(D+2) bits; element k has
 * D − d_k + 1 bits at offset x_k = 2^(d_k+1) + k·(D − d_k + 1) and may straddle two words;</li>
 * <li>{@code packed = 0}: one int per heap element (element k at index k, element 0 = D), 2^(D+1) ints.</li>
 * </ul>
 *
 * <p><b>Writes are deltas.</b> Every write in a data-parallel pass has a single writer per field (a leaf sets or
 * clears only its own right child's bit, a reduction work-item owns its node), but several fields share a
 * 32-bit word. The article updates words with atomic AND/OR; TornadoVM kernels offer only atomic add. A field
 * with one writer that knows its old value v0 can be changed to v1 by adding (v1 − v0)·2^s to its word (and the
 * high part to the next word when it straddles): the addition changes exactly the field's bits, commutes with
 * other writers' additions to other fields of the word, and so equals the AND/OR sequence. The kernels below
 * compute the word and the two addends ({@link #word}, {@link #deltaLo}, {@link #deltaHi}); each backend adds
 * them its way (a plain {@code +=} on one thread, {@code VarHandle.getAndAdd} on the JVM pool,
 * {@code KernelContext.atomicAdd} on the GPU).
 */
public final class CbtKernels {

    /** Update rule: leaf splits. */
    public static final int SPLIT = 1;
    /** Update rule: the leaf (a right child) clears its bit, merging its parent's children. */
    public static final int MERGE = -1;

    private CbtKernels() {
    }

    /**
     * x >>> s for 0 ≤ s ≤ 31. TornadoVM 5.2's OpenCL backend emits Java's {@code >>>} on an int as a signed shift,
     * so kernels shift the zero-extended value as a non-negative long instead.
     */
    public static int ushr(int x, int s) {
        return (int) ((x & 0xFFFFFFFFL) >> s);
    }

    /**
     * FindMSB, eq. (2), for k ≥ 1, by a branch-free binary search (TornadoVM 5.2's OpenCL backend does not lower
     * {@code Integer.numberOfLeadingZeros}).
     */
    public static int depth(int k) {
        int v = k;
        int d = 0;
        // k > 0, so a signed shift is exact here
        int s = (v >> 16) != 0 ? 16 : 0;
        d += s;
        v >>= s;
        s = (v >> 8) != 0 ? 8 : 0;
        d += s;
        v >>= s;
        s = (v >> 4) != 0 ? 4 : 0;
        d += s;
        v >>= s;
        s = (v >> 2) != 0 ? 2 : 0;
        d += s;
        v >>= s;
        s = (v >> 1) != 0 ? 1 : 0;
        return d + s;
    }

    /** The stored maximum depth D, read from element 0 (packed: the lowest set bit at or above bit 2 is bit D + 2). */
    public static int maxDepth(int[] heap, int packed) {
        if (packed == 0) {
            return heap[0];
        }
        int w = heap[0] & ~3;
        return w != 0 ? Integer.numberOfTrailingZeros(w) - 2 : 30;
    }

    /** Value of heap element k ≥ 1: the number of leaves below node k (level D: the bit). */
    public static int read(int[] heap, int D, int packed, int k) {
        return readAt(heap, D, packed, k, depth(k));
    }

    /** {@link #read} of node k whose depth d the caller knows (the decoding loop tracks it: no FindMSB per read). */
    public static int readAt(int[] heap, int D, int packed, int k, int d) {
        if (packed == 0) {
            return heap[k];
        }
        int n = D - d + 1;
        int x = fieldBit(D, d, k);
        int w = ushr(x, 5);
        int s = x & 31;
        int lo = ushr(heap[w], s);
        int w1 = Math.min(w + 1, heap.length - 1); // in bounds even when not needed
        int hi = heap[w1] << (32 - s);           // s = 0 gives a shift by 0 in Java (taken mod 32) but is masked below
        int straddles = s + n > 32 ? 1 : 0;
        int v = straddles == 1 ? (lo | hi) : lo;
        return v & ((1 << n) - 1);
    }

    /**
     * Bit offset of element k at depth d (Fig. 9), as an unsigned 32-bit value: x = 2^(d+1) + k·(D − d + 1) is below
     * 2^(D+2) ≤ 2^32, so its 32 low bits, computed with wrapping int arithmetic (a GPU's 32-bit multiply is several
     * times cheaper than a 64-bit one), are x itself.
     */
    public static int fieldBit(int D, int d, int k) {
        return (1 << (d + 1)) + k * (D - d + 1);
    }

    /** Index of the word holding the low bits of element k. */
    public static int word(int D, int packed, int k) {
        if (packed == 0) {
            return k;
        }
        int d = depth(k);
        long x = (1L << (d + 1)) + (long) k * (D - d + 1);
        return (int) (x >>> 5);
    }

    /** What to add to {@link #word} so that element k goes from {@code oldV} to {@code newV}. */
    public static int deltaLo(int D, int packed, int k, int oldV, int newV) {
        if (packed == 0) {
            return newV - oldV;
        }
        int d = depth(k);
        int n = D - d + 1;
        long x = (1L << (d + 1)) + (long) k * n;
        int s = (int) (x & 31);
        int lowBits = Math.min(n, 32 - s);
        int m = lowBits == 32 ? -1 : (1 << lowBits) - 1;
        return ((newV & m) - (oldV & m)) << s;
    }

    /** What to add to {@code word + 1} (non-zero only for a field that straddles two words). */
    public static int deltaHi(int D, int packed, int k, int oldV, int newV) {
        if (packed == 0) {
            return 0;
        }
        int d = depth(k);
        int n = D - d + 1;
        long x = (1L << (d + 1)) + (long) k * n;
        int s = (int) (x & 31);
        int lowBits = Math.min(n, 32 - s);
        if (lowBits >= n) {
            return 0;
        }
        return ushr(newV, lowBits) - ushr(oldV, lowBits);
    }

    /** Heap element (a level-D node) of the bitfield bit that encodes node k: 2^D + x_k with x_k = k·2^(D−d_k) − 2^D. */
    public static int bitElement(int D, int k) {
        return k << (D - depth(k));
    }

    /**
     * The paper's leaf decoding (Fig. 8): the heap index of leaf l ∈ [0, L), descending from the root by the
     * leaf counts of the left children. Ends when the node's count is ≤ 1 (a bit flipped by a concurrent split or
     * merge keeps that test true, §2.6).
     */
    public static int decode(int[] heap, int D, int packed, int l) {
        int k = 1;
        int sk = read(heap, D, packed, 1);
        int lr = l;
        for (int i = 0; i < D; i++) {
            if (sk > 1) {
                int kl = 2 * k; // depth i + 1
                int sl = readAt(heap, D, packed, kl, i + 1);
                // the right child's count is sk − sl (§2.5), one read fewer per right turn. Exact: above level D − 1
                // the sums do not change during a pass, and at level D − 1 only the choice of child matters (the
                // loop ends after it), which depends on sl alone
                int right = lr < sl ? 0 : 1;
                k = kl + right;
                lr = lr - right * sl;
                sk = right == 1 ? sk - sl : sl;
            }
        }
        return k;
    }

    /** The leaf count of node k after the reduction (§2.5): heap[2k] + heap[2k+1]. */
    public static int reduceValue(int[] heap, int D, int packed, int k) {
        return read(heap, D, packed, 2 * k) + read(heap, D, packed, 2 * k + 1);
    }

    /**
     * Word w of a heap initialised at depth d0 (§2.9, step 1): the bits of nodes 2^d0 .. 2^(d0+1)−1 set in the
     * bitfield, the depth in element 0, every sum zero (the reduction that follows fills them in).
     */
    public static int initWord(int D, int packed, int d0, int w) {
        long stride = 1L << (D - d0);
        if (packed == 0) {
            long bf = 1L << D;
            int v = 0;
            if (w == 0) {
                v = D;
            }
            int inBitfield = w >= bf ? 1 : 0;
            int onStride = ((w - bf) & (stride - 1)) == 0 ? 1 : 0;
            if ((inBitfield & onStride) == 1) {
                v = 1;
            }
            return v;
        }
        long base = 32L * w;
        long bf = 3L << D; // the bitfield: elements 2^D .. 2^(D+1)−1, one bit each, from bit 3·2^D (§2.8)
        int v = 0;
        int aligned = (base >= bf ? 1 : 0) & ((bf & 31) == 0 ? 1 : 0);
        if (aligned == 1) {
            if (stride >= 32) {
                v = ((base - bf) & (stride - 1)) == 0 ? 1 : 0;
            } else {
                for (int b = 0; b < 32; b += (int) stride) {
                    v |= 1 << b;
                }
            }
            return v;
        }
        long hdr = 2L + D; // element 0 = 2^D in bits [2, D+3)
        for (int b = 0; b < 32; b++) {
            long x = base + b;
            int on = x == hdr ? 1 : 0;
            int inBitfield = (x >= bf ? 1 : 0) & (x < bf + (1L << D) ? 1 : 0);
            int onStride = ((x - bf) & (stride - 1)) == 0 ? 1 : 0;
            on |= inBitfield & onStride;
            v |= on << b;
        }
        return v;
    }

    /**
     * Leaf count of the i-th node, m levels above the bitfield, inside one 32-bit bitfield word (the fused
     * prepass of the reduction): the popcount of bits [i·2^m, (i+1)·2^m) of {@code bits}, by SWAR partial sums.
     */
    public static int popcountField(int bits, int m, int i) {
        int c = bits - (ushr(bits, 1) & 0x55555555);
        if (m >= 2) {
            c = (c & 0x33333333) + (ushr(c, 2) & 0x33333333);
        }
        if (m >= 3) {
            c = (c + ushr(c, 4)) & 0x0F0F0F0F;
        }
        if (m >= 4) {
            c = (c + ushr(c, 8)) & 0x00FF00FF;
        }
        if (m >= 5) {
            c = (c + ushr(c, 16)) & 0x0000FFFF;
        }
        int width = 1 << m;
        int mask = width == 32 ? -1 : (1 << width) - 1;
        return ushr(c, i * width) & mask;
    }

    /** A 32-bit integer hash (the murmur3 finaliser) of a node and a round seed, for random update rules. */
    public static int hash(int k, int seed) {
        int h = k * 0x9E3779B1 + seed;
        h ^= ushr(h, 16);
        h *= 0x85EBCA6B;
        h ^= ushr(h, 13);
        h *= 0xC2B2AE35;
        h ^= ushr(h, 16);
        return h & 0x7FFFFFFF;
    }

    /** The random rule wants node k split (k must be a leaf above level D). */
    public static boolean wantsSplit(int D, int k, int seed, int splitBelow) {
        return wantsSplitFlag(D, k, seed, splitBelow) == 1;
    }

    /** {@link #wantsSplit} as 0/1: boolean operators are combined bitwise, because TornadoVM 5.2 negated a
     * short-circuit {@code &&} inside a larger condition wrongly (De Morgan) in generated OpenCL. */
    public static int wantsSplitFlag(int D, int k, int seed, int splitBelow) {
        return (depth(k) < D ? 1 : 0) & (hash(k, seed) < splitBelow ? 1 : 0);
    }

    /**
     * The random update rule of the property tests and benchmarks, for leaf k with an up-to-date reduction:
     * {@link #SPLIT} with probability splitBelow/2^31 (above level D), {@link #MERGE} when k is a right child
     * deeper than minDepth, its sibling is a leaf (its count is 1: a subtree with one leaf is that leaf), neither
     * sibling splits in this pass and the parent's hash is below mergeBelow; else 0. Both siblings evaluate the
     * same predicates, so a pass never splits and merges the same pair.
     */
    public static int randomRule(int[] heap, int D, int packed, int k, int seed, int splitBelow, int mergeBelow, int minDepth) {
        return rule(D, k, seed, splitBelow, mergeBelow, minDepth, read(heap, D, packed, Math.max(1, k - 1)));
    }

    /**
     * {@link #randomRule} given the count of node k − 1 (k's sibling when k is a right child; unused otherwise), for
     * kernels that hold that count in local memory.
     */
    public static int rule(int D, int k, int seed, int splitBelow, int mergeBelow, int minDepth, int siblingCount) {
        int split = wantsSplitFlag(D, k, seed, splitBelow);
        int d = depth(k);
        int right = k & 1;
        int deep = d > minDepth ? 1 : 0;
        int sibling = Math.max(1, k - 1);
        int siblingLeaf = siblingCount == 1 ? 1 : 0;
        int siblingStays = 1 - wantsSplitFlag(D, sibling, seed, splitBelow);
        int chosen = hash(k >> 1, seed ^ 0x5bd1e995) < mergeBelow ? 1 : 0;
        int merge = (1 - split) & right & deep & siblingLeaf & siblingStays & chosen;
        return split * SPLIT + merge * MERGE;
    }

    /** The heap element whose bit an action of leaf k changes: the right child for a split, k itself for a merge. */
    public static int actionElement(int D, int k, int action) {
        return action == SPLIT ? bitElement(D, 2 * k + 1) : bitElement(D, k);
    }

    /** Number of leaves found by the paper's sequential bitfield scan (§2.4) and the sum of their heap indices. */
    public static void scan(int[] heap, int D, int packed, long[] out) {
        long n = 1L << D;
        long count = 0;
        long sum = 0;
        long prev = -1;
        for (long x = 0; x < n; x++) {
            int bit = read(heap, D, packed, (int) (n + x));
            if (bit != 0) {
                if (prev >= 0) {
                    long gap = x - prev; // eq. (9)/(10): k = (2^D + x)/(N0 + 1), N0 + 1 = the gap to the next set bit
                    sum += (n + prev) / gap;
                    count++;
                }
                prev = x;
            }
        }
        if (prev >= 0) {
            sum += (n + prev) / (n - prev);
            count++;
        }
        out[0] = count;
        out[1] = sum;
    }
}
