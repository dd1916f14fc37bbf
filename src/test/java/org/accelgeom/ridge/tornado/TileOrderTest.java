package org.accelgeom.ridge.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import org.accelgeom.ridge.EvolutionLayout;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link TileOrder}, the device's per-tile point order: a permutation of each tile's range (so {@code pointTile} is
 * unchanged), the coordinates moved with their points, and a cell's points kept together. Plain JVM (no TornadoVM
 * call).
 */
// in a tornado package: compiled only with -Ptornado, so .ci/run runs it with the tornado-tagged tests (no device)
@Tag("tornado")
class TileOrderTest {

    /** Tiles of 1, 2, 3, 100, 1 and the rest of the points, tile numbers not in increasing order. */
    private static EvolutionLayout layout(int n, int d, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] p = new double[n * d];
        for (int k = 0; k < p.length; k++) {
            p[k] = rnd.nextDouble() * 100 - 50;
        }
        int[] sizes = {1, 2, 3, 100, 1};
        int[] numbers = {5, 0, 4, 1, 3, 2};
        int[] pointTile = new int[n];
        int t = 0;
        for (int i = 0, left = sizes[0]; i < n; i++, left--) {
            if (left == 0) {
                t++;
                left = t < sizes.length ? sizes[t] : n;
            }
            pointTile[i] = numbers[t];
        }
        return new EvolutionLayout(d, n, p, pointTile, 6);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7, 16})
    void eachTilesRangeIsPermutedInPlace(int d) {
        int n = 2000;
        EvolutionLayout layout = layout(n, d, d);
        int[] order = TileOrder.of(layout, 8.34);
        int[] seen = new int[n];
        for (int i = 0; i < n; i++) {
            seen[order[i]]++;
            // the same tile at i and at the point it holds: each tile's range holds its own points
            assertEquals(layout.pointTile()[i], layout.pointTile()[order[i]], "position " + i);
        }
        for (int i = 0; i < n; i++) {
            assertEquals(1, seen[i], "point " + i + " once");
        }
        double[] q = TileOrder.coords(layout, order);
        float[] f = TileOrder.floatCoords(layout, order);
        for (int c = 0; c < d; c++) {
            for (int i = 0; i < n; i++) {
                assertEquals(layout.coords()[c * n + order[i]], q[c * n + i], 0.0);
                assertEquals((float) layout.coords()[c * n + order[i]], f[c * n + i], 0.0f);
            }
        }
        double[] own = layout.coords();
        double[] before = own.clone();
        assertTrue(TileOrder.permute(layout, order) == own, "in place");
        for (int c = 0; c < d; c++) {
            for (int i = 0; i < n; i++) {
                assertEquals(before[c * n + order[i]], own[c * n + i], 0.0, "permuted in place: " + c + ", " + i);
            }
        }
    }

    /** One tile (brute force): the tile larger than a core's share is permuted in place over the cores. */
    @Test
    void oneTileIsPermutedInPlace() {
        int n = 5000;
        int d = 3;
        java.util.Random r = new java.util.Random(5);
        double[] p = new double[n * d];
        for (int k = 0; k < p.length; k++) {
            p[k] = r.nextDouble() * 100;
        }
        EvolutionLayout layout = new EvolutionLayout(d, n, p, new int[n], 1);
        int[] order = TileOrder.of(layout, 8.34);
        double[] want = TileOrder.coords(layout, order);
        assertTrue(TileOrder.permute(layout, order) == p, "in place");
        for (int k = 0; k < p.length; k++) {
            assertEquals(want[k], p[k], 0.0, "coordinate " + k);
        }
    }

    @Test
    void theOrderMovesPoints() {
        int[] order = TileOrder.of(layout(2000, 3, 7), 8.34);
        int moved = 0;
        for (int i = 0; i < order.length; i++) {
            moved += order[i] != i ? 1 : 0;
        }
        assertTrue(moved > 1000, "random points of a tile leave their input order: " + moved);
    }

    @Test
    void theCellsPointsAreConsecutive() {
        // one tile of random points in a box of 20 x 20 cells of side 1 (a cell side the key's bits resolve)
        int n = 5000;
        SplittableRandom rnd = new SplittableRandom(3);
        double[] p = new double[2 * n];
        for (int i = 0; i < n; i++) {
            p[i] = i == 0 ? 0 : rnd.nextDouble() * 20;
            p[n + i] = i == 0 ? 0 : rnd.nextDouble() * 20;
        }
        EvolutionLayout layout = new EvolutionLayout(2, n, p, new int[n], 1);
        int[] order = TileOrder.of(layout, 1.0);
        Map<Long, Integer> last = new HashMap<>();
        long previous = -1;
        for (int i = 0; i < n; i++) {
            int at = order[i];
            long cell = (long) Math.floor(p[at]) * 100 + (long) Math.floor(p[n + at]);
            if (cell != previous) {
                Integer before = last.put(cell, i);
                assertTrue(before == null, "cell " + cell + " comes back at " + i);
                previous = cell;
            }
        }
        assertTrue(last.size() >= 390, "the cells: " + last.size());
    }
}
