package org.accelgeom.hull;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Checks the predicates against an independent oracle: the same determinants evaluated in BigDecimal, where
 * the value of every double is exact and sums, differences and products are exact too.
 */
class PredicatesTest {

    // ---------------------------------------------------------------------------------------------------
    // The oracle and the naive double evaluation

    /**
     * The exact value of x times 2^-emin, as a BigDecimal integer. Scaling every coordinate by the same power
     * of two multiplies a determinant of degree n by 2^(-n emin) > 0, so signs are unchanged; the integers
     * make BigDecimal faster than {@code new BigDecimal(x)}, whose long decimal fractions need rescaling in
     * every sum ({@link #oracleScalingAgreesWithPlainBigDecimal} checks both give the same signs).
     */
    private static BigDecimal big(double x, int emin) {
        if (x == 0.0) {
            return BigDecimal.ZERO;
        }
        int e = Math.getExponent(x) - 52;             // x = m 2^e with an integer m, |m| < 2^53 (x normal)
        long m = (long) Math.scalb(x, -e);
        return new BigDecimal(BigInteger.valueOf(m).shiftLeft(e - emin));
    }

    /** The exponent of the lowest bit any of the (normal) doubles can have. */
    private static int lowestExponent(double... xs) {
        int emin = Integer.MAX_VALUE;
        for (double x : xs) {
            if (x != 0.0) {
                emin = Math.min(emin, Math.getExponent(x) - 52);
            }
        }
        return emin == Integer.MAX_VALUE ? 0 : emin;
    }

    /** sign | a−d ; b−d ; c−d |, exactly. */
    static int oracleOrient3d(double[] a, double[] b, double[] c, double[] d) {
        int emin = lowestExponent(a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2], d[0], d[1], d[2]);
        BigDecimal[] p = new BigDecimal[12];
        double[][] q = {a, b, c, d};
        for (int i = 0; i < 12; i++) {
            p[i] = big(q[i / 3][i % 3], emin);
        }
        return det3(p).signum();
    }

    /** The same, with the textbook {@code new BigDecimal(double)} and no scaling. */
    static int plainOracleOrient3d(double[] a, double[] b, double[] c, double[] d) {
        BigDecimal[] p = new BigDecimal[12];
        double[][] q = {a, b, c, d};
        for (int i = 0; i < 12; i++) {
            p[i] = new BigDecimal(q[i / 3][i % 3]);
        }
        return det3(p).signum();
    }

    /** | a−d ; b−d ; c−d | for the points p[0..2], p[3..5], p[6..8], p[9..11]. */
    private static BigDecimal det3(BigDecimal[] p) {
        BigDecimal adx = p[0].subtract(p[9]), ady = p[1].subtract(p[10]), adz = p[2].subtract(p[11]);
        BigDecimal bdx = p[3].subtract(p[9]), bdy = p[4].subtract(p[10]), bdz = p[5].subtract(p[11]);
        BigDecimal cdx = p[6].subtract(p[9]), cdy = p[7].subtract(p[10]), cdz = p[8].subtract(p[11]);
        return adx.multiply(bdy.multiply(cdz).subtract(bdz.multiply(cdy)))
                .subtract(ady.multiply(bdx.multiply(cdz).subtract(bdz.multiply(cdx))))
                .add(adz.multiply(bdx.multiply(cdy).subtract(bdy.multiply(cdx))));
    }

    /** sign (b−a) × (c−a), exactly. */
    static int oracleOrient2d(double ax, double ay, double bx, double by, double cx, double cy) {
        int emin = lowestExponent(ax, ay, bx, by, cx, cy);
        BigDecimal bax = big(bx, emin).subtract(big(ax, emin)), bay = big(by, emin).subtract(big(ay, emin));
        BigDecimal cax = big(cx, emin).subtract(big(ax, emin)), cay = big(cy, emin).subtract(big(ay, emin));
        return bax.multiply(cay).subtract(bay.multiply(cax)).signum();
    }

    static int plainOracleOrient2d(double ax, double ay, double bx, double by, double cx, double cy) {
        BigDecimal bax = new BigDecimal(bx).subtract(new BigDecimal(ax));
        BigDecimal bay = new BigDecimal(by).subtract(new BigDecimal(ay));
        BigDecimal cax = new BigDecimal(cx).subtract(new BigDecimal(ax));
        BigDecimal cay = new BigDecimal(cy).subtract(new BigDecimal(ay));
        return bax.multiply(cay).subtract(bay.multiply(cax)).signum();
    }

    static boolean oracleCollinear(double[] a, double[] b, double[] c) {
        return oracleOrient2d(a[0], a[1], b[0], b[1], c[0], c[1]) == 0
                && oracleOrient2d(a[1], a[2], b[1], b[2], c[1], c[2]) == 0
                && oracleOrient2d(a[2], a[0], b[2], b[0], c[2], c[0]) == 0;
    }

    /** sign ((b−a) × (c−a))·(p−a) evaluated naively in double: what {@code side} would be without care. */
    static int naiveSide(double[] a, double[] b, double[] c, double[] p) {
        double ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2];
        double vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
        double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
        return (int) Math.signum(nx * (p[0] - a[0]) + ny * (p[1] - a[1]) + nz * (p[2] - a[2]));
    }

    static int naiveOrient2d(double ax, double ay, double bx, double by, double cx, double cy) {
        return (int) Math.signum((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
    }

    static int orient3d(double[] a, double[] b, double[] c, double[] d) {
        return Predicates.orient3d(a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2], d[0], d[1], d[2]);
    }

    static int orient3dExact(double[] a, double[] b, double[] c, double[] d) {
        return Predicates.orient3dExact(a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2], d[0], d[1], d[2]);
    }

    static int orient3dFiltered(double[] a, double[] b, double[] c, double[] d) {
        return Predicates.orient3dFiltered(a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2], d[0], d[1], d[2]);
    }

    static int side(double[] a, double[] b, double[] c, double[] p) {
        return Predicates.side(a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2], p[0], p[1], p[2]);
    }

    static int sideFiltered(double[] a, double[] b, double[] c, double[] p) {
        return Predicates.sideFiltered(a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2], p[0], p[1], p[2]);
    }

    static boolean collinear3d(double[] a, double[] b, double[] c) {
        return Predicates.collinear3d(a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]);
    }

    /**
     * Checks every predicate of the 3D family on (a, b, c, d) against the oracle, and returns the oracle's
     * answer: orient3d, its exact stage alone, side, the filtered stages when they decide.
     */
    static int check3d(double[] a, double[] b, double[] c, double[] d) {
        int expected = oracleOrient3d(a, b, c, d);
        assertEquals(expected, orient3d(a, b, c, d), () -> "orient3d " + text(a, b, c, d));
        assertEquals(expected, orient3dExact(a, b, c, d), () -> "orient3dExact " + text(a, b, c, d));
        assertEquals(-expected, side(a, b, c, d), () -> "side " + text(a, b, c, d));
        int filtered = orient3dFiltered(a, b, c, d);
        if (filtered != Predicates.UNCERTAIN) {
            assertEquals(expected, filtered, () -> "orient3dFiltered " + text(a, b, c, d));
            assertEquals(-expected, sideFiltered(a, b, c, d), () -> "sideFiltered " + text(a, b, c, d));
        } else {
            assertEquals(Predicates.UNCERTAIN, sideFiltered(a, b, c, d));
        }
        return expected;
    }

    static int check2d(double ax, double ay, double bx, double by, double cx, double cy) {
        int expected = oracleOrient2d(ax, ay, bx, by, cx, cy);
        String text = "orient2d (" + ax + ", " + ay + ") (" + bx + ", " + by + ") (" + cx + ", " + cy + ")";
        assertEquals(expected, Predicates.orient2d(ax, ay, bx, by, cx, cy), text);
        assertEquals(expected, Predicates.orient2dExact(ax, ay, bx, by, cx, cy), text + " exact stage");
        int filtered = Predicates.orient2dFiltered(ax, ay, bx, by, cx, cy);
        if (filtered != Predicates.UNCERTAIN) {
            assertEquals(expected, filtered, text + " filtered");
        }
        return expected;
    }

    private static String text(double[]... points) {
        StringBuilder s = new StringBuilder();
        for (double[] p : points) {
            s.append('(').append(p[0]).append(", ").append(p[1]).append(", ").append(p[2]).append(") ");
        }
        return s.toString();
    }

    // ---------------------------------------------------------------------------------------------------
    // Input generators

    /** A double in [-1, 1) times 2^e: an integer multiple of 2^(e-53), so within the documented range. */
    private static double coord(SplittableRandom rnd, int e) {
        return Math.scalb(2.0 * rnd.nextDouble() - 1.0, e);
    }

    /** Random coordinates of mixed magnitudes, one of four flavours, all within the 3D range. */
    private static double[] mixedPoint(SplittableRandom rnd, int flavour, int caseExponent) {
        double[] p = new double[3];
        for (int k = 0; k < 3; k++) {
            p[k] = switch (flavour) {
                case 0 -> coord(rnd, 0);                                        // unit cube
                case 1 -> coord(rnd, rnd.nextInt(-40, 41));                     // each coordinate its own scale
                case 2 -> coord(rnd, caseExponent + rnd.nextInt(-4, 5));        // one huge or tiny scale
                default -> rnd.nextInt(8) == 0 ? 0.0 : coord(rnd, rnd.nextInt(-300, 336)); // anything in range
            };
        }
        return p;
    }

    private static double[] randomIntPoint(SplittableRandom rnd, long bound) {
        return new double[] {rnd.nextLong(-bound, bound + 1), rnd.nextLong(-bound, bound + 1),
                rnd.nextLong(-bound, bound + 1)};
    }

    private static double[] scaled(double[] p, int e) {
        return new double[] {Math.scalb(p[0], e), Math.scalb(p[1], e), Math.scalb(p[2], e)};
    }

    /**
     * A copy of p with coordinate k moved one ulp up or down; a zero moves to ±2^-300 instead, since one ulp
     * of zero, a subnormal, is outside the documented range.
     */
    private static double[] nudged(double[] p, int k, boolean up) {
        double[] q = p.clone();
        if (q[k] == 0.0) {
            q[k] = up ? 0x1p-300 : -0x1p-300;
        } else {
            q[k] = up ? Math.nextUp(q[k]) : Math.nextDown(q[k]);
        }
        return q;
    }

    // ---------------------------------------------------------------------------------------------------
    // Conventions

    @Test
    void signConventionsOnTheUnitTetrahedron() {
        double[] o = {0, 0, 0}, x = {1, 0, 0}, y = {0, 1, 0}, z = {0, 0, 1}, under = {0.25, 0.25, -1};
        // (x - o) × (y - o) = +z: o, x, y are counter-clockwise seen from above (from +z)
        assertEquals(1, side(o, x, y, z), "z is on the side the normal points to");
        assertEquals(-1, side(o, x, y, under));
        assertEquals(-1, orient3d(o, x, y, z), "orient3d is positive below, negative above");
        assertEquals(1, orient3d(o, x, y, under));
        assertEquals(0, orient3d(o, x, y, new double[] {3, -7, 0}));
        assertEquals(0, side(o, x, new double[] {2, 0, 0}, z), "collinear a, b, c: every p is coplanar");
        assertEquals(0, side(o, o, o, o));

        assertEquals(1, Predicates.orient2d(0, 0, 1, 0, 0, 1), "counter-clockwise");
        assertEquals(-1, Predicates.orient2d(0, 0, 0, 1, 1, 0), "clockwise");
        assertEquals(0, Predicates.orient2d(0, 0, 1, 1, 3, 3));
        assertEquals(0, Predicates.orient2d(5, 5, 5, 5, 5, 5));

        assertTrue(Predicates.collinear3d(0, 0, 0, 1, 2, 3, -2, -4, -6));
        assertTrue(Predicates.collinear3d(1, 2, 3, 1, 2, 3, 1, 2, 3));
        assertTrue(Predicates.collinear3d(1, 2, 3, 1, 2, 3, 7, 8, 9), "two coincident points");
        assertFalse(Predicates.collinear3d(0, 0, 0, 1, 2, 3, -2, -4, -5));
    }

    @Test
    void exactCounterCountsOnlyFallbacks() {
        Predicates.resetExactEvaluations();
        assertEquals(0, Predicates.exactEvaluations());
        Predicates.orient3d(0, 0, 0, 1, 0, 0, 0, 1, 0, 0.3, 0.3, 1);
        Predicates.orient2d(0, 0, 1, 0, 0, 1);
        assertEquals(0, Predicates.exactEvaluations(), "well-separated inputs stay in stage A");
        // coplanar but not trivially: no product is zero, so the filter cannot certify the zero
        Predicates.orient3d(1, 2, 3, 4, 5, 7, 2, 9, 4, 5, 12, 8);   // d = b + c - a
        Predicates.orient2d(1, 1, 2, 3, 3, 5);
        assertEquals(2, Predicates.exactEvaluations());
    }

    // ---------------------------------------------------------------------------------------------------
    // (a) random inputs of mixed magnitudes

    @Test
    void orient3dMatchesOracleOnRandomMixedMagnitudes() {
        SplittableRandom rnd = new SplittableRandom(20240611L);
        int[] signs = new int[3];
        for (int n = 0; n < 100_000; n++) {
            int flavour = n & 3;
            int caseExponent = rnd.nextInt(-300, 331);
            double[] a = mixedPoint(rnd, flavour, caseExponent), b = mixedPoint(rnd, flavour, caseExponent);
            double[] c = mixedPoint(rnd, flavour, caseExponent), d = mixedPoint(rnd, flavour, caseExponent);
            signs[check3d(a, b, c, d) + 1]++;
        }
        assertTrue(signs[0] > 30_000 && signs[2] > 30_000, "both signs occur");
    }

    @Test
    void orient2dMatchesOracleOnRandomMixedMagnitudes() {
        SplittableRandom rnd = new SplittableRandom(7L);
        for (int n = 0; n < 100_000; n++) {
            int flavour = n & 3;
            int caseExponent = rnd.nextInt(-300, 331);
            double[] a = mixedPoint(rnd, flavour, caseExponent), b = mixedPoint(rnd, flavour, caseExponent);
            double[] c = mixedPoint(rnd, flavour, caseExponent);
            check2d(a[0], a[1], b[0], b[1], c[0], c[1]);
        }
    }

    /** Issue 16: coordinates anywhere in the double range, subnormals and the largest doubles included. */
    @Test
    void predicatesMatchOracleAtEveryMagnitude() {
        SplittableRandom rnd = new SplittableRandom(16L);
        int[] signs = new int[3];
        for (int n = 0; n < 8_000; n++) {
            int e = rnd.nextInt(-1074, 1023);
            double[][] q = new double[4][3];
            for (int i = 0; i < 4; i++) {
                for (int k = 0; k < 3; k++) {
                    q[i][k] = switch (n & 3) {
                        case 0 -> coord(rnd, e);                                       // one scale, anywhere
                        case 1 -> rnd.nextInt(6) == 0 ? 0.0 : coord(rnd, rnd.nextInt(-1074, 1023)); // any mix
                        case 2 -> Math.scalb((double) rnd.nextInt(-3, 4), Math.min(e, 1020)); // coplanar often
                        default -> coord(rnd, Math.min(1020, e + rnd.nextInt(-60, 61)));  // a band of scales
                    };
                }
            }
            if ((n & 7) == 3) {
                // d = a + b - c rounded: coplanar or off the plane by a rounding error
                for (int k = 0; k < 3; k++) {
                    q[3][k] = q[0][k] + q[1][k] - q[2][k];
                }
            }
            if (!(Double.isFinite(q[3][0]) && Double.isFinite(q[3][1]) && Double.isFinite(q[3][2]))) {
                continue;
            }
            signs[check3d(q[0], q[1], q[2], q[3]) + 1]++;
            check2d(q[0][0], q[0][1], q[1][0], q[1][1], q[3][0], q[3][1]);
        }
        assertTrue(signs[0] > 2_000 && signs[1] > 50 && signs[2] > 2_000, "signs " + java.util.Arrays.toString(signs));
        // products that underflow to zero are not zero products: a tetrahedron of subnormal size
        double t = 0x1p-1070;
        assertEquals(1, Predicates.orient3d(t, 0, 0, 0, t, 0, 0, 0, t, 0, 0, 0));
        assertEquals(Predicates.UNCERTAIN, Predicates.orient3dFiltered(t, 0, 0, 0, t, 0, 0, 0, t, 0, 0, 0));
        assertEquals(1, Predicates.orient2d(0, 0, t, 0, 0, t));
        assertFalse(Predicates.collinear3d(0, 0, 0, t, 0, 0, 0, t, 0));
        // a product that underflows, multiplied by a huge difference: the old filter's bound missed this error
        double[] a = {0x1p-600, 0, 0x1p1000};
        double[] b = {0, 0x1p-600, 0};
        double[] c = {0, 0, 0};
        double[] d = {0x1p-600, 0x1p-600, 0x1p-1074};
        check3d(a, b, c, d);
        // overflow: the largest doubles
        double m = Double.MAX_VALUE;
        assertEquals(-1, Predicates.orient2d(-m, -m, m, m, m, -m));
        assertEquals(0, Predicates.orient2d(-m, -m, m, m, 0, 0));
        assertEquals(1, check3d(new double[] {m, 0, 0}, new double[] {0, m, 0}, new double[] {0, 0, m}, new double[3]));
        assertEquals(0, check3d(new double[] {m, -m, 0}, new double[] {-m, m, 0}, new double[] {m, m, 0},
                new double[] {-m, -m, 0}));
        check3d(new double[] {-m, 0, 0}, new double[] {0, -m, 0}, new double[] {0, 0, -m}, new double[] {m, m, m});
    }

    @Test
    void oracleScalingAgreesWithPlainBigDecimal() {
        SplittableRandom rnd = new SplittableRandom(3L);
        for (int n = 0; n < 4_000; n++) {
            int flavour = n & 3;
            int caseExponent = rnd.nextInt(-300, 331);
            double[] a = mixedPoint(rnd, flavour, caseExponent), b = mixedPoint(rnd, flavour, caseExponent);
            double[] c = mixedPoint(rnd, flavour, caseExponent), d = mixedPoint(rnd, flavour, caseExponent);
            if (n % 8 == 0) {
                d = new double[] {a[0] + b[0] - c[0], a[1] + b[1] - c[1], a[2] + b[2] - c[2]}; // often coplanar
            }
            assertEquals(plainOracleOrient3d(a, b, c, d), oracleOrient3d(a, b, c, d));
            assertEquals(plainOracleOrient2d(a[0], a[1], b[0], b[1], d[0], d[1]),
                    oracleOrient2d(a[0], a[1], b[0], b[1], d[0], d[1]));
        }
        assertEquals(0, oracleOrient3d(new double[3], new double[3], new double[3], new double[3]));
    }

    // ---------------------------------------------------------------------------------------------------
    // (b) exactly coplanar / collinear points on integer and binary-fraction grids, then moved one ulp

    /** Binary exponents by which the integer grids are scaled: fractions, and both ends of the 3D range. */
    private static final int[] GRID_SCALES_3D = {0, -1, -30, -60, -250, -300, 100, 290};

    @Test
    void orient3dOnCoplanarGridPointsAndOneUlpAway() {
        SplittableRandom rnd = new SplittableRandom(11L);
        long exactBefore = Predicates.exactEvaluations();
        int nonzeroAfterNudge = 0;
        for (int n = 0; n < 4_000; n++) {
            long bound = 1L << rnd.nextInt(2, 41);
            double[] a = randomIntPoint(rnd, bound), b = randomIntPoint(rnd, bound), c = randomIntPoint(rnd, bound);
            long s = rnd.nextLong(-8, 9), t = rnd.nextLong(-8, 9);
            double[] d = new double[3];
            for (int k = 0; k < 3; k++) {
                d[k] = a[k] + s * (b[k] - a[k]) + t * (c[k] - a[k]);   // integers below 2^46: exact
            }
            int e = GRID_SCALES_3D[n % GRID_SCALES_3D.length];
            a = scaled(a, e);
            b = scaled(b, e);
            c = scaled(c, e);
            d = scaled(d, e);
            assertEquals(0, check3d(a, b, c, d), "the grid points are coplanar");
            assertEquals(0, orient3d(a, b, c, d));

            double[][] q = {a, b, c, d};
            int which = rnd.nextInt(4);
            q[which] = nudged(q[which], rnd.nextInt(3), rnd.nextBoolean());
            if (check3d(q[0], q[1], q[2], q[3]) != 0) {
                nonzeroAfterNudge++;
            }
            checkAllPermutations3d(q[0], q[1], q[2], q[3]);
        }
        assertTrue(nonzeroAfterNudge > 3_000, "one ulp usually leaves the plane: " + nonzeroAfterNudge);
        assertTrue(Predicates.exactEvaluations() - exactBefore > 4_000, "the exact stage ran");
    }

    @Test
    void orient2dOnCollinearGridPointsAndOneUlpAway() {
        SplittableRandom rnd = new SplittableRandom(12L);
        int[] scales = {0, -1, -30, -60, -400, -480, 200, 450};
        int nonzeroAfterNudge = 0;
        for (int n = 0; n < 20_000; n++) {
            long bound = 1L << rnd.nextInt(2, 47);
            double[] a = randomIntPoint(rnd, bound), b = randomIntPoint(rnd, bound);
            long t = rnd.nextLong(-8, 9);
            double[] c = {a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), 0};
            int e = scales[n % scales.length];
            double[][] q = {scaled(a, e), scaled(b, e), scaled(c, e)};
            assertEquals(0, check2d(q[0][0], q[0][1], q[1][0], q[1][1], q[2][0], q[2][1]));
            int which = rnd.nextInt(3);
            q[which] = nudged(q[which], rnd.nextInt(2), rnd.nextBoolean());
            if (check2d(q[0][0], q[0][1], q[1][0], q[1][1], q[2][0], q[2][1]) != 0) {
                nonzeroAfterNudge++;
            }
            checkAllPermutations2d(q[0], q[1], q[2]);
        }
        assertTrue(nonzeroAfterNudge > 15_000, "one ulp usually leaves the line: " + nonzeroAfterNudge);
    }

    @Test
    void collinear3dOnGridLinesAndOneUlpAway() {
        SplittableRandom rnd = new SplittableRandom(13L);
        int[] scales = {0, -1, -30, -60, -400, -480, 200, 450};
        int offLine = 0;
        for (int n = 0; n < 20_000; n++) {
            long bound = 1L << rnd.nextInt(2, 47);
            double[] a = randomIntPoint(rnd, bound), b = randomIntPoint(rnd, bound);
            long t = rnd.nextLong(-8, 9);
            double[] c = {a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2])};
            int e = scales[n % scales.length];
            double[][] q = {scaled(a, e), scaled(b, e), scaled(c, e)};
            assertTrue(collinear3d(q[0], q[1], q[2]), () -> "collinear " + text(q));
            assertTrue(collinear3d(q[2], q[0], q[1]));
            int which = rnd.nextInt(3);
            q[which] = nudged(q[which], rnd.nextInt(3), rnd.nextBoolean());
            boolean expected = oracleCollinear(q[0], q[1], q[2]);
            assertEquals(expected, collinear3d(q[0], q[1], q[2]), () -> "collinear " + text(q));
            assertEquals(expected, collinear3d(q[1], q[2], q[0]));
            assertEquals(expected, collinear3d(q[1], q[0], q[2]));
            if (!expected) {
                offLine++;
            }
            // a random third point is almost never on the line, and the predicate must agree either way
            double[] r = randomIntPoint(rnd, bound);
            assertEquals(oracleCollinear(q[0], q[1], r), collinear3d(q[0], q[1], r));
        }
        assertTrue(offLine > 15_000, "one ulp usually leaves the line: " + offLine);
    }

    // ---------------------------------------------------------------------------------------------------
    // (c) Shewchuk's hard cases: points a few ulps from a line or plane through 0.5

    @Test
    void orient2dShewchukGridNearTheDiagonal() {
        // Figure 1 of the paper: a = (0.5 + i u, 0.5 + j u), b = (12, 12), c = (24, 24), u = 2^-53
        double u = 0x1p-53;
        int naiveWrong = 0;
        int zeros = 0;
        for (int i = 0; i < 256; i++) {
            for (int j = 0; j < 256; j++) {
                double ax = 0.5 + i * u, ay = 0.5 + j * u;
                int expected = check2d(ax, ay, 12, 12, 24, 24);
                assertEquals(Integer.signum(j - i), expected, "the sign is that of y - x");
                assertEquals(expected, Predicates.orient2d(12, 12, 24, 24, ax, ay));
                if (naiveOrient2d(ax, ay, 12, 12, 24, 24) != expected) {
                    naiveWrong++;
                }
                if (expected == 0) {
                    zeros++;
                }
            }
        }
        assertEquals(256, zeros);
        assertTrue(naiveWrong > 1_000, "the naive formula fails here: " + naiveWrong);
    }

    @Test
    void orient3dShewchukStyleGridNearAPlane() {
        // a, b, c lie on the plane x + y - 2z = 0; p = (0.5 + i u, 0.5 + j u, 0.5 + 64 u) is off it by (i + j - 128) u
        double u = 0x1p-53;
        double[] a = {12, 24, 18}, b = {24, 12, 18}, c = {-7, 3, -2};
        int naiveWrong = 0;
        for (int i = 0; i < 128; i++) {
            for (int j = 0; j < 128; j++) {
                double[] p = {0.5 + i * u, 0.5 + j * u, 0.5 + 64 * u};
                int expected = -check3d(a, b, c, p);
                // the normal (b - a) × (c - a) = (240, 240, -480) points to where x + y - 2z > 0
                assertEquals(Integer.signum(i + j - 128), expected);
                if (naiveSide(a, b, c, p) != expected) {
                    naiveWrong++;
                }
                if ((i + j) % 16 == 0) {
                    checkAllPermutations3d(a, b, c, p);
                }
            }
        }
        assertTrue(naiveWrong > 100, "the naive formula fails here: " + naiveWrong);
    }

    // ---------------------------------------------------------------------------------------------------
    // (d) large coordinates: points around 1e15 near a line / plane, where doubles lose the sign

    @Test
    void orient3dLargeCoordinatesWhereTheNaiveFormulaFails() {
        SplittableRandom rnd = new SplittableRandom(14L);
        long exactBefore = Predicates.exactEvaluations();
        int naiveWrong = 0;
        for (int n = 0; n < 20_000; n++) {
            // four points near the plane z = x + 2y, coordinates around 1e15, moved by a few eighths
            double[][] q = new double[4][];
            for (int k = 0; k < 4; k++) {
                double x = 1e15 + rnd.nextDouble(-1e15, 1e15), y = 1e15 + rnd.nextDouble(-1e15, 1e15);
                q[k] = new double[] {x, y, x + 2 * y + rnd.nextInt(-4, 5) * 0.125};
            }
            int expected = check3d(q[0], q[1], q[2], q[3]);
            if (naiveSide(q[0], q[1], q[2], q[3]) != -expected) {
                naiveWrong++;
            }
            if (n % 20 == 0) {
                checkAllPermutations3d(q[0], q[1], q[2], q[3]);
            }
        }
        assertTrue(naiveWrong > 100, "the naive formula gets the sign wrong: " + naiveWrong);
        assertTrue(Predicates.exactEvaluations() - exactBefore > naiveWrong, "the exact stage ran");
    }

    @Test
    void orient2dLargeCoordinatesWhereTheNaiveFormulaFails() {
        SplittableRandom rnd = new SplittableRandom(15L);
        int naiveWrong = 0;
        for (int n = 0; n < 50_000; n++) {
            // three points near the line y = 3x + 7, x around 1e15, moved by a few eighths
            double[][] q = new double[3][];
            for (int k = 0; k < 3; k++) {
                double x = 1e15 + rnd.nextDouble(-1e15, 1e15);
                q[k] = new double[] {x, 3 * x + 7 + rnd.nextInt(-4, 5) * 0.125};
            }
            int expected = check2d(q[0][0], q[0][1], q[1][0], q[1][1], q[2][0], q[2][1]);
            if (naiveOrient2d(q[0][0], q[0][1], q[1][0], q[1][1], q[2][0], q[2][1]) != expected) {
                naiveWrong++;
            }
            if (n % 10 == 0) {
                checkAllPermutations2d(q[0], q[1], q[2]);
            }
        }
        assertTrue(naiveWrong > 100, "the naive formula gets the sign wrong: " + naiveWrong);
    }

    @Test
    void collinear3dLargeCoordinates() {
        SplittableRandom rnd = new SplittableRandom(16L);
        int collinear = 0;
        for (int n = 0; n < 20_000; n++) {
            // points on the line (1e15, 2e15, 3e15) + t (1, 3, 5) for integers t: exact, then maybe moved
            double[][] q = new double[3][];
            for (int k = 0; k < 3; k++) {
                long t = rnd.nextLong(-(1L << 40), 1L << 40);
                q[k] = new double[] {1e15 + t, 2e15 + 3 * t, 3e15 + 5 * t};
            }
            if (rnd.nextBoolean()) {
                int which = rnd.nextInt(3);
                q[which] = nudged(q[which], rnd.nextInt(3), rnd.nextBoolean());
            }
            boolean expected = oracleCollinear(q[0], q[1], q[2]);
            assertEquals(expected, collinear3d(q[0], q[1], q[2]), () -> "collinear " + text(q));
            if (expected) {
                collinear++;
            }
        }
        assertTrue(collinear > 9_000 && collinear < 20_000, "both answers occur: " + collinear);
    }

    // ---------------------------------------------------------------------------------------------------
    // (e) sign symmetries: an odd permutation of the points flips the sign, an even one keeps it

    private static final int[][] PERMUTATIONS_4 = permutations(4);
    private static final int[][] PERMUTATIONS_3 = permutations(3);

    private static int[][] permutations(int n) {
        int count = n == 4 ? 24 : 6;
        int[][] out = new int[count][];
        int m = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                for (int k = 0; k < n; k++) {
                    if (i == j || j == k || i == k) {
                        continue;
                    }
                    out[m++] = n == 4 ? new int[] {i, j, k, 6 - i - j - k} : new int[] {i, j, k};
                }
            }
        }
        return out;
    }

    private static int parity(int[] p) {
        int inversions = 0;
        for (int i = 0; i < p.length; i++) {
            for (int j = i + 1; j < p.length; j++) {
                if (p[i] > p[j]) {
                    inversions++;
                }
            }
        }
        return inversions % 2 == 0 ? 1 : -1;
    }

    /** orient3d of every ordering of the four points is the sign of the ordering times that of (a, b, c, d). */
    private static void checkAllPermutations3d(double[] a, double[] b, double[] c, double[] d) {
        double[][] q = {a, b, c, d};
        int s = orient3d(a, b, c, d);
        for (int[] p : PERMUTATIONS_4) {
            assertEquals(parity(p) * s, orient3d(q[p[0]], q[p[1]], q[p[2]], q[p[3]]), () -> "permutation of "
                    + text(q));
        }
        // the face (a, b, c) seen from d: cyclic rotations of the face keep the side, a swap flips it
        assertEquals(side(a, b, c, d), side(b, c, a, d));
        assertEquals(side(a, b, c, d), side(c, a, b, d));
        assertEquals(-side(a, b, c, d), side(b, a, c, d));
    }

    private static void checkAllPermutations2d(double[] a, double[] b, double[] c) {
        double[][] q = {a, b, c};
        int s = Predicates.orient2d(a[0], a[1], b[0], b[1], c[0], c[1]);
        for (int[] p : PERMUTATIONS_3) {
            double[] x = q[p[0]], y = q[p[1]], z = q[p[2]];
            assertEquals(parity(p) * s, Predicates.orient2d(x[0], x[1], y[0], y[1], z[0], z[1]));
        }
    }

    @Test
    void permutationsTableIsComplete() {
        assertEquals(24, PERMUTATIONS_4.length);
        assertEquals(6, PERMUTATIONS_3.length);
        int even = 0;
        for (int[] p : PERMUTATIONS_4) {
            even += parity(p) > 0 ? 1 : 0;
        }
        assertEquals(12, even);
    }

    @Test
    void translationsByExactOffsetsKeepTheSign() {
        // moving all points by the same power-of-two-friendly offset is exact and must not change any answer
        SplittableRandom rnd = new SplittableRandom(17L);
        for (int n = 0; n < 2_000; n++) {
            double[] a = randomIntPoint(rnd, 1 << 20), b = randomIntPoint(rnd, 1 << 20);
            double[] c = randomIntPoint(rnd, 1 << 20);
            double[] d = {a[0] + b[0] - c[0], a[1] + b[1] - c[1], a[2] + b[2] - c[2] + (n % 3 - 1)};
            int s = check3d(a, b, c, d);
            double[] offset = {rnd.nextLong(-(1L << 30), 1L << 30), rnd.nextLong(-(1L << 30), 1L << 30), 0x1p40};
            double[][] q = {a.clone(), b.clone(), c.clone(), d.clone()};
            for (double[] p : q) {
                for (int k = 0; k < 3; k++) {
                    p[k] += offset[k];
                }
            }
            assertEquals(s, check3d(q[0], q[1], q[2], q[3]));
        }
    }
}
