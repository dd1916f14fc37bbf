package org.accelgeom.ridge;

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
        int d = cloud.length;
        int n = cloud[0].length;
        double[] coords = new double[d * n];
        for (int c = 0; c < d; c++) {
            System.arraycopy(cloud[c], 0, coords, c * n, n);
        }
        return new EvolutionLayout(d, n, coords, new int[n], 1);
    }

    /** The float copy of the coordinates, for {@link Precision#FLOAT}. */
    public float[] floatCoords() {
        float[] f = new float[coords.length];
        for (int i = 0; i < f.length; i++) {
            f[i] = (float) coords[i];
        }
        return f;
    }
}
