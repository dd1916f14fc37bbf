package org.accelgeom.bench;

import java.util.concurrent.TimeUnit;

import org.accelgeom.ridge.Choose;
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
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The thesis's Table 3.1: the conservative choose (Alg. 5) on a 10^5-point 2D spiral (σ = 4.17, R1 = 8.34). The
 * thesis ran it as one GPU thread block (194.27 ms, 1786 representatives on its spiral); ours is the same
 * sequential scan on the host, with a hashed grid instead of a scan over S.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ChooseBenchmark {

    @Param({"spiral2d:100000"})
    public String input;

    @Param({"8.34"})
    public double r1;

    private double[][] coords;

    @Setup(Level.Trial)
    public void setUp() {
        coords = RidgeBenchmark.load(input, 4.17);
    }

    @Benchmark
    public int choose() {
        return Choose.choose(coords, r1).length / coords.length;
    }
}
