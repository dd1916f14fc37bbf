package org.accelgeom.voronoi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.junit.jupiter.api.Test;

/**
 * {@link Voronoi#computeAlone}: diagrams computed at once from several threads in one resident jvm-parallel session,
 * each with its loops on its caller, equal the diagrams computed one after another on the session's threads; and
 * {@link Voronoi#staysOnHost} follows the size rule.
 */
class VoronoiAloneTest {

    @Test
    void diagramsAloneAtOnceEqualTheSessionsOneAfterAnother() throws Exception {
        VoronoiOptions options = VoronoiOptions.of(Backend.JVM_PARALLEL).withThreads(2).withResident(true);
        List<Balls> frames = new ArrayList<>();
        for (int k = 0; k < 8; k++) {
            frames.add(Balls.randomAtoms(300 + 20 * (k % 3), 40 + k)); // three sizes: resident states reloaded
        }
        List<VoronoiResult> reference = new ArrayList<>();
        List<VoronoiResult> alone = new ArrayList<>();
        try (DeviceSession session = DeviceSession.open(options.execution())) {
            for (Balls b : frames) {
                reference.add(Voronoi.compute(b, options, session));
            }
            ExecutorService threads = Executors.newFixedThreadPool(3);
            try {
                List<Future<VoronoiResult>> done = new ArrayList<>();
                for (Balls b : frames) {
                    done.add(threads.submit(() -> Voronoi.computeAlone(b, options, session)));
                }
                for (Future<VoronoiResult> f : done) {
                    alone.add(f.get());
                }
            } finally {
                threads.shutdown();
            }
        }
        for (int k = 0; k < frames.size(); k++) {
            VoronoiResult a = reference.get(k), b = alone.get(k);
            assertTrue(a.vertexCount() > 100, "frame " + k);
            assertEquals(a.vertexCount(), b.vertexCount(), "frame " + k);
            assertArrayEquals(a.quads(), b.quads(), "frame " + k);
            assertArrayEquals(a.spheres(), b.spheres(), "frame " + k);
            assertArrayEquals(a.triples(), b.triples(), "frame " + k);
            assertArrayEquals(a.closedTriples(), b.closedTriples(), "frame " + k);
        }
    }

    @Test
    void smallInputsStayOnTheHost() {
        assertTrue(Voronoi.staysOnHost(602), "1UBQ");
        assertFalse(Voronoi.staysOnHost(22_128), "4JSV");
        String key = "accelgeom.voronoi.hostBelow";
        String old = System.setProperty(key, "0"); // every level on the device
        try {
            assertFalse(Voronoi.staysOnHost(602));
        } finally {
            if (old == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, old);
            }
        }
    }
}
