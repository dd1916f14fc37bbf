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
class PartFileTest {

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
