package org.accelgeom.hull;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.io.Mesh;
import org.accelgeom.io.PointCloud;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rounds' insertions by reservations ({@link ParallelInsertion}, jvm-parallel) against the serial ones (the jvm
 * backend): the same hull, and the same topology, face ids included, for 1, 2 and 8 threads.
 */
class ParallelInsertionTest {

    private static final int[] THREADS = {1, 2, 8};

    private static Mesh mesh(double[][] p, HullResult h) {
        return h.toMesh(PointCloud.of(p[0], p[1], p[2]));
    }

    private static HullResult serial(double[][] p, int maxFaces) {
        return Hull.compute(p[0], p[1], p[2], HullOptions.of(Backend.JVM).withMaxFacesPerRound(maxFaces));
    }

    /** jvm-parallel with the parallel insertion switched on for this hull ({@code accelgeom.hull.parallelInsert}). */
    private static HullResult parallel(double[][] p, int threads, int maxFaces) {
        return withParallelInsertion(() -> Hull.compute(p[0], p[1], p[2],
                HullOptions.of(Backend.JVM_PARALLEL).withThreads(threads).withMaxFacesPerRound(maxFaces)));
    }

    private static <T> T withParallelInsertion(java.util.function.Supplier<T> body) {
        String old = System.setProperty("accelgeom.hull.parallelInsert", "true");
        try {
            return body.get();
        } finally {
            if (old == null) {
                System.clearProperty("accelgeom.hull.parallelInsert");
            } else {
                System.setProperty("accelgeom.hull.parallelInsert", old);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ball", "cube", "sphere", "gauss", "grid", "clustered"})
    void theSameMeshAsSerialInsertion(String kind) {
        for (int n : new int[] {20_000, 3_000}) {
            double[][] p = HullTest.points(kind, n, 7 + n);
            Mesh expected = mesh(p, serial(p, 1 << 16));
            for (int threads : THREADS) {
                HullResult h = parallel(p, threads, 1 << 16);
                assertEquals(expected, mesh(p, h), kind + " n " + n + " threads " + threads);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sphere", "ball"})
    void aTinyFaceBudgetPerRoundGivesTheSameMesh(String kind) {
        double[][] p = HullTest.points(kind, 5_000, 21);
        HullResult unlimited = serial(p, 1 << 16);
        Mesh expected = mesh(p, unlimited);
        assertEquals(expected, mesh(p, serial(p, 64)));
        for (int threads : THREADS) {
            HullResult h = parallel(p, threads, 64);
            assertEquals(expected, mesh(p, h), kind + " threads " + threads);
            assertTrue(h.stats().rounds() > unlimited.stats().rounds(), "the budget splits rounds");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"cube", "sphere", "grid", "clustered", "gauss"})
    void smallInputsAgreeWithBruteForce(String kind) {
        for (int seed = 0; seed < 60; seed++) {
            double[][] p = HullTest.points(kind, 5 + seed % 40, 500 + seed);
            HullResult h = parallel(p, 2, 64);
            if (h.dimension() == 3) {
                HullChecks.checkPolytope(p[0], p[1], p[2], h);
            }
            assertEquals(mesh(p, serial(p, 64)), mesh(p, h), kind + " seed " + seed);
        }
    }

    @Test
    void degenerateInputsGiveTheSerialResult() {
        double[][][] inputs = {
            {{0, 1, 0, 0, 1}, {0, 0, 1, 0, 1}, {0, 0, 0, 1, 1}}, // a tetrahedron and a point off it
            {{0, 1, 0, 1, 0.5}, {0, 0, 1, 1, 0.5}, {0, 0, 0, 0, 0}}, // coplanar
            {{0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}}, // collinear
            {{1, 1, 1}, {2, 2, 2}, {3, 3, 3}}, // one point thrice
            {{0, 1, 0, 0, 0, 1, 0, 0}, {0, 0, 1, 0, 0, 0, 1, 0}, {0, 0, 0, 1, 0, 0, 0, 1}}, // duplicates
        };
        for (double[][] p : inputs) {
            HullResult s = serial(p, 64);
            for (int threads : THREADS) {
                HullResult h = parallel(p, threads, 64);
                assertEquals(s.dimension(), h.dimension());
                assertArrayEquals(s.vertices(), h.vertices());
                assertEquals(mesh(p, s), mesh(p, h));
            }
        }
    }

    /** The whole face history (ids, corners, neighbours, cones) of the rounds on {@code threads} threads. */
    private static HullHistory history(double[][] p, int threads, int maxFaces) {
        HullOptions o = HullOptions.of(Backend.JVM_PARALLEL).withThreads(threads).withMaxFacesPerRound(maxFaces);
        try (DeviceSession session = DeviceSession.open(o.execution())) {
            return withParallelInsertion(() -> Hull.trace(p[0], p[1], p[2], o, session).history());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ball", "sphere", "grid", "gauss"})
    void threadCountsGiveTheSameTopology(String kind) {
        // a sphere's points are all vertices: fewer of them keep its many small rounds (the 256-face budget) short
        double[][] p = HullTest.points(kind, kind.equals("sphere") ? 6_000 : 30_000, 99);
        for (int maxFaces : new int[] {1 << 16, 256}) {
            HullHistory one = history(p, 1, maxFaces);
            for (int threads : new int[] {2, 8}) {
                HullHistory h = history(p, threads, maxFaces);
                assertEquals(one.faces(), h.faces(), kind + " threads " + threads);
                assertArrayEquals(one.fv(), h.fv(), kind + " threads " + threads);
                assertArrayEquals(one.twin(), h.twin(), kind + " threads " + threads);
                assertArrayEquals(one.coneFirst(), h.coneFirst(), kind + " threads " + threads);
                assertArrayEquals(one.coneCount(), h.coneCount(), kind + " threads " + threads);
            }
        }
    }

    /**
     * A round's parallel insertions on the topology directly, for a queue of many candidates on a sphere (no four
     * points coplanar, so the hull of a point set has one triangulation): the live surface is closed and consistently
     * linked, and it is the hull of the points inserted so far, as serial insertions of the same points make it.
     */
    @Test
    void oneRoundOfManyCandidatesMakesTheHullOfItsApexes() {
        double[][] p = HullTest.points("sphere", 4_000, 5);
        for (int threads : THREADS) {
            ParallelLoops loops = new ParallelLoops(threads);
            try {
                HullTopology t = hullOfFirst(p, 200);
                RoundDelta delta = round(p, t, loops);
                assertTrue(delta.apexCount > 50, "many insertions in the round: " + delta.apexCount);
                assertEquals(t.faceCount - delta.newBase, delta.newCount);
                checkLinks(t);
                HullTopology ref = hullOfFirst(p, 200);
                for (int i = 0; i < delta.apexCount; i++) {
                    ref.insert(delta.apexes[i], firstAbove(ref, delta.apexes[i]), Integer.MAX_VALUE, new RoundDelta());
                }
                assertArrayEquals(triangles(ref), triangles(t), "threads " + threads);
            } finally {
                loops.close();
            }
        }
    }

    /** The hull of points 0 .. m-1 by serial insertions (each point at the first live face it is above). */
    private static HullTopology hullOfFirst(double[][] p, int m) {
        HullTopology t = new HullTopology(p[0], p[1], p[2], 64);
        RoundDelta delta = new RoundDelta();
        delta.clear(1);
        t.initTetrahedron(0, 1, 2, 3, delta);
        for (int q = 4; q < m; q++) {
            int f = firstAbove(t, q);
            if (f > 0) {
                t.insert(q, f, Integer.MAX_VALUE, delta);
            }
        }
        return t;
    }

    /** One round over t: each live face's candidate is the first later point above it (by index), queued by face id. */
    private static RoundDelta round(double[][] p, HullTopology t, ParallelLoops loops) {
        int[] cand = new int[t.faceCount];
        java.util.Arrays.fill(cand, -1);
        for (int q = 200; q < p[0].length; q++) {
            int f = firstAbove(t, q);
            if (f > 0 && cand[f] < 0) {
                cand[f] = q;
            }
        }
        int[] queue = new int[t.faceCount];
        int queued = 0;
        for (int f = 1; f < t.faceCount; f++) {
            if (cand[f] >= 0) {
                queue[queued++] = f;
            }
        }
        RoundDelta delta = new RoundDelta();
        delta.clear(t.faceCount);
        int done = new ParallelInsertion(t, loops).round(queue, queued, cand, Integer.MAX_VALUE, delta);
        assertEquals(delta.apexCount, done);
        return delta;
    }

    /** Every live face's half-edges have live twins running the other way. */
    private static void checkLinks(HullTopology t) {
        for (int f : t.liveFaces()) {
            for (int k = 0; k < 3; k++) {
                int h = t.twin[3 * f + k];
                assertEquals(3 * f + k, t.twin[h]);
                assertTrue(t.alive(h / 3));
                assertEquals(t.fv[3 * f + k], t.fv[3 * (h / 3) + (h % 3 + 1) % 3]);
                assertEquals(t.fv[3 * f + (k + 1) % 3], t.fv[h]);
            }
        }
    }

    /** The live triangles, each rotated to start at its least corner, sorted and concatenated. */
    private static int[] triangles(HullTopology t) {
        int[] live = t.liveFaces();
        int[][] tri = new int[live.length][];
        for (int i = 0; i < live.length; i++) {
            int f = live[i];
            int[] c = {t.fv[3 * f], t.fv[3 * f + 1], t.fv[3 * f + 2]};
            int low = c[0] < c[1] ? (c[0] < c[2] ? 0 : 2) : (c[1] < c[2] ? 1 : 2);
            tri[i] = new int[] {c[low], c[(low + 1) % 3], c[(low + 2) % 3]};
        }
        java.util.Arrays.sort(tri, java.util.Arrays::compare);
        return java.util.Arrays.stream(tri).flatMapToInt(java.util.Arrays::stream).toArray();
    }

    private static int firstAbove(HullTopology t, int q) {
        for (int f = 1; f < t.faceCount; f++) {
            if (t.alive(f) && t.above(f, q)) {
                return f;
            }
        }
        return -1;
    }
}
