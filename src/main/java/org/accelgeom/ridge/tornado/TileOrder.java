package org.accelgeom.ridge.tornado;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import org.accelgeom.ridge.EvolutionLayout;

/**
 * The device's order of a layout's points: within each tile (each run of equal {@code pointTile}, so any layout,
 * sub-layouts included), the points sorted by the Morton (Z-order) key of their grid cell (side R1/16 in
 * {@link TornadoRidgeBackend}), so that neighbours in the array are neighbours in space and share their nearest
 * representative: the runs of {@link ClosestSphere#closest} are long. A permutation within each tile: the tiles,
 * {@code pointTile} and the result (integer sums, order-free) are unchanged; only the device's atomics change. Tiles
 * in parallel.
 */
public final class TileOrder {

    private TileOrder() {
    }

    /**
     * The order: position i of the device's layout holds point {@code order[i]} of {@code layout}, a permutation of
     * each tile's range.
     *
     * @param cell the side of a grid cell; larger where a tile is too wide for the key's bits
     */
    public static int[] of(EvolutionLayout layout, double cell) {
        int n = layout.n();
        int[] order = new int[n];
        int[] pointTile = layout.pointTile();
        List<int[]> ranges = new ArrayList<>();
        for (int a = 0; a < n;) {
            int b = a + 1;
            while (b < n && pointTile[b] == pointTile[a]) {
                b++;
            }
            ranges.add(new int[] {a, b});
            a = b;
        }
        ranges.parallelStream().forEach(r -> sortTile(layout, cell, r[0], r[1], order));
        return order;
    }

    /** The points [a, b) of one tile into {@code order[a..b)}, by cell key, ties by position (deterministic). */
    private static void sortTile(EvolutionLayout layout, double cell, int a, int b, int[] order) {
        int m = b - a;
        int d = layout.d();
        int n = layout.n();
        double[] p = layout.coords();
        int indexBits = Math.max(1, 32 - Integer.numberOfLeadingZeros(m - 1));
        int bits = (63 - indexBits) / d; // key bits per dimension (d <= 16: at least 2)
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
            for (int bit = bits - 1; bit >= 0; bit--) { // Morton: the cells' bits interleaved, highest first
                for (int c = 0; c < d; c++) {
                    key = key << 1 | (cellOf[c] >>> bit & 1);
                }
            }
            keys[i - a] = key << indexBits | (i - a);
        }
        if (m > 1 << 16) {
            Arrays.parallelSort(keys); // a large tile (brute force: the whole cloud)
        } else {
            Arrays.sort(keys);
        }
        long mask = (1L << indexBits) - 1;
        for (int j = 0; j < m; j++) {
            order[a + j] = a + (int) (keys[j] & mask);
        }
    }

    /** The coordinates in the order, column-major as the layout's. */
    public static double[] coords(EvolutionLayout layout, int[] order) {
        int n = layout.n();
        double[] p = layout.coords();
        double[] out = new double[p.length];
        for (int c = 0; c < layout.d(); c++) {
            int base = c * n;
            IntStream.range(0, blocks(n)).parallel().forEach(k -> {
                for (int i = k * BLOCK, e = Math.min(n, i + BLOCK); i < e; i++) {
                    out[base + i] = p[base + order[i]];
                }
            });
        }
        return out;
    }

    /** The coordinates in the order, rounded to float. */
    public static float[] floatCoords(EvolutionLayout layout, int[] order) {
        int n = layout.n();
        double[] p = layout.coords();
        float[] out = new float[p.length];
        for (int c = 0; c < layout.d(); c++) {
            int base = c * n;
            IntStream.range(0, blocks(n)).parallel().forEach(k -> {
                for (int i = k * BLOCK, e = Math.min(n, i + BLOCK); i < e; i++) {
                    out[base + i] = (float) p[base + order[i]];
                }
            });
        }
        return out;
    }

    private static final int BLOCK = 1 << 16;

    private static int blocks(int n) {
        return (n + BLOCK - 1) / BLOCK;
    }
}
