package org.accelgeom.hull.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.Execution;
import org.accelgeom.hull.Hull;
import org.accelgeom.hull.HullTest;
import org.accelgeom.hull.HullChecks;
import org.accelgeom.hull.HullOptions;
import org.accelgeom.hull.HullResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A batch of hulls in one DeviceSession reuses the session's capacity-sized plan (issue 14 item 3): inputs that fit
 * are copied into its arrays, a larger one replaces it by one of at least twice the capacity. Each hull equals the
 * JVM reference's.
 */
@Tag("tornado")
class TornadoHullBatchTest {

    static void same(double[][] p, HullResult gpu, String what) {
        HullResult ref = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.JVM));
        assertArrayEquals(ref.vertices(), gpu.vertices(), what);
        assertEquals(HullChecks.canonicalFacets(ref), HullChecks.canonicalFacets(gpu), what);
        assertEquals(ref.stats().culled(), gpu.stats().culled(), what + ": culled points");
    }

    @Test
    void inputsOfDifferentSizesShareTwoPlans() {
        String[] kinds = {"ball", "sphere", "cube", "gauss", "ball", "clustered"};
        int[] sizes = {1500, 6000, 2500, 4000, 7000, 1000};
        try (DeviceSession session = DeviceSession.open(Execution.tornado(0))) {
            for (int k = 0; k < sizes.length; k++) {
                double[][] p = HullTest.points(kinds[k], sizes[k], 20 + k);
                HullResult gpu = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.TORNADO), session);
                same(p, gpu, kinds[k] + " " + sizes[k]);
                // the first input builds a plan for 5/4 of it; the second does not fit and builds one for 5/4 of
                // itself (at least twice the first); every later input fits
                assertEquals(k == 0 ? 1 : 2, session.planBuilds(), "plans built after input " + k);
            }
        }
    }

    @Test
    void theSameArraysAgainInAResidentSessionAreNotUploadedAndGiveTheSameHull() {
        double[][] p = HullTest.points("ball", 4000, 31);
        double[][] q = HullTest.points("sphere", 1500, 32);
        try (DeviceSession session = DeviceSession.open(Execution.tornado(0).withResident(true))) {
            for (double[][] in : new double[][][] {p, p, q, p}) {
                same(in, Hull.compute(in[0], in[1], in[2], HullOptions.of(Backend.TORNADO), session), "resident");
            }
            assertEquals(1, session.planBuilds());
        }
    }

    @Test
    void aResidentSessionChecksTheSameArraysOnce() {
        double[][] p = HullTest.points("ball", 3000, 41);
        double[][] q = HullTest.points("cube", 2000, 42);
        double[][] bad = HullTest.points("ball", 2000, 43);
        bad[1][777] = Double.NaN;
        try (DeviceSession session = DeviceSession.open(Execution.tornado(0).withResident(true))) {
            HullResult first = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.TORNADO), session);
            HullResult again = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.TORNADO), session);
            HullResult other = Hull.compute(q[0], q[1], q[2], HullOptions.of(Backend.TORNADO), session);
            same(p, first, "first");
            same(p, again, "again");
            same(q, other, "other arrays");
            assertTrue(checked(first), "the first hull checks its points");
            assertFalse(checked(again), "the same arrays again: checked before");
            assertTrue(checked(other), "other arrays are checked");
            // new arrays are checked whatever came before: the bad point is found
            AccelGeomException e = assertThrows(AccelGeomException.class,
                    () -> Hull.compute(bad[0], bad[1], bad[2], HullOptions.of(Backend.TORNADO), session));
            assertTrue(e.getMessage().startsWith("point 777 "), e.getMessage());
        }
    }

    private static boolean checked(HullResult r) {
        return r.timings().phases().stream().anyMatch(ph -> ph.name().equals("check coordinates"));
    }
}
