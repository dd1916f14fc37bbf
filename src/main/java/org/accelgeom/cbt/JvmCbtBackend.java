package org.accelgeom.cbt;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;

import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;

/**
 * The {@code jvm} and {@code jvm-parallel} backends of the CBT. With {@code threads == 0} every pass is a plain
 * loop on the calling thread and words are updated with {@code +=} (the reference). With {@code threads ≥ 1} the
 * passes run on a fork/join pool of exactly that many workers (the paper's OpenMP baseline, §3) and every word
 * update is an atomic add of the field's delta ({@code VarHandle.getAndAdd}; see {@link CbtKernels}).
 */
public final class JvmCbtBackend implements CbtBackend {

    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
    /** Levels with fewer nodes than this are reduced on the calling thread. */
    private static final int SEQUENTIAL_LEVEL = 1 << 12;
    private static final int GRAIN = 1 << 12;

    private final int threads;
    private final ParallelLoops loops;
    private Cbt tree;
    private int[] heap;
    private int D;
    private int packed;
    private PhaseTimings timings = new PhaseTimings();

    /** @param threads 0: sequential reference; n ≥ 1: a pool of n workers with atomic updates */
    public JvmCbtBackend(int threads) {
        if (threads < 0) {
            throw new IllegalArgumentException("threads must be ≥ 0");
        }
        this.threads = threads;
        this.loops = threads > 0 ? new ParallelLoops(threads) : null;
    }

    @Override
    public void load(Cbt t, PhaseTimings pt) {
        this.tree = t;
        this.heap = t.heap();
        this.D = t.maxDepth();
        this.packed = t.packed() ? 1 : 0;
        this.timings = pt;
    }

    @Override
    public int init(int d) {
        Cbt.checkDepths(D, d, packed == 1);
        long t0 = System.nanoTime();
        if (loops == null) {
            for (int w = 0; w < heap.length; w++) {
                heap[w] = CbtKernels.initWord(D, packed, d, w);
            }
        } else {
            loops.forRange(heap.length, GRAIN, (from, to) -> {
                for (int w = from; w < to; w++) {
                    heap[w] = CbtKernels.initWord(D, packed, d, w);
                }
            });
        }
        timings.add("init", Kind.KERNEL, System.nanoTime() - t0);
        return reduce();
    }

    private void add(int w, int delta) {
        if (loops == null) {
            heap[w] += delta;
        } else {
            INTS.getAndAdd(heap, w, delta);
        }
    }

    /** Writes element k (single writer) as a delta on its word(s). */
    private void write(int k, int oldV, int newV) {
        if (oldV == newV) {
            return;
        }
        int w = CbtKernels.word(D, packed, k);
        add(w, CbtKernels.deltaLo(D, packed, k, oldV, newV));
        int hi = CbtKernels.deltaHi(D, packed, k, oldV, newV);
        if (hi != 0) {
            add(w + 1, hi);
        }
    }

    private void reduceNode(int k) {
        write(k, CbtKernels.read(heap, D, packed, k), CbtKernels.reduceValue(heap, D, packed, k));
    }

    @Override
    public int reduce() {
        long t0 = System.nanoTime();
        int top = D - 1;
        if (packed == 1 && D >= 6) { // the five deepest levels from the bitfield's words in one pass (see CbtKernels#popcountField)
            int words = 1 << (D - 5);
            if (loops == null) {
                prepass(0, words);
            } else {
                loops.forRange(words, GRAIN / 32, this::prepass);
            }
            top = D - 6;
        }
        for (int d = top; d >= 0; d--) {
            int first = 1 << d;
            if (loops == null || first < SEQUENTIAL_LEVEL) {
                for (int k = first; k < 2 * first; k++) {
                    reduceNode(k);
                }
            } else {
                loops.forRange(first, GRAIN, (from, to) -> {
                    for (int i = from; i < to; i++) {
                        reduceNode(first + i);
                    }
                });
            }
        }
        timings.add("reduce", Kind.KERNEL, System.nanoTime() - t0);
        tree.markFresh();
        return CbtKernels.read(heap, D, packed, 1);
    }

    private void prepass(int from, int to) {
        for (int j = from; j < to; j++) {
            int bits = heap[(3 << (D - 5)) + j];
            for (int m = 1; m <= 5; m++) {
                int nodes = 32 >>> m;
                for (int i = 0; i < nodes; i++) {
                    int k = (1 << (D - m)) + j * nodes + i;
                    write(k, CbtKernels.read(heap, D, packed, k), CbtKernels.popcountField(bits, m, i));
                }
            }
        }
    }

    @Override
    public int decodeAll(int[] nodes) {
        long t0 = System.nanoTime();
        int n = CbtKernels.read(heap, D, packed, 1);
        AtomicInteger bad = new AtomicInteger();
        if (loops == null) {
            bad.set(decodeRange(0, n, nodes));
        } else {
            loops.forRange(n, GRAIN, (from, to) -> {
                int b = decodeRange(from, to, nodes);
                if (b != 0) {
                    bad.addAndGet(b);
                }
            });
        }
        timings.add("decode", Kind.KERNEL, System.nanoTime() - t0);
        return bad.get();
    }

    private int decodeRange(int from, int to, int[] nodes) {
        int bad = 0;
        for (int l = from; l < to; l++) {
            int k = CbtKernels.decode(heap, D, packed, l);
            if (nodes != null) {
                nodes[l] = k;
            }
            if (CbtKernels.read(heap, D, packed, k) != 1) {
                bad++;
            }
        }
        return bad;
    }

    @Override
    public void update(int seed, int splitBelow, int mergeBelow, int minDepth) {
        long t0 = System.nanoTime();
        int n = CbtKernels.read(heap, D, packed, 1);
        if (loops == null) {
            updateRange(0, n, seed, splitBelow, mergeBelow, minDepth);
        } else {
            loops.forRange(n, GRAIN, (from, to) -> updateRange(from, to, seed, splitBelow, mergeBelow, minDepth));
        }
        tree.markStale();
        timings.add("update", Kind.KERNEL, System.nanoTime() - t0);
    }

    private void updateRange(int from, int to, int seed, int splitBelow, int mergeBelow, int minDepth) {
        for (int l = from; l < to; l++) {
            int k = CbtKernels.decode(heap, D, packed, l);
            int a = CbtKernels.randomRule(heap, D, packed, k, seed, splitBelow, mergeBelow, minDepth);
            if (a != 0) {
                int e = CbtKernels.actionElement(D, k, a);
                write(e, a == CbtKernels.SPLIT ? 0 : 1, a == CbtKernels.SPLIT ? 1 : 0);
            }
        }
    }

    @Override
    public long[] scan() {
        long t0 = System.nanoTime();
        long[] out = new long[2];
        CbtKernels.scan(heap, D, packed, out);
        timings.add("bitfield scan", Kind.KERNEL, System.nanoTime() - t0);
        return out;
    }

    @Override
    public void sync() {
        // the heap is the tree's own array
    }

    @Override
    public String describe() {
        return loops == null ? "jvm" : "jvm-parallel (" + threads + " threads)";
    }

    @Override
    public void close() {
        // the pool's workers end when it is collected; a custom pool is shut down here
        if (loops != null) {
            loops.close();
        }
    }
}
