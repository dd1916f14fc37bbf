package org.accelgeom.hull;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.io.Formats;
import org.accelgeom.io.PointCloud;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

public class HullTest {

    private static HullResult hull(double[] x, double[] y, double[] z, Backend b) {
        return Hull.compute(x, y, z, HullOptions.of(b));
    }

    /** Points of one of the test distributions; "grid" and "clustered" have many exact coplanarities. */
    public static double[][] points(String kind, int n, long seed) {
        Random r = new Random(seed);
        double[] x = new double[n];
        double[] y = new double[n];
        double[] z = new double[n];
        for (int i = 0; i < n; i++) {
            double a;
            double b;
            double c;
            switch (kind) {
                case "ball" -> {
                    do {
                        a = 2 * r.nextDouble() - 1;
                        b = 2 * r.nextDouble() - 1;
                        c = 2 * r.nextDouble() - 1;
                    } while (a * a + b * b + c * c > 1);
                }
                case "sphere" -> {
                    a = r.nextGaussian();
                    b = r.nextGaussian();
                    c = r.nextGaussian();
                    double l = Math.sqrt(a * a + b * b + c * c);
                    a /= l;
                    b /= l;
                    c /= l;
                }
                case "gauss" -> {
                    a = r.nextGaussian();
                    b = r.nextGaussian();
                    c = r.nextGaussian();
                }
                case "clustered" -> {
                    int k = r.nextInt(4);
                    a = k + 0.01 * r.nextGaussian();
                    b = (k % 2) + 0.01 * r.nextGaussian();
                    c = (k / 2) + 0.01 * r.nextGaussian();
                }
                case "grid" -> {
                    a = r.nextInt(5);
                    b = r.nextInt(5);
                    c = r.nextInt(5);
                }
                default -> {
                    a = 2 * r.nextDouble() - 1;
                    b = 2 * r.nextDouble() - 1;
                    c = 2 * r.nextDouble() - 1;
                }
            }
            x[i] = a;
            y[i] = b;
            z[i] = c;
        }
        return new double[][] {x, y, z};
    }

    @ParameterizedTest
    @ValueSource(strings = {"cube", "ball", "sphere", "gauss", "clustered", "grid"})
    void propertiesHoldOnManyRandomInputs(String kind) {
        for (int seed = 0; seed < 300; seed++) {
            int n = 5 + (seed * 37) % 400;
            double[][] p = points(kind, n, seed);
            HullResult h = hull(p[0], p[1], p[2], Backend.JVM);
            HullChecks.checkPolytope(p[0], p[1], p[2], h);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"cube", "sphere", "grid", "clustered"})
    void verticesEqualBruteForceOnSmallInputs(String kind) {
        for (int seed = 0; seed < 40; seed++) {
            double[][] p = points(kind, 8 + seed % 25, 1000 + seed);
            HullResult h = hull(p[0], p[1], p[2], Backend.JVM);
            // compared as coordinates: of duplicate points either copy may be the vertex
            assertEquals(coords(p, HullChecks.bruteForceVertices(p[0], p[1], p[2])), coords(p, HullChecks.toSet(h.vertices())),
                    kind + " seed " + seed);
        }
    }

    private static Set<String> coords(double[][] p, Set<Integer> idx) {
        Set<String> out = new TreeSet<>();
        for (int i : idx) {
            out.add(p[0][i] + "," + p[1][i] + "," + p[2][i]);
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"ball", "sphere", "grid"})
    void jvmParallelGivesTheSameFacetsAsJvm(String kind) {
        double[][] p = points(kind, 50_000, 3);
        HullResult a = hull(p[0], p[1], p[2], Backend.JVM);
        HullResult b = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.JVM_PARALLEL).withThreads(4));
        assertArrayEquals(a.vertices(), b.vertices());
        assertEquals(HullChecks.canonicalFacets(a), HullChecks.canonicalFacets(b));
        HullChecks.checkPolytope(p[0], p[1], p[2], b);
    }

    @Test
    void cullingNeverChangesTheHull() {
        double[][] p = points("ball", 100_000, 11);
        HullResult culled = hull(p[0], p[1], p[2], Backend.JVM);
        HullResult plain = Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.JVM).withCullDirections(0));
        assertTrue(culled.stats().culled() > 50_000, "culling removed only " + culled.stats().culled());
        assertEquals(0, plain.stats().culled());
        assertEquals(HullChecks.canonicalFacets(plain), HullChecks.canonicalFacets(culled));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ball2000", "cube2000", "sphere500", "grid6"})
    void verticesEqualQhull(String name) throws IOException {
        Path dir = Path.of("src/test/resources/hull");
        PointCloud pts = Formats.readPoints(dir.resolve(name + ".txt"));
        List<String> lines = Files.readAllLines(dir.resolve(name + ".qconvex-Fv"));
        Set<Integer> expected = new TreeSet<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] t = line.trim().split("\\s+");
            for (int k = 1; k < t.length; k++) {
                expected.add(Integer.parseInt(t[k]));
            }
        }
        assertEquals(Integer.parseInt(lines.get(0).trim()), Hull.compute(pts, HullOptions.of(Backend.JVM)).facetCount());
        for (Backend b : new Backend[] {Backend.JVM, Backend.JVM_PARALLEL}) {
            HullResult h = Hull.compute(pts, HullOptions.of(b));
            assertEquals(expected, HullChecks.toSet(h.vertices()), name + " on " + b);
        }
    }

    @Test
    void degenerateInputsAreAnswered() {
        HullResult empty = hull(new double[0], new double[0], new double[0], Backend.JVM);
        assertEquals(-1, empty.dimension());
        HullResult one = hull(new double[] {1}, new double[] {2}, new double[] {3}, Backend.JVM);
        assertEquals(0, one.dimension());
        assertArrayEquals(new int[] {0}, one.vertices());
        HullResult dup = hull(new double[] {1, 1, 1}, new double[] {2, 2, 2}, new double[] {3, 3, 3}, Backend.JVM);
        assertEquals(0, dup.dimension());
        // collinear, including duplicates: the two ends
        double[] t = {0.5, 3, -2, 1, 3, 0.25};
        double[] lx = new double[t.length];
        double[] ly = new double[t.length];
        double[] lz = new double[t.length];
        for (int i = 0; i < t.length; i++) {
            lx[i] = 1 + 2 * t[i];
            ly[i] = -1 + 4 * t[i];
            lz[i] = 3 * t[i];
        }
        HullResult seg = hull(lx, ly, lz, Backend.JVM);
        assertEquals(1, seg.dimension());
        assertEquals(Set.of(1, 2), HullChecks.toSet(seg.vertices()));
        // three points: a flat triangle
        HullResult tri = hull(new double[] {0, 1, 0}, new double[] {0, 0, 1}, new double[] {0, 0, 0}, Backend.JVM);
        assertEquals(2, tri.dimension());
        assertTrue(tri.isFlat());
        assertEquals(3, tri.vertices().length);
        // coplanar grid in the tilted plane z = x + 2y: the 2D hull, corners only
        int k = 0;
        double[] px = new double[49];
        double[] py = new double[49];
        double[] pz = new double[49];
        for (int i = 0; i < 7; i++) {
            for (int j = 0; j < 7; j++) {
                px[k] = i;
                py[k] = j;
                pz[k] = i + 2 * j;
                k++;
            }
        }
        HullResult flat = hull(px, py, pz, Backend.JVM_PARALLEL);
        assertEquals(2, flat.dimension());
        assertEquals(Set.of(0, 6, 42, 48), HullChecks.toSet(flat.vertices()));
        assertEquals(1, flat.facetCount());
        // four points, duplicates of a tetrahedron's corners
        HullResult tet = hull(new double[] {0, 1, 0, 0, 1, 0}, new double[] {0, 0, 1, 0, 0, 0},
                new double[] {0, 0, 0, 1, 0, 0}, Backend.JVM);
        assertEquals(3, tet.dimension());
        assertEquals(4, tet.vertices().length);
        assertEquals(4, tet.facetCount());
    }

    @Test
    void nonFinitePointsAreRejectedWithTheirIndex() {
        double[] x = {0, 1, 0, 0, 5};
        double[] y = {0, 0, 1, 0, Double.NaN};
        double[] z = {0, 0, 0, 1, 0};
        AccelGeomException e = assertThrows(AccelGeomException.class, () -> hull(x, y, z, Backend.JVM));
        assertTrue(e.getMessage().contains("point 4"), e.getMessage());
        double[] w = {0, Double.POSITIVE_INFINITY, 0, 0, 5};
        e = assertThrows(AccelGeomException.class, () -> hull(w, z, z, Backend.JVM));
        assertTrue(e.getMessage().contains("point 1"), e.getMessage());
    }

    @Test
    void tornadoWithoutTheRuntimeSaysHowToRunIt() {
        AccelGeomException e = assertThrows(AccelGeomException.class,
                () -> hull(new double[] {0, 1, 0, 0}, new double[] {0, 0, 1, 0}, new double[] {0, 0, 0, 1}, Backend.TORNADO));
        assertTrue(e.getMessage().contains("TornadoVM"), e.getMessage());
    }
}
