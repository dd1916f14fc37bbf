package org.accelgeom.voronoi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.SplittableRandom;

import org.accelgeom.engine.Backend;

import org.junit.jupiter.api.Test;

/**
 * The rejection tests of {@link ArcSweep}: a candidate is skipped only when its plane keeps one sign on the open arc
 * by more than the clearance (checked against f sampled densely on the arc), and the exact range of
 * {@link ArcSweep#clearOfArc} rejects every case the samples show clear by twice the clearance.
 */
class ArcSweepTest {

    /** f(phi) = a + b cos phi + c sin phi at the arc's k-th of n sample points (pseudo-angle pu * k / n). */
    private static double f(double a, double b, double c, double pu, int k, int n) {
        double pk = pu * k / n;
        double x = VoronoiKernels.pseudoX(pk), y = VoronoiKernels.pseudoY(pk), len = Math.hypot(x, y);
        return a + b * x / len + c * y / len;
    }

    @Test
    void clearOfArcRejectsOnlyPlanesClearOfTheArcAndAllThatAre() {
        SplittableRandom rnd = new SplittableRandom(14);
        double[] arc = new double[6];
        int n = 2000, rejected = 0, clearTwice = 0, clearTwiceRejected = 0;
        for (int t = 0; t < 20000; t++) {
            double pu = t % 10 == 0 ? 8.0 : 4.0 * rnd.nextDouble(); // 8: no end found yet (the whole circle)
            double b = rnd.nextDouble(-1, 1), c = rnd.nextDouble(-1, 1);
            double r = Math.hypot(b, c);
            double a = rnd.nextDouble(-1.5, 1.5) * r;
            double clear2 = Math.pow(rnd.nextDouble(0, 0.05) * r, 2);
            ArcSweep.bound(pu, VoronoiKernels.NONE, arc);
            double lo = Double.MAX_VALUE, hi = -Double.MAX_VALUE;
            double end = Math.min(pu, 4.0); // pu >= 4: the samples cover the whole circle
            for (int k = 0; k <= n; k++) {
                double v = f(a, b, c, end, k, n);
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
            boolean skip = ArcSweep.clearOfArc(a, b, c, clear2, arc);
            double margin = Math.sqrt(clear2);
            if (skip) {
                rejected++;
                assertTrue(lo > margin * (1 - 1e-9) || hi < -margin * (1 - 1e-9),
                        "skipped a plane within the clearance of the arc: a=" + a + " b=" + b + " c=" + c + " pu=" + pu);
            }
            // sampling can miss the extreme between two samples by at most r (1 - cos(step)): well within 2x margin
            if (lo > 2 * margin + 1e-5 * r || hi < -2 * margin - 1e-5 * r) {
                clearTwice++;
                clearTwiceRejected += skip ? 1 : 0;
            }
        }
        assertTrue(rejected > 1000, "the test saw too few rejections: " + rejected);
        assertEquals(clearTwice, clearTwiceRejected, "planes clear of the arc by twice the clearance, not rejected");
    }

    @Test
    void gapBoundsTheDistanceToEveryPointOfTheCell() {
        SplittableRandom rnd = new SplittableRandom(15);
        for (int t = 0; t < 10000; t++) {
            double lo = rnd.nextDouble(-50, 50), cell = rnd.nextDouble(0.5, 5), o = rnd.nextDouble(-60, 60);
            double g = ArcSweep.gap(o, lo, cell, 1e-6 * cell);
            double x = lo + cell * rnd.nextDouble();
            assertTrue(g <= Math.abs(x - o), "gap " + g + " beyond a point of the cell at " + Math.abs(x - o));
            double nearest = Math.max(lo, Math.min(lo + cell, o));
            assertTrue(Math.abs(o - nearest) - g <= 2e-6 * cell, "gap not tight: " + g + " vs " + Math.abs(o - nearest));
        }
    }

    /**
     * {@link ArcSweep#arcBall} holds every tangent sphere of the arc: on the edges of a diagram's vertices (each ball of
     * a vertex as the start ball, the others as gates) and arcs ending anywhere before theta_inf, the sphere at each of
     * 200 points of the arc, centre p(phi) = rho w(phi), radius rho = k2 / den, lies in the ball about p_0 (the
     * sphere at phi = 0) of that radius.
     */
    @Test
    void arcBallHoldsEverySphereOfTheArc() {
        Balls balls = VoronoiChecks.random(new Random(5), 300, 18, 0.8, 2.2);
        VoronoiResult r = Voronoi.compute(balls, VoronoiOptions.of(Backend.JVM));
        int[] q = r.quads();
        double[] sp = r.spheres();
        double[] f = new double[VoronoiKernels.FS];
        int[] g = new int[VoronoiKernels.GS];
        double[] arc = new double[6];
        SplittableRandom rnd = new SplittableRandom(3);
        int checked = 0;
        for (int v = 0; v < r.vertexCount(); v += 7) {
            for (int k = 0; k < 4; k++) {
                int[] o = {q[4 * v + (k + 1) % 4], q[4 * v + (k + 2) % 4], q[4 * v + (k + 3) % 4]};
                if (!EdgeFrames.build(balls, o[0], o[1], o[2], q[4 * v + k], sp[4 * v], sp[4 * v + 1], sp[4 * v + 2], f, 0,
                        g, 0)) {
                    continue;
                }
                double h = f[VoronoiKernels.H], sr = Math.sqrt(Math.max(0, 1 - h * h)), k2 = f[VoronoiKernels.K2];
                double den0 = f[VoronoiKernels.DENA] + f[VoronoiKernels.DENCA];
                if (!(den0 > 0 && k2 > 0)) {
                    continue;
                }
                double rho0 = k2 / den0;
                double[] p0 = sphere(f, sr, 1, 0);
                double pu = Math.min(f[VoronoiKernels.PINF], 4.0) * rnd.nextDouble();
                ArcSweep.bound(pu, f[VoronoiKernels.PINF], arc);
                double radius = ArcSweep.arcBall(f, 0, arc, sr, rho0);
                for (int n = 0; n <= 200 && radius < 1e100; n++) {
                    double pk = pu * n / 200;
                    double x = VoronoiKernels.pseudoX(pk), y = VoronoiKernels.pseudoY(pk), len = Math.hypot(x, y);
                    double[] p = sphere(f, sr, x / len, y / len);
                    double reach = Math.sqrt(Math.pow(p[0] - p0[0], 2) + Math.pow(p[1] - p0[1], 2)
                            + Math.pow(p[2] - p0[2], 2)) + p[3];
                    assertTrue(!(p[3] > 0) || reach <= radius, "sphere at " + pk + " of " + pu + " reaches " + reach
                            + " beyond the arc ball's " + radius);
                    checked++;
                }
            }
        }
        assertTrue(checked > 10000, "spheres checked: " + checked);
    }

    /** The centre (relative to c_g1) and radius rho of frame f's tangent sphere at (cos phi, sin phi) = (c, s). */
    private static double[] sphere(double[] f, double sr, double c, double s) {
        double[] w = new double[3];
        double den = f[VoronoiKernels.R2];
        for (int a = 0; a < 3; a++) {
            w[a] = f[VoronoiKernels.H] * f[VoronoiKernels.MX + a]
                    + sr * (c * f[VoronoiKernels.E1X + a] + s * f[VoronoiKernels.E2X + a]);
            den += f[VoronoiKernels.C2X + a] * w[a];
        }
        double rho = f[VoronoiKernels.K2] / den;
        return new double[] {rho * w[0], rho * w[1], rho * w[2], rho};
    }
}
