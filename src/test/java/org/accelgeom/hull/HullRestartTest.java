package org.accelgeom.hull;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.PhaseTimings;
import org.junit.jupiter.api.Test;

/**
 * A backend whose face tables fill up asks for larger ones ({@link HullBackend.MoreFaces}, as the tornado backend's
 * first-size tables do): the hull starts again on a backend loaded with that many faces, and the result is the
 * reference's. A backend that asks for no more than it has gets a clear error instead of a loop.
 */
class HullRestartTest {

    /** The jvm backend, but its "tables" hold {@code limit} faces: a round past them asks for {@code more}. */
    private static final class SmallTables implements HullBackend {
        private final JvmHullBackend jvm = new JvmHullBackend(null);
        private final List<Integer> loads;
        private final int limit;
        private final int more;
        private int faces;

        SmallTables(List<Integer> loads, int limit, int more) {
            this.loads = loads;
            this.limit = limit;
            this.more = more;
        }

        @Override
        public void load(double[] x, double[] y, double[] z, int faceCapacity, PhaseTimings timings) {
            loads.add(faceCapacity);
            faces = Math.max(faceCapacity, limit);
            jvm.load(x, y, z, faceCapacity, timings);
        }

        @Override
        public int[] extremes(double[] dirs, int nDirs) {
            return jvm.extremes(dirs, nDirs);
        }

        @Override
        public int farthest(double[] geom, int mode) {
            return jvm.farthest(geom, mode);
        }

        @Override
        public void kill(int[] points) {
            jvm.kill(points);
        }

        @Override
        public int cull(double[] innerPlanes, int nInner) {
            return jvm.cull(innerPlanes, nInner);
        }

        @Override
        public int[] round(RoundDelta delta, UncertainResolver resolver) {
            if (delta.newBase + delta.newCount > faces) {
                throw new MoreFaces(more);
            }
            return jvm.round(delta, resolver);
        }

        @Override
        public void compact() {
            jvm.compact();
        }

        @Override
        public void close() {
            jvm.close();
        }
    }

    @Test
    void aHullThatOutgrowsItsFaceTablesStartsAgainOnLargerOnes() {
        for (String kind : new String[] {"sphere", "ball"}) {
            double[][] p = HullTest.points(kind, 3000, 7);
            HullResult ref = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.JVM));
            List<Integer> loads = new ArrayList<>();
            HullResult h = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.JVM), () -> new SmallTables(loads, 200, 1 << 20));
            assertEquals(List.of(16, 1 << 20), loads, kind + ": the second try asks for the larger tables");
            assertArrayEquals(ref.vertices(), h.vertices(), kind);
            assertEquals(HullChecks.canonicalFacets(ref), HullChecks.canonicalFacets(h), kind);
            assertEquals(ref.stats().rounds(), h.stats().rounds(), kind + ": the second try's rounds only");
        }
    }

    @Test
    void aBackendThatCannotGrowIsAClearError() {
        double[][] p = HullTest.points("sphere", 3000, 8);
        List<Integer> loads = new ArrayList<>();
        AccelGeomException e = assertThrows(AccelGeomException.class,
                () -> Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.JVM), () -> new SmallTables(loads, 200, 200)));
        assertEquals(List.of(16, 200), loads, e.getMessage());
    }
}
