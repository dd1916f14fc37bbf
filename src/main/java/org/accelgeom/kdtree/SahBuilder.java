package org.accelgeom.kdtree;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.PhaseTimings;

/**
 * Algorithm 1 of the thesis (RecBuild), depth-first on the host: a leaf at the depth limit (checked first, §5.1.2)
 * or for no triangles; otherwise the best plane ({@link Finder}), a leaf when its cost exceeds K_I·|T|
 * (eq. 3.6) or when its children would hold more references than the node's budget ({@link ReferenceBudget}), else
 * the split ({@link NodeSplitter}) and the two children. With a fork/join pool, the right child of
 * a large node is built as an independent subtree in parallel; its nodes are appended after the left subtree's,
 * so the arrays are those of the sequential build.
 */
public final class SahBuilder {

    /** Finds a node's best plane; {@code t} (null for small nodes, to keep the bookkeeping off the hot path) gets its steps' times. */
    public interface Finder {
        Split find(BuildNode node, float[] voxel, PhaseTimings t);
    }

    /** Nodes with at least this many references have their steps timed one by one. */
    static final int TIMED_MIN = 1 << 12;

    /** Nodes with fewer references are not split into parallel subtrees. */
    private static final int FORK_MIN = 512;

    private final Triangles tris;
    private final double[] c;
    private final int depthLimit;
    private final Finder finder;
    private final ForkJoinPool pool;
    private final boolean withEvents;
    private final PhaseTimings timings;
    private final byte[] cls;
    private final java.util.concurrent.atomic.LongAdder findNanos = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder splitNanos = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder splits = new java.util.concurrent.atomic.LongAdder();

    public SahBuilder(Triangles tris, KdTreeOptions o, Finder finder, ForkJoinPool pool, boolean withEvents, PhaseTimings timings) {
        this.tris = tris;
        this.c = costs(o);
        this.depthLimit = o.depthLimit(tris.count());
        this.finder = o.binnedMinRefs() > 0
                ? (node, voxel, t) -> node.n >= o.binnedMinRefs() ? BinnedSah.find(node, voxel, c) : finder.find(node, voxel, t)
                : finder;
        this.pool = pool;
        this.withEvents = withEvents;
        this.timings = timings;
        this.cls = withEvents ? new byte[tris.count()] : null;
    }

    public static double[] costs(KdTreeOptions o) {
        double[] c = new double[3];
        c[KdTreeKernels.KT] = o.kT();
        c[KdTreeKernels.KI] = o.kI();
        c[KdTreeKernels.LAMBDA] = o.lambda();
        return c;
    }

    KdTree build() {
        float[] bounds = tris.bounds();
        BuildNode root = timings.time("root references", Kind.HOST, () -> root(tris));
        if (withEvents) {
            BuildNode r = root;
            root = timings.time("sort root events (O(N log N) variant)", Kind.HOST,
                    () -> new BuildNode(r.n, r.tri, r.box, Events.sorted(r, false)));
        }
        TreeWriter w = new TreeWriter();
        BuildNode r = root;
        PhaseTimings.Region nodes = timings.enclose("build nodes", Kind.HOST); // the per-node phases are its parts
        long budget = ReferenceBudget.root(r.n);
        if (pool == null) {
            build(r, bounds, 0, budget, w);
        } else {
            pool.invoke(new Subtree(r, bounds, 0, budget, w));
        }
        timings.add("find planes (cpu time, all threads)", Kind.HOST, findNanos.sum());
        timings.add("split " + splits.sum() + " nodes (cpu time)", Kind.HOST, splitNanos.sum());
        nodes.close();
        return new KdTree(java.util.Arrays.copyOf(w.split, w.nodes), java.util.Arrays.copyOf(w.info, w.nodes),
                java.util.Arrays.copyOf(w.leafTris, w.leafSize), bounds, tris);
    }

    /**
     * The subtree of one node built on its own (no fork/join), from depth {@code depth}: the small-node stage of
     * {@link org.accelgeom.kdtree.zhou.ZhouBuilder}, with the budget of a root ({@link ReferenceBudget}). Safe to call from several threads at
     * once.
     */
    public TreeWriter subtree(BuildNode node, float[] voxel, int depth) {
        TreeWriter w = new TreeWriter();
        build(node, voxel, depth, ReferenceBudget.root(node.n), w);
        return w;
    }

    /** One reference per triangle, its box the triangle's own (B(t ∩ V_S) = B(t)). */
    public static BuildNode root(Triangles t) {
        int n = t.count();
        int[] tri = new int[n];
        float[] box = new float[6 * n];
        for (int i = 0; i < n; i++) {
            tri[i] = i;
        }
        t.boxes(box);
        return new BuildNode(n, tri, box, null);
    }

    private void build(BuildNode node, float[] voxel, int depth, long budget, TreeWriter w) {
        int idx = w.reserve();
        if (node.n == 0 || depth >= depthLimit) {
            w.leaf(idx, node.tri, node.n);
            return;
        }
        PhaseTimings local = node.n < TIMED_MIN ? null : pool == null ? timings : new PhaseTimings(timings.level());
        long t0 = System.nanoTime();
        Split s = finder.find(node, voxel, local);
        long t1 = System.nanoTime();
        findNanos.add(t1 - t0);
        if (local != null) {
            merge(local);
        }
        if (s.axis() < 0 || s.cost() > c[KdTreeKernels.KI] * node.n) {
            w.leaf(idx, node.tri, node.n);
            return;
        }
        BuildNode[] ch = new NodeSplitter(tris.v()).split(node, voxel, s, cls);
        splitNanos.add(System.nanoTime() - t1);
        if ((long) ch[0].n + ch[1].n > budget) {
            // the reference budget (ReferenceBudget): a leaf instead of more references than the subtree may hold
            w.leaf(idx, node.tri, node.n);
            return;
        }
        long lb = ReferenceBudget.left(budget, ch[0].n, ch[1].n);
        long rb = budget - lb;
        splits.increment();
        float[] vl = NodeSplitter.leftVoxel(voxel, s);
        float[] vr = NodeSplitter.rightVoxel(voxel, s);
        if (pool != null && ch[0].n >= FORK_MIN && ch[1].n >= FORK_MIN) {
            TreeWriter rw = new TreeWriter();
            Subtree right = new Subtree(ch[1], vr, depth + 1, rb, rw);
            right.fork();
            build(ch[0], vl, depth + 1, lb, w);
            right.join();
            w.inner(idx, s.axis(), s.pos(), w.nodes);
            w.append(rw);
        } else {
            build(ch[0], vl, depth + 1, lb, w);
            w.inner(idx, s.axis(), s.pos(), w.nodes);
            build(ch[1], vr, depth + 1, rb, w);
        }
    }

    private void merge(PhaseTimings local) {
        if (local != timings) {
            synchronized (timings) {
                timings.addAll(local);
            }
        }
    }

    private final class Subtree extends RecursiveTask<Void> {
        private static final long serialVersionUID = 1L;
        private final transient BuildNode node;
        private final float[] voxel;
        private final int depth;
        private final long budget;
        private final transient TreeWriter w;

        Subtree(BuildNode node, float[] voxel, int depth, long budget, TreeWriter w) {
            this.node = node;
            this.voxel = voxel;
            this.depth = depth;
            this.budget = budget;
            this.w = w;
        }

        @Override
        protected Void compute() {
            build(node, voxel, depth, budget, w);
            return null;
        }
    }
}
