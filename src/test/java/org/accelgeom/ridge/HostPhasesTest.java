package org.accelgeom.ridge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DoubleList;
import org.accelgeom.engine.IntList;
import org.accelgeom.engine.ParallelLoops;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The tiled version's host phases over the cores (tile tree, extended tiles, choose) give the one-thread result
 * exactly, checked against {@link SequentialTileTree} (the implementation before them), and the layout's sizes are
 * computed and checked without int overflow.
 */
class HostPhasesTest {

    private static final ParallelLoops MANY = new ParallelLoops(16);
    private static final ParallelLoops FEW = new ParallelLoops(3);

    @AfterAll
    static void close() {
        MANY.close();
        FEW.close();
    }

    /** A cloud of the given kind, column-major. */
    static double[] cloud(String kind, int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] p = new double[n * d];
        switch (kind) {
            case "spiral" -> { // on a curve: uneven initial tiles, many empty
                double[][] c = (d == 2 ? Curve.SPIRAL2D : Curve.SPIRAL3D).sample(n, d, 4.17, seed);
                for (int k = 0; k < d; k++) {
                    System.arraycopy(c[k], 0, p, k * n, n);
                }
            }
            case "segment" -> {
                double[][] c = Curve.SEGMENT.sample(n, d, 2.0, seed);
                for (int k = 0; k < d; k++) {
                    System.arraycopy(c[k], 0, p, k * n, n);
                }
            }
            case "clusters" -> { // dense blobs (halved many times) and coinciding points (level 60 leaves)
                for (int i = 0; i < n; i++) {
                    int blob = i % 3;
                    for (int k = 0; k < d; k++) {
                        p[k * n + i] = blob == 2 ? 7.0 : blob * 20 + r.nextDouble() * (blob + 0.5);
                    }
                }
            }
            default -> {
                for (int i = 0; i < p.length; i++) {
                    p[i] = r.nextDouble() * 30;
                }
            }
        }
        return p;
    }

    @ParameterizedTest
    @CsvSource({
        // kind, n, d, initial tiles per dimension, capacity, R1, grain
        "spiral, 6000, 2, 3, 50, 8.34, 64",
        "spiral, 8000, 3, 3, 200, 8.34, 100",
        "spiral, 3000, 3, 1, 20, 8.34, 1", // one initial tile halved many times
        "segment, 5000, 5, 4, 100, 3.0, 37",
        "uniform, 4000, 5, 2, 60, 6.0, 333",
        "clusters, 3000, 2, 3, 4, 1.5, 17", // coinciding points: leaves at level 60
        "uniform, 40, 3, 2, 3, 5.0, 1", // many threads on few points
        "uniform, 2, 2, 3, 2, 1.0, 1"})
    void tileTreeAndLayoutAreTheSequentialOnes(String kind, int n, int d, int perDim, int cap, double r1, int grain) {
        double[] p = cloud(kind, n, d, 11 + n);
        int[] cnt = new int[d];
        Arrays.fill(cnt, perDim);
        SequentialTileTree want = SequentialTileTree.build(p, n, d, cnt, cap, r1);
        EvolutionLayout wantLayout = want.layout(p, n, d);
        for (ParallelLoops loops : new ParallelLoops[] {null, FEW, MANY}) {
            TileTree got = TileTree.build(p, n, d, cnt, cap, r1, loops, grain);
            String where = kind + " with " + (loops == null ? 1 : loops.threads()) + " threads";
            assertEquals(want.leaves().size(), got.leaves().size(), where);
            for (int t = 0; t < want.leaves().size(); t++) {
                SequentialTileTree.Tile a = want.leaves().get(t);
                TileTree.Tile b = got.leaves().get(t);
                assertArrayEquals(a.lo(), b.lo(), 0.0, where + ", tile " + t);
                assertArrayEquals(a.hi(), b.hi(), 0.0, where + ", tile " + t);
                assertArrayEquals(a.core(), b.core(), where + ", tile " + t);
                assertArrayEquals(a.margin(), b.margin(), where + ", tile " + t);
                assertEquals(a.level(), b.level(), where + ", tile " + t);
            }
            EvolutionLayout layout = got.layout(p, n, d, loops);
            assertEquals(wantLayout.n(), layout.n(), where);
            assertEquals(wantLayout.numTiles(), layout.numTiles(), where);
            assertArrayEquals(wantLayout.coords(), layout.coords(), 0.0, where);
            assertArrayEquals(wantLayout.pointTile(), layout.pointTile(), where);
            // choose, tile by tile: the concatenation of the sequential per-tile scans
            List<int[]> candidates = got.leaves().stream().map(TileTree.Tile::core).toList();
            Choose.Chosen chosen = Choose.tiles(p, n, d, candidates, r1, loops);
            DoubleList reps = new DoubleList();
            IntList origins = new IntList();
            int[] tileStart = new int[candidates.size() + 1];
            for (int t = 0; t < candidates.size(); t++) {
                int[] c = candidates.get(t);
                tileStart[t + 1] = tileStart[t] + Choose.choose(p, n, d, c, c.length, r1, reps, origins);
            }
            assertArrayEquals(reps.toArray(), chosen.reps(), 0.0, where);
            assertArrayEquals(origins.toArray(), chosen.origins(), where);
            assertArrayEquals(tileStart, chosen.tileStart(), where);
        }
        if (kind.equals("clusters")) {
            assertTrue(want.leaves().stream().anyMatch(t -> t.level() == 60), "a leaf of coinciding points");
        }
        if (kind.equals("spiral")) {
            assertTrue(want.leaves().stream().anyMatch(t -> t.level() >= 2), "tiles halved several times");
        }
    }

    @ParameterizedTest
    @CsvSource({"spiral, 2", "spiral, 3", "segment, 5"})
    void detectOnManyThreadsIsTheOneThreadResult(String kind, int d) {
        int n = 4000;
        double[][] coords = new double[d][n];
        double[] p = cloud(kind, n, d, 5);
        for (int c = 0; c < d; c++) {
            System.arraycopy(p, c * n, coords[c], 0, n);
        }
        int[] tiles = new int[d];
        Arrays.fill(tiles, 2);
        RidgeOptions o = RidgeOptions.of(Backend.JVM, kind.equals("segment") ? 4.0 : 8.34).withTiles(tiles, 150)
                .withMaxIterations(50).withOrder(false);
        RidgeResult ref = Ridge.detect(coords, o);
        RidgeResult par = Ridge.detect(coords, o.withBackend(Backend.JVM_PARALLEL).withThreads(16));
        assertArrayEquals(ref.representatives(), par.representatives(), 0.0);
        assertEquals(ref.stats(), par.stats());
        assertTrue(ref.stats().tiles() > 8, "tiles " + ref.stats().tiles());
    }

    @Test
    void layoutSizesAreCheckedInLong() {
        // the 10^8-point crash: 3 x 2,043,963,583 coordinates wrapped to an int of 1,836,923,453
        assertEquals(1_836_923_453, 3 * 2_043_963_583);
        assertFalse(TileTree.layoutFits(3, 2_043_963_583L));
        assertTrue(TileTree.layoutFits(3, TileTree.MAX_ARRAY / 3));
        assertFalse(TileTree.layoutFits(3, TileTree.MAX_ARRAY / 3 + 1));
        assertTrue(TileTree.layoutFits(1, TileTree.MAX_ARRAY));
        assertFalse(TileTree.layoutFits(1, TileTree.MAX_ARRAY + 1L));
        assertFalse(TileTree.layoutFits(16, 1L << 28)); // 2^32: wraps to 0 in int
        assertFalse(TileTree.layoutFits(2, Long.MAX_VALUE / 2 + 1)); // wraps to a negative long
    }

    @Test
    void chunkOffsetsDoNotWrapNearTwoToThe31() {
        int big = Integer.MAX_VALUE - 1;
        int[][] counts = {{big, 5}, {big, 7}};
        long[] start = Chunks.offsets(counts, 2);
        assertArrayEquals(new long[] {0, 2L * big, 2L * big + 12}, start);
        int[][] small = {{3, 0, 2}, {1, 4, 0}};
        long[] s = Chunks.offsets(small, 3);
        assertArrayEquals(new long[] {0, 4, 8, 10}, s);
        Chunks.positions(small, 3, s);
        assertArrayEquals(new int[] {0, 4, 8}, small[0]); // chunk 0 writes first in every bucket
        assertArrayEquals(new int[] {3, 4, 10}, small[1]);
    }

    @Test
    void chunksCoverTheRangeInOrder() {
        for (int n : new int[] {0, 1, 7, 1000, 123457}) {
            Chunks ch = new Chunks(n, MANY, 3, 10);
            assertTrue(ch.count >= 1 && ch.count <= 64, "chunks " + ch.count);
            int[] seen = new int[n];
            ch.run((k, from, to) -> {
                assertEquals(ch.from(k), from);
                for (int i = from; i < to; i++) {
                    seen[i]++;
                }
            });
            assertTrue(Arrays.stream(seen).allMatch(v -> v == 1), "each index once, n = " + n);
            assertEquals(n, ch.from(ch.count));
        }
        assertEquals(1, new Chunks(1 << 20, MANY, 1, 1 << 24).count, "a large table per chunk: one chunk");
        assertEquals(1, new Chunks(1 << 20, null, 1, 1).count, "no loops: one chunk");
    }

    @Test
    void aLayoutBeyondAnArrayIsOneLineNamingItsSizeAndTheOption() {
        double[] p = cloud("uniform", 100, 3, 1);
        TileTree tree = TileTree.build(p, 100, 3, new int[] {2, 2, 2}, 30, 8.34);
        AccelGeomException e = assertThrows(AccelGeomException.class, () -> tree.checkLayout(3, 2_043_963_583L, 542));
        assertTrue(e.getMessage().contains("2043963583 points with margins"), e.getMessage());
        assertTrue(e.getMessage().contains("--tile-capacity"), e.getMessage());
        assertTrue(e.getMessage().contains("R1 8.34"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        tree.checkLayout(3, TileTree.MAX_ARRAY / 3, 542); // at the limit: accepted
    }

    @Test
    void marginsOfAHugeRadiusAreCountedAsRanges() {
        // R1 beyond the cloud: every point is in the margin of every other leaf (the counting pass's ranges)
        int n = 500;
        double[] p = cloud("uniform", n, 3, 2);
        SequentialTileTree want = SequentialTileTree.build(p, n, 3, new int[] {2, 1, 1}, 5, 1000);
        TileTree got = TileTree.build(p, n, 3, new int[] {2, 1, 1}, 5, 1000, MANY, 7);
        List<Integer> sizes = new ArrayList<>();
        for (int t = 0; t < got.leaves().size(); t++) {
            assertArrayEquals(want.leaves().get(t).margin(), got.leaves().get(t).margin(), "tile " + t);
            assertEquals(n - got.leaves().get(t).core().length, got.leaves().get(t).margin().length, "all others");
            sizes.add(got.leaves().get(t).margin().length);
        }
        assertTrue(sizes.size() > 50, "leaves " + sizes.size());
    }
}
