package org.accelgeom.voronoi.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.accelgeom.engine.Backend;
import org.accelgeom.voronoi.Balls;
import org.accelgeom.voronoi.VoronoiChecks;
import org.accelgeom.voronoi.Voronoi;
import org.accelgeom.voronoi.VoronoiOptions;
import org.accelgeom.voronoi.VoronoiOptions.Precision;
import org.accelgeom.voronoi.VoronoiResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The tornado end-vertex search against the JVM reference on the TornadoVM device (POCL in CI): the same
 * topology (vertex quadruples with their spheres, edges) in the two-phase, double and unpruned modes, with the
 * default 32 lanes per edge, 5 lanes and one work-item per edge, on random overlapping balls and on 1UBQ.
 */
@Tag("tornado")
@org.junit.jupiter.api.extension.ExtendWith(EveryLevelOnTheDevice.class)
class TornadoVoronoiTest {

    @ParameterizedTest
    @CsvSource({"random, two-phase, true, 0", "random, double, true, 0", "random, two-phase, false, 0",
            "1ubq, two-phase, true, 0", "1ubq, double, true, 5", "random, two-phase, true, 1", "1ubq, float, true, 0"})
    void sameTopologyAsTheJvmReference(String input, String precision, boolean grid, int lanes) throws Exception {
        Balls b = input.equals("1ubq") ? VoronoiChecks.resourceBalls("1ubq.xyzr")
                : VoronoiChecks.random(new Random(3), 400, 18, 0.8, 2.0);
        VoronoiResult ref = Voronoi.compute(b, VoronoiOptions.of(Backend.JVM));
        VoronoiResult gpu = Voronoi.compute(b,
                VoronoiOptions.of(Backend.TORNADO).withPrecision(Precision.parse(precision)).withGrid(grid).withLanes(lanes));
        assertEquals(Backend.TORNADO, gpu.backend());
        assertTrue(ref.vertexCount() > 1000, "vertices: " + ref.vertexCount());
        assertEquals(ref.vertexCount(), gpu.vertexCount(), "vertex count");
        assertTrue(VoronoiChecks.vertexKeys(ref).equals(VoronoiChecks.vertexKeys(gpu)), "same vertices");
        assertTrue(VoronoiChecks.edgeKeys(ref).equals(VoronoiChecks.edgeKeys(gpu)), "same edges");
        assertTrue(gpu.stats().batches() < ref.stats().batches(), "level-by-level: fewer launches than edges");
        if (precision.equals("float")) {
            assertTrue(gpu.stats().swaps() > 0, gpu.stats().toString());
        }
        if (precision.equals("two-phase")) {
            // the float winner is the edge's float arg-min on the device too: swaps as the lane layout on the CPU
            VoronoiResult cpu = Voronoi.compute(b, VoronoiOptions.of(Backend.JVM_PARALLEL)
                    .withPrecision(Precision.parse(precision)).withGrid(grid).withLanes(Math.max(1, lanes)));
            assertTrue(Math.abs(cpu.stats().swaps() - gpu.stats().swaps()) <= 2 + cpu.stats().swaps() / 20,
                    "swaps: device " + gpu.stats().swaps() + ", cpu " + cpu.stats().swaps());
        }
    }
}
