package org.accelgeom.ridge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DevicePool;
import org.accelgeom.engine.PhaseTimings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The tiled evolution split across a pool's workers by tiles ({@link TileSplit}, {@link Ridge#detect(double[][],
 * RidgeOptions, DevicePool)}) gives the one-device result bit for bit: representatives, iterations, polylines.
 * JVM workers (jvm, jvm-parallel) stand for the devices; the CLI's split on POCL is in {@code TornadoRidgeSplitTest}.
 */
class TileSplitTest {

    /** A cloud and its tiling: uneven tiles, tiny tiles, fewer tiles than parts, float and double, d = 2, 3. */
    record Case(String name, String curve, int dim, int n, double sigma, double r1, int[] cnt, int capacity,
            Precision precision, int maxIterations) {
        double[][] cloud() {
            return Curve.parse(curve).sample(n, dim, sigma, 23);
        }

        RidgeOptions options(Backend b) {
            return RidgeOptions.of(b, r1).withPrecision(precision).withTiles(cnt, capacity).withMaxIterations(maxIterations);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static List<Case> cases() {
        return List.of(
                new Case("spiral2d, double, default tiles", "spiral2d", 0, 6000, 4.17, 8.34, null, 800, Precision.DOUBLE, 10_000),
                new Case("spiral3d, float", "spiral3d", 0, 6000, 4.17, 8.34, null, 600, Precision.FLOAT, 10_000),
                new Case("segment 2d, 16 thin uneven tiles, double", "segment", 2, 5000, 2.17, 4.34, new int[] {16, 1}, 900,
                        Precision.DOUBLE, 10_000),
                // (float can cycle short of convergence: this cloud converges, as an uncapped case must)
                new Case("segment 3d, tiny tiles, float", "segment", 3, 2900, 2.17, 4.34, null, 40, Precision.FLOAT, 10_000),
                new Case("spiral2d, 2 tiles (fewer than parts)", "spiral2d", 0, 3000, 4.17, 8.34, new int[] {2, 1},
                        1_000_000, Precision.DOUBLE, 10_000),
                new Case("spiral3d, capped at 2 iterations", "spiral3d", 0, 4000, 4.17, 8.34, null, 500, Precision.DOUBLE, 2));
    }

    static List<Arguments> splits() {
        List<Arguments> a = new ArrayList<>();
        for (Case c : cases()) {
            for (Backend b : List.of(Backend.JVM, Backend.JVM_PARALLEL)) {
                for (int parts : new int[] {2, 3, 4}) {
                    a.add(Arguments.of(c, b, parts));
                }
            }
        }
        return a;
    }

    @ParameterizedTest(name = "{0}, {1}, {2} parts")
    @MethodSource("splits")
    void splitGivesTheOneDeviceResultBitForBit(Case c, Backend backend, int parts) {
        double[][] p = c.cloud();
        RidgeOptions o = c.options(backend).withThreads(2);
        RidgeResult one = Ridge.detect(p, c.options(Backend.JVM));
        RidgeResult split;
        try (DevicePool pool = DevicePool.open(o.execution(), new int[parts])) {
            split = Ridge.detect(p, o, pool);
        }
        assertArrayEquals(one.representatives(), split.representatives(), 0.0, "representatives");
        assertEquals(one.stats(), split.stats(), "counts, rounds, iterations, capped");
        assertEquals(c.maxIterations < 10, one.stats().capped(), "the capped case is capped");
        assertEquals(one.curves().polylines().size(), split.curves().polylines().size(), "polylines");
        for (int l = 0; l < one.curves().polylines().size(); l++) {
            assertArrayEquals(one.curves().polylines().get(l).points(), split.curves().polylines().get(l).points());
            assertEquals(one.curves().polylines().get(l).closed(), split.curves().polylines().get(l).closed());
        }
        assertArrayEquals(one.curves().edges(), split.curves().edges(), "edges");
        // it did split: the parts' phases are in the table, one per part (fewer parts than tiles when tiles are few)
        int expected = Math.min(parts, one.stats().tiles());
        assertTrue(expected >= 2, c + ": at least 2 tiles");
        for (int k = 0; k < parts; k++) {
            assertEquals(k < expected, hasPhaseOf(split.timings(), "part " + k + " "), "phases of part " + k);
        }
    }

    private static boolean hasPhaseOf(PhaseTimings t, String prefix) {
        return t.phases().stream().anyMatch(ph -> ph.name().startsWith(prefix));
    }

    @ParameterizedTest(name = "start mode {0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {0, 1, 2})
    void everyStartModeGivesTheSameResult(int mode) {
        // 2 runs a first evolve call on no representatives before the first round: it must change nothing
        Case c = cases().get(3); // tiny tiles, float
        double[][] p = c.cloud();
        RidgeOptions o = c.options(Backend.JVM);
        RidgeResult one = Ridge.detect(p, o);
        RidgeResult split = Ridge.detect(p, o, null, prm -> new TileSplit(3, k -> new JvmRidgeBackend(prm, null),
                k -> "part " + k + " (device 0)", mode, TileSplit.Deal.values()[mode])); // each with a dealing
        assertArrayEquals(one.representatives(), split.representatives(), 0.0);
        assertEquals(one.stats(), split.stats());
        assertEquals(mode == 2, hasPhaseOf(split.timings(), "part 2 (device 0): first execution"), "the first execution's row");
    }

    @Test
    void bruteForceIsNotSplitButRunsOnOneWorker() {
        double[][] p = Curve.SPIRAL2D.sample(2000, 0, 4.17, 3);
        RidgeOptions o = RidgeOptions.of(Backend.JVM, 8.34);
        try (DevicePool two = DevicePool.open(o.execution(), 0, 0)) {
            AccelGeomException e = assertThrows(AccelGeomException.class, () -> Ridge.detect(p, o, two));
            assertEquals(Ridge.BRUTE_FORCE_UNSPLIT, e.getMessage());
        }
        try (DevicePool one = DevicePool.open(o.execution(), 0)) {
            assertArrayEquals(Ridge.detect(p, o).representatives(), Ridge.detect(p, o, one).representatives(), 0.0);
        }
    }

    @Test
    void cutBalancesPointsInContiguousNonEmptyRanges() {
        // tiles of 10, 10, 10, 70 points: 2 parts cut before the heavy tile; 4 parts one tile each
        int[] first = {0, 10, 20, 30, 100};
        assertArrayEquals(new int[] {0, 3, 4}, TileSplit.cut(first, 2));
        assertArrayEquals(new int[] {0, 1, 2, 3, 4}, TileSplit.cut(first, 4));
        assertArrayEquals(new int[] {0, 1, 2, 3, 4}, TileSplit.cut(first, 9), "more parts than tiles: one tile each");
        assertArrayEquals(new int[] {0, 4}, TileSplit.cut(first, 1));
        // 12 even tiles in 3 parts: 4 each
        int[] even = IntStream.rangeClosed(0, 12).map(t -> 5 * t).toArray();
        assertArrayEquals(new int[] {0, 4, 8, 12}, TileSplit.cut(even, 3));
        // a heavy first tile: every later part still gets a tile
        assertArrayEquals(new int[] {0, 1, 2, 3}, TileSplit.cut(new int[] {0, 1000, 1001, 1002}, 3));
    }

    @Test
    void dealInterleavesTilesToTheLeastLoadedPart() {
        // tiles of 10, 10, 10, 70, 5, 5 points over 2 parts: 0->A, 1->B, 2->A (a tie: the lower), 3->B, 4->A, 5->A
        int[] first = {0, 10, 20, 30, 100, 105, 110};
        int[][] two = TileSplit.deal(first, 2, TileSplit.Deal.INTERLEAVE, null);
        assertArrayEquals(new int[] {0, 2, 4, 5}, two[0]);
        assertArrayEquals(new int[] {1, 3}, two[1]);
        // every tile exactly once, each part increasing and non-empty, whatever the count of parts
        int[] tileStart = {0, 1, 4, 6, 7, 8, 12}; // 1, 3, 2, 1, 1, 4 representatives
        for (int k = 1; k <= 8; k++) {
            for (TileSplit.Deal dealing : TileSplit.Deal.values()) {
                int[][] parts = TileSplit.deal(first, k, dealing, tileStart);
                assertEquals(Math.min(k, 6), parts.length);
                int[] all = java.util.Arrays.stream(parts).flatMapToInt(java.util.Arrays::stream).sorted().toArray();
                assertArrayEquals(IntStream.range(0, 6).toArray(), all, k + " parts");
                for (int[] part : parts) {
                    assertTrue(part.length > 0);
                    for (int i = 1; i < part.length; i++) {
                        assertTrue(part[i] > part[i - 1]);
                    }
                }
            }
        }
        // contiguous: cut's ranges
        assertArrayEquals(new int[] {0, 1, 2}, TileSplit.deal(first, 2, TileSplit.Deal.POINTS, null)[0]);
        assertArrayEquals(new int[] {3, 4, 5}, TileSplit.deal(first, 2, TileSplit.Deal.POINTS, null)[1]);
    }

    @Test
    void dealByWorkGivesTheLargestFirstToTheLeastLoadedPart() {
        // points 10, 10, 10, 70, 5, 5 and representatives 1, 3, 2, 1, 0, 4: work 10, 30, 20, 70, 0, 20, so the
        // turns are tiles 3, 1, 2, 5 (a tie with 2: the lower first), 0, 4
        int[] first = {0, 10, 20, 30, 100, 105, 110};
        int[] tileStart = {0, 1, 4, 6, 7, 7, 11};
        // 2 parts: 3->A 70; 1->B 30; 2->B 50; 5->B 70; 0->A (a tie: the lower) 80; 4->B
        int[][] two = TileSplit.deal(first, 2, TileSplit.Deal.WORK, tileStart);
        assertArrayEquals(new int[] {0, 3}, two[0]);
        assertArrayEquals(new int[] {1, 2, 4, 5}, two[1]);
        // 3 parts: 3->A 70; 1->B 30; 2->C 20; 5->C 40; 0->B 40; 4->B (B and C tie at 40)
        int[][] three = TileSplit.deal(first, 3, TileSplit.Deal.WORK, tileStart);
        assertArrayEquals(new int[] {3}, three[0]);
        assertArrayEquals(new int[] {0, 1, 4}, three[1]);
        assertArrayEquals(new int[] {2, 5}, three[2]);
        // tiles without work: the part left without a tile is dropped (0->A; 1->B; 2->B, a tie with C)
        int[][] idle = TileSplit.deal(new int[] {0, 5, 10, 15}, 3, TileSplit.Deal.WORK, new int[] {0, 1, 1, 1});
        assertEquals(2, idle.length);
        assertArrayEquals(new int[] {0}, idle[0]);
        assertArrayEquals(new int[] {1, 2}, idle[1]);
    }

    @Test
    void dealingParsesItsSwitchAndFallsBackToWork() {
        assertEquals(TileSplit.Deal.WORK, TileSplit.Deal.parse(" Work "));
        assertEquals(TileSplit.Deal.INTERLEAVE, TileSplit.Deal.parse("interleave"));
        assertEquals(TileSplit.Deal.POINTS, TileSplit.Deal.parse("points"));
        assertEquals(TileSplit.Deal.WORK, TileSplit.Deal.parse("true"));
    }

    /** Every dealing over 2-4 parts gives the one-part result bit for bit (jvm parts; the uneven and the tiny tiles). */
    @ParameterizedTest(name = "{0}, {1}, {2} parts")
    @MethodSource("dealings")
    void everyDealingGivesTheOnePartResultBitForBit(Case c, TileSplit.Deal dealing, int parts) {
        double[][] p = c.cloud();
        RidgeOptions o = c.options(Backend.JVM);
        RidgeResult one = Ridge.detect(p, o, null, prm -> new TileSplit(1, k -> new JvmRidgeBackend(prm, null),
                k -> "part " + k + " (device 0)", 1, dealing));
        assertEquals(Ridge.detect(p, o).stats(), one.stats(), "one part is the one-device run");
        int[] made = new int[1];
        RidgeResult split = Ridge.detect(p, o, null, prm -> new TileSplit(parts, k -> {
            synchronized (made) {
                made[0]++;
            }
            return new JvmRidgeBackend(prm, null);
        }, k -> "part " + k + " (device 0)", 1, dealing));
        assertArrayEquals(one.representatives(), split.representatives(), 0.0, "representatives");
        assertEquals(one.stats(), split.stats(), "counts, rounds, iterations, capped");
        assertArrayEquals(one.curves().edges(), split.curves().edges(), "edges");
        assertTrue(made[0] >= 2, "it did split: " + made[0] + " parts");
    }

    static List<Arguments> dealings() {
        List<Arguments> a = new ArrayList<>();
        for (int i : new int[] {1, 2, 3}) {
            for (TileSplit.Deal dealing : TileSplit.Deal.values()) {
                for (int parts : new int[] {2, 4}) {
                    a.add(Arguments.of(cases().get(i), dealing, parts));
                }
            }
        }
        return a;
    }

    @Test
    void gatherCopiesItsTilesColumnMajorAndRenumbersThem() {
        // 2D, tiles 0 (points 0-1), 1 (points 2-4), 2 (point 5)
        double[] coords = {0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15};
        EvolutionLayout l = new EvolutionLayout(2, 6, coords, new int[] {0, 0, 1, 1, 1, 2}, 3);
        int[] first = TileSplit.tilePoints(l);
        EvolutionLayout g = TileSplit.gather(l, new int[] {0, 2}, first);
        assertEquals(3, g.n());
        assertEquals(2, g.numTiles());
        assertArrayEquals(new double[] {0, 1, 5, 10, 11, 15}, g.coords(), 0.0);
        assertArrayEquals(new int[] {0, 0, 1}, g.pointTile());
    }

    @Test
    void sliceCopiesItsTilesColumnMajorAndRenumbersThem() {
        // 2D, tiles 0 (points 0-1), 1 (points 2-4), 2 (point 5)
        double[] coords = {0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15};
        EvolutionLayout l = new EvolutionLayout(2, 6, coords, new int[] {0, 0, 1, 1, 1, 2}, 3);
        int[] first = TileSplit.tilePoints(l);
        assertArrayEquals(new int[] {0, 2, 5, 6}, first);
        EvolutionLayout s = TileSplit.gather(l, new int[] {1, 2}, first);
        assertEquals(4, s.n());
        assertEquals(2, s.numTiles());
        assertArrayEquals(new double[] {2, 3, 4, 5, 12, 13, 14, 15}, s.coords(), 0.0);
        assertArrayEquals(new int[] {0, 0, 0, 1}, s.pointTile());
        assertThrows(IllegalArgumentException.class,
                () -> TileSplit.tilePoints(new EvolutionLayout(1, 3, new double[3], new int[] {0, 1, 0}, 2)));
    }
}
