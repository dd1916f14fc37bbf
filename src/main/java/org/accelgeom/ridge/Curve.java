package org.accelgeom.ridge;

import java.util.Locale;
import java.util.SplittableRandom;

import org.accelgeom.engine.SeekableRandom;

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

    /**
     * n noisy samples, {@code coords[c][i]}; seeded, so the same arguments give the same cloud, for any thread count.
     * Point i takes {@link #draws} draws of one SplitMix stream (one uniform for t, two per pair of Box–Muller normals),
     * so the points are generated in parallel chunks, each from its place in the stream ({@link SeekableRandom}).
     */
    public double[][] sample(int n, int dim, double sigma, long seed) {
        return part(0, n, dim, sigma, seed);
    }

    /**
     * Samples {@code from .. to-1} of {@link #sample} with the same dim, sigma and seed (of any n of at least
     * {@code to}), equal to them bit for bit: {@code coords[c][i - from]}.
     */
    public double[][] part(int from, int to, int dim, double sigma, long seed) {
        if (from < 0 || to < from) {
            throw new IllegalArgumentException("samples " + from + ".." + to);
        }
        int d = dimension(dim);
        int draws = draws(d);
        double[][] p = new double[d][to - from];
        double spread = sigma / Math.sqrt(d);
        double end = parameterEnd();
        SeekableRandom.inChunks(from, to, (lo, hi) -> {
            SplittableRandom rnd = SeekableRandom.at(seed, (long) lo * draws);
            double[] x = new double[d];
            double[] z = new double[d + 1];
            for (int i = lo; i < hi; i++) {
                point(rnd.nextDouble() * end, x);
                for (int c = 0; c < d; c += 2) {
                    SeekableRandom.normalPair(rnd, z, c);
                }
                for (int c = 0; c < d; c++) {
                    p[c][i - from] = x[c] + spread * z[c];
                }
            }
        });
        return p;
    }

    /** The draws per sample of dimension d: one for t, two per pair of coordinates' normals (d rounded up to even). */
    static int draws(int d) {
        return 1 + 2 * ((d + 1) / 2);
    }
}
