package org.accelgeom.ridge;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ForkJoinTask;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.ParallelLoops;

/**
 * The tile tree of the tiled version (§4.1, Alg. 13–16) with extended tiles ("rozszerzone"): the bounding box is
 * split into {@code initTileCnt[i]} tiles along each dimension i (histogram, eqs. 4.1–4.2); tiles with fewer than
 * 2 points are dropped; a tile with more than {@code maxTileCapacity} points is halved along dimension
 * {@code level mod d}, recursively. Each leaf gets, besides its own ("core") points, copies of the cloud points
 * outside it within R1 of its box ("margin"), so that a representative near its border sees every point within
 * R1. Representatives are chosen from core points only.
 *
 * <p>Decisions the thesis leaves open: eq. 4.1 is used without its inner floor,
 * {@code k_i = ⌊(p_i − min_i)·cnt_i / w_i⌋}, clamped to {@code cnt_i − 1} so points on the upper face of the box
 * belong to the last tile ({@code w_i} is the box width; 0 if w_i = 0); a halved tile sends a point with
 * coordinate below the midpoint left, others right; splitting stops at level 60 (all points coincide).
 *
 * <p>Over the host's cores ({@code loops} not null): the bounding box, the initial tile of every point, the stable
 * bucket sort and the margins run over chunks of the cloud (each chunk counts, prefix sums give every chunk its
 * place, so every array is the sequential one); the initial tiles are halved in parallel, each subtree on its own
 * (Alg. 14 and 16 touch only their own points), and the leaves are numbered afterwards in the sequential order
 * (initial tiles in order, left half before right). The result does not depend on the thread count.
 *
 * <p>Sizes: the layout ({@link #layout}) is one column-major array of d × (points with margins) coordinates; the
 * margins are counted before they are stored, and a layout beyond {@link #MAX_ARRAY} elements is refused then, in
 * one line that names the size and the option that shrinks it.
 */
public final class TileTree {

    /** A leaf tile: its box, its core points and its margin points (indices into the cloud, ascending). */
    public record Tile(double[] lo, double[] hi, int[] core, int[] margin, int level) {
    }

    /** The most elements of one Java array (a few below 2^31 - 1, as the JDK's own growth limit). */
    public static final int MAX_ARRAY = Integer.MAX_VALUE - 8;
    private static final int MAX_LEVEL = 60;
    /** Cloud points per chunk of the parallel passes. */
    static final int GRAIN = 1 << 14;
    /** A halved tile forks its halves onto the pool above this many points. */
    private static final int FORK_POINTS = 1 << 12;

    private final List<Tile> leaves = new ArrayList<>();
    /**
     * The layout's arrays ({@link #layout}), allocated on a thread of their own while the margins are collected (the
     * JVM zeroes a new array on the allocating thread, first touching its pages: 9 GB of coordinates at 10^8 points);
     * null: none ahead.
     */
    private java.util.concurrent.CompletableFuture<LayoutArrays> layoutArrays;

    /** The layout's coordinates and point tiles (see {@link #layout}). */
    private record LayoutArrays(double[] coords, int[] pointTile) {
    }
    private final int[] initTileCnt;
    private final double[] min;
    private final double[] width;
    private final int maxTileCapacity;
    private final double r1;

    private TileTree(int[] initTileCnt, double[] min, double[] width, int maxTileCapacity, double r1) {
        this.initTileCnt = initTileCnt;
        this.min = min;
        this.width = width;
        this.maxTileCapacity = maxTileCapacity;
        this.r1 = r1;
    }

    public List<Tile> leaves() {
        return leaves;
    }

    /** Eq. 4.3: the representative capacity of a box of widths w, Π ⌈w_i / R1⌉ (at least 1 per dimension). */
    public static double capacity(double[] w, double r1) {
        double cap = 1;
        for (double wi : w) {
            cap *= Math.max(1, Math.ceil(wi / r1));
        }
        return cap;
    }

    /**
     * Builds the tree over the column-major cloud {@code p} (n points of dimension d) and the margins for radius r1,
     * on one thread.
     */
    public static TileTree build(double[] p, int n, int d, int[] initTileCnt, int maxTileCapacity, double r1) {
        return build(p, n, d, initTileCnt, maxTileCapacity, r1, null, GRAIN);
    }

    /** {@link #build(double[], int, int, int[], int, double)} over {@code loops} (null: one thread); the same tree. */
    public static TileTree build(double[] p, int n, int d, int[] initTileCnt, int maxTileCapacity, double r1,
            ParallelLoops loops) {
        return build(p, n, d, initTileCnt, maxTileCapacity, r1, loops, GRAIN);
    }

    /** The build with chunks of at least {@code grain} points (small in tests, to have many chunks). */
    static TileTree build(double[] p, int n, int d, int[] initTileCnt, int maxTileCapacity, double r1,
            ParallelLoops loops, int grain) {
        if (initTileCnt.length != d) {
            throw new IllegalArgumentException("initTileCnt has " + initTileCnt.length + " entries for dimension " + d);
        }
        int tiles = 1;
        for (int cnt : initTileCnt) {
            if (cnt < 1) {
                throw new IllegalArgumentException("initTileCnt entries must be >= 1");
            }
            tiles = Math.multiplyExact(tiles, cnt);
        }
        // the bounding box, per chunk, then over the chunks (min and max do not depend on the order)
        Chunks box = new Chunks(n, loops, grain, 2 * d);
        double[][] lows = new double[box.count][d];
        double[][] highs = new double[box.count][d];
        box.run((k, from, to) -> {
            for (int c = 0; c < d; c++) {
                double lo = Double.POSITIVE_INFINITY;
                double hi = Double.NEGATIVE_INFINITY;
                for (int i = from; i < to; i++) {
                    lo = Math.min(lo, p[c * n + i]);
                    hi = Math.max(hi, p[c * n + i]);
                }
                lows[k][c] = lo;
                highs[k][c] = hi;
            }
        });
        double[] min = new double[d];
        double[] max = new double[d];
        double[] w = new double[d];
        for (int c = 0; c < d; c++) {
            min[c] = Double.POSITIVE_INFINITY;
            max[c] = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < box.count; k++) {
                min[c] = Math.min(min[c], lows[k][c]);
                max[c] = Math.max(max[c], highs[k][c]);
            }
            w[c] = max[c] - min[c];
        }
        TileTree tree = new TileTree(initTileCnt.clone(), min, w, maxTileCapacity, r1);
        // eqs. 4.1-4.2: the initial tile of every point, then a stable bucket sort (input order kept in a tile)
        int[] lin = new int[n];
        Chunks chunks = new Chunks(n, loops, grain, tiles);
        int[][] counts = new int[chunks.count][tiles];
        chunks.run((k, from, to) -> {
            int[] count = counts[k];
            for (int i = from; i < to; i++) {
                int idx = 0;
                int stride = 1;
                for (int c = 0; c < d; c++) {
                    idx += tree.cellIndex(c, p[c * n + i]) * stride;
                    stride *= initTileCnt[c];
                }
                lin[i] = idx;
                count[idx]++;
            }
        });
        long[] start = Chunks.offsets(counts, tiles); // at most n: fits an int
        Chunks.positions(counts, tiles, start);
        int[] order = new int[n];
        chunks.run((k, from, to) -> {
            int[] fill = counts[k];
            for (int i = from; i < to; i++) {
                order[fill[lin[i]]++] = i;
            }
        });
        Node[] roots = new Node[tiles];
        List<ForkJoinTask<?>> work = new ArrayList<>();
        for (int t = 0; t < tiles; t++) {
            int count = (int) (start[t + 1] - start[t]);
            if (count < 2) {
                continue; // Alg. 15: empty tiles and tiles of one point are dropped
            }
            double[] lo = new double[d];
            double[] hi = new double[d];
            int rest = t;
            for (int c = 0; c < d; c++) {
                int k = rest % initTileCnt[c];
                rest /= initTileCnt[c];
                lo[c] = min[c] + w[c] * k / initTileCnt[c];
                hi[c] = k == initTileCnt[c] - 1 ? max[c] : min[c] + w[c] * (k + 1) / initTileCnt[c];
            }
            int root = t;
            boolean fork = chunks.count > 1;
            work.add(ForkJoinTask.adapt(() -> {
                int[] pts = Arrays.copyOfRange(order, (int) start[root], (int) start[root + 1]);
                roots[root] = subdivide(p, n, d, pts, lo, hi, 0, maxTileCapacity, fork ? grain : 0);
            }));
        }
        if (chunks.count > 1) {
            loops.pool().invoke(ForkJoinTask.adapt(() -> ForkJoinTask.invokeAll(work)));
        } else {
            work.forEach(ForkJoinTask::invoke);
        }
        for (Node root : roots) {
            tree.number(root);
        }
        tree.addMargins(p, n, d, roots, r1, loops, grain);
        return tree;
    }

    /** Eq. 4.1, clamped. */
    private int cellIndex(int c, double x) {
        if (width[c] <= 0) {
            return 0;
        }
        int k = (int) Math.floor((x - min[c]) * initTileCnt[c] / width[c]);
        return Math.max(0, Math.min(initTileCnt[c] - 1, k));
    }

    /** A node of the tree: a leaf (core not null) or two children (either may be null: dropped). */
    private static final class Node {
        final double[] lo;
        final double[] hi;
        final int level;
        int[] core;
        Node left;
        Node right;
        int leaf = -1;
        /** The leaves under the node: numbers first..last (consecutive: numbered depth first). */
        int first;
        int last;
        /** A box holding every bound of the boxes of the node and the nodes under it (see {@link #countNear}). */
        double[] hullLo;
        double[] hullHi;
        /** The hull's diagonal is at most 2·R1: only then can it lie within R1 of a point. */
        boolean small;

        Node(double[] lo, double[] hi, int level) {
            this.lo = lo;
            this.hi = hi;
            this.level = level;
        }
    }

    /**
     * ADDNODE / SUBDIVIDE (Alg. 14, 16): a leaf for at most {@code cap} points, else the halves along dimension
     * {@code level mod d}; with {@code grain} > 0 (on the pool), large halves are built at the same time and a large
     * node is halved in chunks.
     */
    private static Node subdivide(double[] p, int n, int d, int[] pts, double[] lo, double[] hi, int level, int cap,
            int grain) {
        boolean fork = grain > 0;
        Node node = new Node(lo, hi, level);
        if (pts.length <= cap || level >= MAX_LEVEL) {
            node.core = pts;
            return node;
        }
        int c = level % d;
        double mid = lo[c] + (hi[c] - lo[c]) / 2;
        int[][] halves = fork && pts.length > (long) SPLIT_CHUNKS * grain ? halvesInChunks(p, n, c, mid, pts, 4 * grain)
                : halves(p, n, c, mid, pts);
        int[] left = halves[0];
        int[] right = halves[1];
        double[] midHi = hi.clone();
        midHi[c] = mid;
        double[] midLo = lo.clone();
        midLo[c] = mid;
        ForkJoinTask<Node> l = null;
        if (left.length >= 2) {
            if (fork && left.length > FORK_POINTS && right.length >= 2) {
                l = ForkJoinTask.adapt(() -> subdivide(p, n, d, left, lo, midHi, level + 1, cap, grain)).fork();
            } else {
                node.left = subdivide(p, n, d, left, lo, midHi, level + 1, cap, grain);
            }
        }
        node.right = right.length < 2 ? null : subdivide(p, n, d, right, midLo, hi, level + 1, cap, grain);
        if (l != null) {
            node.left = l.join();
        }
        return node;
    }

    /**
     * A node of more than this many grains of points (2^20 points with {@link #GRAIN}) is halved in chunks of 4 grains
     * over the pool ({@link #halvesInChunks}): the first halvings of a large initial tile, which its subtrees wait for.
     */
    private static final int SPLIT_CHUNKS = 64;

    /** The points of {@code pts} below {@code mid} in coordinate c (left) and the others (right), each in order. */
    private static int[][] halves(double[] p, int n, int c, double mid, int[] pts) {
        int nl = countBelow(p, n, c, mid, pts, 0, pts.length);
        int[][] out = {new int[nl], new int[pts.length - nl]};
        write(p, n, c, mid, pts, 0, pts.length, out, 0, 0);
        return out;
    }

    /** Points {@code [from, to)} of {@code pts} into the left half from {@code a} and the right half from {@code b}. */
    private static void write(double[] p, int n, int c, double mid, int[] pts, int from, int to, int[][] out, int a,
            int b) {
        int[] left = out[0];
        int[] right = out[1];
        for (int j = from; j < to; j++) {
            int i = pts[j];
            if (p[c * n + i] < mid) {
                left[a++] = i;
            } else {
                right[b++] = i;
            }
        }
    }

    private static int countBelow(double[] p, int n, int c, double mid, int[] pts, int from, int to) {
        int nl = 0;
        for (int j = from; j < to; j++) {
            if (p[c * n + pts[j]] < mid) {
                nl++;
            }
        }
        return nl;
    }

    /**
     * {@link #halves(double[], int, int, double, int[])} of a large node over the pool (called on it): the points cut into chunks, each chunk counts
     * its left points, prefix sums give each chunk its place in both halves, and each writes there, so the halves are
     * the sequential ones (Alg. 16's split, the order of the points kept).
     */
    private static int[][] halvesInChunks(double[] p, int n, int c, double mid, int[] pts, int chunk) {
        int k = (pts.length + chunk - 1) / chunk;
        int[] below = new int[k];
        List<ForkJoinTask<?>> counts = new ArrayList<>();
        for (int j = 0; j < k; j++) {
            int jj = j;
            counts.add(ForkJoinTask.adapt(() -> {
                below[jj] = countBelow(p, n, c, mid, pts, from(jj, k, pts.length), from(jj + 1, k, pts.length));
            }));
        }
        ForkJoinTask.invokeAll(counts);
        int nl = 0;
        int[][] at = new int[k][2];
        for (int j = 0; j < k; j++) {
            at[j][0] = nl;
            at[j][1] = from(j, k, pts.length) - nl;
            nl += below[j];
        }
        int[][] out = {new int[nl], new int[pts.length - nl]};
        List<ForkJoinTask<?>> writes = new ArrayList<>();
        for (int j = 0; j < k; j++) {
            int jj = j;
            writes.add(ForkJoinTask.adapt(() -> write(p, n, c, mid, pts, from(jj, k, pts.length),
                    from(jj + 1, k, pts.length), out, at[jj][0], at[jj][1])));
        }
        ForkJoinTask.invokeAll(writes);
        return out;
    }

    private static int from(int j, int k, int len) {
        return (int) ((long) j * len / k);
    }

    /** Numbers the leaves under {@code node} in the order of the sequential build (left before right). */
    private void number(Node node) {
        if (node == null) {
            return;
        }
        node.first = leaves.size();
        if (node.core != null) {
            node.leaf = leaves.size();
            leaves.add(new Tile(node.lo, node.hi, node.core, null, node.level));
            node.hullLo = node.lo;
            node.hullHi = node.hi;
        } else {
            number(node.left);
            number(node.right);
            int d = node.lo.length;
            node.hullLo = new double[d];
            node.hullHi = new double[d];
            for (int c = 0; c < d; c++) {
                node.hullLo[c] = Math.min(node.lo[c], node.hi[c]);
                node.hullHi[c] = Math.max(node.lo[c], node.hi[c]);
                for (Node child : new Node[] {node.left, node.right}) {
                    if (child != null) {
                        node.hullLo[c] = Math.min(node.hullLo[c], Math.min(child.hullLo[c], child.hullHi[c]));
                        node.hullHi[c] = Math.max(node.hullHi[c], Math.max(child.hullLo[c], child.hullHi[c]));
                    }
                }
            }
        }
        node.last = leaves.size() - 1;
        double diag2 = 0;
        for (int c = 0; c < node.lo.length; c++) {
            diag2 += (node.hullHi[c] - node.hullLo[c]) * (node.hullHi[c] - node.hullLo[c]);
        }
        node.small = diag2 <= 4 * r1 * r1 * (1 + 1e-9);
    }

    /**
     * The margin of every leaf: cloud points not in it within R1 of its box. Counted per chunk of the cloud first, so
     * that the total is checked ({@link #checkLayout}) before anything is stored, then written in point order (so
     * every margin is ascending).
     */
    private void addMargins(double[] p, int n, int d, Node[] roots, double r1, ParallelLoops loops, int grain) {
        int tiles = leaves.size();
        int[] coreLeaf = new int[n];
        Arrays.fill(coreLeaf, -1);
        long cores = 0;
        for (Tile leaf : leaves) {
            cores += leaf.core().length;
        }
        ParallelLoops.RangeBody owners = (from, to) -> { // the leaves' cores are disjoint
            for (int t = from; t < to; t++) {
                for (int i : leaves.get(t).core()) {
                    coreLeaf[i] = t;
                }
            }
        };
        Chunks chunks = new Chunks(n, loops, grain, tiles);
        if (chunks.count > 1) {
            loops.forRange(tiles, 1, owners);
        } else {
            owners.run(0, tiles);
        }
        int[][] counts = new int[chunks.count][tiles + 1];
        chunks.run((k, from, to) -> {
            int[] diff = counts[k]; // differences of the counts: leaves under a node are consecutive
            nearTiles(p, n, d, roots, r1, coreLeaf, from, to, (root, x, r1sq, own, i) -> countNear(root, x, r1sq, own, diff));
            for (int t = 1; t <= tiles; t++) {
                diff[t] += diff[t - 1];
            }
        });
        long[] size = Chunks.offsets(counts, tiles);
        checkLayout(d, cores + size[tiles], tiles);
        int[][] margin = new int[tiles][];
        ParallelLoops.RangeBody allocate = (from, to) -> { // each array zeroed (first touched) by its own thread
            for (int t = from; t < to; t++) {
                margin[t] = new int[(int) (size[t + 1] - size[t])];
            }
        };
        if (chunks.count > 1) {
            loops.forRange(tiles, 1, allocate);
            layoutArrays = ahead(d, (int) (cores + size[tiles])); // beside the collection below
        } else {
            allocate.run(0, tiles);
        }
        Chunks.positions(counts, tiles, null);
        chunks.run((k, from, to) -> {
            int[] at = counts[k];
            nearTiles(p, n, d, roots, r1, coreLeaf, from, to, (root, x, r1sq, own, i) -> collect(root, x, r1sq, own, i,
                    margin, at));
        });
        for (int t = 0; t < tiles; t++) {
            Tile l = leaves.get(t);
            leaves.set(t, new Tile(l.lo(), l.hi(), l.core(), margin[t], l.level()));
        }
    }

    /** Visits the subtree of an initial tile within R1 of point i (at x, a core point of leaf own, or -1). */
    @FunctionalInterface
    private interface RootVisitor {
        void visit(Node root, double[] x, double r1sq, int own, int i);
    }

    /** For points [from, to) in order: the initial tiles within R1 of each (usually one), in the tree's order. */
    private void nearTiles(double[] p, int n, int d, Node[] roots, double r1, int[] coreLeaf, int from, int to,
            RootVisitor visitor) {
        double r1sq = r1 * r1;
        double[] x = new double[d];
        int[] lo = new int[d];
        int[] hi = new int[d];
        int[] k = new int[d];
        for (int i = from; i < to; i++) {
            for (int c = 0; c < d; c++) {
                x[c] = p[c * n + i];
                lo[c] = cellIndex(c, x[c] - r1);
                hi[c] = cellIndex(c, x[c] + r1);
                k[c] = lo[c];
            }
            while (true) { // every initial tile within R1 of the point (usually one)
                int idx = 0;
                int stride = 1;
                for (int c = 0; c < d; c++) {
                    idx += k[c] * stride;
                    stride *= initTileCnt[c];
                }
                if (roots[idx] != null) {
                    visitor.visit(roots[idx], x, r1sq, coreLeaf[i], i);
                }
                int c = 0;
                while (c < d && ++k[c] > hi[c]) {
                    k[c] = lo[c];
                    c++;
                }
                if (c == d) {
                    break;
                }
            }
        }
    }

    /** Writes point i into the margin of every leaf under {@code node} within R1 of x but its own, at {@code at}. */
    private static void collect(Node node, double[] x, double r1sq, int own, int i, int[][] margin, int[] at) {
        if (node == null || dist2ToBox(x, node.lo, node.hi) > r1sq) {
            return;
        }
        if (node.leaf >= 0) {
            if (node.leaf != own) {
                margin[node.leaf][at[node.leaf]++] = i;
            }
            return;
        }
        collect(node.left, x, r1sq, own, i, margin, at);
        collect(node.right, x, r1sq, own, i, margin, at);
    }

    /**
     * {@link #collect} counting into the differences {@code diff}: a subtree whose whole hull lies within R1 of x
     * counts its leaves as one range, which keeps the count cheap when R1 is large against the tiles. The counts
     * are the collected ones: every bound of every box under the node lies in the hull, so (rounding is monotone)
     * each box's computed distance is at most the hull's farthest one, and {@link #collect} would reach each leaf.
     */
    private static void countNear(Node node, double[] x, double r1sq, int own, int[] diff) {
        if (node == null || dist2ToBox(x, node.lo, node.hi) > r1sq) {
            return;
        }
        if (node.leaf < 0 && (!node.small || farthest2(x, node.hullLo, node.hullHi) > r1sq)) {
            countNear(node.left, x, r1sq, own, diff);
            countNear(node.right, x, r1sq, own, diff);
            return;
        }
        diff[node.first]++;
        diff[node.last + 1]--;
        if (own >= node.first && own <= node.last) {
            diff[own]--;
            diff[own + 1]++;
        }
    }

    /** The squared distance from x to the farthest point of the box [lo, hi]. */
    private static double farthest2(double[] x, double[] lo, double[] hi) {
        double d2 = 0;
        for (int c = 0; c < x.length; c++) {
            double e = Math.max(Math.abs(x[c] - lo[c]), Math.abs(x[c] - hi[c]));
            d2 += e * e;
        }
        return d2;
    }

    private static double dist2ToBox(double[] x, double[] lo, double[] hi) {
        double d2 = 0;
        for (int c = 0; c < x.length; c++) {
            double e = Math.max(0, Math.max(lo[c] - x[c], x[c] - hi[c]));
            d2 += e * e;
        }
        return d2;
    }

    /**
     * Refuses a layout of {@code points} points with margins whose d × points coordinates would not fit one Java
     * array (nor the kernels' int indices): one line naming the size and what shrinks it. The margins are what
     * grows: a point within R1 of k other tiles is copied k times, and the smaller the tiles (a fixed capacity, a
     * denser cloud), the more of them lie within R1 of a border.
     */
    void checkLayout(int d, long points, int tiles) {
        if (!layoutFits(d, points)) {
            throw new AccelGeomException(String.format(java.util.Locale.ROOT,
                    "the extended tiles hold %d points with margins (%d tiles of at most %d points, R1 %s): %d x %d "
                            + "coordinates are more than one array holds (%d); raise --tile-capacity (bigger tiles "
                            + "carry fewer margin points per point, e.g. --tile-capacity %d) or give fewer points",
                    points, tiles, maxTileCapacity, java.math.BigDecimal.valueOf(r1).stripTrailingZeros().toPlainString(),
                    d, points, MAX_ARRAY, suggestedCapacity(d, points)));
        }
    }

    /** Whether d × points coordinates fit one array ({@link #MAX_ARRAY}); a quotient, so no product overflows. */
    static boolean layoutFits(int d, long points) {
        return points >= 0 && points <= MAX_ARRAY / Math.max(1, d);
    }

    /** A capacity to try: the current one times how many times too large the layout is, at least 10 times. */
    private long suggestedCapacity(int d, long points) {
        long over = ((long) d * points + MAX_ARRAY - 1) / MAX_ARRAY;
        return (long) maxTileCapacity * Math.max(10, 2 * over);
    }

    /** The layout's coordinates and point tiles for {@code total} points, allocated now on a thread of its own. */
    private static java.util.concurrent.CompletableFuture<LayoutArrays> ahead(int d, int total) {
        var f = new java.util.concurrent.CompletableFuture<LayoutArrays>();
        Thread t = new Thread(() -> {
            try {
                f.complete(new LayoutArrays(new double[d * total], new int[total]));
            } catch (Throwable e) { // out of memory: the layout allocates again and reports it
                f.completeExceptionally(e);
            }
        }, "accelgeom-ridge-layout-arrays");
        t.setDaemon(true);
        t.start();
        return f;
    }

    /** The arrays allocated ahead for this layout (once), or null: none, another size, or their allocation failed. */
    private LayoutArrays takeAhead(int d, int total) {
        var f = layoutArrays;
        layoutArrays = null;
        if (f == null) {
            return null;
        }
        LayoutArrays a;
        try {
            a = f.join();
        } catch (java.util.concurrent.CompletionException e) {
            return null;
        }
        return a.coords().length == d * total ? a : null;
    }

    /** The extended tiles one after another (core, then margin points) as the evolution's layout; one thread. */
    public EvolutionLayout layout(double[] p, int n, int d) {
        return layout(p, n, d, null);
    }

    /** {@link #layout(double[], int, int)} with the tiles copied over {@code loops} (null: one thread). */
    public EvolutionLayout layout(double[] p, int n, int d, ParallelLoops loops) {
        int tiles = leaves.size();
        long[] at = new long[tiles + 1];
        for (int t = 0; t < tiles; t++) {
            at[t + 1] = at[t] + leaves.get(t).core().length + leaves.get(t).margin().length;
        }
        checkLayout(d, at[tiles], tiles);
        int total = (int) at[tiles];
        LayoutArrays ahead = takeAhead(d, total);
        double[] coords = ahead != null ? ahead.coords() : new double[d * total];
        int[] pointTile = ahead != null ? ahead.pointTile() : new int[total];
        ParallelLoops.RangeBody copy = (from, to) -> {
            for (int t = from; t < to; t++) {
                int o = (int) at[t];
                for (int[] part : new int[][] {leaves.get(t).core(), leaves.get(t).margin()}) {
                    for (int i : part) {
                        for (int c = 0; c < d; c++) {
                            coords[c * total + o] = p[c * n + i];
                        }
                        pointTile[o++] = t;
                    }
                }
            }
        };
        ParallelLoops.forRange(loops, tiles, 1, copy);
        return new EvolutionLayout(d, total, coords, pointTile, tiles);
    }
}
