package org.accelgeom.ridge.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.accelgeom.engine.tornado.GraphNames;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;

/**
 * The evolution graph on the TornadoVM device (POCL in CI) with chosen chunks of the closest kernel (the CLI's
 * {@link RidgeBuffers#chunkFor} gives 1 for the small clouds of {@link TornadoRidgeTest}): chunks of 3, 16, 64 and
 * 1000 points, in {@link TileOrder}'s order or the layout's, over the irregular tiles of
 * {@link DeviceStepsOnTheJvmTest#irregularTiles}, d = 1, 2, 3 and 7, give the jvm backend's representatives and
 * iterations bit for bit.
 */
@Tag("tornado")
class ClosestChunksTornadoTest {

    @ParameterizedTest
    @CsvSource({"spiral3d, 3, double, 3, true", "segment, 7, float, 64, true", "spiral2d, 2, float, 16, false",
        "segment, 1, double, 1000, true"})
    void theRunsOnTheDeviceGiveTheJvmBackendsRepresentatives(String curve, int dim, String precision, int chunk,
            boolean order) throws Exception {
        DeviceStepsOnTheJvmTest.Setup u = DeviceStepsOnTheJvmTest.irregularTiles(curve, dim, precision);
        double[] ref = u.reps().clone();
        int refIterations = u.jvm(ref);
        double[] reps = u.reps().clone();
        RidgeBuffers b = new RidgeBuffers(u.layout(), u.prm().precision(), u.ns(), 2, chunk,
                order ? TileOrder.of(u.layout(), u.prm().r1() / 16) : null);
        b.setParameters(u.prm());
        String name = GraphNames.unique("chunks");
        TaskGraph g = RidgeTaskGraphs.graph(name, b);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(g.snapshot())) {
            plan.withGridScheduler(RidgeTaskGraphs.grid(name, b));
            b.start(reps, u.ns(), u.tileStart(), u.prm().maxIterations());
            TornadoExecutionResult r;
            do {
                r = plan.execute();
                r.transferToHost(b.flags);
            } while (b.live());
            r.transferToHost(b.representatives(), b.check.beat);
            b.verify("the default device");
            b.result(reps, u.ns());
        }
        assertTrue(refIterations > 2, "the reference moved: " + refIterations);
        assertEquals(refIterations, b.iterations());
        assertArrayEquals(ref, reps, 0.0);
    }
}
