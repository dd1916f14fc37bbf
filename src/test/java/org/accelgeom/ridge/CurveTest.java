package org.accelgeom.ridge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;

import org.accelgeom.engine.SeekableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The generator: seekable (parts equal the whole), the same for any thread count, and of the stated law. */
class CurveTest {

    /**
     * The sequential reference: one stream drawn in order, t then the normals pairwise (Box–Muller). Spans several
     * chunks of the parallel generation, so a wrong seek shows.
     */
    @ParameterizedTest
    @CsvSource({"spiral2d, 2", "spiral3d, 3", "segment, 1", "segment, 5", "segment, 16"})
    void parallelChunksEqualOneStreamDrawnInOrder(String name, int dim) {
        Curve curve = Curve.parse(name);
        int n = 2 * SeekableRandom.CHUNK + 12345;
        double[][] p = curve.sample(n, dim, 3.0, 77);
        int d = curve.dimension(dim);
        SplittableRandom rnd = new SplittableRandom(77);
        double[] x = new double[d];
        double[] z = new double[d + 1];
        double spread = 3.0 / Math.sqrt(d);
        for (int i = 0; i < n; i++) {
            curve.point(rnd.nextDouble() * curve.parameterEnd(), x);
            for (int c = 0; c < d; c += 2) {
                SeekableRandom.normalPair(rnd, z, c);
            }
            for (int c = 0; c < d; c++) {
                assertEquals(x[c] + spread * z[c], p[c][i], 0.0, "sample " + i + " coordinate " + c);
            }
        }
    }

    @Test
    void partsEqualTheWholeAndThreadsDoNotMatter() throws Exception {
        int n = 3 * SeekableRandom.CHUNK + 7;
        double[][] whole = Curve.SPIRAL3D.sample(n, 3, 4.17, 5);
        double[][] one;
        try (ForkJoinPool single = new ForkJoinPool(1)) {
            one = single.submit(() -> Curve.SPIRAL3D.sample(n, 3, 4.17, 5)).get();
        }
        int[][] ranges = {{0, 1}, {1, 70000}, {70001, 70002}, {65536, n}, {12, 12}, {0, n}};
        for (int c = 0; c < 3; c++) {
            assertArrayEquals(whole[c], one[c], 0.0);
            for (int[] r : ranges) {
                double[] part = Curve.SPIRAL3D.part(r[0], r[1], 3, 4.17, 5)[c];
                assertEquals(r[1] - r[0], part.length);
                for (int i = r[0]; i < r[1]; i++) {
                    assertEquals(whole[c][i], part[i - r[0]], 0.0, "sample " + i);
                }
            }
        }
    }

    @Test
    void theSeedChangesTheCloud() {
        double[][] a = Curve.SPIRAL2D.sample(1000, 2, 4.17, 1);
        double[][] b = Curve.SPIRAL2D.sample(1000, 2, 4.17, 2);
        int same = 0;
        for (int i = 0; i < 1000; i++) {
            same += a[0][i] == b[0][i] ? 1 : 0;
        }
        assertEquals(0, same);
    }

    /** Normals of both halves of the pairs: each coordinate's noise has mean 0, variance σ²/d, no correlation. */
    @Test
    void noiseHasTheStatedLawInEveryCoordinate() {
        int n = 200000;
        int d = 5;
        double sigma = 2.0;
        double[][] p = Curve.SEGMENT.sample(n, d, sigma, 9);
        double[] mean = new double[d];
        double[] var = new double[d];
        double cross = 0;
        double tMean = 0;
        for (int i = 0; i < n; i++) {
            tMean += p[0][i] / n;
            for (int c = 1; c < d; c++) {
                mean[c] += p[c][i] / n;
                var[c] += p[c][i] * p[c][i] / n;
            }
            cross += p[1][i] * p[2][i] / n;
        }
        double v = sigma * sigma / d;
        for (int c = 1; c < d; c++) {
            assertEquals(0, mean[c], 5 * Math.sqrt(v / n), "mean of coordinate " + c);
            assertEquals(v, var[c], 5 * v * Math.sqrt(2.0 / n), "variance of coordinate " + c);
        }
        assertEquals(0, cross, 5 * v / Math.sqrt(n), "the pair's two normals are uncorrelated");
        // t ~ U(0, 100) along the first axis plus noise: mean 50
        assertEquals(Curve.SEGMENT_LENGTH / 2, tMean, 5 * Math.sqrt((100.0 * 100 / 12 + v) / n));
        assertTrue(Curve.draws(3) == 5 && Curve.draws(2) == 3 && Curve.draws(1) == 3);
    }
}
