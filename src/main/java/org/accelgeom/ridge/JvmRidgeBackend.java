package org.accelgeom.ridge;

import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;

/**
 * Alg. 2 on the JVM: {@code jvm} (one thread, the reference) and {@code jvm-parallel} (the cloud split in chunks
 * over a fork/join pool, each chunk with its own fixed-point accumulators, merged by integer addition; the
 * OpenMP baseline of §2.3). Both give identical results: integer sums do not depend on the order of additions.
 */
public final class JvmRidgeBackend implements RidgeBackend {

    private final Parameters prm;
    private final ParallelLoops loops;
    private EvolutionLayout layout;
    private float[] pf;

    /** {@code loops == null}: one thread. */
    public JvmRidgeBackend(Parameters prm, ParallelLoops loops) {
        this.prm = prm;
        this.loops = loops;
    }

    @Override
    public void load(EvolutionLayout layout, int capacity, PhaseTimings timings) {
        this.layout = layout;
        if (prm.precision() == Precision.FLOAT) {
            pf = layout.floatCoords();
        }
    }

    @Override
    public int evolve(double[] reps, int ns, int[] tileStart, PhaseTimings timings) {
        int d = prm.d();
        int[] repTile = repTiles(tileStart, ns);
        boolean[] active = new boolean[layout.numTiles()];
        java.util.Arrays.fill(active, true);
        float[] fs = null;
        if (pf != null) {
            fs = new float[ns * d];
            for (int k = 0; k < fs.length; k++) {
                fs[k] = (float) reps[k];
            }
        }
        int iterations = 0;
        long t0 = System.nanoTime();
        try {
            while (iterations < prm.maxIterations()) {
                iterations++;
                Sums sums = accumulate(reps, fs, ns, tileStart, active);
                boolean[] changed = new boolean[active.length];
                boolean any = fs == null ? shift(reps, ns, repTile, active, sums, changed)
                        : shift(fs, ns, repTile, active, sums, changed);
                active = changed;
                if (!any) {
                    break;
                }
            }
        } finally {
            timings.add("evolve (closestSphere + shiftSphere)", Kind.KERNEL, System.nanoTime() - t0);
        }
        if (fs != null) {
            for (int k = 0; k < fs.length; k++) {
                reps[k] = fs[k];
            }
        }
        return iterations;
    }

    static int[] repTiles(int[] tileStart, int ns) {
        int[] repTile = new int[ns];
        for (int t = 0; t + 1 < tileStart.length; t++) {
            for (int k = tileStart[t]; k < tileStart[t + 1]; k++) {
                repTile[k] = t;
            }
        }
        return repTile;
    }

    /** SpherePointCount and CordSums (fixed point) of every representative. */
    private record Sums(int[] count, long[] sum) {
        void add(Sums o) {
            for (int k = 0; k < count.length; k++) {
                count[k] += o.count[k];
            }
            for (int k = 0; k < sum.length; k++) {
                sum[k] += o.sum[k];
            }
        }
    }

    /** closestSphereKernel (Alg. 9) over all points of active tiles. */
    private Sums accumulate(double[] s, float[] fs, int ns, int[] tileStart, boolean[] active) {
        int d = prm.d();
        Sums total = new Sums(new int[ns], new long[ns * d]);
        if (loops == null) {
            accumulate(s, fs, tileStart, active, 0, layout.n(), total);
            return total;
        }
        loops.forRange(layout.n(), 16384, (from, to) -> {
            Sums local = new Sums(new int[ns], new long[ns * d]);
            accumulate(s, fs, tileStart, active, from, to, local);
            synchronized (total) {
                total.add(local);
            }
        });
        return total;
    }

    private void accumulate(double[] s, float[] fs, int[] tileStart, boolean[] active, int from, int to, Sums acc) {
        int d = prm.d();
        int n = layout.n();
        int[] pointTile = layout.pointTile();
        double[] p = layout.coords();
        double r1sq = prm.r1() * prm.r1();
        double scale = prm.scale();
        float fr1sq = (float) r1sq;
        float fscale = (float) scale;
        for (int i = from; i < to; i++) {
            int t = pointTile[i];
            if (!active[t]) {
                continue;
            }
            int o = fs == null ? RidgeKernels.nearest(p, n, d, i, s, tileStart[t], tileStart[t + 1], r1sq)
                    : RidgeKernels.nearest(pf, n, d, i, fs, tileStart[t], tileStart[t + 1], fr1sq);
            if (o < 0) {
                continue;
            }
            acc.count[o]++;
            for (int c = 0; c < d; c++) {
                acc.sum[o * d + c] += fs == null ? RidgeKernels.offset(p[c * n + i], s[o * d + c], scale)
                        : RidgeKernels.offset(pf[c * n + i], fs[o * d + c], fscale);
            }
        }
    }

    /** shiftSphereKernel (Alg. 10): every representative of an active tile to its centroid; the changed flags. */
    private boolean shift(double[] s, int ns, int[] repTile, boolean[] active, Sums sums, boolean[] changed) {
        int d = prm.d();
        double eps = (double) prm.precision().epsilon; // the casts keep this the float twin's source
        double inv = (double) prm.inverseScale();
        boolean any = false;
        for (int k = 0; k < ns; k++) {
            int n = sums.count[k];
            if (!active[repTile[k]] || n == 0) {
                continue; // an empty cell keeps its representative where it is
            }
            for (int c = 0; c < d; c++) {
                if (RidgeKernels.moveToCentroid(s, k * d + c, sums.sum[k * d + c], n, eps, inv) == 1) {
                    changed[repTile[k]] = true;
                    any = true;
                }
            }
        }
        return any;
    }

    private boolean shift(float[] s, int ns, int[] repTile, boolean[] active, Sums sums, boolean[] changed) {
        int d = prm.d();
        float eps = (float) prm.precision().epsilon;
        float inv = (float) prm.inverseScale();
        boolean any = false;
        for (int k = 0; k < ns; k++) {
            int n = sums.count[k];
            if (!active[repTile[k]] || n == 0) {
                continue;
            }
            for (int c = 0; c < d; c++) {
                if (RidgeKernels.moveToCentroid(s, k * d + c, sums.sum[k * d + c], n, eps, inv) == 1) {
                    changed[repTile[k]] = true;
                    any = true;
                }
            }
        }
        return any;
    }

    @Override
    public void close() {
        layout = null;
        pf = null;
    }
}
