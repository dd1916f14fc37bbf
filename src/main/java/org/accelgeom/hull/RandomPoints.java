package org.accelgeom.hull;

import java.util.SplittableRandom;

import org.accelgeom.engine.SeekableRandom;
import org.accelgeom.io.PointCloud;

/**
 * Seeded random 3D point clouds, the standard inputs of hull benchmarks and tests. The same {@code (n, seed)}
 * gives the same points on every run and every machine ({@link SplittableRandom} is specified bit for bit).
 *
 * <p>The distributions differ in how many points end on the hull: few for {@link #cube} and {@link #gauss}
 * (O(log² n) and O(log n) expected), O(n^(1/4)) ... O(n^(1/3)) for {@link #ball}, and all of them for
 * {@link #sphere}, the worst case for QuickHull.
 *
 * <p>Point i takes a fixed number of draws (3 for {@code cube}, 6 for {@code sphere} and {@code gauss}, 7 for
 * {@code ball}) from one SplitMix stream, draws {@code D·i .. D·i+D-1}; a SplittableRandom made with
 * {@code seed + k·γ} (γ its golden gamma) is that stream after k draws ({@link SeekableRandom}). So any range of points is generated
 * alone, equal to the same points of the whole cloud ({@link #part}): the worker processes of a split hull each
 * generate their part, and the whole cloud is generated in parallel chunks. The one exception to the fixed count,
 * a direction redrawn because its normal 3-vector was shorter than 1e-9 (probability about 1e-27 a point), draws
 * again from a stream of its own (seeded by the seed and the point's index), so the other points keep their draws.
 */
public final class RandomPoints {

    private RandomPoints() {
    }

    /** Uniform in the cube [-1, 1]³. */
    public static PointCloud cube(int n, long seed) {
        return part("cube", n, seed, 0, n);
    }

    /** Uniform in the unit ball: a uniform direction scaled by the cube root of a uniform radius fraction. */
    public static PointCloud ball(int n, long seed) {
        return part("ball", n, seed, 0, n);
    }

    /** On the unit sphere (up to rounding): every point is a hull vertex. */
    public static PointCloud sphere(int n, long seed) {
        return part("sphere", n, seed, 0, n);
    }

    /** Standard normal in each coordinate. */
    public static PointCloud gauss(int n, long seed) {
        return part("gauss", n, seed, 0, n);
    }

    /**
     * Points {@code from .. to-1} of the {@code n} points of {@code distribution} (cube, ball, sphere or gauss) with
     * {@code seed}: equal, bit for bit, to those points of the whole cloud.
     */
    public static PointCloud part(String distribution, int n, long seed, int from, int to) {
        if (from < 0 || to < from || to > n) {
            throw new IllegalArgumentException("points " + from + ".." + to + " of " + n);
        }
        Kind kind = switch (distribution) {
            case "cube" -> Kind.CUBE;
            case "ball" -> Kind.BALL;
            case "sphere" -> Kind.SPHERE;
            case "gauss" -> Kind.GAUSS;
            default -> throw new IllegalArgumentException("no distribution " + distribution);
        };
        int m = to - from;
        double[][] c = new double[3][m];
        SeekableRandom.inChunks(from, to, (lo, hi) -> generate(kind, seed, lo, hi, c, from));
        return new PointCloud(c);
    }

    private enum Kind {
        CUBE(3), BALL(7), SPHERE(6), GAUSS(6);

        final int draws;

        Kind(int draws) {
            this.draws = draws;
        }
    }

    /** Points {@code lo .. hi-1} into {@code c[.][i - base]}. */
    private static void generate(Kind kind, long seed, int lo, int hi, double[][] c, int base) {
        SplittableRandom r = SeekableRandom.at(seed, (long) lo * kind.draws);
        double[] u = new double[3];
        for (int i = lo; i < hi; i++) {
            int j = i - base;
            switch (kind) {
                case CUBE -> {
                    for (int k = 0; k < 3; k++) {
                        c[k][j] = 2 * r.nextDouble() - 1;
                    }
                }
                case BALL -> {
                    direction(r, u, seed, i);
                    double s = Math.cbrt(r.nextDouble());
                    for (int k = 0; k < 3; k++) {
                        c[k][j] = s * u[k];
                    }
                }
                case SPHERE -> {
                    direction(r, u, seed, i);
                    for (int k = 0; k < 3; k++) {
                        c[k][j] = u[k];
                    }
                }
                case GAUSS -> {
                    for (int k = 0; k < 3; k++) {
                        c[k][j] = SeekableRandom.normal(r);
                    }
                }
            }
        }
    }

    /**
     * A uniform unit vector: a normalised standard normal 3-vector, six draws of {@code r}; redrawn in the rare case
     * of a tiny one from a stream of point i's own (so that {@code r} stays at its fixed count of draws).
     */
    private static void direction(SplittableRandom r, double[] u, long seed, int i) {
        double len = normals(r, u);
        if (len < 1e-9) {
            SplittableRandom again = new SplittableRandom(seed).split().split(); // a stream off the points' one
            again = new SplittableRandom(again.nextLong() ^ (i * SeekableRandom.GAMMA));
            do {
                len = normals(again, u);
            } while (len < 1e-9);
        }
        u[0] /= len;
        u[1] /= len;
        u[2] /= len;
    }

    private static double normals(SplittableRandom r, double[] u) {
        u[0] = SeekableRandom.normal(r);
        u[1] = SeekableRandom.normal(r);
        u[2] = SeekableRandom.normal(r);
        return Math.sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    }
}
