package org.accelgeom.cbt.tornado;

import static org.accelgeom.cbt.CbtKernels.ushr;

import java.util.concurrent.atomic.AtomicInteger;

import org.accelgeom.engine.Tuning;
import org.accelgeom.cbt.CbtChunks;
import org.accelgeom.cbt.CbtKernels;
import org.accelgeom.cbt.WordReduction;

import uk.ac.manchester.tornado.api.KernelContext;

/**
 * The CBT usage cycle (§2.9, Fig. 12: decode-and-update, then the sum reduction) in <b>one kernel launch</b>, for
 * packed heaps with {@link CbtChunks#eligible} depths. Work-group j owns chunk j ({@link CbtChunks}): it copies the
 * stored fields of its subtree into local memory, decodes its leaves (Fig. 8 from the chunk root), applies their
 * split/merge bits, recomputes its subtree's sums from the new bits, writes its bitfield words and its sum words (the
 * latter by an atomic add of the difference on its own bits, so that a word shared with a neighbouring chunk keeps the
 * neighbour's), and publishes its leaf count. The last work-group to take a ticket then reduces levels g .. 0 from the
 * chunks' counts and writes their words. No device-wide barrier is needed: every read of a work-group is of fields
 * nobody changes before it has taken its ticket.
 *
 * <p>The counts are published with a tag (the execution's sequence number) and the last work-group checks it:
 * OpenCL 1.2, as TornadoVM emits it, has no device-scope fence between a store and the ticket's atomic, so a count
 * that was not yet visible is re-read, and one still missing makes the root count at least {@link #MISSING} (the
 * backend fails loudly) instead of being summed, and is counted in info[INFO_MISSED].
 *
 * <p>Several cycles per execution: a cycle graph may hold K copies of this task (argument nth = 0 .. K − 1),
 * cycle nth with its own mode and seed ({@link CbtTaskGraphs#cycleMode}, {@link CbtTaskGraphs#cycleSeed}) and sequence
 * number SEQ + nth (its tag). Kernels of one in-order queue run one after another, so cycle nth + 1 reads the heap
 * that cycle nth left, as the next execution would; the ticket grows by 2^g per cycle either way. A copy whose mode is
 * 0 is one idle work-group.
 *
 * <p>The reductions here are hand-written, not {@code @Reduce}: they are fused into the one launch (each chunk's
 * sums in local memory, the top by the last work-group), and they keep every node's sum, not one value.
 */
public final class ChunkCycle {

    /** The work-group size asked for (items per chunk; the backend takes at most the device's maximum, and the
     * kernel needs at least 8). */
    public static final int GROUP = Tuning.CBT_CHUNK_GROUP.intValue();
    /** Local copy of a chunk's stored words: level g + m at words (m − 1)·32 .. (no level of a chunk spans more than
     * 32 words, {@link CbtChunks#words}), plus one word of slack for fields that straddle. */
    static final int LW = 10 * 32 + 1;
    /** Split/merge marks, one per bitfield bit of a chunk (2^10 at most); slot FLIP takes the leaves that flip none. */
    static final int FLIP = 1024;
    /** Sums: a chunk's subtree (2^10 nodes) and its packed marks (from {@link #NIBBLES}), then the top of the
     * reduction (2^(g+1) ≤ 4096 nodes). */
    static final int CNT = 4096;
    static final int NIBBLES = 2048;
    /**
     * params[STOP]: the kernel's phases up to P only, a timing breakdown of the benchmark
     * ({@link TornadoCbtBackend#stopAfterPhase}, {@code accelgeom.cbt.chunkStop} of {@code cbt --bench}): 1 copies the
     * stored fields, 2 also decodes and marks the updates, 3 also derives the new bits and sums, 4 also composes the
     * words (into local memory); below {@link #ALL} the heap and the leaf count are left unchanged, so that every pass
     * does the same work. The production path always runs ALL.
     */
    public static final int ALL = 5;

    /** cnt[LAST]: whether the group drew the last ticket (node 0 does not exist, so its slot is free). */
    static final int LAST = 0;

    /** What the last work-group counts for a chunk whose count it could not see: above any leaf count (≤ 2^21). */
    public static final int MISSING = 1 << 24;

    private ChunkCycle() {
    }

    /** Work-items of a launch in {@code mode} with groups of {@code group}: one group per chunk for a reduction, one
     * idle group otherwise. */
    public static long workItems(int D, int mode, int group) {
        return (mode & CbtTaskGraphs.MODE_REDUCE) != 0 ? (long) group << CbtChunks.level(D) : group;
    }

    /**
     * The kernel: see the class comment. {@code sums} holds one tagged count per chunk; {@code ticket} counts finished
     * chunks. Its phases, each ended by a barrier: copy (the chunk's stored words into {@code lw}, the counts above it
     * into registers), decode and mark ({@code flip}), flip the bitfield words, the subtree's sums ({@code cnt}), the
     * ticket and the words of levels g + 1 .. D − 1, and in the last work-group the top (levels g .. 0). Loop bounds
     * are computed before their loops: TornadoVM 5.2 mis-compiled a conditional inside a loop's test. The helpers take
     * values and device arrays, never a local array: TornadoVM 5.2 addresses a local array passed to a callee as a
     * global one (header offset included). {@code nth}: the execution's cycle nth, with its own mode and seed and the
     * sequence number SEQ + nth (only index arithmetic on nth: a condition on a constant-folded scalar argument crashed
     * TornadoVM 5.2's code generator). INFO_MISSED counts the cycles whose count was missing, so that a cycle before
     * the last of an execution cannot hide one (the host compares).
     */
    public static void cycle(KernelContext c, int[] params, int[] heap, int[] sums, int[] info, AtomicInteger ticket,
            int nth) {
        int D = params[CbtTaskGraphs.DEPTH];
        int mode = params[CbtTaskGraphs.cycleMode(nth)];
        int seed = params[CbtTaskGraphs.cycleSeed(nth)];
        int seq = params[CbtTaskGraphs.SEQ] + nth;
        int stop = params[CbtTaskGraphs.STOP];
        int g = CbtChunks.level(D);
        int cl = D - g;
        int G = 1 << g;
        int j = c.groupIdx;
        int i = c.localIdx;
        int T = c.localGroupSizeX;
        int on = ((mode & CbtTaskGraphs.MODE_REDUCE) != 0 ? 1 : 0) & (j < G ? 1 : 0);
        int upd = on & ((mode & CbtTaskGraphs.MODE_UPDATE) != 0 ? 1 : 0) & (stop >= 2 ? 1 : 0);
        int sumsOn = on & (stop >= 3 ? 1 : 0);
        int all = on & (stop >= ALL ? 1 : 0);
        int[] lw = c.allocateIntLocalArray(LW);
        int[] flip = c.allocateIntLocalArray(FLIP + 1);
        int[] cnt = c.allocateIntLocalArray(CNT);
        if ((j == 0 ? 1 : 0) + (i == 0 ? 1 : 0) == 2) {
            info[CbtTaskGraphs.INFO_BEAT] = seq;
        }
        int root = G + j;
        int chunkBits = on == 1 ? 1 << cl : 0;
        // copy: the counts of the chunk root, its parent and its left neighbour, the shallow flip (item 0, which clears
        // the marks' first), and the stored words of levels g + 1 .. D (item v: word v & 31 of level g + (v >> 5) + 1)
        int rootCount = CbtKernels.read(heap, D, 1, root);
        int parentCount = CbtKernels.read(heap, D, 1, root >> 1);
        int leftCount = CbtKernels.read(heap, D, 1, root - 1);
        int shallow = upd + (i == 0 ? 1 : 0) == 2 ? shallowFlip(params, seed, heap, D, root) : 0;
        for (int x = i; x < chunkBits; x += T) {
            flip[x] = x == 0 ? shallow : 0;
        }
        int copyItems = on == 1 ? cl << 5 : 0;
        for (int v = i; v < copyItems; v += T) {
            int m = (v >> 5) + 1;
            if ((v & 31) < CbtChunks.words(D, g, g + m, j)) {
                lw[v] = heap[(CbtChunks.start(D, g, g + m, j) >> 5) + (v & 31)];
            }
        }
        c.localBarrier();
        // decode-and-update (§2.6): leaves mark the bits their splits and merges flip (flip[FLIP]: flipping none)
        int n = upd == 1 ? (parentCount >= 2 ? rootCount : 0) : 0;
        for (int r = i; r < n; r += T) {
            flip[leafFlip(params, seed, heap, D, root, cl, r, rootCount, leftCount)] = 1;
        }
        c.localBarrier();
        // the marks packed by four (cnt[NIBBLES + t]), then by 32 into the flips of each bitfield word (word-aligned)
        int nibbles = sumsOn == 1 ? 1 << (cl - 2) : 0;
        for (int t = i; t < nibbles; t += T) {
            cnt[NIBBLES + t] = flip[4 * t] | (flip[4 * t + 1] << 1) | (flip[4 * t + 2] << 2) | (flip[4 * t + 3] << 3);
        }
        c.localBarrier();
        int bitWords = sumsOn == 1 ? 1 << (cl - 5) : 0;
        int bits0 = (cl - 1) << 5; // the local copy's level D
        for (int w = i; w < bitWords; w += T) {
            int f = 0;
            for (int b = 0; b < 8; b++) {
                f |= cnt[NIBBLES + 8 * w + b] << (4 * b);
            }
            lw[bits0 + w] ^= f;
            if ((f != 0 ? 1 : 0) + all == 2) {
                heap[(CbtChunks.start(D, g, D, j) >> 5) + w] = lw[bits0 + w];
            }
        }
        c.localBarrier();
        // the new sums (§2.5): SWAR popcounts of a word, then sums of ≤ 8 word counts, then of ≤ 4 of those
        int wordLevel = 1 << (cl - 5);
        int eighth = cl >= 8 ? 1 << (cl - 8) : 1;
        for (int stage = 0; stage < 3; stage++) {
            int below = stage == 0 ? cl : (stage == 1 ? cl - 5 : cl - 8);
            int from = stage == 0 ? wordLevel : (stage == 1 ? eighth : 1);
            int to = sumsOn == 1 ? (stage == 0 ? chunkBits >> 1 : (stage == 1 ? wordLevel : eighth)) : 0;
            for (int t = from + i; t < to; t += T) {
                int m = CbtKernels.depth(t);
                int span = below - m;
                int first = (t - (1 << m)) << span;
                int v = stage == 0 ? CbtKernels.popcountField(lw[bits0 + (first >> 5)], span, (first & 31) >> span) : 0;
                int terms = stage == 0 ? 0 : 1 << span;
                for (int w = 0; w < terms; w++) {
                    v += cnt[(1 << below) + first + w];
                }
                cnt[t] = v;
            }
            c.localBarrier();
        }
        // the chunk's count published and the ticket taken, while the other items compose the words below
        int tag = seq & 0x7FFF;
        if (all + (i == T - 1 ? 1 : 0) == 2) {
            sums[j] = (tag << 16) | cnt[1];
            cnt[LAST] = (ticket.incrementAndGet() & (G - 1)) == 0 ? 1 : 0;
        }
        // levels g + 1 .. D − 1 (item v as in the copy): an atomic add on the chunk's own bits (diagnostics: in flip)
        int composeItems = (on & (stop >= 4 ? 1 : 0)) == 1 ? (cl - 1) << 5 : 0;
        for (int v = i; v < composeItems; v += T) {
            int m = (v >> 5) + 1;
            if ((v & 31) < CbtChunks.words(D, g, g + m, j)) {
                int nf = D - g - m + 1;
                int s0 = CbtChunks.start(D, g, g + m, j);
                int W = (s0 >> 5) + (v & 31);
                // level D − 1: the pair counts of one bitfield word; above, fields f .. f1 of the chunk's sums
                int pairs = m == cl - 1 ? 1 : 0;
                int val = pairs == 1 ? lw[bits0 + (v & 31)] - (ushr(lw[bits0 + (v & 31)], 1) & 0x55555555) : 0;
                int mask = pairs == 1 ? -1 : 0;
                int f1 = pairs == 1 ? -1 : (Math.min((W << 5) + 32, s0 + (nf << m)) - 1 - s0) / nf;
                for (int f = (Math.max(W << 5, s0) - s0) / nf; f <= f1; f++) {
                    val |= WordReduction.place(cnt[(1 << m) + f], s0 + f * nf - (W << 5));
                    mask |= WordReduction.place((1 << nf) - 1, s0 + f * nf - (W << 5));
                }
                if (all == 0) {
                    flip[v] = val ^ mask;
                } else if ((lw[v] & mask) != val) {
                    c.atomicAdd(heap, W, val - (lw[v] & mask)); // a whole word (mask -1): nobody else writes it
                }
            }
        }
        c.localBarrier();
        // the last work-group: levels g .. 0 (level g: the chunks' counts) and their words, which end at a word boundary
        int last = all == 1 ? cnt[LAST] : 0;
        for (int d = g; d >= 0; d--) {
            int count = last == 1 ? 1 << d : 0;
            for (int x = i; x < count; x += T) {
                if (d == g) {
                    cnt[G + x] = publishedCount(sums, x, tag);
                } else {
                    cnt[(1 << d) + x] = cnt[(2 << d) + 2 * x] + cnt[(2 << d) + 2 * x + 1];
                }
            }
            c.localBarrier();
        }
        int topWords = last == 1 ? WordReduction.levelStart(D, g + 1) >> 5 : 0;
        for (int w = i; w < topWords; w += T) { // the fields in word w: those of consecutive nodes k0 .. k1
            int v = 0;
            int mask = 0;
            int k1 = topNode(D, g, Math.min((w << 5) + 31, WordReduction.levelStart(D, g + 1) - 1));
            for (int k = topNode(D, g, w << 5); k <= k1; k++) {
                int o = CbtKernels.fieldBit(D, CbtKernels.depth(k), k) - (w << 5);
                v |= WordReduction.place(cnt[k], o);
                mask |= WordReduction.place(WordReduction.ones(D, CbtKernels.depth(k)), o);
            }
            heap[w] = (mask == -1 ? 0 : heap[w] & ~mask) | v; // word 0 keeps element 0
        }
        if (last + (i == 0 ? 1 : 0) == 2) {
            info[CbtTaskGraphs.INFO_LEAVES] = cnt[1];
            info[CbtTaskGraphs.INFO_MISSED] = info[CbtTaskGraphs.INFO_MISSED] + (cnt[1] >= MISSING ? 1 : 0);
        }
    }

    /** The most cycles of one execution: one task method per copy (below). */
    public static final int MAX_COPIES = 8;

    // The copies of a graph of several cycles, each its own task method: TornadoVM 5.2 keys a kernel's AtomicInteger
    // slots by the compiled Java method, so two tasks of one method share (and break) each other's ticket; and a
    // several-cycle graph after a one-cycle graph in the same process missed counts when its copy 0 was cycle itself.
    // Checked on POCL.
    public static void cycle0(KernelContext c, int[] params, int[] heap, int[] sums, int[] info, AtomicInteger ticket) {
        cycle(c, params, heap, sums, info, ticket, 0);
    }

    public static void cycle1(KernelContext c, int[] params, int[] heap, int[] sums, int[] info, AtomicInteger ticket) {
        cycle(c, params, heap, sums, info, ticket, 1);
    }

    public static void cycle2(KernelContext c, int[] params, int[] heap, int[] sums, int[] info, AtomicInteger ticket) {
        cycle(c, params, heap, sums, info, ticket, 2);
    }

    public static void cycle3(KernelContext c, int[] params, int[] heap, int[] sums, int[] info, AtomicInteger ticket) {
        cycle(c, params, heap, sums, info, ticket, 3);
    }

    public static void cycle4(KernelContext c, int[] params, int[] heap, int[] sums, int[] info, AtomicInteger ticket) {
        cycle(c, params, heap, sums, info, ticket, 4);
    }

    public static void cycle5(KernelContext c, int[] params, int[] heap, int[] sums, int[] info, AtomicInteger ticket) {
        cycle(c, params, heap, sums, info, ticket, 5);
    }

    public static void cycle6(KernelContext c, int[] params, int[] heap, int[] sums, int[] info, AtomicInteger ticket) {
        cycle(c, params, heap, sums, info, ticket, 6);
    }

    public static void cycle7(KernelContext c, int[] params, int[] heap, int[] sums, int[] info, AtomicInteger ticket) {
        cycle(c, params, heap, sums, info, ticket, 7);
    }

    /**
     * The bit of the chunk rooted at {@code root} (relative to its first bitfield bit) that the chunk's leaf r flips,
     * or {@link #FLIP} for none: the leaf is decoded from the chunk root (Fig. 8) with the stored counts of the heap
     * as the pass found them (only the chunk's own work-group changes them, after its decoding), and applies the
     * update rule. A merge needs the left sibling's count: the left child's of the last step when it went right
     * ({@code leftCount}, the chunk root's left neighbour's, when the root is the leaf).
     */
    static int leafFlip(int[] params, int seed, int[] heap, int D, int root, int cl, int r, int rootCount, int leftCount) {
        int k = root;
        int sk = rootCount;
        int lr = r;
        int sib = leftCount;
        for (int m = 0; m < cl; m++) {
            if (sk > 1) {
                int sl = CbtKernels.readAt(heap, D, 1, 2 * k, D - cl + m + 1);
                int right = lr < sl ? 0 : 1;
                k = 2 * k + right;
                lr = lr - right * sl;
                sk = right == 1 ? sk - sl : sl;
                sib = sl;
            }
        }
        int a = CbtKernels.rule(D, k, seed, params[CbtTaskGraphs.SPLIT],
                params[CbtTaskGraphs.MERGE], params[CbtTaskGraphs.MIN_DEPTH], (k & 1) == 1 ? sib : 0);
        int e = CbtKernels.actionElement(D, k, a) - (root << cl);
        return a != 0 ? Math.max(0, Math.min(e, FLIP - 1)) : FLIP;
    }

    /**
     * Whether one of the two leaves above level g flips the first bit of the chunk rooted at {@code root} (1) or not
     * (0): the split of k1, the parent of q = {@link CbtChunks#shallowTarget}(root) (a leaf when its count is 1 and its
     * parent's at least 2), or the merge of q when q is above the chunk root. Reads only counts above level g, which no
     * work-group writes before it has taken its ticket.
     */
    static int shallowFlip(int[] params, int seed, int[] heap, int D, int root) {
        int q = CbtChunks.shallowTarget(root);
        int k1 = q >> 1;
        int split = params[CbtTaskGraphs.SPLIT];
        int merge = params[CbtTaskGraphs.MERGE];
        int minDepth = params[CbtTaskGraphs.MIN_DEPTH];
        int k1Count = q > 1 ? CbtKernels.read(heap, D, 1, k1) : 0;
        int k1ParentCount = k1 > 1 ? CbtKernels.read(heap, D, 1, k1 >> 1) : 2;
        int k1LeftCount = q > 1 ? CbtKernels.read(heap, D, 1, Math.max(1, k1 - 1)) : 0;
        int qCount = q > 1 ? CbtKernels.read(heap, D, 1, q) : 0;
        int qLeftCount = q > 1 ? CbtKernels.read(heap, D, 1, q - 1) : 0;
        // 0/1 ints combined, no nested conditions: rule is pure, so both are evaluated whatever the guards
        int leaf1 = (k1Count == 1 ? 1 : 0) & (k1ParentCount >= 2 ? 1 : 0);
        int split1 = CbtKernels.rule(D, k1, seed, split, merge, minDepth, k1LeftCount) == CbtKernels.SPLIT ? 1 : 0;
        int leaf2 = (qCount == 1 ? 1 : 0) & (k1Count >= 2 ? 1 : 0) & (q != root ? 1 : 0);
        int merge2 = CbtKernels.rule(D, q, seed, split, merge, minDepth, qLeftCount) == CbtKernels.MERGE ? 1 : 0;
        return (q > 1 ? 1 : 0) & ((leaf1 & split1) | (leaf2 & merge2));
    }

    /**
     * Chunk x's count as its work-group published it with this execution's {@code tag}, re-read while the tag is an
     * older one (at most 4096 times); a count still missing poisons the root ({@link #MISSING}: no legal count
     * reaches it), and the backend then fails.
     */
    static int publishedCount(int[] sums, int x, int tag) {
        int v = sums[x];
        int spin = 0;
        while (spin < 4096) {
            if (ushr(v, 16) == tag) {
                spin = 4096;
            } else {
                v = sums[x];
                spin++;
            }
        }
        return ushr(v, 16) == tag ? v & 0xFFFF : MISSING;
    }

    /** The node of levels 0 .. g whose field holds heap bit b (node 1 for the bits of element 0 before it). */
    static int topNode(int D, int g, int b) {
        int d = 0;
        for (int e = 1; e <= g; e++) {
            d = WordReduction.levelStart(D, e) <= b ? e : d;
        }
        return (1 << d) + Math.max(0, b - WordReduction.levelStart(D, d)) / (D - d + 1);
    }
}
