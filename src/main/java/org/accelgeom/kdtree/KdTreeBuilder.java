package org.accelgeom.kdtree;

import java.util.concurrent.ForkJoinPool;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.Timings;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.Execution;
import org.accelgeom.io.Mesh;

/**
 * The exact SAH kd-tree of Wald &amp; Havran (2006) as the thesis builds it, on any backend.
 *
 * <p>Contract: for the same triangles and options every backend and both jvm variants give the same tree, bit for
 * bit: the splits minimise the SAH cost λ(p)·(K_T + K_I·(P_L·N_L + P_R·N_R)) over every event position of every
 * axis (ties: the plane first in (position, axis) order; planar triangles on the cheaper side, right on a tie);
 * straddling triangles go to both children clipped to each (perfect splits); a node becomes a leaf at the depth
 * limit, with no triangles, or when the best cost exceeds K_I·|T|. Degenerate triangles (zero area, NaN or
 * infinite coordinates) are skipped and counted ({@link Triangles}); no triangles give a single empty leaf.
 *
 * <p>Backends: {@code jvm} is the reference, one thread, O(N log² N) (events sorted at every node, the thesis's
 * choice) or O(N log N) (sorted once, {@link KdTreeOptions.Variant}); {@code jvm-parallel} builds independent
 * subtrees in parallel and runs the per-node kernels of large nodes over all cores; {@code tornado} runs the
 * thesis's four per-node kernels on the device for nodes with at least {@link KdTreeOptions#deviceMinRefs()}
 * references (one at a time) and the sweep on the host below that (the thesis's §6.3 crossover), with independent
 * subtrees in parallel as on jvm-parallel; its compiled kernels and device buffers are kept for the next build
 * ({@link #deviceSteps}).
 */
public final class KdTreeBuilder {

    /** jvm-parallel: nodes with at least this many references run the per-node kernels over all cores. */
    static final int PARALLEL_NODE_MIN = 1 << 14;

    private KdTreeBuilder() {
    }

    /** The tree of a mesh's (fan-triangulated) faces. */
    public static KdTreeResult build(Mesh mesh, KdTreeOptions o) {
        return build(Triangles.of(mesh), o);
    }

    /** The tree of the given triangles, in a session of its own (opened and closed by this call). */
    public static KdTreeResult build(Triangles tris, KdTreeOptions o) {
        try (DeviceSession session = DeviceSession.open(o.execution())) {
            return build(tris, o, session);
        }
    }

    /**
     * The tree of the given triangles in {@code session}: it runs on the session's {@link Execution} (which replaces
     * the options' backend, threads and device); on tornado the per-node kernels stay in the session for the next
     * build ({@link #deviceSteps}).
     */
    public static KdTreeResult build(Triangles tris, KdTreeOptions given, DeviceSession session) {
        KdTreeOptions o = given.withExecution(session.execution());
        PhaseTimings t = o.execution().newTimings();
        double[] c = SahBuilder.costs(o);
        KdTree tree;
        String name;
        switch (o.backend()) {
            case JVM -> {
                boolean nlogn = o.variant() == KdTreeOptions.Variant.NLOGN;
                SahBuilder.Finder f = nlogn
                        ? (node, voxel, pt) -> Events.sweep(node.events, node.n, voxel, c)
                        : (node, voxel, pt) -> sweepFinder(node, voxel, pt, c, false);
                tree = new SahBuilder(tris, o, f, null, nlogn, t).build();
                name = nlogn ? "jvm O(N log N)" : "jvm O(N log^2 N)";
            }
            case JVM_PARALLEL -> {
                ParallelLoops loops = session.loops();
                ForkJoinPool pool = loops.pool();
                PlanePipeline pipe = new PlanePipeline(new JvmKdTreeBackend(loops), true);
                SahBuilder.Finder f = (node, voxel, pt) -> node.n >= PARALLEL_NODE_MIN
                        ? pipeline(pipe, new PipelineBuffers(node.n), node, voxel, c, pt == null ? new PhaseTimings(Timings.OFF) : pt)
                        : sweepFinder(node, voxel, pt, c, false);
                tree = new SahBuilder(tris, o, f, pool, false, t).build();
                name = "jvm-parallel (" + loops.threads() + " threads)";
            }
            case TORNADO -> {
                KdTreeBackend steps = t.time("start device", Kind.HOST, () -> deviceSteps(session, tris.count()));
                PlanePipeline pipe = new PlanePipeline(steps, true);
                // subtrees in parallel as on jvm-parallel; the device takes one large node at a time
                SahBuilder.Finder f = (node, voxel, pt) -> {
                    if (node.n < o.deviceMinRefs()) {
                        return sweepFinder(node, voxel, pt, c, false);
                    }
                    synchronized (steps) {
                        PhaseTimings local = new PhaseTimings(t.level()); // DEVICE: the profiler on
                        Split s = pipeline(pipe, steps.buffers(node.n), node, voxel, c, local);
                        synchronized (t) {
                            t.addAll(local);
                        }
                        return s;
                    }
                };
                tree = new SahBuilder(tris, o, f, session.loops().pool(), false, t).build();
                name = "tornado (per-node kernels for nodes of >= " + o.deviceMinRefs() + " references, smaller "
                        + "subtrees on the host in parallel)";
            }
            default -> throw new IllegalStateException();
        }
        KdTreeStats stats = t.time("statistics", Kind.HOST, () -> tree.stats(o.kT(), o.kI()));
        return new KdTreeResult(tree, stats, t, o.backend(), name);
    }

    /**
     * The device's per-node kernels for up to n references, in capacity tiers ({@link TieredSteps}). TornadoVM
     * compiles a new plan's kernels (about a second, more than a build of a small mesh), so the session keeps the set,
     * with its device buffers, for the next build whose root fits and is at least half its capacity.
     */
    static KdTreeBackend deviceSteps(DeviceSession session, int n) {
        int need = Math.max(1, n);
        KdTreeBackend.Factory factory = session.tornado(KdTreeBackend.Factory.class);
        return session.plan("kdtree", "per-node steps", KdTreeBackend.class,
                s -> s.capacity() >= need && s.capacity() <= 2L * need,
                () -> new TieredSteps(need, cap -> factory.create(session.execution(), cap)), KdTreeBackend::close);
    }

    private static Split sweepFinder(BuildNode node, float[] voxel, PhaseTimings t, double[] c, boolean parallel) {
        return Events.sweep(Events.sorted(node, parallel), node.n, voxel, c);
    }

    private static Split pipeline(PlanePipeline pipe, PipelineBuffers b, BuildNode node, float[] voxel, double[] c,
            PhaseTimings t) {
        System.arraycopy(node.box, 0, b.box, 0, 6 * node.n);
        System.arraycopy(voxel, 0, b.voxel, 0, 6);
        System.arraycopy(c, 0, b.c, 0, 3);
        return pipe.find(b, node.n, t);
    }

    /**
     * The thesis's Table 6.1 experiment: the per-node kernels on the root node of {@code tris} (every triangle),
     * {@code repeats} times, on the options' backend ({@code jvm}: one thread, the thesis's CPU column). The
     * timings accumulate per step; for {@code tornado} they separate uploads, kernels and downloads.
     */
    public static PhaseTimings rootSteps(Triangles tris, KdTreeOptions o, int repeats) {
        try (DeviceSession session = DeviceSession.open(o.execution())) {
            return rootSteps(tris, o, repeats, session);
        }
    }

    /** {@link #rootSteps(Triangles, KdTreeOptions, int)} in {@code session} (on its execution). */
    public static PhaseTimings rootSteps(Triangles tris, KdTreeOptions given, int repeats, DeviceSession session) {
        KdTreeOptions o = given.withExecution(session.execution());
        PhaseTimings t = new PhaseTimings(Timings.DEVICE); // a benchmark of the steps: the device's split too
        BuildNode root = SahBuilder.root(tris);
        float[] bounds = tris.bounds();
        double[] c = SahBuilder.costs(o);
        KdTreeBackend steps = switch (o.backend()) {
            case JVM -> new JvmKdTreeBackend(null);
            case JVM_PARALLEL -> new JvmKdTreeBackend(session.loops());
            case TORNADO -> deviceSteps(session, tris.count());
        };
        {
            PlanePipeline pipe = new PlanePipeline(steps, o.backend() != Backend.JVM);
            PipelineBuffers b = steps.buffers(root.n);
            // one untimed run: TornadoVM compiles the kernels, the JIT warms up
            pipeline(pipe, b, root, bounds, c, new PhaseTimings(Timings.OFF));
            for (int r = 0; r < repeats; r++) {
                pipeline(pipe, b, root, bounds, c, t);
            }
        }
        return t;
    }
}
