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
 * stored fields of its subtree into local memory, decodes its leaves there (Fig. 8 from the chunk root), applies
 * their split/merge bits, recomputes its subtree's sums from the new bits, writes its bitfield words and sum words
 * (whole words by plain stores, words shared with a neighbouring chunk by an atomic add of the difference on its own
 * bits), and publishes its leaf count. The last work-group to take a ticket then reduces levels g .. 0 from the
 * chunks' counts and writes their words. No device-wide barrier is needed: every read of a work-group is of fields
 * nobody changes before it has taken its ticket.
 *
 * <p>The counts are published with a tag (the execution's sequence number) and the last work-group checks it:
 * OpenCL 1.2, as TornadoVM emits it, has no device-scope fence between a store and the ticket's atomic, so a count
 * that was not yet visible is re-read, and one still missing makes the root count at least {@link #MISSING} (the
 * backend fails loudly) instead of being summed. The loops over local arrays are written out here: TornadoVM 5.2 addresses a
 * local array passed to a callee as a global one.
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
    /** Split/merge marks, one per bitfield bit of a chunk (2^10 at most). */
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

    /** Slots of the kernel's small local array: the stored counts it reads once (the chunk root, its parent, its left
     * neighbour, the shallow candidates k1 = q / 2 and q with their parent's and left neighbour's), whether the group
     * drew the last ticket, and from FIRST_BIT + 1 the local bit where each level's fields begin. */
    static final int ROOT_COUNT = 0;
    static final int PARENT_COUNT = 1;
    static final int LEFT_COUNT = 2;
    static final int K1_COUNT = 3;
    static final int K1_PARENT_COUNT = 4;
    static final int K1_LEFT_COUNT = 5;
    static final int Q_COUNT = 6;
    static final int Q_LEFT_COUNT = 7;
    static final int LAST = 8;
    static final int FIRST_BIT = 16;
    static final int META = FIRST_BIT + 11;

    /** What the last work-group counts for a chunk whose count it could not see: above any leaf count (≤ 2^21). */
    public static final int MISSING = 1 << 24;

    private ChunkCycle() {
    }

    /** Work-items of a launch in {@code mode} with groups of {@code group}: one group per chunk for a reduction, one
     * idle group otherwise. */
    public static long workItems(int D, int mode, int group) {
        return (mode & CbtTaskGraphs.MODE_REDUCE) != 0 ? (long) group << CbtChunks.level(D) : group;
    }

    /** The kernel: see the class comment. {@code sums} holds one tagged count per chunk; {@code ticket} counts finished chunks. */
    public static void cycle(KernelContext c, int[] params, int[] heap, int[] sums, int[] info, AtomicInteger ticket) {
        int D = params[CbtTaskGraphs.DEPTH];
        int mode = params[CbtTaskGraphs.MODE];
        int g = CbtChunks.level(D);
        int cl = D - g;
        int G = 1 << g;
        int j = c.groupIdx;
        int i = c.localIdx;
        int T = c.localGroupSizeX;
        int on = ((mode & CbtTaskGraphs.MODE_REDUCE) != 0 ? 1 : 0) & (j < G ? 1 : 0);
        int stop = params[CbtTaskGraphs.STOP];
        int upd = on & ((mode & CbtTaskGraphs.MODE_UPDATE) != 0 ? 1 : 0) & (stop >= 2 ? 1 : 0);
        int sumsOn = on & (stop >= 3 ? 1 : 0);
        int composeOn = on & (stop >= 4 ? 1 : 0);
        int all = on & (stop >= ALL ? 1 : 0);
        int[] lw = c.allocateIntLocalArray(LW);
        int[] flip = c.allocateIntLocalArray(FLIP);
        int[] cnt = c.allocateIntLocalArray(CNT);
        int[] meta = c.allocateIntLocalArray(META);
        if ((j == 0 ? 1 : 0) + (i == 0 ? 1 : 0) == 2) {
            info[CbtTaskGraphs.INFO_BEAT] = params[CbtTaskGraphs.SEQ];
        }
        int root = G + j;
        // loop bounds are computed before their loops: TornadoVM 5.2 mis-compiled a conditional inside a loop's test
        int levels = on == 1 ? cl : 0;
        int chunkBits = on == 1 ? 1 << cl : 0;
        // meta[FIRST_BIT + m]: the bit of the chunk's first field of level g + m in the local copy
        for (int m = 1 + i; m <= levels; m += T) {
            meta[FIRST_BIT + m] = ((m - 1) << 10) + (CbtChunks.start(D, g, g + m, j) & 31);
        }
        for (int x = i; x < chunkBits; x += T) {
            flip[x] = 0;
        }
        // the stored counts read from device memory, all in one round trip with the copy below: the chunk root's,
        // its parent's, its left neighbour's (the sibling when the root is a leaf and a right child), and the shallow
        // candidates' (CbtChunks.shallowTarget)
        int q = CbtChunks.shallowTarget(root);
        if (on + (i <= Q_LEFT_COUNT ? 1 : 0) == 2) {
            meta[i] = storedCount(heap, D, root, q, i); // item i reads slot i
        }
        // the stored words of levels g + 1 .. D in the chunk's range: item v copies word v & 31 of level g + (v >> 5) + 1
        int copyItems = levels << 5;
        for (int v = i; v < copyItems; v += T) {
            int m = (v >> 5) + 1;
            if ((v & 31) < CbtChunks.words(D, g, g + m, j)) {
                lw[v] = heap[(CbtChunks.start(D, g, g + m, j) >> 5) + (v & 31)];
            }
        }
        c.localBarrier();
        int seed = params[CbtTaskGraphs.SEED];
        int split = params[CbtTaskGraphs.SPLIT];
        int merge = params[CbtTaskGraphs.MERGE];
        int minDepth = params[CbtTaskGraphs.MIN_DEPTH];
        // decode-and-update (§2.6, Fig. 8 from the chunk root): the chunk's leaves are its subtree's when its parent
        // holds two or more; a leaf marks the bit its split or merge flips (one writer per bit)
        int n = upd == 1 ? (meta[PARENT_COUNT] >= 2 ? meta[ROOT_COUNT] : 0) : 0;
        for (int r = i; r < n; r += T) {
            int t = 1;
            int dt = 0;
            int sk = meta[ROOT_COUNT];
            int lr = r;
            for (int m = 0; m < cl; m++) {
                if (sk > 1) {
                    int tl = 2 * t;
                    // the left child's stored count (level g + m + 1, D − g − m bits), from the local copy
                    int x = meta[FIRST_BIT + m + 1] + (tl - (2 << m)) * (D - g - m);
                    int sl = field(lw[x >> 5], lw[Math.min((x >> 5) + 1, LW - 1)], x & 31, D - g - m);
                    int right = lr < sl ? 0 : 1;
                    t = tl + right;
                    lr = lr - right * sl;
                    sk = right == 1 ? sk - sl : sl;
                    dt = m + 1;
                }
            }
            int k = (root << dt) + t - (1 << dt);
            int sib = 0;
            if ((k & 1) == 1) {
                if (dt == 0) {
                    sib = meta[LEFT_COUNT]; // level g, not written before the ticket
                } else {
                    int x = meta[FIRST_BIT + dt] + (t - 1 - (1 << dt)) * (D - g - dt + 1);
                    sib = field(lw[x >> 5], lw[Math.min((x >> 5) + 1, LW - 1)], x & 31, D - g - dt + 1);
                }
            }
            int a = CbtKernels.rule(D, k, seed, split, merge, minDepth, sib);
            if (a != 0) {
                int e = CbtKernels.actionElement(D, k, a) - (root << cl);
                flip[Math.max(0, Math.min(e, FLIP - 1))] = 1;
            }
        }
        // the two leaves above level g that may flip the chunk's first bit: the split of q's parent k1 (a leaf when
        // its count is 1 and its parent's at least 2) and the merge of q when q is above level g
        if (upd + (i == T - 1 ? 1 : 0) == 2) {
            if (shallowFlip(D, root, q, seed, split, merge, minDepth, meta[K1_COUNT], meta[K1_PARENT_COUNT],
                    meta[K1_LEFT_COUNT], meta[Q_COUNT], meta[Q_LEFT_COUNT]) == 1) {
                flip[0] = 1;
            }
        }
        c.localBarrier();
        // the marks packed by four (cnt[NIBBLES + t]), then each bitfield word flipped by its marks: stored, and kept
        // in the local copy (level D is word-aligned in the chunk)
        int nibbles = sumsOn == 1 ? 1 << (cl - 2) : 0;
        for (int t = i; t < nibbles; t += T) {
            cnt[NIBBLES + t] = flip[4 * t] | (flip[4 * t + 1] << 1) | (flip[4 * t + 2] << 2) | (flip[4 * t + 3] << 3);
        }
        c.localBarrier();
        int bitWords = sumsOn == 1 ? 1 << (cl - 5) : 0;
        int bits0 = (cl - 1) << 5; // the local copy's level D
        int bw0 = CbtChunks.start(D, g, D, j) >> 5;
        for (int w = i; w < bitWords; w += T) {
            int f = 0;
            for (int b = 0; b < 8; b++) {
                f |= cnt[NIBBLES + 8 * w + b] << (4 * b);
            }
            if (f != 0) {
                int nb = lw[bits0 + w] ^ f;
                lw[bits0 + w] = nb;
                if (all == 1) {
                    heap[bw0 + w] = nb;
                }
            }
        }
        c.localBarrier();
        // the subtree's new sums (§2.5) from the new bits. Node t (relative depth m) covers 2^(cl−m) bits: those
        // within one bitfield word are SWAR popcounts of it (CbtKernels.popcountField); above them, nodes sum at most
        // eight word counts, and the top ones at most four of those
        int sumNodes = sumsOn == 1 ? chunkBits : 0;
        int wordLevel = 1 << (cl - 5);
        for (int t = wordLevel + i; t < sumNodes; t += T) {
            int m = CbtKernels.depth(t);
            int span = cl - m;
            int first = (t - (1 << m)) << span;
            cnt[t] = CbtKernels.popcountField(lw[bits0 + (first >> 5)], span, (first & 31) >> span);
        }
        c.localBarrier();
        int eighth = cl >= 8 ? 1 << (cl - 8) : 1; // the first node with at most eight word counts below it
        for (int stage = 0; stage < 2; stage++) {
            // stage 0: nodes t in [eighth, 2^(cl−5)) sum the word counts (relative depth cl − 5) below them; stage 1:
            // nodes t in [1, eighth) sum the counts of stage 0's top level (relative depth cl − 8)
            int from = stage == 0 ? eighth : 1;
            int to = sumsOn == 1 ? (stage == 0 ? wordLevel : eighth) : 0;
            int below = stage == 0 ? cl - 5 : cl - 8;
            int base = stage == 0 ? wordLevel : eighth;
            for (int t = from + i; t < to; t += T) {
                int m = CbtKernels.depth(t);
                int span = below - m;
                int first = base + ((t - (1 << m)) << span);
                int v = 0;
                for (int w = first; w < first + (1 << span); w++) {
                    v += cnt[w];
                }
                cnt[t] = v;
            }
            c.localBarrier();
        }
        // the chunk's count is published and the ticket taken now, while the others compose the words below (the last
        // work-group only reads the counts and writes levels g .. 0)
        int tag = params[CbtTaskGraphs.SEQ] & 0x7FFF;
        if (all + (i == T - 1 ? 1 : 0) == 2) {
            sums[j] = (tag << 16) | cnt[1];
            int done = ticket.incrementAndGet();
            meta[LAST] = (done & (G - 1)) == 0 ? 1 : 0;
        }
        // the words of levels g + 1 .. D − 1, item v for word v & 31 of level g + (v >> 5) + 1: whole words stored,
        // shared ones changed by an atomic add on our bits only
        int composeItems = composeOn == 1 ? (cl - 1) << 5 : 0;
        for (int v = i; v < composeItems; v += T) {
            int m = (v >> 5) + 1;
            int off = v & 31;
            if (off < CbtChunks.words(D, g, g + m, j)) {
                int d = g + m;
                int nf = D - d + 1;
                int s0 = CbtChunks.start(D, g, d, j);
                int W = (s0 >> 5) + off;
                int val = 0;
                int mask = -1;
                if (m == cl - 1) {
                    // level D − 1 is word-aligned and its 2-bit fields are the pair counts of one bitfield word
                    int b = lw[bits0 + off];
                    val = b - (ushr(b, 1) & 0x55555555);
                } else {
                    int e0 = s0 + (nf << m);
                    int f0 = (Math.max(W << 5, s0) - s0) / nf;
                    int f1 = (Math.min((W << 5) + 32, e0) - 1 - s0) / nf;
                    mask = 0;
                    for (int f = f0; f <= f1; f++) {
                        int o = s0 + f * nf - (W << 5);
                        val |= WordReduction.place(cnt[(1 << m) + f], o);
                        mask |= WordReduction.place((1 << nf) - 1, o);
                    }
                }
                int old = lw[v];
                if (all == 0) {
                    flip[v] = val ^ mask; // the diagnostic phases keep the heap
                } else if ((old & mask) != val) {
                    if (mask == -1) {
                        heap[W] = val;
                    } else {
                        c.atomicAdd(heap, W, val - (old & mask));
                    }
                }
            }
        }
        c.localBarrier();
        int last = all == 1 ? meta[LAST] : 0;
        // the last work-group: levels g .. 0 (their words end at levelStart(g + 1), a word boundary)
        int chunks = last == 1 ? G : 0;
        for (int x = i; x < chunks; x += T) {
            cnt[G + x] = publishedCount(sums, x, tag);
        }
        c.localBarrier();
        for (int d = g - 1; d >= 0; d--) {
            int count = last == 1 ? 1 << d : 0;
            for (int x = i; x < count; x += T) {
                int k = (1 << d) + x;
                cnt[k] = cnt[2 * k] + cnt[2 * k + 1];
            }
            c.localBarrier();
        }
        int topWords = last == 1 ? WordReduction.levelStart(D, g + 1) >> 5 : 0;
        for (int w = i; w < topWords; w += T) {
            // levels 5 and deeper start on word boundaries: a word there holds one level; below, levels 0..4 mix
            int lvl = topWordLevel(D, g, w);
            int dFrom = lvl >= 0 ? lvl : 0;
            int dTo = lvl >= 0 ? lvl : Math.min(g, 4);
            int v = 0;
            int mask = 0;
            for (int d = dFrom; d <= dTo; d++) {
                if (overlaps(D, d, w) == 1) {
                    int lastF = WordReduction.lastField(D, d, w);
                    for (int f = WordReduction.firstField(D, d, w); f <= lastF; f++) {
                        int o = WordReduction.fieldOffset(D, d, f, w);
                        v |= WordReduction.place(cnt[(1 << d) + f], o);
                        mask |= WordReduction.place(WordReduction.ones(D, d), o);
                    }
                }
            }
            int old = 0;
            if (mask != -1) {
                old = heap[w]; // element 0
            }
            heap[w] = (old & ~mask) | v;
        }
        if (last + (i == 0 ? 1 : 0) == 2) {
            info[CbtTaskGraphs.INFO_LEAVES] = cnt[1];
        }
    }

    /**
     * The stored count that work-item {@code slot} reads into the small local array (slots {@link #ROOT_COUNT} ..
     * {@link #Q_LEFT_COUNT}): the chunk root's, its parent's, its left neighbour's, and the shallow candidates' (k1 =
     * q / 2 and q, {@link CbtChunks#shallowTarget}). Device memory only: TornadoVM 5.2 addresses a local array passed
     * to a callee as a global one, so the helpers of this class take values, never the kernel's local arrays.
     */
    static int storedCount(int[] heap, int D, int root, int q, int slot) {
        int k1 = q >> 1;
        int v = 0;
        if (slot == ROOT_COUNT) {
            v = CbtKernels.read(heap, D, 1, root);
        } else if (slot == PARENT_COUNT) {
            v = CbtKernels.read(heap, D, 1, root >> 1);
        } else if (slot == LEFT_COUNT) {
            v = CbtKernels.read(heap, D, 1, root - 1);
        } else if (slot == K1_COUNT) {
            v = q > 1 ? CbtKernels.read(heap, D, 1, k1) : 0;
        } else if (slot == K1_PARENT_COUNT) {
            v = k1 > 1 ? CbtKernels.read(heap, D, 1, k1 >> 1) : 2;
        } else if (slot == K1_LEFT_COUNT) {
            v = q > 1 ? CbtKernels.read(heap, D, 1, Math.max(1, k1 - 1)) : 0;
        } else if (slot == Q_COUNT) {
            v = q > 1 ? CbtKernels.read(heap, D, 1, q) : 0;
        } else {
            v = q > 1 ? CbtKernels.read(heap, D, 1, q - 1) : 0;
        }
        return v;
    }

    /** The field of {@code width} bits at bit {@code s} of {@code word}, continued in {@code next} if it straddles. */
    static int field(int word, int next, int s, int width) {
        int lo = ushr(word, s);
        int hi = next << (32 - s);
        return (s + width > 32 ? (lo | hi) : lo) & ((1 << width) - 1);
    }

    /**
     * Whether one of the two leaves above level g flips the chunk's first bit (1) or not (0): the split of q's parent
     * k1 (a leaf when its count is 1 and its parent's at least 2), or the merge of q when q is above the chunk root.
     */
    static int shallowFlip(int D, int root, int q, int seed, int split, int merge, int minDepth, int k1Count,
            int k1ParentCount, int k1LeftCount, int qCount, int qLeftCount) {
        int k1 = q >> 1;
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

    /** The one level (5 .. g) that word w of the top holds, or -1 for the words where levels 0..4 mix. */
    static int topWordLevel(int D, int g, int w) {
        int lvl = -1;
        for (int d = 5; d <= g; d++) {
            if (WordReduction.levelStart(D, d) <= (w << 5)) {
                lvl = d;
            }
        }
        return lvl;
    }

    /** 1 if level d's fields overlap word w, else 0. */
    static int overlaps(int D, int d, int w) {
        return (WordReduction.levelStart(D, d + 1) > (w << 5) ? 1 : 0)
                & (WordReduction.levelStart(D, d) < (w << 5) + 32 ? 1 : 0);
    }
}
