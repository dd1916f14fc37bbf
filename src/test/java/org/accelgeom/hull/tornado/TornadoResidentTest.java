package org.accelgeom.hull.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.Timings;
import org.accelgeom.hull.Hull;
import org.accelgeom.hull.HullOptions;
import org.accelgeom.hull.HullResult;
import org.accelgeom.hull.HullTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A resident session's hull of the very arrays it holds on the device skips their coordinate check (they were checked
 * by the hull that loaded them, and a resident session's arrays must not change); other arrays, scaled inputs (held as
 * scaled copies) and sessions that are not resident are checked every time. The hull equals the reference each time.
 */
@Tag("tornado")
class TornadoResidentTest {

    private static List<String> checks(HullResult r) {
        return r.timings().phases().stream().map(PhaseTimings.Phase::name).filter(n -> n.startsWith("check")).toList();
    }

    @Test
    void theHeldArraysAreCheckedOnce() {
        double[][] p = HullTest.points("ball", 3000, 51);
        double[][] q = HullTest.points("cube", 3000, 52);
        HullOptions o = HullOptions.of(Backend.TORNADO);
        try (DeviceSession s = DeviceSession.open(Execution.tornado(0).withResident(true).withTimings(Timings.PHASES))) {
            HullResult first = Hull.compute(p[0], p[1], p[2], o, s);
            TornadoHullBatchTest.same(p, first, "first");
            assertEquals(List.of("check coordinates"), checks(first));
            HullResult again = Hull.compute(p[0], p[1], p[2], o, s);
            TornadoHullBatchTest.same(p, again, "again");
            assertEquals(List.of(), checks(again), "the held arrays: not checked again");
            HullResult other = Hull.compute(q[0], q[1], q[2], o, s);
            TornadoHullBatchTest.same(q, other, "other arrays");
            assertEquals(List.of("check coordinates"), checks(other));
            double[][] big = new double[3][];
            for (int k = 0; k < 3; k++) {
                big[k] = p[k].clone();
                for (int i = 0; i < big[k].length; i++) {
                    big[k][i] = Math.scalb(big[k][i], 400); // beyond the direct range: held as scaled copies
                }
            }
            HullResult scaled = Hull.compute(big[0], big[1], big[2], o, s);
            assertEquals(List.of("check coordinates"), checks(scaled));
            HullResult scaledAgain = Hull.compute(big[0], big[1], big[2], o, s);
            assertEquals(List.of("check coordinates"), checks(scaledAgain), "scaled copies are not the caller's arrays");
            assertEquals(java.util.Arrays.toString(first.vertices()), java.util.Arrays.toString(scaledAgain.vertices()),
                    "2^400 times the points: the same hull");
        }
        try (DeviceSession s = DeviceSession.open(Execution.tornado(0).withTimings(Timings.PHASES))) {
            Hull.compute(p[0], p[1], p[2], o, s);
            HullResult again = Hull.compute(p[0], p[1], p[2], o, s);
            TornadoHullBatchTest.same(p, again, "not resident");
            assertEquals(List.of("check coordinates"), checks(again), "not resident: checked every time");
        }
    }
}
