package org.accelgeom.hull.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.accelgeom.engine.Backend;
import org.accelgeom.hull.Hull;
import org.accelgeom.hull.HullTest;
import org.accelgeom.hull.HullChecks;
import org.accelgeom.hull.HullOptions;
import org.accelgeom.hull.HullResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The tornado backend against the JVM reference, on the TornadoVM device (POCL in CI). The hull must be
 * identical: same vertices, same facets. "grid" exercises the path where the device's filter is uncertain and
 * the host decides exactly; "sphere" makes every point a vertex (many rounds, many faces).
 */
@Tag("tornado")
class TornadoHullTest {

    @ParameterizedTest
    @CsvSource({"ball, 20000", "cube, 20000", "sphere, 5000", "gauss, 20000", "grid, 20000", "clustered, 5000"})
    void sameHullAsTheJvmReference(String kind, int n) {
        double[][] p = HullTest.points(kind, n, 5);
        HullResult ref = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.JVM));
        HullResult gpu = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.TORNADO));
        assertEquals(Backend.TORNADO, gpu.backend());
        assertArrayEquals(ref.vertices(), gpu.vertices(), kind);
        assertEquals(HullChecks.canonicalFacets(ref), HullChecks.canonicalFacets(gpu), kind);
        assertEquals(ref.stats().culled(), gpu.stats().culled(), kind + ": culled points");
        HullChecks.checkPolytope(p[0], p[1], p[2], gpu);
    }

    @ParameterizedTest
    @CsvSource({"ball, 19997, 122", "cube, 19991, 58", "gauss, 4999, 10"})
    void primeCountsAndManyCullDirectionsGiveTheSameHull(String kind, int n, int directions) {
        // prime point counts (the launch sizes are padded: the extra work-items must do nothing), and the extreme
        // points along up to 128 directions (every direction block of the extremes task)
        double[][] p = HullTest.points(kind, n, 17);
        HullResult ref = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.JVM).withCullDirections(directions));
        HullResult gpu = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.TORNADO).withCullDirections(directions));
        assertArrayEquals(ref.vertices(), gpu.vertices(), kind);
        assertEquals(HullChecks.canonicalFacets(ref), HullChecks.canonicalFacets(gpu), kind);
        assertEquals(ref.stats().culled(), gpu.stats().culled(), kind + ": culled points");
    }

    @org.junit.jupiter.api.Test
    void launchSizesArePaddedToWholeWorkGroups() {
        for (int g : new int[] {1, 4, 1023, 1024, 1025, 9_348_049, 100_000_000}) {
            int p = HullTaskGraphs.Grid.padded(g);
            assertEquals(0, p % HullTaskGraphs.Grid.PAD, "padded " + g);
            org.junit.jupiter.api.Assertions.assertTrue(p >= g && p - g < HullTaskGraphs.Grid.PAD, "padded " + g + ": " + p);
        }
    }

    @ParameterizedTest
    @CsvSource({"ball, 3000, 64", "sphere, 3000, 64"})
    void manySmallRoundsGiveTheSameHull(String kind, int n, int maxFaces) {
        // a tiny per-round budget forces many rounds with few faces each
        double[][] p = HullTest.points(kind, n, 9);
        HullResult ref = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.JVM));
        HullResult gpu = Hull.compute(p[0], p[1], p[2],
                HullOptions.of(Backend.TORNADO).withMaxFacesPerRound(maxFaces).withCullDirections(0));
        assertEquals(HullChecks.canonicalFacets(ref), HullChecks.canonicalFacets(gpu), kind);
    }

    @ParameterizedTest
    @CsvSource({"ball, 20000", "sphere, 3000"})
    void roundsAlternatingBetweenTheSmallAndTheFullRoundGraphGiveTheSameHull(String kind, int n) {
        // a small-graph capacity of 32 sends the big rounds through the full-capacity graph and the rest through the
        // small one: both take over the device buffers from each other, from the setup and from the passes graph
        double[][] p = HullTest.points(kind, n, 11);
        HullResult ref = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.JVM));
        System.setProperty("accelgeom.hull.smallRoundCap", "32");
        try {
            HullResult gpu = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.TORNADO));
            assertEquals(HullChecks.canonicalFacets(ref), HullChecks.canonicalFacets(gpu), kind);
            assertEquals(ref.stats().culled(), gpu.stats().culled(), kind + ": culled points");
        } finally {
            System.clearProperty("accelgeom.hull.smallRoundCap");
        }
    }

    @org.junit.jupiter.api.Test
    void aHullThatOutgrowsTheFirstFaceTablesStartsAgainOnTheLargest() {
        double[][] p = HullTest.points("sphere", 4000, 14);
        HullResult ref = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.JVM));
        System.setProperty("accelgeom.hull.firstFaces", "64");
        try (org.accelgeom.engine.DeviceSession s = org.accelgeom.engine.DeviceSession.open(
                org.accelgeom.engine.Execution.tornado(0))) {
            HullResult gpu = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.TORNADO), s);
            assertEquals(HullChecks.canonicalFacets(ref), HullChecks.canonicalFacets(gpu), "sphere");
            org.junit.jupiter.api.Assertions.assertArrayEquals(ref.vertices(), gpu.vertices());
            assertEquals(2, s.planBuilds(), "a plan with the first tables, then one with the largest");
            assertEquals(HullChecks.canonicalFacets(ref), HullChecks.canonicalFacets(
                    Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.TORNADO), s)), "the larger plan again");
            assertEquals(2, s.planBuilds(), "kept for the next hull");
        } finally {
            System.clearProperty("accelgeom.hull.firstFaces");
        }
    }

    @org.junit.jupiter.api.Test
    void tooManyFacesForTheDeviceTablesIsAClearError() {
        double[][] p = HullTest.points("sphere", 4000, 13);
        System.setProperty("accelgeom.hull.initialFaces", "256");
        try {
            org.accelgeom.engine.AccelGeomException e = org.junit.jupiter.api.Assertions.assertThrows(
                    org.accelgeom.engine.AccelGeomException.class,
                    () -> Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.TORNADO).withCullDirections(0)));
            org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("jvm-parallel"), e.getMessage());
        } finally {
            System.clearProperty("accelgeom.hull.initialFaces");
        }
    }
}
