package org.accelgeom.terrain;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.accelgeom.cbt.Cbt;
import org.accelgeom.cbt.CbtKernels;
import org.accelgeom.cbt.JvmCbtBackend;
import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;

/**
 * The {@code jvm} ({@code threads == 0}: plain loops) and {@code jvm-parallel} terrain backends: the passes of
 * {@link TerrainKernels} over the leaves on a fork/join pool, the reduction by {@link JvmCbtBackend}.
 */
public final class JvmTerrainBackend implements TerrainBackend {

    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
    private static final int GRAIN = 1024;

    private final int threads;
    private final ParallelLoops loops;
    private final JvmCbtBackend cbt;
    private Cbt tree;
    private int[] heap;
    private int[] flags;
    private float[] h;
    private int nx;
    private int ny;
    private int D;
    private int capacity;
    private PhaseTimings timings;

    public JvmTerrainBackend(int threads) {
        this.threads = threads;
        this.loops = threads > 0 ? new ParallelLoops(threads) : null;
        this.cbt = new JvmCbtBackend(threads);
    }

    @Override
    public void load(Cbt t, float[] heights, int nx, int ny, int capacity, PhaseTimings pt) {
        this.tree = t;
        this.heap = t.heap();
        this.D = t.maxDepth();
        this.flags = new int[1 << D];
        this.h = heights;
        this.nx = nx;
        this.ny = ny;
        this.capacity = capacity;
        this.timings = pt;
        cbt.load(t, pt);
    }

    private void forEach(int n, int grain, ParallelLoops.RangeBody body) {
        if (loops == null) {
            body.run(0, n);
        } else {
            loops.forRange(n, grain, body);
        }
    }

    @Override
    public int frame(float[] cam, float[] tri, int[] node) {
        int leaves = tree.leafCount();
        long t0 = System.nanoTime();
        forEach(leaves, GRAIN, (from, to) -> {
            for (int l = from; l < to; l++) {
                int k = CbtKernels.decode(heap, D, 1, l);
                if (TerrainKernels.wantsSplit(h, nx, ny, cam, D, k) == 1) {
                    TerrainKernels.markSplit(flags, D, k);
                }
            }
        });
        forEach(1 << (D - 5), 64, (from, to) -> {
            for (int j = from; j < to; j++) {
                heap[(3 << (D - 5)) + j] = TerrainKernels.applyFlags(heap, flags, D, j); // one owner per word
            }
        });
        timings.add("split pass", Kind.KERNEL, System.nanoTime() - t0);
        leaves = cbt.reduce();
        long t1 = System.nanoTime();
        int n = leaves;
        forEach(n, GRAIN, (from, to) -> {
            for (int l = from; l < to; l++) {
                int k = CbtKernels.decode(heap, D, 1, l);
                if (TerrainKernels.mergeAction(heap, D, 1, h, nx, ny, cam, k) == 1) {
                    int e = CbtKernels.bitElement(D, k);
                    int w = CbtKernels.word(D, 1, e);
                    int delta = CbtKernels.deltaLo(D, 1, e, 1, 0);
                    if (loops == null) {
                        heap[w] += delta;
                    } else {
                        INTS.getAndAdd(heap, w, delta);
                    }
                }
            }
        });
        timings.add("merge pass", Kind.KERNEL, System.nanoTime() - t1);
        leaves = cbt.reduce();
        long t2 = System.nanoTime();
        int m = Math.min(leaves, capacity);
        forEach(m, GRAIN, (from, to) -> {
            for (int l = from; l < to; l++) {
                int k = CbtKernels.decode(heap, D, 1, l);
                node[l] = k;
                TerrainKernels.emit(h, nx, ny, cam, k, tri, 9 * l);
            }
        });
        timings.add("emit", Kind.KERNEL, System.nanoTime() - t2);
        return leaves;
    }

    @Override
    public void close() {
        cbt.close();
        if (loops != null) {
            loops.close();
        }
    }

    @Override
    public String toString() {
        return loops == null ? "jvm" : "jvm-parallel (" + threads + " threads)";
    }
}
