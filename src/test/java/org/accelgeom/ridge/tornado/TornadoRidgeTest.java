package org.accelgeom.ridge.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.ridge.Curve;
import org.accelgeom.ridge.Precision;
import org.accelgeom.ridge.Ridge;
import org.accelgeom.ridge.RidgeOptions;
import org.accelgeom.ridge.RidgeResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The tornado evolution against the JVM reference on the TornadoVM device (POCL in CI). With fixed-point sums the
 * result is the same to the last bit; the only possible difference is a point whose two nearest representatives
 * are equally far to the last bit (the device fuses multiply-adds in the distance), which these inputs do not have.
 */
@Tag("tornado")
class TornadoRidgeTest {

    @ParameterizedTest
    @CsvSource({"spiral2d, 2, brute, double, 3000", "spiral3d, 3, tiled, float, 3000", "segment, 4, brute, float, 2000",
        "spiral2d, 2, tiled, double, 3000"})
    void sameRepresentativesAsTheJvmReference(String curve, int dim, String version, String precision, int n) {
        double[][] p = Curve.parse(curve).sample(n, dim, 4.17, 31);
        RidgeOptions o = RidgeOptions.of(Backend.JVM, 8.34).withPrecision(Precision.parse(precision));
        if ("tiled".equals(version)) {
            o = o.withTiles(null, n / 4);
        }
        RidgeResult ref = Ridge.detect(p, o);
        RidgeResult gpu = Ridge.detect(p, o.withBackend(Backend.TORNADO));
        assertEquals(Backend.TORNADO, gpu.backend());
        assertEquals(ref.stats(), gpu.stats());
        assertArrayEquals(ref.representatives(), gpu.representatives(), 0.0);
        assertEquals(ref.curves().polylines().size(), gpu.curves().polylines().size());
    }

    /**
     * The closest kernel by runs over the device's per-tile order (session 16): d = 1 and 7, tiny tiles (capacity
     * 40), sizes that are no multiple of the chunk, brute force and tiled, both precisions.
     */
    @ParameterizedTest
    @CsvSource({"segment, 1, 40, double, 2999", "segment, 1, 0, float, 1001", "segment, 7, 300, float, 2001",
        "segment, 7, 0, double, 1500", "spiral3d, 3, 40, double, 3001"})
    void theRunsGiveTheJvmReferencesRepresentatives(String curve, int dim, int capacity, String precision, int n) {
        double[][] p = Curve.parse(curve).sample(n, dim, 4.17, 37);
        RidgeOptions o = RidgeOptions.of(Backend.JVM, 8.34).withPrecision(Precision.parse(precision));
        if (capacity > 0) {
            o = o.withTiles(null, capacity);
        }
        RidgeResult ref = Ridge.detect(p, o);
        RidgeResult gpu = Ridge.detect(p, o.withBackend(Backend.TORNADO));
        assertEquals(ref.stats(), gpu.stats());
        assertArrayEquals(ref.representatives(), gpu.representatives(), 0.0);
    }

    @Test
    void theIterationCapStopsAtTheSameIterationAsTheJvm() {
        // the cap (5) falls inside an execution of 8 unrolled iterations: the device must stop exactly there
        double[][] p = Curve.SPIRAL3D.sample(2500, 3, 4.17, 4);
        RidgeOptions o = RidgeOptions.of(Backend.JVM, 8.34).withMaxIterations(5);
        RidgeResult ref = Ridge.detect(p, o);
        RidgeResult gpu = Ridge.detect(p, o.withBackend(Backend.TORNADO));
        assertTrue(ref.stats().capped());
        assertEquals(ref.stats(), gpu.stats());
        assertArrayEquals(ref.representatives(), gpu.representatives(), 0.0);
    }

    @Test
    void aSecondRunOverTheSamePointsReusesThePlan() {
        double[][] p = Curve.SPIRAL2D.sample(2000, 2, 4.17, 8);
        RidgeOptions o = RidgeOptions.of(Backend.TORNADO, 8.34);
        try (DeviceSession session = DeviceSession.open(o.execution())) {
            RidgeResult first = Ridge.detect(p, o, session);
            RidgeResult second = Ridge.detect(p, o, session);
            assertArrayEquals(first.representatives(), second.representatives(), 0.0);
            assertTrue(has(first.timings(), "build task graph"));
            assertTrue(!has(second.timings(), "build task graph"), "no new plan for the same points");
            assertEquals(1, session.planBuilds(), "one plan in the session");
        }
    }

    private static boolean has(PhaseTimings t, String phase) {
        return t.phases().stream().anyMatch(ph -> ph.name().equals(phase));
    }
}
