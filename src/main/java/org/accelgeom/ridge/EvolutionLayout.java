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

    /** Elements per chunk of the copies over the host's loops. */
    private static final int GRAIN = 1 << 16;

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
        ParallelLoops.forRange(loops, n, GRAIN, (from, to) -> {
            for (int c = 0; c < d; c++) {
                System.arraycopy(cloud[c], from, coords, c * n + from, to - from);
            }
        });
        return new EvolutionLayout(d, n, coords, new int[n], 1);
    }

    /** Rounds every coordinate to float in place ({@link Precision#FLOAT}), over {@code loops} (null: one thread). */
    void roundToFloat(ParallelLoops loops) {
        ParallelLoops.forRange(loops, coords.length, GRAIN, (from, to) -> {
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
        ParallelLoops.forRange(loops, f.length, GRAIN, (from, to) -> {
            for (int i = from; i < to; i++) {
                f[i] = (float) coords[i];
            }
        });
        return f;
    }

}
