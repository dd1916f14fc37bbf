package org.accelgeom.hull;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.Execution;
import org.accelgeom.io.PointCloud;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link SeededHull} (the hull continued from the QuickHull history of the hull of some of the points) equals
 * {@link Hull#compute} of all the points: balls, every point extreme (a sphere), grids (points inside facets and on
 * edges, coplanar faces), a cube; seeded by the first part's history as a split's merge does, the other points either
 * all of theirs or only their own hull's candidates, and by a subset whose hull is the whole hull (nothing to insert).
 */
class SeededHullTest {

    private static final HullOptions OPTIONS = HullOptions.of(Backend.JVM_PARALLEL).withThreads(2);

    @ParameterizedTest
    @CsvSource({"ball, 20000, 3", "sphere, 8000, 2", "grid, 4096, 3", "cube, 10000, 4", "gauss, 8000, 2"})
    void theSeededHullIsTheHullOfAllThePoints(String kind, int n, int parts) {
        PointCloud p = points(kind, n);
        HullResult one = Hull.compute(p, OPTIONS);
        int cut = n / parts;
        double[][] first = {Arrays.copyOf(p.x(), cut), Arrays.copyOf(p.y(), cut), Arrays.copyOf(p.z(), cut)};
        Hull.Traced t;
        try (DeviceSession s = DeviceSession.open(Execution.parallel(2))) {
            t = Hull.trace(first[0], first[1], first[2], OPTIONS, s);
        }
        assertNotNull(t.history(), kind + ": a 3D part has a history");
        if (kind.equals("sphere")) {
            assertTrue(t.history().faces() > 1 << 14, "a history the seed splits over cores: " + t.history().faces());
        }
        // the live faces' points hold every vertex of the part's hull
        HullResult part = Hull.compute(PointCloud.of(first[0], first[1], first[2]), OPTIONS);
        for (int v : part.vertices()) {
            assertTrue(Arrays.binarySearch(t.result().vertices(), v) >= 0, kind + ": vertex " + v + " among the candidates");
        }
        // the history's points first, renumbered, then every other point
        int[] seedPoints = t.history().points();
        int m = seedPoints.length + n - cut;
        double[] x = new double[m];
        double[] y = new double[m];
        double[] z = new double[m];
        for (int i = 0; i < seedPoints.length; i++) {
            x[i] = first[0][seedPoints[i]];
            y[i] = first[1][seedPoints[i]];
            z[i] = first[2][seedPoints[i]];
        }
        System.arraycopy(p.x(), cut, x, seedPoints.length, n - cut);
        System.arraycopy(p.y(), cut, y, seedPoints.length, n - cut);
        System.arraycopy(p.z(), cut, z, seedPoints.length, n - cut);
        PointCloud all = PointCloud.of(x, y, z);
        HullResult seeded = SeededHull.compute(x, y, z, t.history().renumbered(seedPoints, 0), OPTIONS);
        assertEquals(PartitionedHullTest.canonical(one, p), PartitionedHullTest.canonical(seeded, all), kind);
        HullChecks.checkPolytope(x, y, z, seeded);
        // on the one-thread reference too
        HullResult serial = SeededHull.compute(x, y, z, t.history().renumbered(seedPoints, 0), HullOptions.of(Backend.JVM));
        assertEquals(PartitionedHullTest.canonical(one, p), PartitionedHullTest.canonical(serial, all), kind + " (jvm)");
    }

    @ParameterizedTest
    @CsvSource({"ball, 5000", "grid, 4096"})
    void aSeedWhoseHullIsTheWholeHullInsertsNothing(String kind, int n) {
        PointCloud p = points(kind, n);
        HullResult one = Hull.compute(p, OPTIONS);
        Hull.Traced t;
        try (DeviceSession s = DeviceSession.open(Execution.parallel(2))) {
            t = Hull.trace(p.x(), p.y(), p.z(), OPTIONS, s);
        }
        HullResult seeded = SeededHull.compute(p.x(), p.y(), p.z(), t.history(), OPTIONS);
        assertEquals(PartitionedHullTest.canonical(one, p), PartitionedHullTest.canonical(seeded, p), kind);
        assertEquals(0, seeded.stats().insertions(), kind + ": every vertex was in the seed");
    }

    @ParameterizedTest
    @CsvSource({"0x1p400", "0x1p-700"})
    void scaledInputsToo(double scale) {
        // outside the kernels' window: the seeded hull runs on scaled copies as Hull does
        PointCloud b = RandomPoints.ball(6000, 25);
        double[] x = Arrays.stream(b.x()).map(v -> v * scale).toArray();
        double[] y = Arrays.stream(b.y()).map(v -> v * scale).toArray();
        double[] z = Arrays.stream(b.z()).map(v -> v * scale).toArray();
        PointCloud p = PointCloud.of(x, y, z);
        Hull.Traced t;
        try (DeviceSession s = DeviceSession.open(Execution.parallel(2))) {
            t = Hull.trace(Arrays.copyOf(x, 3000), Arrays.copyOf(y, 3000), Arrays.copyOf(z, 3000), OPTIONS, s);
        }
        HullResult seeded = SeededHull.compute(x, y, z, t.history(), OPTIONS);
        assertEquals(PartitionedHullTest.canonical(Hull.compute(p, OPTIONS), p), PartitionedHullTest.canonical(seeded, p));
    }

    private static PointCloud points(String kind, int n) {
        if (kind.equals("grid")) {
            int g = (int) Math.round(Math.cbrt(n));
            double[] x = new double[g * g * g];
            double[] y = new double[x.length];
            double[] z = new double[x.length];
            int i = 0;
            for (int a = 0; a < g; a++) {
                for (int b = 0; b < g; b++) {
                    for (int c = 0; c < g; c++, i++) { // interleaved, so that every part spans the grid
                        x[i] = (a * 7 + c) % g;
                        y[i] = b;
                        z[i] = c;
                    }
                }
            }
            return PointCloud.of(x, y, z);
        }
        return switch (kind) {
            case "ball" -> RandomPoints.ball(n, 21);
            case "sphere" -> RandomPoints.sphere(n, 22);
            case "cube" -> RandomPoints.cube(n, 23);
            default -> RandomPoints.gauss(n, 24);
        };
    }
}
