package org.accelgeom.voronoi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.voronoi.VoronoiOptions.Precision;
import org.junit.jupiter.api.Test;

/**
 * Properties on random and real balls: every vertex sphere tangent to its four balls and empty (tolerance
 * {@link VoronoiChecks#EMPTY_TOL}), the same topology from every JVM backend, precision, batching and pruning,
 * Voronota's vertex set on 1UBQ, and the degenerate inputs of the contract.
 */
class VoronoiPropertiesTest {

    @Test
    void verticesAreTangentAndEmpty() throws Exception {
        Random rnd = new Random(11);
        for (int t = 0; t < 6; t++) {
            Balls b = VoronoiChecks.random(rnd, 300, 16, 0.5, 2.2);
            VoronoiResult r = Voronoi.compute(b, VoronoiOptions.of(Backend.JVM));
            assertTrue(r.vertexCount() > 1000);
            VoronoiChecks.assertEmptyAndTangent(b, r);
            assertEquals(0, r.stats().unresolved() + r.stats().inconsistent());
            // every finite edge joins two vertices sharing its triple
            for (int k = 0; k < r.edgeCount(); k++) {
                for (int end = 0; end < 2; end++) {
                    int v = r.ends()[2 * k + end];
                    if (v >= 0) {
                        for (int j = 0; j < 3; j++) {
                            int g = r.triples()[3 * k + j];
                            int[] q = java.util.Arrays.copyOfRange(r.quads(), 4 * v, 4 * v + 4);
                            assertTrue(java.util.Arrays.stream(q).anyMatch(x -> x == g), "edge " + k + " vertex " + v);
                        }
                    }
                }
            }
            // each vertex has degree 4 (edges to infinity counted once, others at both ends)
            int[] degree = new int[r.vertexCount()];
            for (int e : r.ends()) {
                if (e >= 0) {
                    degree[e]++;
                }
            }
            for (int v = 0; v < degree.length; v++) {
                assertEquals(4, degree[v], "degree of vertex " + v);
            }
        }
        Balls ubq = VoronoiChecks.resourceBalls("1ubq.xyzr");
        VoronoiChecks.assertEmptyAndTangent(ubq, Voronoi.compute(ubq, VoronoiOptions.of(Backend.JVM_PARALLEL)));
    }

    @Test
    void quasiTriangulationNeighboursAreMutualAndShareAFace() {
        Random rnd = new Random(17);
        for (int t = 0; t < 3; t++) {
            Balls b = VoronoiChecks.random(rnd, 200, 14, 0.5, 2.2);
            VoronoiResult r = Voronoi.compute(b, VoronoiOptions.of(Backend.JVM));
            int[] n = r.tetrahedronNeighbours();
            int[] q = r.quads();
            int hull = 0;
            for (int a = 0; a < r.vertexCount(); a++) {
                for (int i = 0; i < 4; i++) {
                    int m = n[4 * a + i];
                    assertTrue(m != VoronoiResult.UNKNOWN, "tetrahedron " + a + " face " + i + " has no traced edge");
                    if (m == VoronoiResult.INFINITY) {
                        hull++;
                        continue;
                    }
                    // the neighbour across the face opposite q[4a+i] shares the other three generators, not q[4a+i]
                    // (the multiplicity anomaly: two tetrahedra of one quadruple are neighbours across every face)
                    int shared = 0;
                    for (int j = 0; j < 4; j++) {
                        for (int k = 0; k < 4; k++) {
                            shared += j != i && q[4 * a + j] == q[4 * m + k] ? 1 : 0;
                        }
                    }
                    assertEquals(3, shared, "tetrahedra " + a + " and " + m);
                    final int self = a;
                    assertTrue(java.util.Arrays.stream(n, 4 * m, 4 * m + 4).anyMatch(x -> x == self), "not mutual: " + a + ", " + m);
                }
            }
            assertEquals(r.stats().infiniteEdges(), hull, "hull faces = edges to infinity");
        }
    }

    @Test
    void everyJvmVariantGivesTheSameTopology() {
        Random rnd = new Random(5);
        for (int t = 0; t < 4; t++) {
            Balls b = VoronoiChecks.random(rnd, 250, 14, 0.3, 2.5);
            VoronoiResult ref = Voronoi.compute(b, VoronoiOptions.of(Backend.JVM));
            List<VoronoiOptions> variants = List.of(VoronoiOptions.of(Backend.JVM_PARALLEL),
                    VoronoiOptions.of(Backend.JVM).withPrecision(Precision.TWO_PHASE),
                    VoronoiOptions.of(Backend.JVM_PARALLEL).withPrecision(Precision.TWO_PHASE).withThreshold(1e-4),
                    VoronoiOptions.of(Backend.JVM).withGrid(false).withBatch(0),
                    VoronoiOptions.of(Backend.JVM_PARALLEL).withPrecision(Precision.FLOAT),
                    VoronoiOptions.of(Backend.JVM).withPrecision(Precision.FLOAT).withLanes(4));
            for (VoronoiOptions o : variants) {
                VoronoiResult r = Voronoi.compute(b, o);
                assertEquals(VoronoiChecks.vertexKeys(ref), VoronoiChecks.vertexKeys(r), o.toString());
                assertEquals(VoronoiChecks.edgeKeys(ref), VoronoiChecks.edgeKeys(r), o.toString());
            }
        }
    }

    /**
     * Voronota 1.22.3149 (Debian package voronota) on 1UBQ: src/test/resources/voronoi/README.md has the commands.
     * Same balls, same vertex set: sorted quadruple and tangent-sphere radius (to 1e-6).
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"1ubq, 3793", "1a0q, 20957"})
    void sameVerticesAsVoronota(String protein, int count) throws Exception {
        Balls b = VoronoiChecks.resourceBalls(protein + ".xyzr");
        VoronoiResult r = Voronoi.compute(b, VoronoiOptions.of(Backend.JVM_PARALLEL).withPrecision(Precision.TWO_PHASE));
        // Voronota's vertices as "q1 q2 q3 q4" with their radius (6 decimals), sorted by quadruple then radius
        List<String[]> theirs = new ArrayList<>();
        for (String l : VoronoiChecks.resourceLines(protein + ".voronota-quadruples.txt.gz")) {
            theirs.add(l.split(" "));
        }
        assertEquals(count, theirs.size());
        List<String[]> ours = new ArrayList<>();
        for (int v = 0; v < r.vertexCount(); v++) {
            ours.add(new String[] {"" + r.quads()[4 * v], "" + r.quads()[4 * v + 1], "" + r.quads()[4 * v + 2],
                "" + r.quads()[4 * v + 3], String.format(java.util.Locale.ROOT, "%.6f", r.spheres()[4 * v + 3])});
        }
        java.util.Comparator<String[]> order = java.util.Comparator.<String[], String>comparing(
                t -> t[0] + " " + t[1] + " " + t[2] + " " + t[3]).thenComparingDouble(t -> Double.parseDouble(t[4]));
        theirs.sort(order);
        ours.sort(order);
        assertEquals(theirs.size(), ours.size(), protein + ": vertex count");
        for (int i = 0; i < ours.size(); i++) {
            String[] o = ours.get(i);
            String[] t = theirs.get(i);
            assertEquals(String.join(" ", java.util.Arrays.copyOf(t, 4)), String.join(" ", java.util.Arrays.copyOf(o, 4)),
                    protein + ": vertex " + i);
            // both print the radius to 6 decimals: the last one may round either way
            assertEquals(Double.parseDouble(t[4]), Double.parseDouble(o[4]), 1.5e-6, protein + ": radius of " + String.join(" ", o));
        }
    }

    /**
     * Precision float on a protein: the float search alone picks wrong end vertices (the errors the host's double
     * search of every edge finds and repairs), and the diagram is still the reference one.
     */
    @Test
    void floatPrecisionOn1ubqCountsItsErrorsAndKeepsTheDiagram() throws Exception {
        Balls b = VoronoiChecks.resourceBalls("1ubq.xyzr");
        VoronoiResult ref = Voronoi.compute(b, VoronoiOptions.of(Backend.JVM_PARALLEL));
        VoronoiResult f = Voronoi.compute(b, VoronoiOptions.of(Backend.JVM_PARALLEL).withPrecision(Precision.FLOAT));
        assertEquals(VoronoiChecks.vertexKeys(ref), VoronoiChecks.vertexKeys(f));
        assertEquals(VoronoiChecks.edgeKeys(ref), VoronoiChecks.edgeKeys(f));
        long errors = f.stats().swaps();
        assertTrue(errors > 10 && errors < f.stats().searches() / 20, "float errors " + errors);
    }

    @Test
    void degenerateInputs() {
        // fewer than 4 balls: no vertex
        VoronoiResult three = Voronoi.compute(new Balls(new double[] {0, 1, 0}, new double[] {0, 0, 1},
                new double[] {0, 0, 0}, new double[] {1, 1, 1}), VoronoiOptions.of(Backend.JVM));
        assertEquals(0, three.vertexCount());
        assertEquals(0, Voronoi.compute(new Balls(new double[0], new double[0], new double[0], new double[0]),
                VoronoiOptions.of(Backend.JVM)).vertexCount());
        // contained balls and duplicates are hidden, and the diagram is that of the others
        Random rnd = new Random(2);
        Balls b = VoronoiChecks.random(rnd, 60, 10, 0.5, 1.5);
        int n = b.size();
        double[] x = java.util.Arrays.copyOf(b.x, n + 3), y = java.util.Arrays.copyOf(b.y, n + 3),
                z = java.util.Arrays.copyOf(b.z, n + 3), r = java.util.Arrays.copyOf(b.r, n + 3);
        x[n] = b.x[0] + 0.1;
        y[n] = b.y[0];
        z[n] = b.z[0];
        r[n] = b.r[0] * 0.5; // inside ball 0
        x[n + 1] = b.x[1];
        y[n + 1] = b.y[1];
        z[n + 1] = b.z[1];
        r[n + 1] = b.r[1]; // a duplicate of ball 1
        x[n + 2] = b.x[2];
        y[n + 2] = b.y[2];
        z[n + 2] = b.z[2];
        r[n + 2] = b.r[2] * 0.9; // same centre, smaller
        VoronoiResult with = Voronoi.compute(new Balls(x, y, z, r), VoronoiOptions.of(Backend.JVM));
        VoronoiResult without = Voronoi.compute(b, VoronoiOptions.of(Backend.JVM));
        assertArrayEquals(new int[] {n, n + 1, n + 2}, with.hidden());
        assertEquals(VoronoiChecks.vertexKeys(without), VoronoiChecks.vertexKeys(with));
        // non-finite values and negative radii: one clear error naming the ball
        AccelGeomException e = assertThrows(AccelGeomException.class, () -> new Balls(new double[] {0, Double.NaN},
                new double[] {0, 0}, new double[] {0, 0}, new double[] {1, 1}));
        assertTrue(e.getMessage().startsWith("ball 1 "), e.getMessage());
        assertThrows(AccelGeomException.class, () -> new Balls(new double[] {0}, new double[] {0}, new double[] {0},
                new double[] {-1}));
    }

    @Test
    void equalRadiiGiveTheDelaunayVertices() {
        // equal radii: the diagram is the ordinary Voronoi diagram, vertices are circumcentres (R = circumradius - r)
        Random rnd = new Random(9);
        Balls b = VoronoiChecks.random(rnd, 40, 10, 1, 1);
        VoronoiResult r = Voronoi.compute(b, VoronoiOptions.of(Backend.JVM));
        assertTrue(r.vertexCount() > 100);
        VoronoiChecks.assertEmptyAndTangent(b, r);
        List<String> want = new ArrayList<>();
        for (BruteForceVertices.Vertex v : BruteForceVertices.of(b, 1e-9)) {
            want.add(v.a() + " " + v.b() + " " + v.c() + " " + v.d());
        }
        List<String> got = new ArrayList<>();
        for (int v = 0; v < r.vertexCount(); v++) {
            got.add(r.quads()[4 * v] + " " + r.quads()[4 * v + 1] + " " + r.quads()[4 * v + 2] + " " + r.quads()[4 * v + 3]);
        }
        want.sort(null);
        got.sort(null);
        assertEquals(want, got);
    }
}
