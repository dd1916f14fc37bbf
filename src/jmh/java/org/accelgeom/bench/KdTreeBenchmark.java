package org.accelgeom.bench;

import java.util.concurrent.TimeUnit;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.io.Formats;
import org.accelgeom.kdtree.KdTree;
import org.accelgeom.kdtree.KdTreeBuilder;
import org.accelgeom.kdtree.KdTreeOptions;
import org.accelgeom.kdtree.Scenes;
import org.accelgeom.kdtree.Triangles;
import org.accelgeom.render.Camera;
import org.accelgeom.render.Render;
import org.accelgeom.render.RenderBackend;
import org.accelgeom.render.RenderOptions;
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
 * The SAH kd-tree: one build per builder ({@code jvm-nlog2n}, {@code jvm-nlogn}, {@code jvm-parallel},
 * {@code jvm-parallel-binned} (binned SAH above 1024 references), {@code tornado}) and one render ({@code render}: primary and shadow rays at {@code resolution}, the tree built
 * once in the setup, traced on {@code jvm-parallel}) on the same input: a mesh file or a generated scene
 * ({@code random:N}, {@code sphere:N}; seed 42). The score is the time of one build or one render.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class KdTreeBenchmark {

    @Param({"random:100000", "sphere:100000"})
    public String input;

    /** jvm-parallel-binned: binned SAH for nodes of at least this many references (as bench-kdtree.sh's CLI runs). */
    static final int BINNED_MIN_REFS = 1024;

    @Param({"jvm-nlog2n", "jvm-nlogn", "jvm-parallel", "jvm-parallel-binned", "tornado"})
    public String builder;

    @Param({"1920x1080"})
    public String resolution;

    private Triangles triangles;
    private KdTreeOptions options;
    private KdTree tree;
    private RenderBackend renderer;
    private RenderOptions renderOptions;
    private DeviceSession session;

    @Setup(Level.Trial)
    public void setUp() {
        triangles = load(input);
        options = switch (builder) {
            case "jvm-nlog2n" -> KdTreeOptions.of(Backend.JVM);
            case "jvm-nlogn" -> KdTreeOptions.of(Backend.JVM).withVariant(KdTreeOptions.Variant.NLOGN);
            case "jvm-parallel" -> KdTreeOptions.of(Backend.JVM_PARALLEL);
            case "jvm-parallel-binned" -> KdTreeOptions.of(Backend.JVM_PARALLEL).withBinnedMinRefs(BINNED_MIN_REFS);
            case "tornado" -> KdTreeOptions.of(Backend.TORNADO);
            default -> throw new IllegalArgumentException("unknown builder " + builder);
        };
        renderOptions = RenderOptions.of(Backend.JVM_PARALLEL);
        // tornado: the compiled kernels and device buffers stay in the session between invocations
        session = DeviceSession.open(options.execution());
    }

    static Triangles load(String input) {
        int colon = input.indexOf(':');
        if (colon > 0 && input.substring(colon + 1).chars().allMatch(Character::isDigit)) {
            return Triangles.of(Scenes.named(input, 42));
        }
        return Triangles.of(Formats.readMesh(input));
    }

    @Benchmark
    public int build() {
        return KdTreeBuilder.build(triangles, options, session).stats().nodes();
    }

    /** Tracing only: the tree is built once (jvm-parallel) outside the measurement. */
    @Benchmark
    public long render() {
        if (tree == null) {
            tree = KdTreeBuilder.build(triangles, KdTreeOptions.of(Backend.JVM_PARALLEL)).tree();
            renderer = Render.backend(renderOptions);
        }
        String[] wh = resolution.split("x");
        return Render.render(tree, Camera.framing(tree.bounds(), Integer.parseInt(wh[0]), Integer.parseInt(wh[1])),
                renderOptions, renderer).rays();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        session.close();
        if (renderer != null) {
            renderer.close();
        }
    }
}
