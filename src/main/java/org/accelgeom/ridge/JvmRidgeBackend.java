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
            pf = layout.floatCoords(loops);
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
                boolean any = shift(reps, fs, ns, repTile, active, sums, changed);
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

    /** {@link SphereSteps#accumulate} in the evolution's precision ({@code fs == null}: double). */
    private void accumulate(double[] s, float[] fs, int[] tileStart, boolean[] active, int from, int to, Sums acc) {
        double r1sq = prm.r1() * prm.r1();
        if (fs == null) {
            SphereSteps.accumulate(layout, layout.coords(), s, tileStart, active, r1sq, prm.scale(), from, to,
                    acc.count, acc.sum);
        } else {
            SphereStepsF.accumulate(layout, pf, fs, tileStart, active, (float) r1sq, (float) prm.scale(), from, to,
                    acc.count, acc.sum);
        }
    }

    /** shiftSphereKernel (Alg. 10), {@link SphereSteps#shift} in the evolution's precision ({@code fs == null}: double). */
    private boolean shift(double[] s, float[] fs, int ns, int[] repTile, boolean[] active, Sums sums,
            boolean[] changed) {
        double eps = prm.precision().epsilon;
        double inv = prm.inverseScale();
        if (fs == null) {
            return SphereSteps.shift(s, ns, prm.d(), repTile, active, sums.count, sums.sum, changed, eps, inv);
        }
        return SphereStepsF.shift(fs, ns, prm.d(), repTile, active, sums.count, sums.sum, changed, (float) eps,
                (float) inv);
    }

    @Override
    public void close() {
        layout = null;
        pf = null;
    }
}
