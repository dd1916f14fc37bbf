package org.accelgeom.voronoi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.junit.jupiter.api.Test;

/** Issue 16: a ball beyond the supported range is rejected, never silently left without vertices. */
class VoronoiRangeTest {

    private static Balls cluster(int extra, double far) {
        Random rnd = new Random(5);
        int n = 200 + extra;
        double[] x = new double[n];
        double[] y = new double[n];
        double[] z = new double[n];
        double[] r = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = 20 * rnd.nextDouble();
            y[i] = 20 * rnd.nextDouble();
            z[i] = 20 * rnd.nextDouble();
            r[i] = 1 + rnd.nextDouble();
        }
        if (extra > 0) {
            x[n - 1] = far;
            y[n - 1] = 10;
            z[n - 1] = 10;
            r[n - 1] = 1;
        }
        return new Balls(x, y, z, r);
    }

    @Test
    void farBallIsRejectedNamingIt() {
        for (double far : new double[] {1e200, 1e10, 1e7}) {
            AccelGeomException e = assertThrows(AccelGeomException.class,
                    () -> Voronoi.compute(cluster(1, far), VoronoiOptions.of(Backend.JVM)));
            assertTrue(e.getMessage().startsWith("ball 200 "), e.getMessage());
            assertTrue(e.getMessage().contains("outside the supported range"), e.getMessage());
        }
    }

    @Test
    void farBallWithinTheRangeGetsItsVertices() {
        Balls b = cluster(1, 1e5);
        assertTrue(1e5 <= VoronoiRange.MAX_RATIO * VoronoiRange.reference(b));
        VoronoiResult res = Voronoi.compute(b, VoronoiOptions.of(Backend.JVM));
        assertTrue(Arrays.stream(res.quads()).anyMatch(q -> q == 200), "the far ball is in some vertex");
    }

    @Test
    void referenceLengthIsTheMedianRadiusOrTheSpacing() {
        Balls b = cluster(0, 0);
        double[] r = b.r().clone();
        Arrays.sort(r);
        assertEquals(r[100], VoronoiRange.reference(b));
        Balls points = new Balls(new double[] {0, 8, 0, 0, 8, 8, 0, 8}, new double[] {0, 0, 8, 0, 8, 0, 8, 8},
                new double[] {0, 0, 0, 8, 0, 8, 8, 8}, new double[8]);
        assertEquals(4.0, VoronoiRange.reference(points), 1e-12);
        // one point of radius zero: nothing to check
        VoronoiRange.check(new Balls(new double[] {1e300}, new double[1], new double[1], new double[1]));
    }
}
