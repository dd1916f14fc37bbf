package org.accelgeom.hull;

import java.util.SplittableRandom;

import org.accelgeom.io.PointCloud;

/**
 * Seeded random 3D point clouds, the standard inputs of hull benchmarks and tests. The same {@code (n, seed)}
 * gives the same points on every run and every machine ({@link SplittableRandom} is specified bit for bit).
 *
 * <p>The distributions differ in how many points end on the hull: few for {@link #cube} and {@link #gauss}
 * (O(log² n) and O(log n) expected), O(n^(1/4)) ... O(n^(1/3)) for {@link #ball}, and all of them for
 * {@link #sphere}, the worst case for QuickHull.
 */
public final class RandomPoints {

    private RandomPoints() {
    }

    /** Uniform in the cube [-1, 1]³. */
    public static PointCloud cube(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] c = new double[3][n];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < 3; k++) {
                c[k][i] = 2 * r.nextDouble() - 1;
            }
        }
        return new PointCloud(c);
    }

    /** Uniform in the unit ball: a uniform direction scaled by the cube root of a uniform radius fraction. */
    public static PointCloud ball(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] c = new double[3][n];
        double[] u = new double[3];
        for (int i = 0; i < n; i++) {
            direction(r, u);
            double s = Math.cbrt(r.nextDouble());
            for (int k = 0; k < 3; k++) {
                c[k][i] = s * u[k];
            }
        }
        return new PointCloud(c);
    }

    /** On the unit sphere (up to rounding): every point is a hull vertex. */
    public static PointCloud sphere(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] c = new double[3][n];
        double[] u = new double[3];
        for (int i = 0; i < n; i++) {
            direction(r, u);
            for (int k = 0; k < 3; k++) {
                c[k][i] = u[k];
            }
        }
        return new PointCloud(c);
    }

    /** Standard normal in each coordinate. */
    public static PointCloud gauss(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] c = new double[3][n];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < 3; k++) {
                c[k][i] = normal(r);
            }
        }
        return new PointCloud(c);
    }

    /** A uniform unit vector: a normalised standard normal 3-vector (redrawn in the rare case of a tiny one). */
    private static void direction(SplittableRandom r, double[] u) {
        double len;
        do {
            u[0] = normal(r);
            u[1] = normal(r);
            u[2] = normal(r);
            len = Math.sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        } while (len < 1e-9);
        u[0] /= len;
        u[1] /= len;
        u[2] /= len;
    }

    /** A standard normal variate by the Box–Muller transform (one of the pair; simple and reproducible). */
    private static double normal(SplittableRandom r) {
        double u1 = 1.0 - r.nextDouble(); // (0, 1]
        double u2 = r.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }
}
