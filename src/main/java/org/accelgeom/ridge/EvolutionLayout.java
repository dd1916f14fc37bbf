package org.accelgeom.ridge;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.ParallelLoops;

/**
 * The points the evolution step runs over, in the layout of {@link RidgeKernels}: n points of dimension d,
 * column-major ({@code coords[c * n + i]}), each in a tile. Brute force: the whole cloud in one tile. Tiled
 * (§4): the extended tiles one after another, each its core points and then its margin points (the cloud points
 * within R1 of its box), so a point of the cloud may appear in several tiles.
 *
 * @param d         dimension
 * @param n         number of points (with repetitions across tiles)
 * @param coords    column-major coordinates, length d·n
 * @param pointTile the tile of each point
 * @param numTiles  number of tiles
 */
public record EvolutionLayout(int d, int n, double[] coords, int[] pointTile, int numTiles) {

    public EvolutionLayout {
        if (coords.length != (long) d * n || pointTile.length != n) {
            throw new IllegalArgumentException("layout arrays do not match d = " + d + ", n = " + n);
        }
    }

    /** The whole cloud as one tile (brute force). */
    public static EvolutionLayout bruteForce(double[][] cloud) {
        return bruteForce(cloud, null);
    }

    /**
     * {@link #bruteForce(double[][])} copied over {@code loops} (null: one thread). A cloud of more than
     * {@link TileTree#MAX_ARRAY} coordinates is refused in one line (the column-major copy is one array).
     */
    public static EvolutionLayout bruteForce(double[][] cloud, ParallelLoops loops) {
        int d = cloud.length;
        int n = cloud[0].length;
        if (!TileTree.layoutFits(d, n)) {
            throw new AccelGeomException(n + " points of dimension " + d + " are " + (long) d * n
                    + " coordinates, more than one array holds (" + TileTree.MAX_ARRAY + "): give fewer points");
        }
        double[] coords = new double[d * n];
        over(loops, n, (from, to) -> {
            for (int c = 0; c < d; c++) {
                System.arraycopy(cloud[c], from, coords, c * n + from, to - from);
            }
        });
        return new EvolutionLayout(d, n, coords, new int[n], 1);
    }

    /** Rounds every coordinate to float in place ({@link Precision#FLOAT}), over {@code loops} (null: one thread). */
    void roundToFloat(ParallelLoops loops) {
        over(loops, coords.length, (from, to) -> {
            for (int i = from; i < to; i++) {
                coords[i] = (float) coords[i];
            }
        });
    }

    /** The float copy of the coordinates, for {@link Precision#FLOAT}. */
    public float[] floatCoords() {
        return floatCoords(null);
    }

    /** {@link #floatCoords()} over {@code loops} (null: one thread). */
    public float[] floatCoords(ParallelLoops loops) {
        float[] f = new float[coords.length];
        over(loops, f.length, (from, to) -> {
            for (int i = from; i < to; i++) {
                f[i] = (float) coords[i];
            }
        });
        return f;
    }

    /** {@code body} over [0, n): on {@code loops} in chunks of 2^16 or more, or on this thread (null). */
    private static void over(ParallelLoops loops, int n, ParallelLoops.RangeBody body) {
        if (loops == null) {
            body.run(0, n);
        } else {
            loops.forRange(n, 1 << 16, body);
        }
    }
}
