package org.accelgeom.ridge;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The oracle of {@link HostPhasesTest}: {@link TileTree} as it was before its host phases ran over the cores
 * (session 15, commit 13b5a12), unchanged but for its name: one thread, leaves numbered as they are made, margins
 * collected point by point and sorted.
 */
final class SequentialTileTree {

    /** A leaf tile: its box, its core points and its margin points (indices into the cloud, ascending). */
    record Tile(double[] lo, double[] hi, int[] core, int[] margin, int level) {
    }

    private static final int MAX_LEVEL = 60;

    private final List<Tile> leaves = new ArrayList<>();
    private final int[] initTileCnt;
    private final double[] min;
    private final double[] width;

    private SequentialTileTree(int[] initTileCnt, double[] min, double[] width) {
        this.initTileCnt = initTileCnt;
        this.min = min;
        this.width = width;
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
     * Builds the tree over the column-major cloud {@code p} (n points of dimension d) and the margins for radius r1.
     */
    static SequentialTileTree build(double[] p, int n, int d, int[] initTileCnt, int maxTileCapacity, double r1) {
        if (initTileCnt.length != d) {
            throw new IllegalArgumentException("initTileCnt has " + initTileCnt.length + " entries for dimension " + d);
        }
        double[] min = new double[d];
        double[] max = new double[d];
        double[] w = new double[d];
        for (int c = 0; c < d; c++) {
            min[c] = Double.POSITIVE_INFINITY;
            max[c] = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                min[c] = Math.min(min[c], p[c * n + i]);
                max[c] = Math.max(max[c], p[c * n + i]);
            }
            w[c] = max[c] - min[c];
        }
        SequentialTileTree tree = new SequentialTileTree(initTileCnt.clone(), min, w);
        // eqs. 4.1-4.2: the initial tile of every point, then a stable bucket sort (input order kept in a tile)
        int tiles = 1;
        for (int cnt : initTileCnt) {
            if (cnt < 1) {
                throw new IllegalArgumentException("initTileCnt entries must be >= 1");
            }
            tiles = Math.multiplyExact(tiles, cnt);
        }
        int[] lin = new int[n];
        int[] start = new int[tiles + 1];
        for (int i = 0; i < n; i++) {
            int idx = 0;
            int stride = 1;
            for (int c = 0; c < d; c++) {
                idx += tree.cellIndex(c, p[c * n + i]) * stride;
                stride *= initTileCnt[c];
            }
            lin[i] = idx;
            start[idx + 1]++;
        }
        for (int t = 0; t < tiles; t++) {
            start[t + 1] += start[t];
        }
        int[] order = new int[n];
        int[] fill = Arrays.copyOf(start, tiles);
        for (int i = 0; i < n; i++) {
            order[fill[lin[i]]++] = i;
        }
        List<Node> roots = new ArrayList<>();
        for (int t = 0; t < tiles; t++) {
            int count = start[t + 1] - start[t];
            if (count < 2) {
                roots.add(null); // Alg. 15: empty tiles and tiles of one point are dropped
                continue;
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
            roots.add(tree.addNode(p, n, d, Arrays.copyOfRange(order, start[t], start[t + 1]), lo, hi, 0,
                    maxTileCapacity));
        }
        tree.addMargins(p, n, d, roots, r1);
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

    /** A node of the tree: a leaf (leaf ≥ 0) or two children (either may be null: dropped). */
    private static final class Node {
        final double[] lo;
        final double[] hi;
        Node left;
        Node right;
        int leaf = -1;

        Node(double[] lo, double[] hi) {
            this.lo = lo;
            this.hi = hi;
        }
    }

    /** ADDNODE / SUBDIVIDE (Alg. 14, 16). */
    private Node addNode(double[] p, int n, int d, int[] pts, double[] lo, double[] hi, int level, int cap) {
        Node node = new Node(lo, hi);
        if (pts.length <= cap || level >= MAX_LEVEL) {
            node.leaf = leaves.size();
            leaves.add(new Tile(lo, hi, pts, null, level));
            return node;
        }
        int c = level % d;
        double mid = lo[c] + (hi[c] - lo[c]) / 2;
        int nl = 0;
        for (int i : pts) {
            if (p[c * n + i] < mid) {
                nl++;
            }
        }
        int[] left = new int[nl];
        int[] right = new int[pts.length - nl];
        int a = 0;
        int b = 0;
        for (int i : pts) {
            if (p[c * n + i] < mid) {
                left[a++] = i;
            } else {
                right[b++] = i;
            }
        }
        double[] midHi = hi.clone();
        midHi[c] = mid;
        double[] midLo = lo.clone();
        midLo[c] = mid;
        node.left = left.length < 2 ? null : addNode(p, n, d, left, lo, midHi, level + 1, cap);
        node.right = right.length < 2 ? null : addNode(p, n, d, right, midLo, hi, level + 1, cap);
        return node;
    }

    /** The margin of every leaf: cloud points not in it within R1 of its box. */
    private void addMargins(double[] p, int n, int d, List<Node> roots, double r1) {
        int[] coreLeaf = new int[n];
        Arrays.fill(coreLeaf, -1);
        for (int t = 0; t < leaves.size(); t++) {
            for (int i : leaves.get(t).core()) {
                coreLeaf[i] = t;
            }
        }
        int[][] margin = new int[leaves.size()][8];
        int[] count = new int[leaves.size()];
        double r1sq = r1 * r1;
        double[] x = new double[d];
        int[] lo = new int[d];
        int[] hi = new int[d];
        int[] k = new int[d];
        for (int i = 0; i < n; i++) {
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
                collect(roots.get(idx), x, r1sq, i, coreLeaf[i], margin, count);
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
        for (int t = 0; t < leaves.size(); t++) {
            Tile l = leaves.get(t);
            int[] m = Arrays.copyOf(margin[t], count[t]);
            Arrays.sort(m);
            leaves.set(t, new Tile(l.lo(), l.hi(), l.core(), m, l.level()));
        }
    }

    private static void collect(Node node, double[] x, double r1sq, int i, int own, int[][] margin, int[] count) {
        if (node == null || dist2ToBox(x, node.lo, node.hi) > r1sq) {
            return;
        }
        if (node.leaf >= 0) {
            if (node.leaf != own) {
                int t = node.leaf;
                if (count[t] == margin[t].length) {
                    margin[t] = Arrays.copyOf(margin[t], 2 * count[t]);
                }
                margin[t][count[t]++] = i;
            }
            return;
        }
        collect(node.left, x, r1sq, i, own, margin, count);
        collect(node.right, x, r1sq, i, own, margin, count);
    }

    private static double dist2ToBox(double[] x, double[] lo, double[] hi) {
        double d2 = 0;
        for (int c = 0; c < x.length; c++) {
            double e = Math.max(0, Math.max(lo[c] - x[c], x[c] - hi[c]));
            d2 += e * e;
        }
        return d2;
    }

    /** The extended tiles one after another (core, then margin points) as the evolution's layout. */
    public EvolutionLayout layout(double[] p, int n, int d) {
        int total = 0;
        for (Tile t : leaves) {
            total += t.core().length + t.margin().length;
        }
        double[] coords = new double[d * total];
        int[] pointTile = new int[total];
        int at = 0;
        for (int t = 0; t < leaves.size(); t++) {
            for (int[] part : new int[][] {leaves.get(t).core(), leaves.get(t).margin()}) {
                for (int i : part) {
                    for (int c = 0; c < d; c++) {
                        coords[c * total + at] = p[c * n + i];
                    }
                    pointTile[at++] = t;
                }
            }
        }
        return new EvolutionLayout(d, total, coords, pointTile, leaves.size());
    }
}
