package org.accelgeom.hull;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.PhaseTimings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The ball pre-tests of the host backends decide nothing the full tests would decide otherwise. */
class InnerBallTest {

    private static final double[] DIRS = Directions.axesAndSphere(58);
    private static final int N_DIRS = DIRS.length / 3;

    /** Points of {@code kind}, moved to {@code (off, off, off)} and scaled by {@code scale}. */
    private static double[][] points(String kind, int n, long seed, double off, double scale) {
        double[][] p = HullTest.points(kind, n, seed);
        for (double[] c : p) {
            for (int i = 0; i < n; i++) {
                c[i] = off + scale * c[i];
            }
        }
        return p;
    }

    private static int[] extremes(double[][] p, boolean balls) {
        try (JvmHullBackend b = new JvmHullBackend(null, balls)) {
            b.load(p[0], p[1], p[2], 16, new PhaseTimings());
            return b.extremes(DIRS, N_DIRS);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ball", "cube", "sphere", "gauss", "clustered", "grid"})
    void extremePointsAreTheFullScansOnes(String kind) {
        // grid: integer points, many ties at every maximum (the lowest index must win)
        for (double[] placement : new double[][] {{0, 1}, {1e6, 1e-3}, {-3.5, 1e30}}) {
            double[][] p = points(kind, 100_000, 7, placement[0], placement[1]);
            assertArrayEquals(extremes(p, false), extremes(p, true), kind + " at " + placement[0] + " x " + placement[1]);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ball", "cube", "gauss", "clustered", "grid"})
    void hullsAndCullCountsAreTheFullTestsOnes(String kind) {
        for (double[] placement : new double[][] {{0, 1}, {1e6, 1e-3}}) {
            double[][] p = points(kind, 100_000, 5, placement[0], placement[1]);
            HullOptions o = HullOptions.of(Backend.JVM);
            HullResult full = Hull.compute(p[0], p[1], p[2], o, () -> new JvmHullBackend(null, false));
            HullResult ball = Hull.compute(p[0], p[1], p[2], o, () -> new JvmHullBackend(null, true));
            assertEquals(full.stats().culled(), ball.stats().culled(), kind);
            assertArrayEquals(full.vertices(), ball.vertices(), kind);
            assertArrayEquals(full.facetStart(), ball.facetStart(), kind);
            assertArrayEquals(full.facetIndex(), ball.facetIndex(), kind);
        }
    }

    @Test
    void theDirectionsBallLeavesEveryPointInsideItBelowTheSampleMaxima() {
        double[][] p = points("ball", 20_000, 3, 0.25, 2);
        double[] low = new double[N_DIRS];
        java.util.Arrays.fill(low, Double.NEGATIVE_INFINITY);
        for (int i = 0; i < p[0].length; i++) {
            for (int k = 0; k < N_DIRS; k++) {
                low[k] = Math.max(low[k], dot(k, p[0][i], p[1][i], p[2][i]));
            }
        }
        double[] ball = InnerBall.ofDirections(DIRS, N_DIRS, low, 0.25, 0.25, 0.25);
        assertTrue(ball[3] > 1.9 * 1.9, "a useful ball: radius^2 " + ball[3]);
        // points on the ball's boundary, the worst case: every dot product stays below the maximum
        Random r = new Random(1);
        for (int t = 0; t < 200_000; t++) {
            double[] q = onBoundary(ball, r);
            if (InnerBall.inside(ball, q[0], q[1], q[2])) {
                for (int k = 0; k < N_DIRS; k++) {
                    assertTrue(dot(k, q[0], q[1], q[2]) < low[k]);
                }
            }
        }
    }

    @Test
    void theCullingBallLeavesEveryPointInsideItCulled() {
        double[][] p = points("ball", 20_000, 4, -7, 3);
        int[] ext = extremes(p, false);
        int[] ids = java.util.Arrays.stream(ext).distinct().toArray();
        double[] cx = new double[ids.length];
        double[] cy = new double[ids.length];
        double[] cz = new double[ids.length];
        double mx = 0;
        double my = 0;
        double mz = 0;
        for (int i = 0; i < ids.length; i++) {
            cx[i] = p[0][ids[i]];
            cy[i] = p[1][ids[i]];
            cz[i] = p[2][ids[i]];
            mx += cx[i] / ids.length;
            my += cy[i] / ids.length;
            mz += cz[i] / ids.length;
        }
        HullResult h = Hull.compute(cx, cy, cz, HullOptions.of(Backend.JVM).withCullDirections(0));
        int[] tri = h.toMesh(org.accelgeom.io.PointCloud.of(cx, cy, cz)).triangles();
        double[] vx = new double[h.vertices().length];
        double[] vy = new double[vx.length];
        double[] vz = new double[vx.length];
        for (int i = 0; i < vx.length; i++) {
            vx[i] = cx[h.vertices()[i]];
            vy[i] = cy[h.vertices()[i]];
            vz[i] = cz[h.vertices()[i]];
        }
        int nt = tri.length / 3;
        double[] planes = new double[HullKernels.PLANE_STRIDE * nt];
        for (int t = 0; t < nt; t++) {
            FacePlanes.compute(vx, vy, vz, tri[3 * t], tri[3 * t + 1], tri[3 * t + 2], planes, t);
        }
        double[] ball = InnerBall.ofPlanes(planes, nt, mx, my, mz);
        assertTrue(ball[3] > 0.8 * 0.8 * 9, "a useful ball: radius^2 " + ball[3]);
        Random r = new Random(2);
        double[] qx = new double[1];
        double[] qy = new double[1];
        double[] qz = new double[1];
        int[] label = new int[1];
        for (int t = 0; t < 200_000; t++) {
            double[] q = onBoundary(ball, r);
            if (InnerBall.inside(ball, q[0], q[1], q[2])) {
                qx[0] = q[0];
                qy[0] = q[1];
                qz[0] = q[2];
                label[0] = 0;
                HullKernels.cullInterior(qx, qy, qz, new int[] {0}, 0, label, planes, nt);
                assertEquals(-1, label[0], "a point of the ball not culled");
            }
        }
    }

    /** A point at the ball's radius (times 1 - 1e-15 or 1 + 1e-15) in a random direction. */
    private static double[] onBoundary(double[] ball, Random r) {
        double a = r.nextGaussian();
        double b = r.nextGaussian();
        double c = r.nextGaussian();
        double l = Math.sqrt(a * a + b * b + c * c);
        double rad = Math.sqrt(ball[3]) * (1 + (r.nextInt(3) - 1) * 1e-15);
        return new double[] {ball[0] + rad * a / l, ball[1] + rad * b / l, ball[2] + rad * c / l};
    }

    private static double dot(int k, double px, double py, double pz) {
        return DIRS[3 * k] * px + DIRS[3 * k + 1] * py + DIRS[3 * k + 2] * pz;
    }
}
