package org.accelgeom.voronoi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.accelgeom.engine.Backend;
import org.junit.jupiter.api.Test;

/** The CLI's JIT warm-up computes a real diagram: the same vertices as jvm-parallel on the same balls. */
class VoronoiWarmUpTest {

    @Test
    void warmsUpOnARealDiagram() {
        int vertices = VoronoiWarmUp.run();
        VoronoiResult direct = Voronoi.compute(Balls.randomAtoms(VoronoiWarmUp.BALLS, 1),
                VoronoiOptions.of(Backend.JVM_PARALLEL));
        assertEquals(direct.vertexCount(), vertices);
        assertTrue(vertices > 5 * VoronoiWarmUp.BALLS, "a diagram of random atoms has about 6-7 vertices per ball");
    }
}
