package org.accelgeom.hull;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.Set;

import org.accelgeom.engine.Backend;
import org.accelgeom.io.PointCloud;
import org.junit.jupiter.api.Test;

/**
 * Issue 16, item 1: the hull is exact at every magnitude. Scaling by a power of two and exact translations
 * commute with the hull over the whole double range; the reproductions (cube · 1e110, 200 points ·
 * 2^400, ±1e308) and inputs whose range is too wide for any scaling (1e300 with subnormals).
 */
class HullMagnitudeTest {

    private static final Backend[] JVM_BACKENDS = {Backend.JVM, Backend.JVM_PARALLEL};

    private static HullResult hull(double[][] p, Backend b) {
        HullOptions o = HullOptions.of(b);
        return Hull.compute(p[0], p[1], p[2], b == Backend.JVM_PARALLEL ? o.withThreads(2) : o);
    }

    private static double[][] scaled(double[][] p, int k) {
        double[][] out = new double[3][p[0].length];
        for (int a = 0; a < 3; a++) {
            for (int i = 0; i < p[0].length; i++) {
                out[a][i] = Math.scalb(p[a][i], k);
                assertEquals(p[a][i], Math.scalb(out[a][i], -k), "test data: scaling by 2^" + k + " is not exact");
            }
        }
        return out;
    }

    private static void assertSameHull(HullResult expected, HullResult actual, String what) {
        assertEquals(expected.dimension(), actual.dimension(), what + ": dimension");
        assertEquals(HullChecks.toSet(expected.vertices()), HullChecks.toSet(actual.vertices()), what + ": vertices");
        Set<List<Integer>> ef = HullChecks.canonicalFacets(expected);
        assertEquals(ef, HullChecks.canonicalFacets(actual), what + ": facets");
    }

    private static double[][] cubeCorners(double s) {
        double[][] p = new double[3][8];
        for (int i = 0; i < 8; i++) {
            p[0][i] = (i & 1) == 0 ? -s : s;
            p[1][i] = (i & 2) == 0 ? -s : s;
            p[2][i] = (i & 4) == 0 ? -s : s;
        }
        return p;
    }

    /** Small integers (at most 4 bits): every 2^k times them, k in [-1070, 1019], is an exact double. */
    private static double[][] grid(int n, long seed) {
        return HullTest.points("grid", n, seed);
    }

    @Test
    void cubeTimes1e110HasEightVerticesAndSixFacets() {
        for (double s : new double[] {1e110, 1e200, 1e300, 1e-110, 1e-300, Double.MIN_VALUE}) {
            for (Backend b : JVM_BACKENDS) {
                HullResult h = hull(cubeCorners(s), b);
                assertEquals(3, h.dimension(), s + " " + b);
                assertEquals(8, h.vertices().length, s + " " + b);
                assertEquals(6, h.facetCount(), s + " " + b);
            }
        }
    }

    @Test
    void plusMinus1e308IsACubeNotAnException() {
        double[][] p = cubeCorners(1e308);
        // and the largest double with points inside the cube
        double[][] q = new double[3][12];
        for (int a = 0; a < 3; a++) {
            System.arraycopy(p[a], 0, q[a], 0, 8);
        }
        q[0][8] = Double.MAX_VALUE;
        q[0][9] = 0.5e308;
        q[1][10] = -1e308;
        q[2][11] = 1e-308;
        for (Backend b : JVM_BACKENDS) {
            HullResult h = hull(q, b);
            assertEquals(Set.of(0, 1, 2, 3, 4, 5, 6, 7, 8), HullChecks.toSet(h.vertices()), b.toString());
            assertEquals(9, h.facetCount(), b.toString()); // the +x face became a square pyramid of 4 triangles
        }
    }

    @Test
    void twoHundredPointsTimes2To400KeepTheirHull() {
        PointCloud c = RandomPoints.ball(200, 1);
        double[][] p = {c.x(), c.y(), c.z()};
        HullResult reference = hull(p, Backend.JVM);
        HullChecks.checkPolytope(p[0], p[1], p[2], reference);
        assertTrue(reference.vertices().length > 30, "the test needs a hull with many vertices");
        for (int k : new int[] {400, 600, 800, 970, -400, -700, -900}) {
            for (Backend b : JVM_BACKENDS) {
                assertSameHull(reference, hull(scaled(p, k), b), "2^" + k + " " + b);
            }
        }
    }

    @Test
    void scalingByPowersOfTwoCommutesOverTheWholeRange() {
        for (int seed = 0; seed < 3; seed++) {
            double[][] p = grid(20 + 15 * seed, 500 + seed);
            HullResult reference = hull(p, Backend.JVM);
            // compared as coordinates: of duplicate points either copy may be the vertex
            assertEquals(coords(p, HullChecks.bruteForceVertices(p[0], p[1], p[2])),
                    coords(p, HullChecks.toSet(reference.vertices())), "brute force, seed " + seed);
            for (int k = -1070; k <= 1019; k += 47 + seed) {
                double[][] q = scaled(p, k);
                for (Backend b : JVM_BACKENDS) {
                    assertSameHull(reference, hull(q, b), "seed " + seed + " 2^" + k + " " + b);
                }
            }
        }
        // random doubles (53-bit mantissas): 2^k exact for k in [-1021 + 53, 1023]
        double[][] p = HullTest.points("ball", 300, 9);
        HullResult reference = hull(p, Backend.JVM);
        for (int k = -968; k <= 1022; k += 30) {
            assertSameHull(reference, hull(scaled(p, k), Backend.JVM), "ball 2^" + k);
        }
    }

    @Test
    void exactTranslationsCommuteAtEveryMagnitude() {
        for (int seed = 0; seed < 4; seed++) {
            double[][] p = grid(40, 900 + seed);
            HullResult reference = hull(p, Backend.JVM);
            for (int k : new int[] {-1000, -600, -200, 0, 200, 600, 900}) {
                // 2^k (P + t): t = (5, -3, 7) · 2^j keeps every sum exact while it spans fewer than 53 bits
                for (int j : new int[] {0, 10, 40, 48}) {
                    double[][] q = new double[3][p[0].length];
                    double[] t = {5 * Math.scalb(1.0, j), -3 * Math.scalb(1.0, j), 7 * Math.scalb(1.0, j)};
                    for (int a = 0; a < 3; a++) {
                        for (int i = 0; i < q[a].length; i++) {
                            q[a][i] = Math.scalb(p[a][i] + t[a], k);
                        }
                    }
                    for (Backend b : JVM_BACKENDS) {
                        assertSameHull(reference, hull(q, b), "seed " + seed + " 2^" + k + " t·2^" + j + " " + b);
                    }
                }
            }
        }
    }

    @Test
    void rangesTooWideForScalingAreStillExact() {
        double t = 0x1p-1070;
        double f = 1e300;
        // a tiny tetrahedron at the origin (subnormal coordinates), a point on its edge, and a far point
        double[][] p = {
            {0, t, 0, 0, t / 2, f},
            {0, 0, t, 0, t / 2, f},
            {0, 0, 0, t, 0, f}};
        for (Backend b : JVM_BACKENDS) {
            HullResult h = hull(p, b);
            assertEquals(Set.of(0, 1, 2, 3, 5), HullChecks.toSet(h.vertices()), b.toString());
            assertEquals(6, h.facetCount(), b.toString());
            assertContains(p, h);
        }
        // the cube at 1e300 with a point just outside a face by a subnormal, and points inside
        double[][] q = new double[3][11];
        double[][] cube = cubeCorners(1e300);
        for (int a = 0; a < 3; a++) {
            System.arraycopy(cube[a], 0, q[a], 0, 8);
        }
        q[0][8] = 1e300;
        q[1][8] = Double.MIN_VALUE;   // on the +x face: not a vertex
        q[2][9] = Double.MIN_VALUE;   // inside
        q[0][10] = -1e-300;           // inside
        for (Backend b : JVM_BACKENDS) {
            HullResult h = hull(q, b);
            assertEquals(Set.of(0, 1, 2, 3, 4, 5, 6, 7), HullChecks.toSet(h.vertices()), b.toString());
            assertEquals(6, h.facetCount(), b.toString());
            assertContains(q, h);
        }
    }

    @Test
    void degenerateInputsAtExtremeMagnitudes() {
        // collinear, coplanar and single points with coordinates of very different magnitudes
        double[][] line = {{-1e300, 0, 1e-300, 1e300}, {0, 0, 0, 0}, {5e-324, 5e-324, 5e-324, 5e-324}};
        HullResult l = hull(line, Backend.JVM);
        assertEquals(1, l.dimension());
        assertEquals(Set.of(0, 3), HullChecks.toSet(l.vertices()));
        double[][] plane = {{-1e300, 1e300, 0, 1e-300, 0}, {0, 0, 1e300, 1e-300, 5e-324}, {7, 7, 7, 7, 7}};
        HullResult pl = hull(plane, Backend.JVM);
        assertEquals(2, pl.dimension());
        assertEquals(Set.of(0, 1, 2), HullChecks.toSet(pl.vertices()));
        double[][] point = {{1e-320, 1e-320}, {1e300, 1e300}, {0, 0}};
        assertEquals(0, hull(point, Backend.JVM).dimension());
        // rounded copies that coincide: only the exact coordinates tell these points apart
        double[][] hidden = {{1e300, 1e300, 1e300, 1e300}, {0, 1e-300, 0, 0}, {0, 0, 1e-300, -1e-300}};
        HullResult h = hull(hidden, Backend.JVM);
        assertEquals(2, h.dimension());
        assertEquals(Set.of(1, 2, 3), HullChecks.toSet(h.vertices()));
    }

    private static Set<String> coords(double[][] p, Set<Integer> idx) {
        Set<String> out = new java.util.TreeSet<>();
        for (int i : idx) {
            out.add(p[0][i] + "," + p[1][i] + "," + p[2][i]);
        }
        return out;
    }

    /** Every point inside or on every facet, and every facet's corners coplanar: exact predicates only. */
    private static void assertContains(double[][] p, HullResult h) {
        for (int f = 0; f < h.facetCount(); f++) {
            int s = h.facetStart()[f];
            int a = h.facetIndex()[s];
            int b = h.facetIndex()[s + 1];
            int c = h.facetIndex()[s + 2];
            for (int i = 0; i < p[0].length; i++) {
                if (HullChecks.side(p[0], p[1], p[2], a, b, c, i) > 0) {
                    fail("point " + i + " is outside facet " + f);
                }
            }
            for (int k = 3; k < h.facetStart()[f + 1] - s; k++) {
                assertEquals(0, HullChecks.side(p[0], p[1], p[2], a, b, c, h.facetIndex()[s + k]));
            }
        }
    }
}
