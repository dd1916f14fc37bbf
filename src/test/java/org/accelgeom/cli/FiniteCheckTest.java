package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.io.PointCloud;
import org.junit.jupiter.api.Test;

/** The CLI's parallel finiteness check finds the first bad point, as a sequential scan does. */
class FiniteCheckTest {

    /** The reference: the first point with a coordinate that is not finite (or, for floats, not finite as a float). */
    private static int sequential(double[][] c, boolean floats) {
        for (int i = 0; i < c[0].length; i++) {
            for (double[] col : c) {
                if (!Double.isFinite(col[i]) || (floats && !Float.isFinite((float) col[i]))) {
                    return i;
                }
            }
        }
        return -1;
    }

    @Test
    void theFirstBadPointOverManyChunksIsTheSequentialScansOne() {
        Random rnd = new Random(7);
        int n = 5 * Check.FINITE_CHUNK + 123;
        double[] bad = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e300, -4e38};
        for (int trial = 0; trial < 40; trial++) {
            double[][] c = new double[3][n];
            for (double[] col : c) {
                for (int i = 0; i < n; i++) {
                    col[i] = (rnd.nextDouble() - 0.5) * 1e6;
                }
            }
            int spots = trial % 4; // 0 to 3 bad coordinates, anywhere, in any column
            for (int s = 0; s < spots; s++) {
                c[rnd.nextInt(3)][rnd.nextInt(n)] = bad[rnd.nextInt(bad.length)];
            }
            if (trial % 5 == 0) {
                c[2][n - 1] = Double.NaN; // the very last coordinate
            }
            for (boolean floats : new boolean[] {false, true}) {
                assertEquals(sequential(c, floats), Check.firstNonFinite(c, n, floats), "trial " + trial + " " + floats);
            }
        }
    }

    @Test
    void floatRangeFollowsTheRoundingToFloat() {
        double justAbove = Float.MAX_VALUE * (1 + 0x1p-26); // rounds to Float.MAX_VALUE: finite as a float
        double beyond = Float.MAX_VALUE * (1 + 0x1p-23); // rounds to infinity
        double[][] c = {{1, justAbove, 3}, {0, 0, beyond}, {0, 0, 0}};
        assertEquals(2, Check.firstNonFinite(c, 3, true));
        assertEquals(-1, Check.firstNonFinite(c, 3, false));
        assertTrue(Float.isFinite((float) justAbove) && !Float.isFinite((float) beyond));
    }

    @Test
    void theMessageNamesTheFileAndThePoint() {
        double[][] c = new double[3][Check.FINITE_CHUNK * 2];
        c[1][Check.FINITE_CHUNK + 5] = Double.NaN;
        AccelGeomException e = assertThrows(AccelGeomException.class,
                () -> Check.finitePoints("pts.xyz", new PointCloud(c), false, "the convex hull"));
        assertEquals("pts.xyz: point " + (Check.FINITE_CHUNK + 6) + " of " + 2 * Check.FINITE_CHUNK
                + " (0.0, NaN, 0.0) has a non-finite coordinate: the convex hull needs finite coordinates", e.getMessage());
    }
}
