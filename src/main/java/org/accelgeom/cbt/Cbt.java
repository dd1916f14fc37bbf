package org.accelgeom.cbt;

import java.util.Arrays;

import org.accelgeom.engine.AccelGeomException;

/**
 * A concurrent binary tree (Grachev &amp; Ushakov 2023; Dupuy 2020): a full binary tree of maximum depth D encoded
 * as a bitfield of 2^D bits (a set bit marks where a leaf starts, §2.2) augmented with a sum reduction (the leaf
 * count of every node of the perfect tree above it, §2.5), stored as one heap in an {@code int[]}: packed
 * (the paper's per-level bit widths, 2^(D+2) bits) or unpacked (one int per node). See docs/cbt.md.
 *
 * <p>This class is the sequential reference and the host-side API. Split and merge change only the bitfield; the
 * sums are recomputed by {@link #reduce()}, which {@link #leafCount()} and {@link #decode(int)} call when a
 * change is pending. Data-parallel passes over the same heap live in {@link CbtBackend}s.
 *
 * <p>Degenerate cases: D = 1 is a root with at most two leaves; the tree always has at least one leaf (the
 * root); splitting a level-D leaf and merging anything but a pair of sibling leaves are errors.
 */
public final class Cbt {

    private final int D;
    private final int packed;
    private final int[] heap;
    private boolean stale;

    private Cbt(int D, boolean packed, int[] heap) {
        this.D = D;
        this.packed = packed ? 1 : 0;
        this.heap = heap;
    }

    /** A tree of maximum depth D whose leaves are the 2^d nodes of level d (§2.9, step 1), reduced. */
    public static Cbt create(int D, int d, boolean packed) {
        checkDepths(D, d, packed);
        int words = packed ? CbtLayout.packedWords(D) : CbtLayout.unpackedWords(D);
        int[] heap = new int[words];
        int p = packed ? 1 : 0;
        for (int w = 0; w < words; w++) {
            heap[w] = CbtKernels.initWord(D, p, d, w);
        }
        Cbt t = new Cbt(D, packed, heap);
        t.reduce();
        return t;
    }

    /**
     * A heap holding only its depth (no bit set: not yet a tree), for a backend to initialise in place with
     * {@link CbtBackend#init(int)}: at D = 30 the host then never walks 2^30 nodes.
     */
    public static Cbt uninitialised(int D, boolean packed) {
        checkDepths(D, 0, packed);
        int[] heap = new int[packed ? CbtLayout.packedWords(D) : CbtLayout.unpackedWords(D)];
        if (packed) {
            heap[(D + 2) >>> 5] = 1 << ((D + 2) & 31); // element 0 = 2^D at bit offset 2
        } else {
            heap[0] = D;
        }
        return new Cbt(D, packed, heap);
    }

    /** Checks 1 ≤ D ≤ 30 (29 unpacked) and 0 ≤ d ≤ D, with one-line errors. */
    public static void checkDepths(int D, int d, boolean packed) {
        int max = packed ? CbtLayout.MAX_DEPTH : CbtLayout.MAX_DEPTH_UNPACKED;
        if (D < 1 || D > max) {
            throw new AccelGeomException("maximum depth " + D + " out of range: expected 1.." + max
                    + (packed ? "" : " for the unpacked heap (2^(D+1) ints must fit a Java array)"));
        }
        if (d < 0 || d > D) {
            throw new AccelGeomException("initial depth " + d + " out of range: expected 0.." + D);
        }
    }

    /** Wraps an existing heap (the words are shared, not copied); D is read from element 0. */
    public static Cbt wrap(int[] heap, boolean packed) {
        int D = CbtKernels.maxDepth(heap, packed ? 1 : 0);
        int need = packed ? CbtLayout.packedWords(D) : CbtLayout.unpackedWords(D);
        if (D < 1 || D > CbtLayout.MAX_DEPTH || heap.length != need) {
            throw new AccelGeomException("not a CBT heap: " + heap.length + " words for stored depth " + D);
        }
        return new Cbt(D, packed, heap);
    }

    public int maxDepth() {
        return D;
    }

    public boolean packed() {
        return packed == 1;
    }

    /** The heap's words (shared with this tree). */
    public int[] heap() {
        return heap;
    }

    /** A deep copy. */
    public Cbt copy() {
        Cbt c = new Cbt(D, packed(), heap.clone());
        c.stale = stale;
        return c;
    }

    /** Bytes of the heap. */
    public long memoryBytes() {
        return 4L * heap.length;
    }

    /** Element k of the heap as stored (a sum may be stale after split/merge until {@link #reduce()}). */
    public int get(int k) {
        checkNode(k);
        return CbtKernels.read(heap, D, packed, k);
    }

    /** Sets heap element k (a sequential write; the parallel backends add deltas instead). */
    void set(int k, int v) {
        int old = CbtKernels.read(heap, D, packed, k);
        int w = CbtKernels.word(D, packed, k);
        heap[w] += CbtKernels.deltaLo(D, packed, k, old, v);
        int hi = CbtKernels.deltaHi(D, packed, k, old, v);
        if (hi != 0) {
            heap[w + 1] += hi;
        }
    }

    /** The sum reduction, level by level from D − 1 to 0 (§2.5, §2.9 step 2). */
    public void reduce() {
        for (int d = D - 1; d >= 0; d--) {
            for (int k = 1 << d; k < (2 << d); k++) {
                set(k, CbtKernels.reduceValue(heap, D, packed, k));
            }
        }
        stale = false;
    }

    /** For backends: marks the sums stale (after a pass changed the bitfield). */
    public void markStale() {
        stale = true;
    }

    /** For backends: marks the sums current (after a pass reduced the heap). */
    public void markFresh() {
        stale = false;
    }

    /** L, the number of leaves: the root's sum. */
    public int leafCount() {
        refresh();
        return CbtKernels.read(heap, D, packed, 1);
    }

    /** The heap index of leaf l ∈ [0, L) in left-to-right order, by the top-down traversal of Fig. 8. */
    public int decode(int l) {
        refresh();
        int n = leafCount();
        if (l < 0 || l >= n) {
            throw new IndexOutOfBoundsException("leaf " + l + " of " + n);
        }
        return CbtKernels.decode(heap, D, packed, l);
    }

    /** All leaves in order, decoded one by one (Fig. 8). */
    public int[] leaves() {
        int n = leafCount();
        int[] out = new int[n];
        for (int l = 0; l < n; l++) {
            out[l] = CbtKernels.decode(heap, D, packed, l);
        }
        return out;
    }

    /**
     * All leaves in order from the bitfield alone (§2.4, eqs. 9–10): a set bit x followed by N0 zero bits is
     * the leaf (2^D + x)/(N0 + 1). Sequential by nature; independent of the sums.
     */
    public int[] leavesByScan() {
        long n = 1L << D;
        int[] out = new int[16];
        int count = 0;
        long prev = -1;
        for (long x = nextSetBit(0); x < n; x = nextSetBit(x + 1)) {
            if (prev >= 0) {
                out = grow(out, count);
                out[count++] = (int) ((n + prev) / (x - prev));
            }
            prev = x;
        }
        if (prev >= 0) {
            out = grow(out, count);
            out[count++] = (int) ((n + prev) / (n - prev));
        }
        return Arrays.copyOf(out, count);
    }

    private static int[] grow(int[] a, int count) {
        return count < a.length ? a : Arrays.copyOf(a, a.length * 2);
    }

    /** Bit x of the bitfield. */
    public boolean bit(long x) {
        return CbtKernels.read(heap, D, packed, CbtLayout.bitNode(D, x)) != 0;
    }

    /** The first set bit at or after x, or 2^D if none (word-wise for the packed heap). */
    long nextSetBit(long x) {
        long n = 1L << D;
        if (packed == 1 && D >= 5) {
            long base = 3L << D; // the bitfield starts word-aligned for D ≥ 5
            while (x < n) {
                long p = base + x;
                int w = heap[(int) (p >>> 5)] >>> (int) (p & 31);
                if (w != 0) {
                    return x + Integer.numberOfTrailingZeros(w);
                }
                x = (x | 31) + 1;
            }
            return n;
        }
        while (x < n && !bit(x)) {
            x++;
        }
        return x;
    }

    /** Number of set bits in [from, to) of the bitfield. */
    long countBits(long from, long to) {
        long c = 0;
        for (long x = nextSetBit(from); x < to; x = nextSetBit(x + 1)) {
            c++;
        }
        return c;
    }

    /** Bits of the bitfield below node k: [x_k, x_k + 2^(D−d_k)). */
    private long[] range(int k) {
        long x = CbtLayout.encode(D, k);
        return new long[] {x, x + (1L << (D - CbtLayout.depth(k)))};
    }

    /** True when node k is a node of the tree (the root, or a child of a node with two leaves or more). */
    public boolean isPresent(int k) {
        checkNode(k);
        if (k == 1) {
            return true;
        }
        long[] r = range(k >>> 1);
        return countBits(r[0], r[1]) >= 2;
    }

    /** True when node k is a leaf of the tree (present, with exactly one set bit, its own, in its range). */
    public boolean isLeaf(int k) {
        long[] r = range(k);
        return isPresent(k) && bit(r[0]) && countBits(r[0], r[1]) == 1;
    }

    /** Split leaf k into 2k and 2k + 1: set the bit of 2k + 1 (§2.3). Idempotent on an already split node. */
    public void split(int k) {
        checkNode(k);
        if (CbtLayout.depth(k) >= D) {
            throw new IllegalArgumentException("node " + k + " is at the maximum depth " + D + " and cannot split");
        }
        if (!isPresent(k)) {
            throw new IllegalArgumentException("node " + k + " is not in the tree");
        }
        set(CbtKernels.bitElement(D, 2 * k + 1), 1);
        stale = true;
    }

    /**
     * Merge the children of node k back into k: clear the bit of 2k + 1 (§2.3). Enforces the precondition the
     * article leaves implicit: both children must be leaves (clearing the bit of an internal right child would
     * encode no tree, §2.3 of the report).
     */
    public void merge(int k) {
        checkNode(k);
        if (CbtLayout.depth(k) >= D || !isLeaf(2 * k) || !isLeaf(2 * k + 1)) {
            throw new IllegalArgumentException("cannot merge node " + k + ": its children are not both leaves");
        }
        set(CbtKernels.bitElement(D, 2 * k + 1), 0);
        stale = true;
    }

    private void refresh() {
        if (stale) {
            reduce();
        }
    }

    private void checkNode(int k) {
        if (k < 1 || (long) k >= (2L << D)) {
            throw new IndexOutOfBoundsException("node " + k + " outside 1.." + ((2L << D) - 1));
        }
    }

    @Override
    public String toString() {
        return "CBT(D=" + D + ", " + (packed() ? "packed" : "unpacked") + ", " + heap.length + " words)";
    }
}
