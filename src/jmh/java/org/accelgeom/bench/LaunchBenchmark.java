package org.accelgeom.bench;

import java.util.concurrent.TimeUnit;

import org.accelgeom.engine.LaunchProbe;
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
 * TornadoVM's launch floor (issue 19): the wall time of one execution of a task graph whose kernels do (almost)
 * nothing, so that what is measured is TornadoVM's dispatch, its argument and event handling, the profiler and the
 * per-execution transfers. Needs the tornado backend (run under the TornadoVM launcher:
 * {@code scripts/accelgeom bench -- Launch}); the score is microseconds per execution.
 *
 * <p>{@code shape} is one of:
 * <ul>
 * <li>{@code empty}: one kernel of one work-item that does nothing, one 16-byte upload, nothing read back;</li>
 * <li>{@code tiny}: one kernel of 256 adds, one upload, one int[4] read back;</li>
 * <li>{@code chainN}: N tiny kernels in one graph, one upload, one read back (the cost per extra kernel);</li>
 * <li>the graph each family executes over and over, with its kernel count and per-execution transfers, every
 * kernel tiny: {@code hull-round} (5 kernels: delta, reassign, farthest, gather; 3 uploads, flags and beat read
 * back), {@code ridge-batch} (17: load and 8 iterations of closest and shift; 4 uploads, 1 flag array back),
 * {@code cbt-cycle} (1 kernel, 1 upload, the info array back), {@code kd-level} (6: bins, split, count, scan,
 * scatter, advance; 3 uploads, the state back), {@code voronoi-search} (7: floats and 3 passes of lanes and
 * reduce; 3 uploads, 2 arrays back).</li>
 * </ul>
 * {@code profiler}: TornadoVM's profiler {@code off} (accelgeom's default) or {@code on} (what {@code --timings}
 * sets; TornadoVM then waits on every operation's event).
 *
 * <p>The figures depend on {@code -Dtornado.max.events} (tornado-config/accelgeom.argfile sets 1024; TornadoVM 5.2
 * clears that many ints per wait-event list on every execution) and {@code -Dtornado.opencl.profiling.enable} (the
 * argfile sets False: the OpenCL driver's event timers, which cost every launch), which JMH's forks inherit from the
 * launcher's JVM. With the timers off, {@code profiler=on} measures TornadoVM's waits and bookkeeping but reads no
 * times (give {@code -Dtornado.opencl.profiling.enable=True} to measure the profiler as {@code --timings} runs it).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LaunchBenchmark {

    @Param({"empty", "tiny", "chain4", "chain16", "hull-round", "ridge-batch", "cbt-cycle", "kd-level", "voronoi-search"})
    public String shape;

    @Param({"off", "on"})
    public String profiler;

    private LaunchProbe probe;

    /** {tasks, work-items per kernel, uploads, downloads} of a shape. */
    static int[] shape(String name) {
        if (name.startsWith("chain")) {
            return new int[] {Integer.parseInt(name.substring(5)), 256, 1, 1};
        }
        switch (name) {
            case "empty":
                return new int[] {1, 0, 1, 0};
            case "tiny":
                return new int[] {1, 256, 1, 1};
            case "hull-round":
                return new int[] {5, 256, 3, 2};
            case "ridge-batch":
                return new int[] {17, 256, 4, 1};
            case "cbt-cycle":
                return new int[] {1, 256, 1, 1};
            case "kd-level":
                return new int[] {6, 256, 3, 1};
            case "voronoi-search":
                return new int[] {7, 256, 3, 2};
            default:
                throw new IllegalArgumentException("unknown launch shape: " + name);
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        int[] s = shape(shape);
        probe = LaunchProbe.create(s[0], s[1], s[2], s[3], profiler.equals("on"));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        probe.close();
    }

    @Benchmark
    public int execute() {
        return probe.execute();
    }
}
