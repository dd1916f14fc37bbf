package org.accelgeom.cbt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.accelgeom.engine.PhaseTimings;
import org.junit.jupiter.api.Test;

/** The chunk partition behind the one-launch cycle of the tornado backend ({@link CbtChunks}). */
class CbtChunksTest {

    @Test
    void chunksTileEveryLevelBelowTheRootsAndFitTheKernelsLocalCopy() {
        for (int D = CbtChunks.MIN_D; D <= CbtChunks.MAX_D; D++) {
            int g = CbtChunks.level(D);
            assertTrue(D - g >= 5 && D - g <= 10 && g >= 4 && g <= 11, "D = " + D);
            for (int d = g + 1; d <= D; d++) {
                assertEquals(0, WordReduction.levelStart(D, d) & 31, "level " + d + " starts on a word, D = " + D);
                assertEquals(WordReduction.levelStart(D, d), CbtChunks.start(D, g, d, 0));
                assertEquals(WordReduction.levelStart(D, d + 1), CbtChunks.end(D, g, d, (1 << g) - 1));
                for (int j = 0; j < 1 << g; j++) {
                    if (j > 0) {
                        assertEquals(CbtChunks.end(D, g, d, j - 1), CbtChunks.start(D, g, d, j));
                    }
                    assertTrue(CbtChunks.words(D, g, d, j) <= 32, "the kernel copies at most 32 words per level");
                }
            }
        }
    }

    @Test
    void everyOddNodeAboveTheChunkRootsIsTheShallowTargetOfExactlyOneChunk() {
        int D = 17;
        int g = CbtChunks.level(D);
        int[] owners = new int[1 << (g + 1)];
        for (int c = 1 << g; c < 2 << g; c++) {
            int q = CbtChunks.shallowTarget(c);
            assertEquals(1, q & 1);
            assertEquals(CbtKernels.bitElement(D, c), CbtKernels.bitElement(D, q), "q starts where the chunk starts");
            owners[q]++;
        }
        for (int q = 1; q < 2 << g; q += 2) {
            assertEquals(1, owners[q], "node " + q);
        }
    }

    /**
     * The argument of the kernel, checked on random trees: the bit a leaf's action flips lies in the chunk below
     * the leaf (leaves at or below level g), or in the chunk whose shallow target is the flipped node (leaves above).
     */
    @Test
    void everyUpdateFlipsABitOfTheChunkThatDecidesIt() {
        Random rnd = new Random(7);
        // start depths and merge floors just above the chunk roots (g = 4, 4, 7), so that leaves above them act
        int[][] cases = {{9, 3, 2}, {12, 3, 2}, {17, 6, 5}};
        for (int[] cs : cases) {
            int D = cs[0];
            int minDepth = cs[2];
            int g = CbtChunks.level(D);
            Cbt tree = Cbt.create(D, cs[1], true);
            int shallow = 0;
            int checked = 0;
            try (JvmCbtBackend jvm = new JvmCbtBackend(0)) {
                jvm.load(tree, new PhaseTimings());
                for (int round = 0; round < 30; round++) {
                    int seed = rnd.nextInt();
                    int split = (1 << 28) + rnd.nextInt(1 << 29);
                    int merge = rnd.nextInt(1 << 30);
                    int L = jvm.reduce();
                    int[] leaves = new int[L];
                    jvm.decodeAll(leaves);
                    int[] heap = tree.heap();
                    for (int k : leaves) {
                        int a = CbtKernels.randomRule(heap, D, 1, k, seed, split, merge, minDepth);
                        if (a == 0) {
                            continue;
                        }
                        int q = a == CbtKernels.SPLIT ? 2 * k + 1 : k;
                        int chunk = CbtChunks.chunkOf(D, CbtKernels.actionElement(D, k, a));
                        if (CbtKernels.depth(k) >= g) {
                            assertEquals((k >> (CbtKernels.depth(k) - g)) - (1 << g), chunk, "leaf " + k);
                        } else {
                            assertEquals(q, CbtChunks.shallowTarget((1 << g) + chunk), "leaf " + k);
                            shallow++;
                        }
                        checked++;
                    }
                    jvm.update(seed, split, merge, minDepth);
                }
            }
            assertTrue(checked > 100 && shallow > 0, "updates checked at D = " + D + ": " + checked + ", above g: " + shallow);
        }
    }
}
