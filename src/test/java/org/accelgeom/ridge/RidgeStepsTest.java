package org.accelgeom.ridge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The sequential steps (choose, decimate, order), the fixed-point kernels and the tile tree, against oracles. */
class RidgeStepsTest {

    /** n random points in [0, side)^d, column-major. */
    static double[] cloud(int n, int d, double side, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] p = new double[n * d];
        for (int i = 0; i < p.length; i++) {
            p[i] = r.nextDouble() * side;
        }
        return p;
    }

    static double dist2(double[] p, int n, int d, int i, int j) {
        double s = 0;
        for (int c = 0; c < d; c++) {
            double e = p[c * n + i] - p[c * n + j];
            s += e * e;
        }
        return s;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5})
    void chooseIsTheSequentialScanOfAlg5(int d) {
        int n = 3000;
        double r1 = 1.5;
        double[] p = cloud(n, d, 20, d);
        int[] all = java.util.stream.IntStream.range(0, n).toArray();
        org.accelgeom.engine.DoubleList out = new org.accelgeom.engine.DoubleList();
        int m = Choose.choose(p, n, d, all, n, r1, out, null);
        // oracle: the brute-force scan, in input order
        java.util.List<Integer> chosen = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            boolean near = false;
            for (int k : chosen) {
                near |= dist2(p, n, d, i, k) <= r1 * r1;
            }
            if (!near) {
                chosen.add(i);
            }
        }
        assertEquals(chosen.size(), m);
        for (int k = 0; k < m; k++) {
            for (int c = 0; c < d; c++) {
                assertEquals(p[c * n + chosen.get(k)], out.get(k * d + c), 0.0);
            }
        }
        assertEquals(0, chosen.get(0), "the first point is always chosen");
    }

    @Test
    void decimateOnALineFollowsRule21ByHand() {
        // points 0..9 on a line, R2 = 2, worked by hand: pass 1 removes 1, 2, 4, 5, 7 (each has 4 points within 2,
        // itself included, when its turn comes) and keeps 0, 3, 6, 8, 9; pass 2 removes 0 and 3 (only 2 points
        // within 2·R2 = 4), and then |S| = 3 is the floor
        int ns = 10;
        double[] s = new double[ns];
        for (int i = 0; i < ns; i++) {
            s[i] = i;
        }
        boolean[] keep = new boolean[ns];
        int m = Decimate.decimate(s, ns, 1, 2.0, keep);
        assertEquals(3, m, "stops at the floor of 3");
        assertArrayEquals(new double[] {6, 8, 9}, java.util.Arrays.copyOf(s, m), 0.0);
        assertArrayEquals(new boolean[] {false, false, false, false, false, false, true, false, true, true}, keep);
    }

    @Test
    void decimateKeepsASpacedChain() {
        double[] s = new double[20];
        for (int i = 0; i < 20; i++) {
            s[i] = i;
        }
        assertEquals(20, Decimate.decimate(s, 20, 1, 1.0, null), "3 within R2, 5 within 2·R2: nothing to remove");
    }

    @Test
    void decimatedSetsSatisfyRule21() {
        SplittableRandom r = new SplittableRandom(7);
        for (int trial = 0; trial < 20; trial++) {
            int d = 1 + trial % 3;
            int ns = 50 + r.nextInt(200);
            double[] s = new double[ns * d];
            for (int i = 0; i < s.length; i++) {
                s[i] = r.nextDouble() * 30;
            }
            double r2 = 1 + r.nextDouble() * 3;
            int m = Decimate.decimate(s, ns, d, r2, null);
            assertTrue(m >= Decimate.FLOOR || m == ns);
            if (m > Decimate.FLOOR) {
                for (int i = 0; i < m; i++) {
                    int near = 0;
                    int far = 0;
                    for (int j = 0; j < m; j++) {
                        double e = 0;
                        for (int c = 0; c < d; c++) {
                            e += (s[i * d + c] - s[j * d + c]) * (s[i * d + c] - s[j * d + c]);
                        }
                        near += e <= r2 * r2 ? 1 : 0;
                        far += e <= 4 * r2 * r2 ? 1 : 0;
                    }
                    assertTrue(near < 4 && far > 2, "survivor " + i + " breaks rule 2.1: " + near + ", " + far);
                }
            }
        }
    }

    @Test
    void orderChainsPointsOfACurveAndSeparatesTwoCurves() {
        // an open arc of 30 points, spacing 1, shuffled, and a closed circle of 20 points far away
        int a = 30;
        int b = 20;
        double[] s = new double[2 * (a + b)];
        int[] perm = new SplittableRandom(3).ints(0, Integer.MAX_VALUE).limit(a + b).toArray();
        Integer[] idx = new Integer[a + b];
        for (int i = 0; i < a + b; i++) {
            idx[i] = i;
        }
        java.util.Arrays.sort(idx, (x, y) -> Integer.compare(perm[x], perm[y]));
        double radius = 20 / (2 * Math.PI);
        for (int i = 0; i < a + b; i++) {
            int k = idx[i];
            if (k < a) {
                s[2 * i] = k;
                s[2 * i + 1] = 0.01 * k * k;
            } else {
                double t = 2 * Math.PI * (k - a) / b;
                s[2 * i] = 1000 + radius * Math.cos(t);
                s[2 * i + 1] = radius * Math.sin(t);
            }
        }
        Order.Curves c = Order.order(s, a + b, 2, 1.05);
        assertEquals(2, c.polylines().size());
        Order.Polyline open = c.polylines().stream().filter(l -> !l.closed()).findFirst().orElseThrow();
        Order.Polyline loop = c.polylines().stream().filter(Order.Polyline::closed).findFirst().orElseThrow();
        assertEquals(a, open.points().length);
        assertEquals(b, loop.points().length);
        int first = idx[open.points()[0]];
        int step = first == 0 ? 1 : -1;
        for (int i = 0; i < a; i++) {
            assertEquals(first + step * i, (int) idx[open.points()[i]], "arc in order");
        }
    }

    @Test
    void orderJoinsChainEndsAcrossAGapWithin2R2() {
        double[] s = {0, 1, 2, 3.8, 4.8, 5.8}; // a gap of 1.8 between 2 and 3.8: more than R2, within 2·R2
        Order.Curves c = Order.order(s, 6, 1, 1.0);
        assertEquals(1, c.polylines().size());
        assertEquals(5, c.edges().length);
    }

    @Test
    void truncateIsTheLongConversion() {
        SplittableRandom r = new SplittableRandom(11);
        for (int i = 0; i < 100_000; i++) {
            double v = (r.nextDouble() * 2 - 1) * Math.scalb(1.0, r.nextInt(62));
            assertEquals((long) v, RidgeKernels.truncate(v), "v = " + v);
        }
        for (double v : new double[] {0, -0.0, 0.5, -0.5, 0x1p31, -0x1p31, 0x1p31 - 0.5, 0x1p61, -0x1p61}) {
            assertEquals((long) v, RidgeKernels.truncate(v), "v = " + v);
        }
    }

    @Test
    void fixedPointSumsCannotOverflow() {
        for (int n : new int[] {3, 1000, 1 << 20, 10_000_000, Integer.MAX_VALUE}) {
            for (double r1 : new double[] {1e-6, 0.37, 8.34, 1e5, 1e30}) {
                int k = RidgeKernels.fixedPointExponent(n, r1);
                double worst = (double) n * r1 * Math.scalb(1.0, k);
                assertTrue(worst < 0x1p62, n + " points, R1 " + r1 + ": " + worst);
                assertTrue(worst >= 0x1p58, "scale not wasted: " + worst);
            }
        }
    }

    @Test
    void centroidFromFixedPointSumsIsTheMean() {
        double s = 100.25;
        double[] pts = {100.0, 101.5, 99.75, 100.125};
        int k = RidgeKernels.fixedPointExponent(1000, 2.0);
        double scale = Math.scalb(1.0, k);
        long sum = 0;
        for (double p : pts) {
            sum += RidgeKernels.offset(p, s, scale);
        }
        assertEquals(100.34375, RidgeKernels.centroid(s, sum, pts.length, 1 / scale), 1e-12);
        assertFalse(RidgeKernels.noticeable(s, s, 4, Precision.DOUBLE.epsilon, 1 / scale));
        assertTrue(RidgeKernels.noticeable(100.34375, s, 4, Precision.DOUBLE.epsilon, 1 / scale));
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void tileTreeCoversTheCloudAndItsMarginsAreComplete(int d) {
        int n = 4000;
        double r1 = 1.2;
        double[] p = cloud(n, d, 30, 5 + d);
        int cap = 300;
        TileTree tree = TileTree.build(p, n, d, filled(d, 3), cap, r1);
        int[] owner = new int[n];
        java.util.Arrays.fill(owner, -1);
        for (int t = 0; t < tree.leaves().size(); t++) {
            TileTree.Tile tile = tree.leaves().get(t);
            assertTrue(tile.core().length >= 2 && tile.core().length <= cap, "leaf size " + tile.core().length);
            for (int i : tile.core()) {
                assertEquals(-1, owner[i], "a point in two tiles");
                owner[i] = t;
                for (int c = 0; c < d; c++) {
                    assertTrue(p[c * n + i] >= tile.lo()[c] && p[c * n + i] <= tile.hi()[c], "core point outside its box");
                }
            }
        }
        // brute force: the margin of a leaf is every other point within R1 of its box
        for (int t = 0; t < tree.leaves().size(); t++) {
            TileTree.Tile tile = tree.leaves().get(t);
            java.util.Set<Integer> margin = new java.util.HashSet<>();
            for (int i : tile.margin()) {
                margin.add(i);
            }
            for (int i = 0; i < n; i++) {
                double e2 = 0;
                for (int c = 0; c < d; c++) {
                    double e = Math.max(0, Math.max(tile.lo()[c] - p[c * n + i], p[c * n + i] - tile.hi()[c]));
                    e2 += e * e;
                }
                boolean expected = owner[i] != t && e2 <= r1 * r1;
                assertEquals(expected, margin.contains(i), "tile " + t + ", point " + i);
            }
        }
        EvolutionLayout layout = tree.layout(p, n, d);
        assertEquals(tree.leaves().size(), layout.numTiles());
        int dropped = 0;
        for (int o : owner) {
            dropped += o < 0 ? 1 : 0;
        }
        assertTrue(dropped < n / 100, "few points in dropped tiles: " + dropped);
    }

    @Test
    void theLastInitialTileTakesThePointsOnTheUpperFace() {
        double[] p = {0, 1, 2, 3, 4, 5}; // 1D, 6 points, 3 tiles of width 5/3
        TileTree tree = TileTree.build(p, 6, 1, new int[] {3}, 100, 0.1);
        assertEquals(3, tree.leaves().size());
        assertArrayEquals(new int[] {4, 5}, tree.leaves().get(2).core());
        assertEquals(15.0, TileTree.capacity(new double[] {5, 2.5}, 1.0), 0.0); // eq. 4.3: ⌈5⌉·⌈2.5⌉
    }

    static int[] filled(int d, int v) {
        int[] a = new int[d];
        java.util.Arrays.fill(a, v);
        return a;
    }
}
