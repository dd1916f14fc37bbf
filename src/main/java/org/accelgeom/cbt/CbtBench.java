package org.accelgeom.cbt;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.Timings;
import org.accelgeom.engine.Tuning;

/**
 * The article's experiments (§4) on one backend, timed the same way everywhere: the tree is initialised in place
 * by the backend, a few warm-up passes run (TornadoVM compiles its kernels when the plan is built; the JVM's JIT
 * needs a few passes; warm-up stops early once it used the time budget), then passes are timed
 * one by one with {@code System.nanoTime()} around the call until the time budget or the repetition cap is
 * reached, and the median is reported. On {@code tornado} the median device kernel time (TornadoVM's profiler)
 * is reported beside the wall time; the difference is the launch overhead. An empty pass (every kernel of the
 * graph launched with one idle work-group) measures the overhead's floor, so wall − empty pass estimates the
 * kernels' own time where the profiler reports none (POCL; the hull saw 0 on an H200 too).
 *
 * <ul>
 * <li>{@code decode}: decode all leaves of a perfect tree of depth D (Fig. 11);</li>
 * <li>{@code reduce}: the sum reduction of that tree (Fig. 13 of the article, numbers not published);</li>
 * <li>{@code cycle}: one usage cycle, decode-and-update then reduction, at a fill of 2^(d−D) (Fig. 12: D = 17,
 * 25 %, i.e. a tree initialised at depth D − 2, our assumption), random rule with 1 % splits and 2 % merges (about steady: a pair merges as one leaf splits);</li>
 * <li>{@code update}: the same cycle's decode-and-update pass alone ("cycle without reduction");</li>
 * <li>{@code scan}: the sequential bitfield scan on one thread (Fig. 6), of the tree at that fill.</li>
 * </ul>
 */
public final class CbtBench {

    /** The experiments, in report order. */
    public static final List<String> EXPERIMENTS = List.of("decode", "reduce", "cycle", "update", "scan");

    /** The phases of the one-launch cycle; {@code accelgeom.cbt.chunkStop} below this runs only some of them. */
    static final int CHUNK_PHASES = 5;

    private CbtBench() {
    }

    /** Fill 2^(d−D) as the initial depth d: 1 → D, 0.25 → D − 2. */
    public static int initialDepth(int D, double fill) {
        if (!(fill > 0 && fill <= 1)) {
            throw new AccelGeomException("--fill " + fill + " out of range: expected 0 < fill <= 1");
        }
        return Math.max(0, D - (int) Math.round(-Math.log(fill) / Math.log(2)));
    }

    /**
     * Runs one experiment.
     *
     * @param threads jvm-parallel workers (0: one per core)
     * @param budgetMs time budget of the timed passes (at least one pass runs)
     */
    public static CbtResult run(String experiment, int D, boolean packed, Backend backend, int threads, int device, double fill,
            int warmup, int maxReps, double budgetMs) {
        return run(experiment, D, packed, backend, threads, device, fill, warmup, maxReps, budgetMs, DEFAULT_SEED);
    }

    /** The seed of the random split and merge decisions when none is given. */
    public static final int DEFAULT_SEED = 0x1234567;

    /** As {@link #run(String, int, boolean, Backend, int, int, double, int, int, double)}, with the seed of the passes. */
    public static CbtResult run(String experiment, int D, boolean packed, Backend backend, int threads, int device, double fill,
            int warmup, int maxReps, double budgetMs, int seed) {
        return run(experiment, D, packed, backend, threads, device, fill, warmup, maxReps, budgetMs, seed, 1);
    }

    /**
     * As above, where a {@code cycle} pass runs {@code cyclesPerLaunch} usage cycles ({@link CbtBackend#cycles}: on
     * tornado, one execution of that many one-launch cycles, its results read once) and the row gives the figures
     * per cycle (the pass's divided by K). The cycles are those of K single passes: cycle i of pass r has the seed of
     * single pass r·K + i.
     */
    public static CbtResult run(String experiment, int D, boolean packed, Backend backend, int threads, int device, double fill,
            int warmup, int maxReps, double budgetMs, int seed, int cyclesPerLaunch) {
        if (!EXPERIMENTS.contains(experiment)) {
            throw new AccelGeomException("unknown experiment '" + experiment + "': expected one of " + String.join(", ", EXPERIMENTS));
        }
        boolean perfect = experiment.equals("decode") || experiment.equals("reduce");
        int d = perfect ? D : initialDepth(D, fill);
        Cbt tree = Cbt.uninitialised(D, packed);
        PhaseTimings pt = new PhaseTimings(Timings.DEVICE); // the median kernel time: TornadoVM's profiler on
        int split = (int) (0.01 * Integer.MAX_VALUE);
        int merge = (int) (0.02 * Integer.MAX_VALUE);
        int K = experiment.equals("cycle") ? cyclesPerLaunch : 1;
        try (CbtBackend b = CbtBackends.create(CbtOptions.of(backend).withThreads(threads).withDevice(device)
                .withCyclesPerLaunch(K))) {
            b.load(tree, pt);
            long leaves = b.init(d);
            int stop = Tuning.CBT_CHUNK_STOP.intValue(); // the benchmark's timing breakdown only (docs/tuning.md)
            boolean stopped = stop < CHUNK_PHASES && b.stopAfterPhase(stop);
            double[] wall = new double[Math.max(1, maxReps)];
            double[] kernel = new double[wall.length];
            long[] state = {leaves};
            int reps = 0;
            double spent = 0;
            double warm = 0;
            // tornado: every timed pass is followed by an empty pass (the same launches with no work), and the
            // median of the pairwise differences estimates the kernel time (drift in clocks or load cancels)
            boolean onDevice = backend == Backend.TORNADO;
            double[] idleAfter = new double[wall.length];
            double[] paired = new double[wall.length];
            double[] idleKernel = new double[wall.length];
            for (int r = -warmup; r < wall.length && spent <= budgetMs; r++) {
                long[] t = pass(experiment, b, seed, r, K, split, merge, state);
                if (r < 0) {
                    warm += t[0] / 1e6;
                    if (warm > budgetMs) { // slow passes: one warm-up is enough
                        r = -1;
                    }
                } else {
                    wall[r] = t[0] / 1e6;
                    kernel[r] = t[1] < 0 ? Double.NaN : t[1] / 1e6;
                    if (onDevice) {
                        long t0 = System.nanoTime();
                        b.idle();
                        idleAfter[r] = (System.nanoTime() - t0) / 1e6;
                        idleKernel[r] = b.lastKernelNanos() < 0 ? Double.NaN : b.lastKernelNanos() / 1e6;
                        paired[r] = wall[r] - idleAfter[r];
                    }
                    reps++;
                    spent += wall[r];
                }
            }
            leaves = state[0];
            double idle = onDevice ? median(idleAfter, reps) : Double.NaN;
            double diff = onDevice ? median(paired, reps) : Double.NaN;
            double idleK = onDevice ? median(idleKernel, reps) : Double.NaN;
            String name = b.describe() + (K > 1 ? " [" + K + " cycles per pass, figures per cycle]" : "")
                    + (stopped ? " [chunkStop " + stop + ": diagnostic, results wrong]" : "");
            return new CbtResult(experiment, D, packed, name, leaves, reps, median(wall, reps) / K, median(kernel, reps) / K,
                    idle / K, diff / K, idleK / K);
        }
    }

    /**
     * Timed pass r: {wall ns, kernel ns or -1}; state[0] is the leaf count, kept current. Single pass r has the seed
     * {@code seed0 + 7919 r}; a cycle pass of K cycles those of single passes rK .. rK + K − 1.
     */
    private static long[] pass(String experiment, CbtBackend b, int seed0, int r, int K, int split, int merge, long[] state) {
        int seed = seed0 + 7919 * r;
        int[] seeds = null;
        if (K > 1) {
            seeds = new int[K];
            for (int i = 0; i < K; i++) {
                seeds[i] = seed0 + 7919 * (r * K + i);
            }
        }
        if (experiment.equals("update")) {
            // untimed, and before the update, so that the empty pass after it repeats the update's own launches
            state[0] = b.reduce();
        }
        long t0 = System.nanoTime();
        switch (experiment) {
            case "decode": {
                int bad = b.decodeAll(null);
                long[] t = {System.nanoTime() - t0, b.lastKernelNanos()};
                if (bad != 0) {
                    throw new IllegalStateException(bad + " leaves decoded inconsistently on " + b.describe());
                }
                return t;
            }
            case "reduce": {
                state[0] = b.reduce();
                return new long[] {System.nanoTime() - t0, b.lastKernelNanos()};
            }
            case "cycle": {
                state[0] = seeds == null ? b.cycle(seed, split, merge, 1) : b.cycles(seeds, split, merge, 1);
                return new long[] {System.nanoTime() - t0, b.lastKernelNanos()};
            }
            case "update": {
                b.update(seed, split, merge, 1); // on sums made current just before
                return new long[] {System.nanoTime() - t0, b.lastKernelNanos()};
            }
            default: {
                long[] s = b.scan();
                long[] t = {System.nanoTime() - t0, b.lastKernelNanos()};
                if (s[0] != state[0]) {
                    throw new IllegalStateException("the bitfield scan found " + s[0] + " leaves, not " + state[0]);
                }
                return t;
            }
        }
    }

    static double median(double[] v, int n) {
        if (n == 0) {
            return Double.NaN;
        }
        double[] c = Arrays.copyOf(v, n);
        Arrays.sort(c);
        return n % 2 == 1 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    }

    /** The memory table of §2.7 (E6): bytes of the packed and the unpacked heap and of the alternatives. */
    public static String memoryTable(int[] depths) {
        StringBuilder sb = new StringBuilder();
        sb.append("| D | packed heap 2^(D+2) bits | unpacked heap (int per node) | bitfield alone | 32-bit leaf-index list | packed / unpacked |\n");
        sb.append("|---|---|---|---|---|---|\n");
        for (int D : depths) {
            long packed = 4L * CbtLayout.packedWords(D);
            long unpacked = 4L << (D + 1);
            sb.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %.3f |%n", D, bytes(packed), bytes(unpacked),
                    bytes(Math.max(1, (1L << D) / 8)), bytes(4L << D), packed / (double) unpacked));
        }
        return sb.toString();
    }

    static String bytes(long b) {
        if (b >= 1L << 30) {
            return String.format(Locale.ROOT, "%.0f GiB", b / 1073741824.0);
        }
        if (b >= 1L << 20) {
            return String.format(Locale.ROOT, "%.0f MiB", b / 1048576.0);
        }
        if (b >= 1L << 10) {
            return String.format(Locale.ROOT, "%.0f KiB", b / 1024.0);
        }
        return b + " B";
    }
}
