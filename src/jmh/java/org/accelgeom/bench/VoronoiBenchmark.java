package org.accelgeom.bench;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.io.Formats;
import org.accelgeom.io.Molecule;
import org.accelgeom.voronoi.AtomBalls;
import org.accelgeom.voronoi.Balls;
import org.accelgeom.voronoi.Voronoi;
import org.accelgeom.voronoi.VoronoiOptions;
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
 * The additively weighted Voronoi diagram on every backend and precision, on the same balls: a molecule file
 * ({@code -p input=FILE}: PDB/mmCIF with Voronota's default atoms and radii, or the XYZR file
 * scripts/bench-voronoi.sh also gives {@code voronota calculate-vertices}) or {@code random:N} (atom-like random
 * balls, seed 42, as {@code accelgeom voronoi --random N}). The score is one {@link Voronoi#compute}:
 * hidden balls, grid, initial vertex, the whole tracing; for tornado the balls and the compiled kernel stay on
 * the device between invocations (one {@link DeviceSession} with {@link VoronoiOptions#resident()}), every per-batch transfer is included.
 * {@code precision=default}: double on the JVM backends, two-phase on tornado.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(1)
public class VoronoiBenchmark {

    @Param({"random:5000", "random:20000"})
    public String input;

    @Param({"jvm", "jvm-parallel", "tornado"})
    public String backend;

    @Param({"default"})
    public String precision;

    private Balls balls;
    private VoronoiOptions options;
    private DeviceSession session;

    @Setup(Level.Trial)
    public void setUp() {
        balls = load(input);
        VoronoiOptions o = VoronoiOptions.of(Backend.parse(backend)).withResident(true);
        if (!precision.equals("default")) {
            o = o.withPrecision(VoronoiOptions.Precision.parse(precision));
        }
        options = o;
        session = DeviceSession.open(options.execution());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        session.close();
    }

    static Balls load(String input) {
        if (input.startsWith("random:")) {
            return Balls.randomAtoms(Integer.parseInt(input.substring(7)), 42);
        }
        Molecule m = Formats.readMolecule(Path.of(input));
        String f = input.toLowerCase(Locale.ROOT);
        boolean carries = f.endsWith(".xyzr") || f.endsWith(".pqr");
        return AtomBalls.of(m, false, false, false, carries ? AtomBalls.Radii.FILE : AtomBalls.Radii.VORONOTA).balls();
    }

    @Benchmark
    public int diagram() {
        return Voronoi.compute(balls, options, session).vertexCount();
    }
}
