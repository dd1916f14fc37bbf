package org.accelgeom.voronoi.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.accelgeom.engine.Backend;
import org.accelgeom.voronoi.Balls;
import org.accelgeom.voronoi.VoronoiChecks;
import org.accelgeom.voronoi.Voronoi;
import org.accelgeom.voronoi.VoronoiOptions;
import org.accelgeom.voronoi.VoronoiResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The completion of a disconnected vertex graph on the device backend: a random set of large and small balls whose
 * tracing from one vertex misses a piece (CompletionTest's set 11, which the brute force checks there, and a set of
 * 300 balls with two components) gives the jvm reference's vertices and edges on tornado.
 */
@Tag("tornado")
@org.junit.jupiter.api.extension.ExtendWith(EveryLevelOnTheDevice.class)
class TornadoCompletionTest {

    /** As CompletionTest.largeAndSmall: n balls in a cube of side box, half of radius 2-4, half 0.1-0.7. */
    static Balls largeAndSmall(Random rnd, int n, double box) {
        double[] x = new double[n], y = new double[n], z = new double[n], r = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = rnd.nextDouble() * box;
            y[i] = rnd.nextDouble() * box;
            z[i] = rnd.nextDouble() * box;
            r[i] = rnd.nextBoolean() ? 2 + 2 * rnd.nextDouble() : 0.1 + 0.6 * rnd.nextDouble();
        }
        return new Balls(x, y, z, r);
    }

    @Test
    void disconnectedPiecesAsOnTheJvm() {
        Random small = new Random(11);
        Balls[] sets = {largeAndSmall(small, 10 + small.nextInt(8), 8), largeAndSmall(new Random(1032), 300, 22)};
        for (Balls b : sets) {
            VoronoiResult ref = Voronoi.compute(b, VoronoiOptions.of(Backend.JVM));
            VoronoiResult gpu = Voronoi.compute(b, VoronoiOptions.of(Backend.TORNADO));
            assertEquals(Backend.TORNADO, gpu.backend());
            assertTrue(ref.stats().components() > 1, "a disconnected vertex graph: " + ref.stats());
            assertEquals(ref.stats().components(), gpu.stats().components(), "components");
            assertEquals(VoronoiChecks.vertexKeys(ref), VoronoiChecks.vertexKeys(gpu), "same vertices");
            assertEquals(VoronoiChecks.edgeKeys(ref), VoronoiChecks.edgeKeys(gpu), "same edges");
            VoronoiChecks.assertEmptyAndTangent(b, gpu);
        }
    }
}
