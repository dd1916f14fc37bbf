package org.accelgeom.voronoi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.accelgeom.engine.Backend;
import org.junit.jupiter.api.Test;

/**
 * The completion of a disconnected vertex graph ({@link Completion}): on random sets of large and small balls the
 * tracing from one vertex misses pieces (the vertices connected to the first vertex differ from the brute force's
 * set: the former result); the completed diagram equals the brute force, on jvm and jvm-parallel.
 */
class CompletionTest {

    /** n balls in a cube of side 8, half of radius 2-4, half 0.1-0.7 (rich in sealed pockets). */
    static Balls largeAndSmall(Random rnd, int n) {
        double[] x = new double[n], y = new double[n], z = new double[n], r = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = rnd.nextDouble() * 8;
            y[i] = rnd.nextDouble() * 8;
            z[i] = rnd.nextDouble() * 8;
            r[i] = rnd.nextBoolean() ? 2 + 2 * rnd.nextDouble() : 0.1 + 0.6 * rnd.nextDouble();
        }
        return new Balls(x, y, z, r);
    }

    /** Brute-force vertex keys (as {@link VoronoiTest#keys}). */
    static List<String> bruteForce(Balls b) {
        List<String> want = new ArrayList<>();
        for (BruteForceVertices.Vertex v : BruteForceVertices.of(b, 1e-9)) {
            want.add(VoronoiTest.key(v.a(), v.b(), v.c(), v.d(), v.x(), v.y(), v.z()));
        }
        want.sort(null);
        return want;
    }

    /** The keys of the vertices connected to vertex 0 by edges: what the tracing from one vertex gives. */
    static List<String> firstComponent(VoronoiResult res) {
        int nv = res.vertexCount();
        List<List<Integer>> adj = new ArrayList<>();
        for (int v = 0; v < nv; v++) {
            adj.add(new ArrayList<>());
        }
        for (int k = 0; k < res.edgeCount(); k++) {
            int a = res.ends()[2 * k], c = res.ends()[2 * k + 1];
            if (c >= 0) {
                adj.get(a).add(c);
                adj.get(c).add(a);
            }
        }
        boolean[] seen = new boolean[nv];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        if (nv > 0) {
            queue.add(0);
            seen[0] = true;
        }
        while (!queue.isEmpty()) {
            for (int u : adj.get(queue.poll())) {
                if (!seen[u]) {
                    seen[u] = true;
                    queue.add(u);
                }
            }
        }
        List<String> k = new ArrayList<>();
        List<String> all = new ArrayList<>();
        for (int v = 0; v < nv; v++) {
            String key = VoronoiTest.key(res.quads()[4 * v], res.quads()[4 * v + 1], res.quads()[4 * v + 2],
                    res.quads()[4 * v + 3], res.spheres()[4 * v], res.spheres()[4 * v + 1], res.spheres()[4 * v + 2]);
            if (seen[v]) {
                k.add(key);
            }
        }
        k.sort(null);
        return k;
    }

    /** The seeds of {@link #randomLargeAndSmallBallsMatchBruteForce} (a Random(seed) set each, 10-17 balls). */
    static final int SETS = 400;

    @Test
    void randomLargeAndSmallBallsMatchBruteForce() {
        int missedBefore = 0, pieces = 0;
        List<Integer> missing = new ArrayList<>();
        for (int t = 0; t < SETS; t++) {
            Random rnd = new Random(t);
            Balls b = largeAndSmall(rnd, 10 + rnd.nextInt(8));
            List<String> want = bruteForce(b);
            VoronoiResult jvm = Voronoi.compute(b, VoronoiOptions.of(Backend.JVM));
            VoronoiResult par = Voronoi.compute(b, VoronoiOptions.of(Backend.JVM_PARALLEL));
            if (!firstComponent(jvm).equals(want)) {
                missedBefore++;
                missing.add(t);
                assertTrue(jvm.stats().components() > 1, "set " + t + ": a missed piece, one component");
            }
            pieces += jvm.stats().components() - 1;
            assertEquals(want, VoronoiTest.keys(jvm), "set " + t + " jvm " + jvm.stats());
            assertEquals(want, VoronoiTest.keys(par), "set " + t + " jvm-parallel");
            assertEquals(VoronoiChecks.edgeKeys(jvm), VoronoiChecks.edgeKeys(par), "set " + t + " edges");
            assertEquals(0, jvm.stats().unresolved() + jvm.stats().inconsistent() + jvm.stats().undecidedBalls(), "set " + t);
            VoronoiChecks.assertEmptyAndTangent(b, jvm);
        }
        System.out.println("completion: " + missedBefore + " of " + SETS + " sets missed vertices before, " + pieces
                + " further pieces traced; sets " + missing);
        assertTrue(missedBefore >= 3, "the test data has sets where the first tracing misses vertices: " + missedBefore);
    }
    /**
     * A pocket without closed edge: two small balls between two large ones (EllipticEdgesTest.ring's, with a second
     * small ball) have the two vertices of one quadruple, joined by four edges: a component of its own; far balls make
     * another. Both are traced, as the brute force says, whichever the first tracing starts in.
     */
    @Test
    void aPocketOfTwoSmallBallsIsAComponentOfItsOwn() {
        Balls b = EllipticEdgesTest.ring(new double[] {0, 0.25, 0.1, 0.28}, new double[] {0, 30, 0, 1.5},
                new double[] {0, -20, 25, 1.2}, new double[] {20, 5, -20, 1.0}, new double[] {-25, 0, 20, 1.7},
                new double[] {0, 0, 40, 1.1});
        List<String> want = bruteForce(b);
        for (Backend be : new Backend[] {Backend.JVM, Backend.JVM_PARALLEL}) {
            VoronoiResult r = Voronoi.compute(b, VoronoiOptions.of(be));
            assertEquals(want, VoronoiTest.keys(r), be.toString());
            assertTrue(want.stream().filter(k -> k.startsWith("0 1 2 3 ")).count() == 2, "the pocket's two vertices " + want);
            assertEquals(2, r.stats().components(), r.stats().toString());
            assertTrue(!firstComponent(r).equals(want), "the first tracing alone misses a piece");
            VoronoiChecks.assertEmptyAndTangent(b, r);
        }
    }

    @Test
    void aBallSealedByAClosedEdgeIsProvenVertexFree() {
        // EllipticEdgesTest's ring with far balls: the small ball (2) has no vertex, decided by the complete search
        Balls b = EllipticEdgesTest.ring(new double[] {0, 30, 0, 1.5}, new double[] {0, -20, 25, 1.2},
                new double[] {20, 5, -20, 1.0}, new double[] {-25, 0, 20, 1.7}, new double[] {0, 0, 40, 1.1});
        BallGrid g = BallGrid.build(b, 6, null);
        boolean[] hidden = b.hidden(g);
        CellVertex.Found f = CellVertex.find(b, hidden, g, 2, 1e-7, new int[4], new int[1], new double[4]);
        assertEquals(3, f.how(), "no vertex: " + f);
        VoronoiResult r = Voronoi.compute(b, VoronoiOptions.of(Backend.JVM));
        assertEquals(1, r.stats().vertexFreeBalls());
        assertEquals(1, r.stats().components());
        assertEquals(bruteForce(b), VoronoiTest.keys(r));
    }
}
