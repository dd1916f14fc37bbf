package org.accelgeom.ridge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The whole detection (Alg. 1) on generated curves: backends agree, quality within bounds set by σ and R1. */
class RidgeTest {

    static RidgeOptions options(Backend b, double r1, String version, String precision, int n) {
        RidgeOptions o = RidgeOptions.of(b, r1).withPrecision(Precision.parse(precision));
        return "tiled".equals(version) ? o.withTiles(null, Math.max(2, n / 4)) : o;
    }

    @ParameterizedTest
    @CsvSource({"spiral2d, 2, brute, double", "spiral2d, 2, tiled, double", "spiral3d, 3, brute, float",
        "spiral3d, 3, tiled, float", "segment, 4, brute, double", "segment, 4, tiled, float", "segment, 1, brute, double",
        "segment, 1, tiled, float"})
    void jvmParallelGivesTheJvmResultExactly(String curve, int dim, String version, String precision) {
        int n = 3000;
        double[][] p = Curve.parse(curve).sample(n, dim, 4.17, 17);
        RidgeOptions o = options(Backend.JVM, 8.34, version, precision, n);
        RidgeResult ref = Ridge.detect(p, o);
        RidgeResult par = Ridge.detect(p, o.withBackend(Backend.JVM_PARALLEL).withThreads(3));
        assertArrayEquals(ref.representatives(), par.representatives(), 0.0);
        assertEquals(ref.stats(), par.stats());
        assertEquals(ref.curves().polylines().size(), par.curves().polylines().size());
        assertTrue(ref.count() >= Decimate.FLOOR);
        assertTrue(!ref.stats().capped(), "converged");
    }

    @ParameterizedTest
    @CsvSource({"spiral2d, brute", "spiral2d, tiled", "spiral3d, brute"})
    void reconstructedSpiralLiesOnTheCurve(String curve, String version) {
        // σ = 4.17, R1 = 2σ (Fig. 3.14): a representative is the mean of the points in its cell, so it lies much
        // closer to γ than the noise; gaps along γ stay below 2·R2, the distance order bridges
        double sigma = 4.17;
        double r1 = 8.34;
        int n = 20000;
        Curve c = Curve.parse(curve);
        RidgeResult r = Ridge.detect(c.sample(n, 0, sigma, 5), options(Backend.JVM_PARALLEL, r1, version, "double", n));
        Quality q = Quality.of(r.representatives(), r.count(), r.dimension(), c);
        assertTrue(q.median() < sigma / 4, "median " + q.median());
        assertTrue(q.max() < sigma, "S -> curve " + q.max());
        assertTrue(q.curveToResult() < 4 * r1, "curve -> S " + q.curveToResult());
        if ("brute".equals(version)) {
            assertEquals(1, r.curves().polylines().size(), "one curve, one polyline");
        } else {
            // tiled: representatives of two tiles may meet at a border in a small cluster that order closes into a
            // loop (the thesis: the tiled version needs a larger R1); the curve is still one main polyline
            int longest = r.curves().polylines().stream().mapToInt(l -> l.points().length).max().orElse(0);
            assertTrue(longest >= 0.6 * r.count(), "longest polyline " + longest + " of " + r.count());
        }
    }

    @Test
    void tiledSegmentIsCoveredEndToEnd() {
        // 16 thin tiles along the segment (Fig. 4.12's layout): the global decimation must thin the representatives
        // evenly (it scans them in input order); scanned tile by tile it would sweep the curve away from one end
        double sigma = 2.17;
        double r1 = 4.34;
        double[][] p = Curve.SEGMENT.sample(20000, 2, sigma, 12);
        RidgeResult r = Ridge.detect(p, RidgeOptions.of(Backend.JVM_PARALLEL, r1).withPrecision(Precision.FLOAT)
                .withTiles(new int[] {16, 1}, 200_000));
        Quality q = Quality.of(r.representatives(), r.count(), 2, Curve.SEGMENT);
        assertTrue(q.curveToResult() < 2 * 2 * r1, "curve -> S " + q.curveToResult() + " with |S| = " + r.count());
        assertTrue(r.count() >= Curve.SEGMENT_LENGTH / (2 * 2 * r1), "|S| = " + r.count());
        assertTrue(q.max() < sigma / 2, "S -> curve " + q.max());
    }

    @Test
    void qualityImprovesWithMorePointsAndLargerR1OverSigma() {
        // Fig. 3.15 (segment of length 100 in 2D): the median distance falls with N and with R1/σ
        double sigma = 2.17;
        Quality few = segmentQuality(2000, sigma, 1.7 * sigma);
        Quality many = segmentQuality(40000, sigma, 1.7 * sigma);
        assertTrue(many.median() < few.median(), few.median() + " -> " + many.median());
        Quality small = segmentQuality(20000, sigma, 1.0 * sigma);
        Quality large = segmentQuality(20000, sigma, 3.0 * sigma);
        assertTrue(large.median() < small.median(), small.median() + " -> " + large.median());
    }

    private static Quality segmentQuality(int n, double sigma, double r1) {
        double[][] p = Curve.SEGMENT.sample(n, 2, sigma, 23);
        RidgeResult r = Ridge.detect(p, RidgeOptions.of(Backend.JVM_PARALLEL, r1).withOrder(false));
        return Quality.of(r.representatives(), r.count(), 2, Curve.SEGMENT);
    }

    @Test
    void twoCurvesGiveTwoPolylines() {
        double[][] a = Curve.SEGMENT.sample(3000, 3, 1.0, 1);
        double[][] b = Curve.SEGMENT.sample(3000, 3, 1.0, 2);
        double[][] p = new double[3][6000];
        for (int c = 0; c < 3; c++) {
            System.arraycopy(a[c], 0, p[c], 0, 3000);
            System.arraycopy(b[c], 0, p[c], 3000, 3000);
        }
        for (int i = 3000; i < 6000; i++) {
            p[1][i] += 50; // a parallel segment 50 away
        }
        RidgeResult r = Ridge.detect(p, RidgeOptions.of(Backend.JVM, 2.0));
        assertEquals(2, r.curves().polylines().size());
        int total = 0;
        for (Order.Polyline l : r.curves().polylines()) {
            total += l.points().length;
        }
        assertEquals(r.count(), total, "every representative on a polyline");
    }

    @Test
    void badInputIsAClearError() {
        double[][] ok = Curve.SPIRAL2D.sample(100, 2, 1, 1);
        RidgeOptions o = RidgeOptions.of(Backend.JVM, 2);
        assertMessage("at least 3 points", () -> Ridge.detect(new double[][] {{0, 1}, {0, 1}}, o));
        assertMessage("R1 must be", () -> Ridge.detect(ok, RidgeOptions.of(Backend.JVM, 0)));
        assertMessage("R1 must be", () -> Ridge.detect(ok, RidgeOptions.of(Backend.JVM, Double.NaN)));
        assertMessage("R2 must be", () -> Ridge.detect(ok, o.withR2(-1)));
        double[][] nan = {ok[0].clone(), ok[1].clone()};
        nan[1][42] = Double.POSITIVE_INFINITY;
        assertMessage("point 42", () -> Ridge.detect(nan, o));
        double[][] big = {ok[0].clone(), ok[1].clone()};
        big[0][7] = 1e300;
        assertMessage("does not fit a float", () -> Ridge.detect(big, o.withPrecision(Precision.FLOAT)));
        assertMessage("dimensions 1 to 16", () -> Ridge.detect(new double[17][10], o));
        assertMessage("name 3 dimensions", () -> Ridge.detect(ok, o.withTiles(new int[] {1, 2, 3}, 100)));
        assertMessage("give 1 along most dimensions", () -> Ridge.detect(new double[16][10], o.withTiles(null, 100)));
    }

    private static void assertMessage(String part, org.junit.jupiter.api.function.Executable e) {
        AccelGeomException x = assertThrows(AccelGeomException.class, e);
        assertTrue(x.getMessage().contains(part), x.getMessage());
    }

    @Test
    void sixteenDimensionsRunOnEveryJvmBackendAlike() {
        // the largest dimension; sparse in 16D, the evolution may cycle (docs/ridge.md), so the run is capped
        double[][] p = Curve.SEGMENT.sample(1500, 16, 4.0, 21);
        RidgeOptions o = RidgeOptions.of(Backend.JVM, 8.0).withMaxIterations(40).withPrecision(Precision.FLOAT);
        RidgeResult ref = Ridge.detect(p, o);
        int[] tiles = new int[16];
        java.util.Arrays.fill(tiles, 1);
        tiles[0] = 4; // 4 tiles along the segment, 1 along the other 15 axes (Fig. 4.12's layout)
        RidgeResult par = Ridge.detect(p, o.withBackend(Backend.JVM_PARALLEL).withTiles(tiles, 400).withThreads(3));
        RidgeResult refTiled = Ridge.detect(p, o.withTiles(tiles, 400));
        assertEquals(16, ref.dimension());
        assertArrayEquals(refTiled.representatives(), par.representatives(), 0.0);
        assertTrue(ref.count() >= Decimate.FLOOR);
        assertTrue(refTiled.stats().tiles() >= 4, "tiles " + refTiled.stats().tiles());
    }

    @Test
    void iterationCapStopsAndIsReported() {
        double[][] p = Curve.SPIRAL2D.sample(2000, 2, 4.17, 3);
        RidgeResult r = Ridge.detect(p, RidgeOptions.of(Backend.JVM, 8.34).withMaxIterations(2));
        assertTrue(r.stats().capped());
        assertTrue(r.stats().evolveIterations() <= 2 * r.stats().outerIterations());
    }

    @Test
    void generatorsAreSeededAndHaveTheStatedSpread() {
        double[][] a = Curve.SEGMENT.sample(50000, 4, 2.0, 9);
        assertArrayEquals(a[0], Curve.SEGMENT.sample(50000, 4, 2.0, 9)[0], 0.0);
        double s2 = 0;
        for (int i = 0; i < 50000; i++) {
            for (int c = 1; c < 4; c++) {
                s2 += a[c][i] * a[c][i];
            }
        }
        double perCoordinate = Math.sqrt(s2 / (3 * 50000));
        assertEquals(2.0 / Math.sqrt(4), perCoordinate, 0.02, "N(0, σ/√d) per coordinate");
    }
}
