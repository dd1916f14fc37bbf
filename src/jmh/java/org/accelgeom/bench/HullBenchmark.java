package org.accelgeom.bench;

import java.util.concurrent.TimeUnit;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.hull.Hull;
import org.accelgeom.hull.HullOptions;
import org.accelgeom.hull.RandomPoints;
import org.accelgeom.io.Formats;
import org.accelgeom.io.PointCloud;
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
 * The 3D convex hull on every backend, on the same inputs: either a file ({@code -p input=FILE}, what
 * scripts/bench-hull.sh passes so that Qhull reads the very same points) or generated points
 * ({@code -p input=ball:1000000}, {@code cube:N}, {@code sphere:N}, {@code gauss:N}; seed 42).
 * The score is the time of one {@link Hull#compute}. For tornado it includes every per-hull transfer,
 * kernel and host step; the points themselves stay resident on the device between invocations
 * ({@link HullOptions#resident()}), as do the kernels TornadoVM compiled in the warm-up.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@Fork(1)
public class HullBenchmark {

    @Param({"ball:100000", "ball:1000000", "cube:1000000", "sphere:1000000"})
    public String input;

    @Param({"jvm", "jvm-parallel", "tornado"})
    public String backend;

    private PointCloud points;
    private HullOptions options;
    private DeviceSession session;

    @Setup(Level.Trial)
    public void setUp() {
        points = load(input);
        // tornado: the points and compiled kernels stay on the device between invocations (the same arrays);
        // the one-time upload is reported by `accelgeom hull --timings`, see docs/benchmarks.md
        options = HullOptions.of(Backend.parse(backend)).withResident(true);
        session = DeviceSession.open(options.execution());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        session.close();
    }

    static PointCloud load(String input) {
        int colon = input.indexOf(':');
        if (colon > 0 && input.substring(colon + 1).chars().allMatch(Character::isDigit)) {
            int n = Integer.parseInt(input.substring(colon + 1));
            return switch (input.substring(0, colon)) {
                case "ball" -> RandomPoints.ball(n, 42);
                case "cube" -> RandomPoints.cube(n, 42);
                case "sphere" -> RandomPoints.sphere(n, 42);
                case "gauss" -> RandomPoints.gauss(n, 42);
                default -> throw new IllegalArgumentException("unknown distribution in " + input);
            };
        }
        return Formats.readPoints(input);
    }

    @Benchmark
    public int hull() {
        return Hull.compute(points, options, session).vertices().length;
    }
}
