package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import org.accelgeom.ridge.EvolutionLayout;
import org.accelgeom.ridge.Precision;
import org.accelgeom.ridge.RidgeBackend;
import org.accelgeom.ridge.TileSplit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A split ridge's part file written straight from the whole layout's tile ranges ({@link SplitRidge#writeTiles}) is
 * the file of the gathered part ({@link SplitRidge#writeLayout} of {@code TileSplit.gather}), byte for byte: through
 * the buffer and in parallel chunks (a small threshold, and layouts of over a chunk, so that chunks start and end
 * inside ranges), for contiguous, scattered, single and empty-tile deals, in 2 and 3 dimensions.
 */
class RidgeLayoutFileTest {

    @TempDir
    Path dir;

    @Test
    void aPartFileFromTheTilesRangesIsTheGatheredPartsFile() throws IOException {
        SplittableRandom r = new SplittableRandom(18);
        for (int d : new int[] {2, 3}) {
            int[] sizes = new int[23];
            for (int t = 0; t < sizes.length; t++) {
                sizes[t] = t == 5 ? 0 : 1 + r.nextInt(t % 4 == 0 ? 400_000 : 2_000);
            }
            EvolutionLayout whole = layout(d, sizes, r);
            int[] firstPoint = TileSplit.tilePoints(whole);
            var prm = new RidgeBackend.Parameters(d, 0.37 + d, Precision.DOUBLE, -11 - d, 1000);
            int[][] deals = {{0, 1, 2, 3, 4, 5, 6, 7, 8}, {0, 4, 5, 8, 12, 16, 20, 22}, {3}, {5}, {1, 2, 5, 6, 9},
                    everyTile(sizes.length)};
            for (int[] tiles : deals) {
                EvolutionLayout part = TileSplit.gather(whole, tiles, firstPoint);
                for (long threshold : new long[] {ArrayFiles.PARALLEL_BYTES, 64}) {
                    String name = d + "-" + tiles.length + "-" + tiles[0] + "-" + threshold;
                    Path gathered = dir.resolve("gathered-" + name);
                    Path ranges = dir.resolve("ranges-" + name);
                    SplitRidge.writeLayout(gathered, prm, part, 77, threshold);
                    SplitRidge.writeTiles(ranges, prm, whole, tiles, firstPoint, 77, threshold);
                    byte[] want = Files.readAllBytes(gathered);
                    assertEquals(4 * 7 + 8 + part.n() * (8L * d + 4), want.length, name);
                    assertArrayEquals(want, Files.readAllBytes(ranges), name);
                }
            }
        }
    }

    /**
     * A worker process's reading ({@link RidgeLayoutFile}): the header, the points' tiles, and the coordinates filled range by
     * range in any order and from several threads, are the layout and parameters written; a short file is one error.
     */
    @Test
    void aPartFileReadRangeByRangeIsTheLayoutWritten() throws IOException {
        SplittableRandom r = new SplittableRandom(7);
        int[] sizes = {300_000, 1, 0, 2, 150_001, 70_000};
        EvolutionLayout whole = layout(3, sizes, r);
        int[] firstPoint = TileSplit.tilePoints(whole);
        var prm = new RidgeBackend.Parameters(3, 8.34, Precision.FLOAT, -17, 999);
        int[] tiles = {0, 2, 3, 5};
        EvolutionLayout part = TileSplit.gather(whole, tiles, firstPoint);
        Path f = dir.resolve("part.layout");
        SplitRidge.writeTiles(f, prm, whole, tiles, firstPoint, 123, 64);
        try (RidgeLayoutFile pf = RidgeLayoutFile.open(f, 5)) {
            assertEquals(prm, pf.parameters());
            assertEquals(123, pf.capacity());
            assertEquals(5, pf.cores());
            EvolutionLayout got = pf.layout();
            assertEquals(part.n(), got.n());
            assertEquals(part.numTiles(), got.numTiles());
            assertArrayEquals(part.pointTile(), got.pointTile());
            int n = part.n();
            int[] cuts = {n, 300_001, 17, 0};
            for (int i = 0; i + 1 < cuts.length; i++) { // backwards, uneven ranges
                pf.fill(cuts[i + 1], cuts[i]);
            }
            assertArrayEquals(part.coords(), got.coords());
            java.util.Arrays.fill(got.coords(), 0);
            pf.fillAll();
            assertArrayEquals(part.coords(), got.coords(), "in parallel blocks");
        }
        byte[] all = Files.readAllBytes(f);
        Files.write(f, java.util.Arrays.copyOf(all, all.length - 3));
        var e = org.junit.jupiter.api.Assertions.assertThrows(org.accelgeom.engine.AccelGeomException.class,
                () -> RidgeLayoutFile.open(f, 1).close());
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("incomplete"), e.getMessage());
    }

    /** Tiles of the given sizes one after another, random coordinates (column-major). */
    private static EvolutionLayout layout(int d, int[] sizes, SplittableRandom r) {
        int n = 0;
        for (int s : sizes) {
            n += s;
        }
        double[] coords = r.doubles((long) d * n).toArray();
        int[] pointTile = new int[n];
        int at = 0;
        for (int t = 0; t < sizes.length; t++) {
            java.util.Arrays.fill(pointTile, at, at + sizes[t], t);
            at += sizes[t];
        }
        return new EvolutionLayout(d, n, coords, pointTile, sizes.length);
    }

    private static int[] everyTile(int tiles) {
        int[] all = new int[tiles];
        for (int t = 0; t < tiles; t++) {
            all[t] = t;
        }
        return all;
    }
}
