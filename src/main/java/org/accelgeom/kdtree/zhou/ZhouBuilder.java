package org.accelgeom.kdtree.zhou;

import java.util.Arrays;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.kdtree.BuildNode;
import org.accelgeom.kdtree.Clipper;
import org.accelgeom.kdtree.Events;
import org.accelgeom.kdtree.KdTree;
import org.accelgeom.kdtree.KdTreeOptions;
import org.accelgeom.kdtree.KdTreeResult;
import org.accelgeom.kdtree.KdTreeStats;
import org.accelgeom.kdtree.SahBuilder;
import org.accelgeom.kdtree.TreeWriter;
import org.accelgeom.kdtree.Triangles;

/**
 * The breadth-first kd-tree builder of Zhou, Hou, Wang &amp; Guo, "Real-time kd-tree construction on graphics
 * hardware" (SIGGRAPH Asia 2008), on any backend: a large-node stage that processes all nodes of a level together
 * over flat (reference, node) arrays with binned SAH ({@link LevelKernels}: histograms, per-node plane choice,
 * scans and compaction), followed by a small-node stage for nodes of at most {@code small} references: by default
 * Zhou et al.'s, all small nodes level by level with 64-bit reference masks on the same backend ({@link SmallKernels},
 * {@link SmallStage#BITMASK}), or the exact event SAH of Wald &amp; Havran on the host ({@link SahBuilder}, perfect
 * splits, {@link SmallStage#EXACT}).
 *
 * <p>Where it runs: the large-node stage on the backend ({@code jvm}: one thread, the reference;
 * {@code jvm-parallel}: the same loops over all cores; {@code tornado}: the kernels on the device, all level arrays
 * resident, only the counters downloaded per level); the bit-mask small-node stage likewise; the exact small-node
 * stage on the host: one thread for {@code jvm}, all cores (independent subtrees) otherwise. Every backend gives the
 * same tree, bit for bit.
 *
 * <p>Differences from the exact builder: large nodes try only the {@link LevelBuffers#BINS} − 1 bin boundaries
 * per axis; a straddling reference's box is clipped to the child on the split axis only (box clipping); at the
 * hand-off each reference whose box was cut is clipped exactly to its node's voxel ({@link Clipper}), so the
 * small-node stage works on perfect-split boxes. Zhou et al.'s large-node stage splits at the spatial median after
 * empty-space cutting; the binned SAH (with λ for planes that cut off empty space) is the reading.
 */
public class ZhouBuilder {

    /** How the nodes handed on by the large-node stage are built. */
    public enum SmallStage {
        /**
         * On the host: references clipped exactly to the node's voxel, the exact event SAH of Wald &amp; Havran per
         * node (independent subtrees in parallel).
         */
        EXACT,
        /**
         * On the backend: Zhou et al.'s small-node stage, all small nodes level by level with 64-bit reference masks
         * and the SAH of every candidate from popcounts ({@link SmallKernels}); nodes of more than 64 references on
         * the host as in EXACT. Each node clips its references' boxes exactly to its voxel (perfect splits) and
         * forms the candidates' masks over them: the exact builder's SAH at every small node.
         */
        BITMASK,
        /**
         * As BITMASK, with Zhou et al.'s masks as they are: precomputed once per small root over its references'
         * boxes (no clipping below the small root; a straddler whose triangle misses a child's voxel is dropped).
         */
        ZHOU_MASKS
    }

    /** The default small-node stage. */
    public static final SmallStage DEFAULT_STAGE = SmallStage.BITMASK;

    /** Zhou et al.'s small-node threshold. */
    public static final int DEFAULT_SMALL = 64;

    /**
     * A level with fewer than N / TAIL_FRACTION references hands all its nodes to the small-node stage: on the dragon
     * the last 7 of 31 levels held fewer than 3 % of the references (each level costs five kernel launches).
     */
    static final int TAIL_FRACTION = 32;

    private static final String FAMILY = "kdtree";
    private static final String LEVEL_STEPS = "level steps";
    private static final String LEVEL_ARRAYS = "level arrays";

    ZhouBuilder() {
    }

    /** The tree of the triangles, nodes of at most {@code small} references built by the default small-node stage. */
    public static KdTreeResult build(Triangles tris, KdTreeOptions o, int small) {
        return build(tris, o, small, DEFAULT_STAGE);
    }

    /** The tree of the triangles, nodes of at most {@code small} references built by the given small-node stage. */
    public static KdTreeResult build(Triangles tris, KdTreeOptions o, int small, SmallStage stage) {
        try (DeviceSession session = DeviceSession.open(o.execution())) {
            return build(tris, o, small, stage, session);
        }
    }

    /**
     * The tree in {@code session}: it runs on the session's {@link Execution} (which replaces the options' backend,
     * threads and device); the level arrays (jvm) or the level kernels with the triangles on the device (tornado)
     * stay in the session for the next build that fits them.
     */
    public static KdTreeResult build(Triangles tris, KdTreeOptions given, int small, SmallStage stage,
            DeviceSession session) {
        KdTreeOptions o = given.withExecution(session.execution());
        if (small < 1) {
            throw new AccelGeomException("the small-node threshold must be >= 1, got " + small);
        }
        boolean bitmask = stage != SmallStage.EXACT;
        if (bitmask && small > SmallKernels.MAX_REFS) {
            throw new AccelGeomException("the bit-mask small-node stage takes nodes of at most " + SmallKernels.MAX_REFS
                    + " references (one 64-bit mask per node): --small must be <= 64 or --small-stage exact, got " + small);
        }
        PhaseTimings t = o.execution().newTimings();
        int n = tris.count();
        ParallelLoops loops = o.backend() == Backend.JVM ? null : session.loops();
        ZhouBackend steps = switch (o.backend()) {
            case JVM, JVM_PARALLEL -> t.time("allocate level arrays", Kind.HOST,
                    () -> new JvmZhouBackend(loopBuffers(session, n, small, stage), loops));
            case TORNADO -> t.time("start device", Kind.HOST, () -> deviceSteps(session, tris, small, stage));
        };
        boolean done = false;
        try {
            KdTree tree;
            try {
                tree = build(tris, o, steps, loops, t, stage);
            } catch (RuntimeException e) {
                if (o.backend() == Backend.TORNADO) {
                    session.drop(FAMILY, LEVEL_STEPS); // its resident arrays may be half-way through a level
                }
                throw e;
            }
            KdTreeStats stats = t.time("statistics", Kind.HOST, () -> tree.stats(o.kT(), o.kI()));
            String where = switch (o.backend()) {
                case JVM -> "jvm";
                case JVM_PARALLEL -> "jvm-parallel (" + loops.threads() + " threads)";
                case TORNADO -> bitmask ? "tornado (device)"
                        : "tornado (device), small nodes on the host (" + loops.threads() + " threads)";
            };
            String below = switch (stage) {
                case EXACT -> "exact SAH below (host)";
                case BITMASK -> "bit-mask SAH below over clipped boxes (Zhou et al.'s small-node stage, same backend)";
                case ZHOU_MASKS -> "bit-mask SAH below, masks of the small roots' boxes (Zhou et al., same backend)";
            };
            done = true;
            return new KdTreeResult(tree, stats, t, o.backend(), "zhou: breadth-first binned SAH for nodes of > "
                    + small + " references on " + where + ", " + below);
        } finally {
            if (o.backend() != Backend.TORNADO) {
                steps.close();
                if (done) { // every array is rewritten by the next build (as on the device)
                    session.keep(FAMILY, LEVEL_ARRAYS, steps.buffers(), b -> { });
                }
            }
        }
    }

    /**
     * The loop backends' arrays: those the session kept from its last build when they fit these sizes (the bit-mask
     * stage's take a second to allocate for the dragon), else new ones. A build takes them out of the session.
     */
    private static LevelBuffers loopBuffers(DeviceSession session, int n, int small, SmallStage stage) {
        LevelBuffers b = session.take(FAMILY, LEVEL_ARRAYS, LevelBuffers.class,
                c -> c.n == n && c.state[LevelBuffers.P_SMALL] == small && stageOf(c) == stage);
        return b != null ? b : new LevelBuffers(n, small, stage);
    }

    /**
     * The device's level kernels for these triangles; the session keeps the set (compiled kernels, resident arrays
     * with the triangles) for its next build of the same triangle array and threshold: TornadoVM compiles a new
     * plan's kernels (seconds) and the triangles go to the device once.
     */
    static ZhouBackend deviceSteps(DeviceSession session, Triangles tris, int small, SmallStage stage) {
        int n = tris.count();
        return session.plan(FAMILY, LEVEL_STEPS, ZhouBackend.class, c -> c.buffers().n == n
                && c.buffers().state[LevelBuffers.P_SMALL] == small && stageOf(c.buffers()) == stage && c.accepts(tris),
                () -> session.tornado(ZhouBackend.Factory.class).create(session.execution(), n, small, stage),
                ZhouBackend::close);
    }

    private static SmallStage stageOf(LevelBuffers b) {
        if (b.small == null) {
            return SmallStage.EXACT;
        }
        return b.small.masks ? SmallStage.ZHOU_MASKS : SmallStage.BITMASK;
    }

    /**
     * The tree with the caller's steps (a backend's own, e.g. with smaller small-stage regions in tests); the host's
     * parts run on {@code loops} (null: one thread).
     */
    public static KdTree build(Triangles tris, KdTreeOptions o, ZhouBackend steps, ParallelLoops loops, PhaseTimings t,
            SmallStage stage) {
        boolean bitmask = stage != SmallStage.EXACT;
        int n = tris.count();
        float[] bounds = t.time("root bounds", Kind.HOST, () -> steps.bounds(tris, loops));
        double[] costs = SahBuilder.costs(o);
        SahBuilder exact = new SahBuilder(tris, o.withBinnedMinRefs(0), (node, voxel, pt) -> Events.sweep(
                Events.sorted(node, false), node.n, voxel, costs), null, false, t);
        if (n == 0) {
            return new KdTree(new float[] {0f}, new int[] {3}, new int[] {0}, bounds, tris);
        }
        LevelBuffers b = steps.buffers();
        steps.load(tris, t);
        int[] p = b.state;
        System.arraycopy(bounds, 0, b.rootBounds, 0, 6);
        b.start(o, bitmask);
        PhaseTimings.Region large = t.enclose("large nodes", Kind.HOST); // the level phases are its parts
        while (p[LevelBuffers.P_M] > 0) {
            steps.level(t); // one level or more, each followed by LevelKernels.advance
        }
        int levels = p[LevelBuffers.C_LEVELS];
        large.close("large nodes: " + levels + " levels");
        if (bitmask) {
            return BitmaskStage.run(tris, bounds, steps, exact, loops, t);
        }
        steps.download(t);
        int g = b.state[LevelBuffers.P_GBASE];
        int d = b.state[LevelBuffers.C_D];
        return smallStage(tris, b, g, d, exact, loops, t);
    }

    /**
     * The small-node stage and the assembly: the handed-on nodes' references grouped by node (in hand-off order),
     * clipped exactly to their voxels, built by the exact SAH from their depth, and the large nodes' records
     * written around them in depth-first order (the flat layout of {@link KdTree}).
     */
    private static KdTree smallStage(Triangles tris, LevelBuffers b, int g, int d, SahBuilder exact, ParallelLoops loops,
            PhaseTimings t) {
        int[] depth = new int[g];
        int[] start = new int[g + 1];
        int[] order = new int[d];
        t.time("small nodes: group references", Kind.HOST, () -> {
            for (int i = 0; i < g; i++) {
                if (b.gInt[2 * i] != LevelBuffers.HANDED) {
                    depth[b.gInt[2 * i + 1]] = depth[i] + 1;
                    depth[b.gInt[2 * i + 1] + 1] = depth[i] + 1;
                }
            }
            for (int r = 0; r < d; r++) {
                start[b.doneInt[2 * r + 1] + 1]++;
            }
            for (int i = 0; i < g; i++) {
                start[i + 1] += start[i];
            }
            int[] fill = Arrays.copyOf(start, g);
            for (int r = 0; r < d; r++) {
                order[fill[b.doneInt[2 * r + 1]]++] = r;
            }
        });
        TreeWriter[] sub = new TreeWriter[g];
        float[] v = tris.v();
        long t0 = System.nanoTime();
        ParallelLoops.RangeBody body = (from, to) -> {
            Clipper clipper = new Clipper();
            for (int i = from; i < to; i++) {
                if (b.gInt[2 * i] != LevelBuffers.HANDED) {
                    continue;
                }
                int m = start[i + 1] - start[i];
                int[] tri = new int[m];
                float[] box = new float[6 * m];
                float[] voxel = Arrays.copyOfRange(b.gVox, 6 * i, 6 * i + 6);
                for (int j = 0; j < m; j++) {
                    int r = order[start[i] + j];
                    tri[j] = b.doneInt[2 * r];
                    if (cut(v, tri[j], b.doneBox, r)) {
                        clipper.clip(v, tri[j], voxel, b.doneBox, 6 * r, box, 6 * j);
                    } else {
                        System.arraycopy(b.doneBox, 6 * r, box, 6 * j, 6);
                    }
                }
                sub[i] = exact.subtree(new BuildNode(m, tri, box, null), voxel, depth[i]);
            }
        };
        if (loops == null) {
            body.run(0, g);
        } else {
            loops.forRange(g, 1, body);
        }
        t.add("small nodes: exact SAH subtrees (host)", Kind.HOST, System.nanoTime() - t0);
        return t.time("assemble depth-first layout", Kind.HOST, () -> {
            TreeWriter w = new TreeWriter();
            emit(0, b, sub, w);
            return new KdTree(Arrays.copyOf(w.split, w.nodes), Arrays.copyOf(w.info, w.nodes),
                    Arrays.copyOf(w.leafTris, w.leafSize), tris.bounds(), tris);
        });
    }

    /** Whether the box of reference r differs from its triangle's own box (it was cut at a plane). */
    private static boolean cut(float[] v, int t, float[] box, int r) {
        for (int k = 0; k < 3; k++) {
            float lo = Math.min(v[9 * t + k], Math.min(v[9 * t + 3 + k], v[9 * t + 6 + k]));
            float hi = Math.max(v[9 * t + k], Math.max(v[9 * t + 3 + k], v[9 * t + 6 + k]));
            if (box[6 * r + k] != lo || box[6 * r + 3 + k] != hi) {
                return true;
            }
        }
        return false;
    }

    /** Global node i in depth-first order: a large node's plane, or the handed-on node's subtree. */
    private static void emit(int i, LevelBuffers b, TreeWriter[] sub, TreeWriter w) {
        if (b.gInt[2 * i] == LevelBuffers.HANDED) {
            w.append(sub[i]);
            return;
        }
        int idx = w.reserve();
        emit(b.gInt[2 * i + 1], b, sub, w);
        w.inner(idx, b.gInt[2 * i], b.gPos[i], w.nodes);
        emit(b.gInt[2 * i + 1] + 1, b, sub, w);
    }
}
