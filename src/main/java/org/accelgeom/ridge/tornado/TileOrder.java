package org.accelgeom.ridge.tornado;

import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

import org.accelgeom.ridge.EvolutionLayout;

/**
 * The device's order of a layout's points: within each tile (each run of equal {@code pointTile}, so any layout,
 * sub-layouts included), the points sorted by the Morton (Z-order) key of their grid cell (side R1/16 in
 * {@link TornadoRidgeBackend}), so that neighbours in the array are neighbours in space and share their nearest
 * representative: the runs of {@link ClosestSphere#closest} are long. A permutation within each tile: the tiles,
 * {@code pointTile} and the result (integer sums, order-free) are unchanged; only the device's atomics change.
 *
 * <p>Over the cores: the tiles' runs are found in parallel blocks; a tile larger than a core's share of the points
 * (brute force: the whole cloud) is ordered with its loops and sort over the cores, one such tile after another; the
 * others each on one core, the largest first, each to the next free core, which sorts them all in one buffer of keys
 * (no garbage a tile: at 10^8 points, 113 tiles of 3.3·10^6, garbage the collector would copy). Every key is distinct (it ends with the
 * point's place in its tile), so the order is the same however it is computed.
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
        return of(layout, cell, ForkJoinPool.getCommonPoolParallelism());
    }

    /** {@link #of(EvolutionLayout, double)} as on {@code threads} cores (which tiles count as large). */
    static int[] of(EvolutionLayout layout, double cell, int threads) {
        return of(layout, cell, threads, null);
    }

    /** Fills the coordinates of points [from, to) of a layout being ordered ({@code RidgeBackend.Arriving#fill}). */
    @FunctionalInterface
    public interface Fill {
        void range(int from, int to);
    }

    /**
     * {@link #of(EvolutionLayout, double)} of a layout whose coordinates arrive as it goes: each tile's points are
     * filled by {@code fill} just before that tile is ordered (on the core that orders it; a large tile in parallel
     * blocks), so that reading them overlaps the other tiles' ordering; {@code threads} the cores to count on (which
     * tiles count as large, how many cores take the others). The same order as {@link #of(EvolutionLayout, double)}
     * of the filled layout; every point is filled on return.
     */
    public static int[] of(EvolutionLayout layout, double cell, int threads, Fill fill) {
        int n = layout.n();
        int[] order = new int[n];
        largestFirst(runs(layout.pointTile()), n, threads, (a, b) -> {
            if (fill != null) {
                loop(true, blocks(b - a), k -> fill.range(a + k * BLOCK, Math.min(b, a + k * BLOCK + BLOCK)));
            }
            sortTile(layout, cell, a, b, order, true, null);
        }, () -> {
            long[][] keys = {null}; // one buffer a core, of its first (largest) tile: no garbage a tile
            return (a, b) -> {
                if (fill != null) {
                    fill.range(a, b);
                }
                if (keys[0] == null || keys[0].length < b - a) {
                    keys[0] = new long[b - a];
                }
                sortTile(layout, cell, a, b, order, false, keys[0]);
            };
        });
        return order;
    }

    /** Work on the points [a, b) of one tile. */
    private interface TileWork {
        void tile(int a, int b);
    }

    /**
     * The tiles (runs {@code [first[t], first[t + 1])} of n points), largest first: each tile larger than a core's share
     * of the points ({@code threads} cores) with {@code wide}, one after another (it goes over the cores itself); the
     * others each on one core, each core taking the largest tile left, with the work {@code perCore} makes once for that
     * core (its buffers).
     */
    private static void largestFirst(int[] first, int n, int threads, TileWork wide,
            java.util.function.Supplier<TileWork> perCore) {
        int tiles = first.length - 1;
        Integer[] bySize = new Integer[tiles];
        for (int t = 0; t < tiles; t++) {
            bySize[t] = t;
        }
        Arrays.sort(bySize, (a, b) -> Integer.compare(first[b + 1] - first[b], first[a + 1] - first[a]));
        int large = 0;
        while (large < tiles && (long) (first[bySize[large] + 1] - first[bySize[large]]) * threads > n) {
            wide.tile(first[bySize[large]], first[bySize[large] + 1]);
            large++;
        }
        AtomicInteger next = new AtomicInteger(large);
        IntStream.range(0, Math.max(1, Math.min(threads, tiles - large))).parallel().forEach(w -> {
            TileWork work = perCore.get();
            for (int j = next.getAndIncrement(); j < tiles; j = next.getAndIncrement()) {
                work.tile(first[bySize[j]], first[bySize[j] + 1]);
            }
        });
    }

    /** The first position of every run of equal values of {@code pointTile}, and n: the runs found in parallel blocks. */
    static int[] runs(int[] pointTile) {
        int n = pointTile.length;
        int blocks = blocks(n);
        int[] count = new int[blocks + 1];
        IntStream.range(0, blocks).parallel().forEach(k -> {
            int c = 0;
            for (int i = k * BLOCK, e = Math.min(n, i + BLOCK); i < e; i++) {
                c += i == 0 || pointTile[i] != pointTile[i - 1] ? 1 : 0;
            }
            count[k + 1] = c;
        });
        for (int k = 0; k < blocks; k++) {
            count[k + 1] += count[k];
        }
        int[] first = new int[count[blocks] + 1];
        first[count[blocks]] = n;
        IntStream.range(0, blocks).parallel().forEach(k -> {
            int at = count[k];
            for (int i = k * BLOCK, e = Math.min(n, i + BLOCK); i < e; i++) {
                if (i == 0 || pointTile[i] != pointTile[i - 1]) {
                    first[at++] = i;
                }
            }
        });
        return first;
    }

    /**
     * The points [a, b) of one tile into {@code order[a..b)}, by cell key, ties by position (deterministic); with
     * {@code wide} its loops and sort over the cores; the keys in {@code buffer} where given (at least b - a long).
     */
    private static void sortTile(EvolutionLayout layout, double cell, int a, int b, int[] order, boolean wide,
            long[] buffer) {
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
        int blocks = wide ? blocks(m) : 1;
        int size = wide ? BLOCK : m;
        double[] min = new double[d];
        double[] side = new double[d];
        long top = (1L << bits) - 1;
        for (int c = 0; c < d; c++) {
            int base = c * n;
            double[] lo = new double[blocks];
            double[] hi = new double[blocks];
            loop(wide, blocks, k -> {
                double l = Double.POSITIVE_INFINITY;
                double h = Double.NEGATIVE_INFINITY;
                for (int i = a + k * size, e = Math.min(b, i + size); i < e; i++) {
                    l = Math.min(l, p[base + i]);
                    h = Math.max(h, p[base + i]);
                }
                lo[k] = l;
                hi[k] = h;
            });
            double l = Double.POSITIVE_INFINITY;
            double h = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < blocks; k++) {
                l = Math.min(l, lo[k]);
                h = Math.max(h, hi[k]);
            }
            min[c] = l;
            side[c] = Math.max(cell, (h - l) / top);
        }
        long[] keys = buffer != null ? buffer : new long[m];
        loop(wide, blocks, k -> {
            long[] cellOf = new long[d];
            for (int i = a + k * size, e = Math.min(b, i + size); i < e; i++) {
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
        });
        if (wide) {
            Arrays.parallelSort(keys, 0, m);
        } else {
            Arrays.sort(keys, 0, m);
        }
        long mask = (1L << indexBits) - 1;
        loop(wide, blocks, k -> {
            for (int j = k * size, e = Math.min(m, j + size); j < e; j++) {
                order[a + j] = a + (int) (keys[j] & mask);
            }
        });
    }

    /** {@code body} for blocks 0 .. blocks-1, in parallel or on the caller. */
    private static void loop(boolean parallel, int blocks, IntConsumer body) {
        if (parallel) {
            IntStream.range(0, blocks).parallel().forEach(body);
        } else {
            for (int k = 0; k < blocks; k++) {
                body.accept(k);
            }
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

    /**
     * The layout's own coordinates put in the order, in place, and returned: no second array. Each tile (a range of
     * the permutation) through a buffer of its size: a tile larger than a core's share over the cores, the others each
     * on one core, the largest first, one buffer per core; on a 2-core host a
     * 3.7·10⁷-point layout took 0.38-0.46 s in place against 2.7-5.0 s for {@link #coords} (its fresh array and a
     * gather over the whole layout).
     */
    public static double[] permute(EvolutionLayout layout, int[] order) {
        int n = layout.n();
        int d = layout.d();
        double[] p = layout.coords();
        largestFirst(runs(layout.pointTile()), n, ForkJoinPool.getCommonPoolParallelism(), (a, b) -> {
            double[] buffer = new double[b - a];
            for (int c = 0; c < d; c++) {
                int base = c * n;
                System.arraycopy(p, base + a, buffer, 0, b - a);
                loop(true, blocks(b - a), k -> {
                    for (int i = a + k * BLOCK, e = Math.min(b, i + BLOCK); i < e; i++) {
                        p[base + i] = buffer[order[i] - a];
                    }
                });
            }
        }, () -> {
            double[][] buffer = {null}; // of the core's first (largest) tile
            return (a, b) -> {
                if (buffer[0] == null || buffer[0].length < b - a) {
                    buffer[0] = new double[b - a];
                }
                for (int c = 0; c < d; c++) {
                    int base = c * n;
                    System.arraycopy(p, base + a, buffer[0], 0, b - a);
                    for (int i = a; i < b; i++) {
                        p[base + i] = buffer[0][order[i] - a];
                    }
                }
            };
        });
        return p;
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
