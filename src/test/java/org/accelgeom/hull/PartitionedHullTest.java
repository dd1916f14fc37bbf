package org.accelgeom.hull;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DevicePool;
import org.accelgeom.engine.Execution;
import org.accelgeom.io.PointCloud;
import org.junit.jupiter.api.Test;

/**
 * {@link PartitionedHull} equals {@link Hull} (same dimension, vertices and facets as polygons of points) on
 * inputs whose parts are degenerate in every way: random balls, all points extreme (a sphere), grids (points inside
 * facets and on edges), duplicates across parts, flat and collinear inputs. The parts run on a pool of jvm workers;
 * the tornado test of the CLI (MultiDeviceTornadoTest) runs them on a device.
 */
class PartitionedHullTest {

    private static void assertSameHull(PointCloud p, int workers) {
        HullOptions o = HullOptions.of(Backend.JVM_PARALLEL).withThreads(2);
        HullResult one = Hull.compute(p, o);
        HullResult split;
        int[] devices = new int[workers];
        try (DevicePool pool = DevicePool.open(Execution.parallel(2), devices)) {
            split = PartitionedHull.compute(p, o, pool);
        }
        assertEquals(one.dimension(), split.dimension());
        assertEquals(canonical(one, p), canonical(split, p));
        assertEquals(p.size(), split.stats().points());
    }

    /** The hull as text independent of facet order, starting corner and which copy of a duplicate is named. */
    static String canonical(HullResult h, PointCloud p) {
        TreeSet<String> vertices = new TreeSet<>();
        for (int v : h.vertices()) {
            vertices.add(point(p, v));
        }
        TreeSet<String> facets = new TreeSet<>();
        for (int f = 0; f < h.facetCount(); f++) {
            List<String> loop = new ArrayList<>();
            for (int k = h.facetStart()[f]; k < h.facetStart()[f + 1]; k++) {
                loop.add(point(p, h.facetIndex()[k]));
            }
            int first = loop.indexOf(loop.stream().min(String::compareTo).orElseThrow());
            List<String> rotated = new ArrayList<>(loop.subList(first, loop.size()));
            rotated.addAll(loop.subList(0, first));
            facets.add(String.join(" ", rotated));
        }
        return h.dimension() + "\n" + vertices + "\n" + String.join("\n", facets);
    }

    private static String point(PointCloud p, int i) {
        return "(" + p.x()[i] + "," + p.y()[i] + "," + p.z()[i] + ")";
    }

    @Test
    void randomInputsEqualTheOneDeviceHull() {
        assertSameHull(RandomPoints.ball(20_000, 1), 3);
        assertSameHull(RandomPoints.gauss(12_000, 2), 2);
        assertSameHull(RandomPoints.cube(10_000, 3), 4);
    }

    @Test
    void theMergesWarmUpGivesTheHullOfItsPoints() {
        PointCloud p = RandomPoints.sphere(4000, 8);
        HullOptions o = HullOptions.of(Backend.JVM_PARALLEL).withThreads(2);
        assertEquals(canonical(Hull.compute(p, o), p), canonical(PartitionedHull.warmUp(p, o), p));
    }

    @Test
    void theSeededMergeOfTracedPartsIsTheHull() {
        // what accelgeom.hull.seededMerge=true sends: traced parts, part 0 with its history
        for (PointCloud p : List.of(RandomPoints.ball(20_000, 11), RandomPoints.sphere(5000, 12))) {
            HullOptions o = HullOptions.of(Backend.JVM_PARALLEL).withThreads(2);
            int n = p.size();
            List<PartitionedHull.Part> parts = new ArrayList<>();
            try (org.accelgeom.engine.DeviceSession s = org.accelgeom.engine.DeviceSession.open(o.execution())) {
                for (int k = 0; k < 3; k++) {
                    int from = n * k / 3;
                    int to = n * (k + 1) / 3;
                    Hull.Traced t = Hull.trace(java.util.Arrays.copyOfRange(p.x(), from, to),
                            java.util.Arrays.copyOfRange(p.y(), from, to), java.util.Arrays.copyOfRange(p.z(), from, to), o, s);
                    parts.add(PartitionedHull.Part.of(to - from, t, k == 0, p.x(), p.y(), p.z(), from));
                }
            }
            assertTrue(parts.get(0).history() != null && parts.get(1).history() == null);
            HullResult merged = PartitionedHull.merge(parts, o, new org.accelgeom.engine.PhaseTimings(), () -> null).result();
            assertEquals(canonical(Hull.compute(p, o), p), canonical(merged, p));
        }
    }

    @Test
    void everyPointExtreme() {
        assertSameHull(RandomPoints.sphere(6_000, 4), 2);
    }

    @Test
    void gridsWithPointsInsideFacetsAndOnEdges() {
        int g = 16;
        double[] x = new double[g * g * g];
        double[] y = new double[x.length];
        double[] z = new double[x.length];
        int i = 0;
        for (int a = 0; a < g; a++) {
            for (int b = 0; b < g; b++) {
                for (int c = 0; c < g; c++, i++) {
                    x[i] = a;
                    y[i] = b;
                    z[i] = c;
                }
            }
        }
        assertSameHull(PointCloud.of(x, y, z), 3);
    }

    @Test
    void duplicatesAcrossPartsAndDegenerateParts() {
        PointCloud b = RandomPoints.ball(5000, 5);
        int n = b.size();
        double[] x = new double[2 * n];
        double[] y = new double[2 * n];
        double[] z = new double[2 * n];
        for (int i = 0; i < n; i++) { // the second half repeats the first: every extreme point twice, one per part
            x[i] = x[i + n] = b.x()[i];
            y[i] = y[i + n] = b.y()[i];
            z[i] = z[i + n] = b.z()[i];
        }
        assertSameHull(PointCloud.of(x, y, z), 2);
        // flat (all points in z = x + 2y), collinear, and one repeated point
        Random r = new Random(6);
        double[] fx = new double[6000];
        double[] fy = new double[6000];
        double[] fz = new double[6000];
        double[] lx = new double[6000];
        double[] ly = new double[6000];
        double[] lz = new double[6000];
        for (int k = 0; k < fx.length; k++) {
            fx[k] = r.nextInt(1000);
            fy[k] = r.nextInt(1000);
            fz[k] = fx[k] + 2 * fy[k];
            lx[k] = r.nextInt(100000);
            ly[k] = 2 * lx[k];
            lz[k] = -lx[k];
        }
        assertSameHull(PointCloud.of(fx, fy, fz), 3);
        assertSameHull(PointCloud.of(lx, ly, lz), 2);
        assertSameHull(PointCloud.of(new double[3000], new double[3000], new double[3000]), 2);
        // a part flat, the other not: the points of the first half in a plane
        double[] hx = fx.clone();
        double[] hy = fy.clone();
        double[] hz = fz.clone();
        for (int k = 3000; k < 6000; k++) {
            hz[k] = r.nextInt(1000) - 500;
        }
        assertSameHull(PointCloud.of(hx, hy, hz), 2);
    }

    @Test
    void smallInputsAreNotSplitAndNonFinitePointsNamedByTheirIndex() {
        assertSameHull(RandomPoints.ball(1500, 7), 2); // fewer than 2 x 1024 points: one part
        PointCloud p = RandomPoints.ball(10_000, 8);
        p.z()[7777] = Double.NaN;
        try (DevicePool pool = DevicePool.open(Execution.jvm(), 0, 0)) {
            AccelGeomException e = assertThrows(AccelGeomException.class,
                    () -> PartitionedHull.compute(p, HullOptions.of(Backend.JVM), pool));
            assertTrue(e.getMessage().startsWith("point 7777 has a non-finite coordinate"), e.getMessage());
        }
    }
}
