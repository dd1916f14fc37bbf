package org.accelgeom.ridge.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.Arrays;
import java.util.List;

import org.accelgeom.ridge.Curve;
import org.accelgeom.ridge.EvolutionLayout;
import org.accelgeom.ridge.TileTree;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The device's point order over the cores ({@link TileOrder#of}) equals the one-thread order of session 16 (kept here
 * as {@link #sequential}) for every split of the work: tiles each on a core, large tiles over the cores.
 */
// in a tornado package: compiled only with -Ptornado, so .ci/run runs it with the tornado-tagged tests (no device)
@Tag("tornado")
class TileOrderCoresTest {

    private static final double CELL = 8.34 / 16;

    /** A tiled spiral (many tiles of uneven size) and the brute-force layout (one tile of more than 2^16 points). */
    private static List<EvolutionLayout> layouts() {
        double[][] c = Curve.SPIRAL3D.sample(150_000, 3, 4.17, 3);
        EvolutionLayout cloud = EvolutionLayout.bruteForce(c);
        EvolutionLayout tiled = TileTree.build(cloud.coords(), cloud.n(), 3, new int[] {3, 3, 3}, 20_000, 8.34)
                .layout(cloud.coords(), cloud.n(), 3);
        double[][] s = Curve.SEGMENT.sample(90_000, 5, 2.0, 4);
        return List.of(tiled, cloud, EvolutionLayout.bruteForce(s));
    }

    /** threads 1: every tile on one core; 4 and 64: the largest tiles over the cores, the rest each on one. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4, 64})
    void overTheCoresEqualsTheSequentialOrder(int threads) {
        for (EvolutionLayout layout : layouts()) {
            int[] expected = sequential(layout, CELL);
            assertArrayEquals(expected, TileOrder.of(layout, CELL, threads), layout.numTiles() + " tiles");
            assertArrayEquals(expected, TileOrder.of(layout, CELL), "the common pool");
            assertNotEquals(0, countMoved(expected), "the order moves points");
        }
    }

    /**
     * A layout whose coordinates arrive as it goes (a worker process's file): each range is filled just before it is
     * read, every point exactly once, and the order is the filled layout's, for every split of the work.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4, 64})
    void aLayoutFilledTileByTileGetsTheSameOrder(int threads) {
        for (EvolutionLayout layout : layouts()) {
            int n = layout.n();
            int d = layout.d();
            double[] coords = new double[layout.coords().length];
            java.util.Arrays.fill(coords, Double.NaN);
            EvolutionLayout arriving = new EvolutionLayout(d, n, coords, layout.pointTile(), layout.numTiles());
            java.util.concurrent.atomic.AtomicIntegerArray times = new java.util.concurrent.atomic.AtomicIntegerArray(n);
            int[] order = TileOrder.of(arriving, CELL, threads, (from, to) -> {
                for (int i = from; i < to; i++) {
                    times.incrementAndGet(i);
                    for (int c = 0; c < d; c++) {
                        coords[c * n + i] = layout.coords()[c * n + i];
                    }
                }
            });
            assertArrayEquals(sequential(layout, CELL), order, layout.numTiles() + " tiles, " + threads + " threads");
            assertArrayEquals(layout.coords(), coords, "every point filled");
            for (int i = 0; i < n; i++) {
                assertEquals(1, times.get(i), "point " + i + " filled once");
            }
        }
    }

    /** Runs of equal tiles that are not increasing, tiny tiles (1 and 2 points: kept), runs across the 2^16 blocks. */
    @Test
    void anyRunsOfEqualTilesAndTinyTiles() {
        int n = 200_000;
        double[][] c = Curve.SPIRAL2D.sample(n, 2, 4.17, 9);
        int[] tile = new int[n];
        int[] cuts = {0, 1, 3, 65_535, 65_537, 131_072, 150_000, n};
        int[] ids = {4, 0, 3, 1, 5, 2, 6};
        for (int r = 0; r + 1 < cuts.length; r++) {
            Arrays.fill(tile, cuts[r], cuts[r + 1], ids[r]);
        }
        double[] coords = EvolutionLayout.bruteForce(c).coords();
        EvolutionLayout layout = new EvolutionLayout(2, n, coords, tile, 7);
        assertArrayEquals(cuts, TileOrder.runs(tile));
        for (int threads : new int[] {1, 3, 16}) {
            assertArrayEquals(sequential(layout, CELL), TileOrder.of(layout, CELL, threads));
        }
        int[] order = TileOrder.of(layout, CELL);
        assertEquals(0, order[0]);
        assertArrayEquals(new int[] {1, 2}, Arrays.copyOfRange(order, 1, 3));
        assertArrayEquals(new int[] {0, n}, TileOrder.runs(new int[n]), "one run");
    }

    private static int countMoved(int[] order) {
        int moved = 0;
        for (int i = 0; i < order.length; i++) {
            moved += order[i] != i ? 1 : 0;
        }
        return moved;
    }

    /** Session 16's order, one tile after another on one thread. */
    static int[] sequential(EvolutionLayout layout, double cell) {
        int n = layout.n();
        int[] order = new int[n];
        int[] pointTile = layout.pointTile();
        for (int a = 0; a < n;) {
            int b = a + 1;
            while (b < n && pointTile[b] == pointTile[a]) {
                b++;
            }
            sortTile(layout, cell, a, b, order);
            a = b;
        }
        return order;
    }

    private static void sortTile(EvolutionLayout layout, double cell, int a, int b, int[] order) {
        int m = b - a;
        int d = layout.d();
        int n = layout.n();
        double[] p = layout.coords();
        int indexBits = Math.max(1, 32 - Integer.numberOfLeadingZeros(m - 1));
        int bits = (63 - indexBits) / d;
        if (m < 3 || bits < 1) {
            for (int i = a; i < b; i++) {
                order[i] = i;
            }
            return;
        }
        double[] min = new double[d];
        double[] side = new double[d];
        long top = (1L << bits) - 1;
        for (int c = 0; c < d; c++) {
            double lo = Double.POSITIVE_INFINITY;
            double hi = Double.NEGATIVE_INFINITY;
            for (int i = a; i < b; i++) {
                lo = Math.min(lo, p[c * n + i]);
                hi = Math.max(hi, p[c * n + i]);
            }
            min[c] = lo;
            side[c] = Math.max(cell, (hi - lo) / top);
        }
        long[] keys = new long[m];
        long[] cellOf = new long[d];
        for (int i = a; i < b; i++) {
            for (int c = 0; c < d; c++) {
                cellOf[c] = Math.min(top, Math.max(0, (long) ((p[c * n + i] - min[c]) / side[c])));
            }
            long key = 0;
            for (int bit = bits - 1; bit >= 0; bit--) {
                for (int c = 0; c < d; c++) {
                    key = key << 1 | (cellOf[c] >>> bit & 1);
                }
            }
            keys[i - a] = key << indexBits | (i - a);
        }
        Arrays.sort(keys);
        long mask = (1L << indexBits) - 1;
        for (int j = 0; j < m; j++) {
            order[a + j] = a + (int) (keys[j] & mask);
        }
    }
}
