package org.accelgeom.voronoi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

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
}
