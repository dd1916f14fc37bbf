package org.accelgeom.ridge;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Seeded test data of the thesis (§4.2): noisy samples of a known curve, and the curve itself for the quality
 * measures. The thesis does not give the spirals' parameters; like Rupniewski's generators we draw
 * t ~ U(0, a) and add Gaussian noise N(0, σ/√d) to every coordinate, so that the distance from the curve has spread
 * σ. Our spiral: a = 6π (three turns), b = 10, so arms lie 2πb ≈ 63 apart (the thesis's R1 = 8.34 gives 2·R2 =
 * 33.4).
 */
public enum Curve {
    /** (b·t·cos t, b·t·sin t), t in [0, 6π]. */
    SPIRAL2D,
    /** (b·t·cos t, b·t·sin t, b·t), t in [0, 6π]. */
    SPIRAL3D,
    /** A segment of length 100 along the first axis of R^d: (t, 0, ..., 0), t in [0, 100]. */
    SEGMENT;

    /** The spiral's parameter range a and pitch b. */
    public static final double SPIRAL_A = 6 * Math.PI;
    public static final double SPIRAL_B = 10;
    /** The segment's length. */
    public static final double SEGMENT_LENGTH = 100;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Curve parse(String s) {
        for (Curve c : values()) {
            if (c.id().equalsIgnoreCase(s.strip())) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown curve '" + s + "': expected spiral2d, spiral3d or segment");
    }

    /** The dimension of the curve's samples ({@code dim} is used by the segment only). */
    public int dimension(int dim) {
        return switch (this) {
            case SPIRAL2D -> 2;
            case SPIRAL3D -> 3;
            case SEGMENT -> dim;
        };
    }

    /** The noise-free point at parameter t, into x. */
    public void point(double t, double[] x) {
        java.util.Arrays.fill(x, 0);
        switch (this) {
            case SPIRAL2D, SPIRAL3D -> {
                x[0] = SPIRAL_B * t * Math.cos(t);
                x[1] = SPIRAL_B * t * Math.sin(t);
                if (this == SPIRAL3D) {
                    x[2] = SPIRAL_B * t;
                }
            }
            case SEGMENT -> x[0] = t;
        }
    }

    /** The parameter range's end (it starts at 0). */
    public double parameterEnd() {
        return this == SEGMENT ? SEGMENT_LENGTH : SPIRAL_A;
    }

    /** n noisy samples, {@code coords[c][i]}; seeded, so the same arguments give the same cloud. */
    public double[][] sample(int n, int dim, double sigma, long seed) {
        int d = dimension(dim);
        double[][] p = new double[d][n];
        SplittableRandom rnd = new SplittableRandom(seed);
        double spread = sigma / Math.sqrt(d);
        double[] x = new double[d];
        for (int i = 0; i < n; i++) {
            point(rnd.nextDouble() * parameterEnd(), x);
            for (int c = 0; c < d; c++) {
                p[c][i] = x[c] + spread * gaussian(rnd);
            }
        }
        return p;
    }

    /** A standard normal deviate (Marsaglia's polar method). */
    private static double gaussian(SplittableRandom rnd) {
        double u;
        double v;
        double s;
        do {
            u = 2 * rnd.nextDouble() - 1;
            v = 2 * rnd.nextDouble() - 1;
            s = u * u + v * v;
        } while (s >= 1 || s == 0);
        return u * Math.sqrt(-2 * Math.log(s) / s);
    }
}
