package org.accelgeom.voronoi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.PhaseTimings;
import org.junit.jupiter.api.Test;

/**
 * The tornado backend's size rule and host share ({@link HybridSearch}), with the device's lane layout run on the CPU
 * as its "device": the same diagram for every rule and share, and the device loaded only when a level reaches the rule.
 */
class HybridSearchTest {

    @Test
    void everyRuleAndShareGivesTheSameDiagramAndTheDeviceOnlyWhenALevelReachesTheRule() {
        // 1500 random balls: about 10,000 vertices, levels of up to about 1,000 edges
        Balls balls = VoronoiChecks.random(new Random(7), 1500, 40, 0.8, 2.2);
        VoronoiOptions options = VoronoiOptions.of(Backend.JVM_PARALLEL);
        try (DeviceSession session = DeviceSession.open(options.execution())) {
            VoronoiResult ref = Voronoi.compute(balls, options, session);
            assertTrue(ref.vertexCount() > 5000, "vertices: " + ref.vertexCount());
            int[][] cases = {{0, 0}, {0, 50}, {0, 90}, {150, 25}, {Integer.MAX_VALUE, 25}};
            for (int[] c : cases) {
                AtomicInteger loads = new AtomicInteger();
                HybridSearch.Device device = new HybridSearch.Device(() -> {
                    loads.incrementAndGet();
                    return new JvmVoronoiBackend(null, 32);
                });
                // as on tornado: the "device" two-phase, the host double
                VoronoiResult r = Voronoi.compute(balls, options.withPrecision(VoronoiOptions.Precision.TWO_PHASE),
                        session,
                        () -> new HybridSearch(session.loops(), device, c[0], c[1]));
                String what = "hostBelow " + c[0] + ", hostShare " + c[1];
                assertArrayEquals(ref.quads(), r.quads(), what);
                assertArrayEquals(ref.spheres(), r.spheres(), what);
                assertArrayEquals(ref.triples(), r.triples(), what);
                assertArrayEquals(ref.ends(), r.ends(), what);
                assertEquals(c[0] == Integer.MAX_VALUE ? 0 : 1, loads.get(), what + ": device searches made");
                boolean hostRows = false, deviceRows = false;
                for (PhaseTimings.Phase p : r.timings().phases()) {
                    hostRows |= p.name().equals("end-vertex search on the host (levels under " + c[0] + " edges)");
                    deviceRows |= p.name().startsWith("end-vertex search on the device");
                }
                assertEquals(c[0] > 0, hostRows, what + ": the rule's row");
                assertEquals(c[0] != Integer.MAX_VALUE, deviceRows, what + ": the device's row");
            }
        }
    }

    @Test
    void levelsGoToTheHostWhileTheDeviceStartsAndTheDiagramIsTheSame() throws Exception {
        Balls balls = VoronoiChecks.random(new Random(11), 1500, 40, 0.8, 2.2);
        VoronoiOptions options = VoronoiOptions.of(Backend.JVM_PARALLEL);
        try (DeviceSession session = DeviceSession.open(options.execution())) {
            VoronoiResult ref = Voronoi.compute(balls, options, session);
            CountDownLatch started = new CountDownLatch(1);
            HybridSearch.Device device = new HybridSearch.Device(() -> {
                try {
                    started.await(); // TornadoVM's start, still running while the whole diagram is traced
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return new JvmVoronoiBackend(null, 32);
            });
            Thread release = Thread.ofPlatform().daemon().start(() -> {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
                started.countDown(); // late, so that the first levels that reach the rule meet a starting device
            });
            VoronoiResult r = Voronoi.compute(balls, options.withPrecision(VoronoiOptions.Precision.TWO_PHASE), session,
                    () -> new HybridSearch(session.loops(), device, 150, 25));
            release.join();
            assertArrayEquals(ref.quads(), r.quads());
            assertArrayEquals(ref.spheres(), r.spheres());
            assertArrayEquals(ref.triples(), r.triples());
            assertArrayEquals(ref.ends(), r.ends());
            boolean early = false;
            for (PhaseTimings.Phase p : r.timings().phases()) {
                early |= p.name().equals("end-vertex search on the host (while the device starts)");
            }
            assertTrue(early, "no level was searched on the host while the device started");
        }
    }
}
