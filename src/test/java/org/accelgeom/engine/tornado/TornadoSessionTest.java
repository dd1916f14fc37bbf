package org.accelgeom.engine.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.Execution;
import org.accelgeom.hull.Hull;
import org.accelgeom.hull.HullOptions;
import org.accelgeom.hull.RandomPoints;
import org.accelgeom.io.PointCloud;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * One {@link DeviceSession} on the tornado backend (POCL in CI): 100 hulls of the same resident points reuse one
 * plan, equal the jvm reference, and leave the live thread count flat; closing the session frees the plan, and a
 * hull of other points in a new session builds its own.
 */
@Tag("tornado")
class TornadoSessionTest {

    @Test
    void hundredHullsInOneSessionReuseOnePlanAndNoThreads() {
        PointCloud p = RandomPoints.ball(2000, 11);
        int[] ref = Hull.compute(p, HullOptions.of(Backend.JVM)).vertices();
        HullOptions o = HullOptions.of(Backend.TORNADO);
        try (DeviceSession s = DeviceSession.open(Execution.tornado(-1).withResident(true))) {
            assertArrayEquals(ref, Hull.compute(p, o, s).vertices());
            assertArrayEquals(ref, Hull.compute(p, o, s).vertices());
            int before = Thread.activeCount();
            for (int i = 0; i < 100; i++) {
                assertArrayEquals(ref, Hull.compute(p, o, s).vertices(), "hull " + i);
            }
            int after = Thread.activeCount();
            assertTrue(after <= before + 6, before + " live threads before 100 hulls, " + after + " after");
            assertEquals(1, s.planBuilds(), "one plan for every hull of the same resident points");
            assertEquals(java.util.List.of("hull/quickhull"), s.heldPlans());
            PointCloud q = RandomPoints.cube(5000, 12); // more than the plan's capacity (5/4 of 2000, rounded up)
            assertArrayEquals(Hull.compute(q, HullOptions.of(Backend.JVM)).vertices(),
                    Hull.compute(q, o, s).vertices());
            assertEquals(2, s.planBuilds(), "more points than the plan holds: another plan, the first one released");
            assertEquals(java.util.List.of("hull/quickhull"), s.heldPlans());
        }
    }
}
