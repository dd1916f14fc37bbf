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

    /**
     * The points loaded ahead (the CLI's one-shot, when the file is read before the plan's first run): the hull of the
     * same arrays takes them on the device (an init, no copy or upload), equals the reference, and only once: a second
     * hull of the same arrays in the same (not resident) session uploads them again; points that come after the plan's
     * first run (on dummy points) are loaded into the same plan. Arrays that are not the ones loaded ahead are uploaded.
     */
    @Test
    void pointsLoadedAheadAreTheHullsOnce() {
        double[][] p = HullTest.points("ball", 5000, 43);
        double[][] other = HullTest.points("cube", 5000, 44);
        try (DeviceSession session = DeviceSession.open(Execution.tornado(0).withTimings(
                org.accelgeom.engine.Timings.PHASES))) {
            session.tornado(HullBackend.Factory.class).prepareAhead(session, 5000, () -> p).run();
            HullResult first = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.TORNADO), session);
            TornadoHullBatchTest.same(p, first, "loaded ahead");
            assertEquals(java.util.List.of("init (points loaded ahead) (device, wall)"), rows(first, "init", "upload points"));
            HullResult again = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.TORNADO), session);
            TornadoHullBatchTest.same(p, again, "the same arrays again");
            assertEquals(java.util.List.of("upload points + init (device, wall)"), rows(again, "init", "upload points"));
            assertEquals(1, session.planBuilds(), "one plan");
        }
        try (DeviceSession session = DeviceSession.open(Execution.tornado(0).withTimings(
                org.accelgeom.engine.Timings.PHASES))) {
            int[] asked = {0}; // read only after the plan's first run on dummy points: loaded into the same plan then
            session.tornado(HullBackend.Factory.class).prepareAhead(session, 5000, () -> asked[0]++ == 0 ? null : p).run();
            assertEquals(2, asked[0], "asked before the first run and after it");
            HullResult r = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.TORNADO), session);
            TornadoHullBatchTest.same(p, r, "loaded after the plan's first run");
            assertEquals(java.util.List.of("init (points loaded ahead) (device, wall)"), rows(r, "init", "upload points"));
            assertEquals(1, session.planBuilds(), "one plan");
        }
        try (DeviceSession session = DeviceSession.open(Execution.tornado(0).withTimings(
                org.accelgeom.engine.Timings.PHASES))) {
            session.tornado(HullBackend.Factory.class).prepareAhead(session, 5000, () -> other).run();
            HullResult r = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.TORNADO), session);
            TornadoHullBatchTest.same(p, r, "other arrays loaded ahead");
            assertEquals(java.util.List.of("upload points + init (device, wall)"), rows(r, "init", "upload points"));
        }
    }

    /** The names of the result's phases that start with one of {@code prefixes}. */
    private static java.util.List<String> rows(HullResult r, String... prefixes) {
        return r.timings().phases().stream().map(org.accelgeom.engine.PhaseTimings.Phase::name)
                .filter(n -> java.util.Arrays.stream(prefixes).anyMatch(n::startsWith)).toList();
    }

    @Test
    void aGuessOutsideTheRungOnlyCostsAPlan() {
        double[][] p = HullTest.points("sphere", 5000, 42);
        TornadoHullBatchTest.same(p, hull(p, 100), "guess far too low");
    }
}
