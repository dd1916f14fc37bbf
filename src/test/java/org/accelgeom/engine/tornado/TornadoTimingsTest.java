package org.accelgeom.engine.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.Random;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.Timings;
import org.accelgeom.hull.Hull;
import org.accelgeom.hull.HullOptions;
import org.accelgeom.hull.HullResult;
import org.accelgeom.kdtree.KdTree;
import org.accelgeom.kdtree.KdTreeBuilder;
import org.accelgeom.kdtree.KdTreeOptions;
import org.accelgeom.kdtree.Scenes;
import org.accelgeom.kdtree.Triangles;
import org.accelgeom.render.Camera;
import org.accelgeom.render.Render;
import org.accelgeom.render.RenderBackend;
import org.accelgeom.render.RenderOptions;
import org.accelgeom.render.RenderResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The execution's timings on TornadoVM (POCL in CI): TornadoVM's profiler is switched per plan at each execution, so
 * one plan follows the timings of each call: DEVICE splits the execution into kernels, uploads and launch overhead,
 * PHASES charges its wall time as one "(device, wall)" phase, OFF records nothing; the results are the same.
 * (With {@code -Daccelgeom.tornado.profiler=true} every plan is profiled, so the PHASES checks are skipped.)
 */
@Tag("tornado")
class TornadoTimingsTest {

    private static boolean has(PhaseTimings t, String suffix) {
        return t.phases().stream().anyMatch(p -> p.name().endsWith(suffix));
    }

    /** One render backend (one plan) rendering with DEVICE, PHASES, OFF and DEVICE again. */
    @Test
    void onePlanFollowsTheTimingsOfEachCall() {
        KdTree tree = KdTreeBuilder.build(Triangles.of(Scenes.named("sphere:2000", 3)), KdTreeOptions.of(Backend.JVM)).tree();
        Camera cam = Camera.framing(tree.bounds(), 64, 48);
        RenderOptions o = RenderOptions.of(Backend.TORNADO);
        RenderResult ref = Render.render(tree, cam, RenderOptions.of(Backend.JVM));
        try (RenderBackend b = Render.backend(o)) {
            for (Timings level : new Timings[] {Timings.DEVICE, Timings.PHASES, Timings.OFF, Timings.DEVICE}) {
                RenderResult r = Render.render(tree, cam, o.withExecution(o.execution().withTimings(level)), b);
                assertArrayEquals(ref.rgb(), r.rgb(), level.name());
                PhaseTimings t = r.timings();
                switch (level) {
                    case OFF -> assertTrue(t.phases().isEmpty(), t.toString());
                    case DEVICE -> {
                        assertTrue(has(t, "trace rays (kernels)") && has(t, "launch overhead"), t.toString());
                        assertFalse(has(t, "(device, wall)"), t.toString());
                    }
                    case PHASES -> {
                        if (!Plans.PROFILE) {
                            assertTrue(has(t, "trace rays (device, wall)"), t.toString());
                            assertFalse(has(t, "(kernels)") || has(t, "launch overhead"), t.toString());
                        }
                    }
                }
            }
        }
    }

    /** Hull sessions of DEVICE and PHASES timings: the same hull, the device's split only with DEVICE. */
    @Test
    void hullSessionsRecordWhatTheirExecutionSays() {
        Random rnd = new Random(11);
        double[][] p = new double[3][5_000];
        for (double[] c : p) {
            for (int i = 0; i < c.length; i++) {
                c[i] = rnd.nextGaussian();
            }
        }
        HullResult ref = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.JVM));
        for (Timings level : new Timings[] {Timings.DEVICE, Timings.PHASES}) { // OFF: the render test and the jvm's
            try (DeviceSession s = DeviceSession.open(Execution.tornado(-1).withTimings(level))) {
                for (int run = 0; run < 2; run++) { // the second call reuses the session's plan
                    HullResult r = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.TORNADO), s);
                    assertArrayEquals(ref.vertices(), r.vertices(), level.name());
                    assertArrayEquals(ref.facetIndex(), r.facetIndex(), level.name());
                    PhaseTimings t = r.timings();
                    assertEquals(level, t.level());
                    if (level == Timings.DEVICE) {
                        assertTrue(has(t, "(kernels)"), t.toString());
                        assertFalse(has(t, "(device, wall)"), t.toString());
                    } else {
                        assumeFalse(Plans.PROFILE, "the profiler is forced on every plan");
                        assertTrue(has(t, "(device, wall)"), t.toString());
                        assertFalse(has(t, "(kernels)"), t.toString());
                    }
                }
            }
        }
    }
}
