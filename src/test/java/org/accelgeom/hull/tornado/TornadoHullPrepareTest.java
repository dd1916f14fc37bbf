package org.accelgeom.hull.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.Execution;
import org.accelgeom.hull.Hull;
import org.accelgeom.hull.HullTest;
import org.accelgeom.hull.HullBackend;
import org.accelgeom.hull.HullOptions;
import org.accelgeom.hull.HullResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The compile ahead of issue 14 ({@link TornadoHullBackend#prepare}, reached through the factory as the CLI does):
 * a hull whose size the guess got within the plan's capacity runs on the prepared plan (no second plan built); a guess
 * too small only makes the hull build its own plan; the hull equals the JVM reference's either way.
 */
@Tag("tornado")
class TornadoHullPrepareTest {

    private static HullResult hull(double[][] p, int guess) {
        try (DeviceSession session = DeviceSession.open(Execution.tornado(0))) {
            // as the CLI does: the host arrays on a thread of their own now, the plan over them after TornadoVM's start
            session.tornado(HullBackend.Factory.class).prepareAhead(session, guess).run();
            assertEquals(1, session.planBuilds(), "the prepared plan");
            assertEquals(java.util.List.of(TornadoHullBackend.FAMILY + "/" + TornadoHullBackend.STEP),
                    session.heldPlans(), "kept in the session");
            HullResult r = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.TORNADO), session);
            boolean fits = guess + guess / 4 >= p[0].length;
            assertEquals(fits ? 1 : 2, session.planBuilds(), "plans built with a guess of " + guess + " for "
                    + p[0].length + " points");
            return r;
        }
    }

    @Test
    void aGoodGuessIsTheRunsPlan() {
        double[][] p = HullTest.points("ball", 5000, 41);
        TornadoHullBatchTest.same(p, hull(p, 4800), "guess a little low");
        TornadoHullBatchTest.same(p, hull(p, 9000), "guess high");
    }

    @Test
    void aGuessOutsideTheRungOnlyCostsAPlan() {
        double[][] p = HullTest.points("sphere", 5000, 42);
        TornadoHullBatchTest.same(p, hull(p, 100), "guess far too low");
    }
}
