package org.accelgeom.bench;

import java.util.concurrent.TimeUnit;

import org.accelgeom.cbt.Cbt;
import org.accelgeom.cbt.CbtBackend;
import org.accelgeom.cbt.CbtBackends;
import org.accelgeom.cbt.CbtBench;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.PhaseTimings;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The concurrent binary tree's passes on every backend (the article's Fig. 11, its reduction timings and the
 * Fig. 12 cycle), one pass per invocation: {@code op=decode} decodes all 2^D leaves of a perfect tree,
 * {@code op=reduce} reduces it, {@code op=cycle} runs decode-and-update then the reduction on a tree of fill
 * {@code fill} (0.25: initialised at depth D − 2). {@code backend} is {@code jvm}, {@code jvm-parallel:T} (T worker
 * threads) or {@code tornado}. For tornado the score is the wall time of one execution (kernels and launch); the
 * kernel time alone is printed by {@code accelgeom cbt --bench} (scripts/bench-cbt.sh).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CbtBenchmark {

    @Param({"10", "15", "20"})
    public int depth;

    @Param({"jvm", "jvm-parallel:4", "tornado"})
    public String backend;

    @Param({"decode"})
    public String op;

    @Param({"packed"})
    public String layout;

    @Param({"0.25"})
    public double fill;

    private CbtBackend b;
    private int seed;
    private final int split = (int) (0.01 * Integer.MAX_VALUE);
    private final int merge = (int) (0.02 * Integer.MAX_VALUE);

    @Setup(Level.Trial)
    public void setUp() {
        String name = backend;
        int threads = 0;
        int colon = backend.indexOf(':');
        if (colon > 0) {
            name = backend.substring(0, colon);
            threads = Integer.parseInt(backend.substring(colon + 1));
        }
        boolean packed = !layout.equals("unpacked");
        b = CbtBackends.create(Backend.parse(name), threads, -1, 0, false);
        b.load(Cbt.uninitialised(depth, packed), new PhaseTimings());
        b.init(op.equals("cycle") ? CbtBench.initialDepth(depth, fill) : depth);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        b.close();
    }

    @Benchmark
    public int pass() {
        switch (op) {
            case "decode":
                return b.decodeAll(null);
            case "reduce":
                return b.reduce();
            case "cycle":
                return b.cycle(seed++, split, merge, 1);
            default:
                throw new IllegalArgumentException("op must be decode, reduce or cycle: " + op);
        }
    }
}
