package org.accelgeom.voronoi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.accelgeom.engine.Backend;
import org.accelgeom.voronoi.VoronoiOptions.Precision;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The device's lane layout of the end-vertex search ({@link EndVertexScans}: lanes per edge, per-edge reduction,
 * three pruning passes), run on the CPU, against the serial sweep of the jvm reference: the same vertices and
 * edges for every precision, lane count (1, a few, more lanes than candidates) and with the grid off; the same
 * float->double swaps (the float winner is the edge's float arg-min in both).
 */
class LaneSearchTest {

    @ParameterizedTest
    @CsvSource({"two-phase, 32, true", "two-phase, 1, true", "two-phase, 7, true", "double, 32, true", "double, 3, true",
            "two-phase, 1024, true", "two-phase, 32, false", "double, 5, false"})
    void lanesGiveTheReferenceTopology(String precision, int lanes, boolean grid) {
        Random rnd = new Random(21);
        for (int t = 0; t < 2; t++) {
            Balls b = VoronoiChecks.random(rnd, 300, 15, 0.4, 2.3);
            Precision p = Precision.parse(precision);
            VoronoiResult ref = Voronoi.compute(b, VoronoiOptions.of(Backend.JVM).withPrecision(p).withBatch(0));
            VoronoiResult lane = Voronoi.compute(b,
                    VoronoiOptions.of(Backend.JVM_PARALLEL).withPrecision(p).withLanes(lanes).withGrid(grid));
            assertTrue(ref.vertexCount() > 1000, "vertices " + ref.vertexCount());
            assertEquals(VoronoiChecks.vertexKeys(ref), VoronoiChecks.vertexKeys(lane));
            assertEquals(VoronoiChecks.edgeKeys(ref), VoronoiChecks.edgeKeys(lane));
            assertEquals(ref.stats().searches(), lane.stats().searches());
            assertEquals(ref.stats().swaps(), lane.stats().swaps(), "float->double swaps");
            assertEquals(ref.stats().infiniteEdges(), lane.stats().infiniteEdges());
        }
    }

    @org.junit.jupiter.api.Test
    void lanesOn1ubqMatchTheReference() throws Exception {
        Balls b = VoronoiChecks.resourceBalls("1ubq.xyzr");
        VoronoiResult ref = Voronoi.compute(b, VoronoiOptions.of(Backend.JVM_PARALLEL));
        VoronoiResult lane = Voronoi.compute(b,
                VoronoiOptions.of(Backend.JVM_PARALLEL).withPrecision(Precision.TWO_PHASE).withLanes(32));
        assertEquals(3793, lane.vertexCount());
        assertEquals(VoronoiChecks.vertexKeys(ref), VoronoiChecks.vertexKeys(lane));
        assertEquals(VoronoiChecks.edgeKeys(ref), VoronoiChecks.edgeKeys(lane));
    }
}
