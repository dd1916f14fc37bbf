package org.accelgeom.bench;

import java.util.concurrent.TimeUnit;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.io.Formats;
import org.accelgeom.ridge.Curve;
import org.accelgeom.ridge.Precision;
import org.accelgeom.ridge.Ridge;
import org.accelgeom.ridge.RidgeOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The whole ridge detection (choose, evolve + decimate rounds; order off, as the thesis's timings) on every
 * backend, brute force or tiled, on generated curves ({@code -p input=spiral3d:1000000}, {@code spiral2d:N},
 * {@code segment:N:DIM}; seed 42, σ and R1 as parameters) or a point file. One invocation is one
 * {@link Ridge#detect}; an iteration lasts 1 ms, so it times one invocation (a run of 10^6 points takes seconds):
 * JMH's single-shot mode is not used because TornadoVM's SDK brings an older JMH onto the module path. For tornado the cloud stays on
 * the device between invocations (the thesis's GPU timings exclude transfers); the warm-up includes TornadoVM's
 * compilation and the upload.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1, time = 1, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 3, time = 1, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
public class RidgeBenchmark {

    @Param({"spiral3d:1000000"})
    public String input;

    @Param({"jvm-parallel", "tornado"})
    public String backend;

    /** brute or tiled. */
    @Param({"brute"})
    public String version;

    @Param({"float"})
    public String precision;

    /** σ of generated inputs (Fig. 3.14: 4.17). */
    @Param({"4.17"})
    public double sigma;

    /** R1 (Fig. 3.14: 8.34 = 2σ). */
    @Param({"8.34"})
    public double r1;

    /**
     * Tiled: initial tiles per dimension, one number for all (Fig. 4.11: 3) or an x-separated list whose last entry repeats
     * for the remaining dimensions ("16x1": 16 along the first axis, 1 along the others, Fig. 4.12).
     */
    @Param({"3"})
    public String tiles;

    /** Tiled: maximum tile capacity, a count (Fig. 4.11: 200000) or a fraction of N ("0.2n", Fig. 4.13). */
    @Param({"200000"})
    public String capacity;

    private double[][] coords;
    private RidgeOptions options;
    private DeviceSession session;

    @Setup(Level.Trial)
    public void setUp() {
        coords = load(input, sigma);
        int d = coords.length;
        RidgeOptions o = RidgeOptions.of(Backend.parse(backend), r1).withPrecision(Precision.parse(precision))
                .withOrder(false);
        if ("tiled".equals(version)) {
            String[] t = tiles.split("x");
            int[] cnt = new int[d];
            for (int c = 0; c < d; c++) {
                cnt[c] = Integer.parseInt(t[Math.min(c, t.length - 1)].strip());
            }
            int n = coords[0].length;
            int cap = capacity.endsWith("n") ? (int) Math.max(2, Double.parseDouble(capacity.substring(0, capacity.length() - 1)) * n)
                    : Integer.parseInt(capacity);
            o = o.withTiles(cnt, cap);
        } else if (!"brute".equals(version)) {
            throw new IllegalArgumentException("version must be brute or tiled, got " + version);
        }
        options = o;
        // tornado: the plan, with the cloud on the device, stays in the session between invocations
        session = DeviceSession.open(options.execution());
    }

    /** {@code curve:N[:DIM]} generated with seed 42, or a point file. */
    static double[][] load(String input, double sigma) {
        String[] parts = input.split(":");
        if (parts.length >= 2 && parts[1].chars().allMatch(Character::isDigit)) {
            int dim = parts.length > 2 ? Integer.parseInt(parts[2]) : 2;
            return Curve.parse(parts[0]).sample(Integer.parseInt(parts[1]), dim, sigma, 42);
        }
        return Formats.readPoints(input).coords();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        session.close();
    }

    @Benchmark
    public int detect() {
        return Ridge.detect(coords, options, session).count();
    }
}
