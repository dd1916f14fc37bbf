package org.accelgeom.cbt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.accelgeom.engine.AccelGeomException;
import org.junit.jupiter.api.Test;

/** The article's worked examples (§2.1–2.8) and the packed layout's bit-level contract. */
class CbtLayoutTest {

    @Test
    void heapIndexingAndPaths() {
        assertEquals(4, CbtLayout.depth(27)); // 27 = 11011b
        assertArrayEquals(new int[] {1, 0, 1, 1}, CbtLayout.path(27)); // right, left, right, right
        assertEquals(0, CbtLayout.depth(1));
        assertEquals(30, CbtLayout.depth(Integer.MAX_VALUE));
    }

    @Test
    void candidateNodesOfABit() {
        assertArrayEquals(new int[] {20, 10, 5}, CbtLayout.candidates(4, 4)); // bit 100b
        assertArrayEquals(new int[] {16, 8, 4, 2, 1}, CbtLayout.candidates(4, 0));
        assertArrayEquals(new int[] {30, 15}, CbtLayout.candidates(4, 14));
        assertEquals(5, CbtLayout.candidateCount(4, 0));
    }

    @Test
    void encodeNodeToBit() {
        assertEquals(4, CbtLayout.encode(4, 5)); // node 5 -> descendant 20 -> bit 4
        assertEquals(0, CbtLayout.encode(4, 1));
        assertEquals(15, CbtLayout.encode(4, 31));
        for (int D = 1; D <= 10; D++) {
            for (int k = 1; k < (2 << D); k++) {
                long x = CbtLayout.encode(D, k);
                int[] c = CbtLayout.candidates(D, x);
                boolean found = false;
                for (int kk : c) {
                    found |= kk == k;
                }
                assertTrue(found, "node " + k + " is a candidate of its own bit " + x);
            }
        }
    }

    @Test
    void packedOffsetsOfTheArticle() {
        assertEquals(7, CbtLayout.bitOffset(4, 1)); // root at bit 7, 5 bits wide
        assertEquals(5, CbtLayout.width(4, 1));
        assertEquals(12, CbtLayout.bitOffset(4, 2));
        assertEquals(20, CbtLayout.bitOffset(4, 4));
        assertEquals(48, CbtLayout.bitOffset(4, 16)); // first bitfield element at 3*2^D
        assertEquals(64, CbtLayout.packedBits(4));
        assertEquals(57, CbtLayout.levelBits(4, 0)); // eq. (24), n = 0: 2^(D+2) - D - 3
        assertEquals(512 * 1024L, 4L * CbtLayout.packedWords(20)); // D = 20 -> 512 KiB
        assertEquals(1L << 32, CbtLayout.packedBits(30)); // 512 MiB
        assertEquals(1 << 27, CbtLayout.packedWords(30));
        assertEquals((1L << 32) - 1, CbtLayout.bitOffset(30, Integer.MAX_VALUE)); // the last bit, needs a long
    }

    @Test
    void packedFieldsAreContiguousAndFillTheBuffer() {
        for (int D = 1; D <= 14; D++) {
            assertEquals(D + 3, CbtLayout.bitOffset(D, 1), "the depth field occupies [2, D+3)");
            for (int k = 1; k < (2 << D) - 1; k++) {
                assertEquals(CbtLayout.bitOffset(D, k + 1), CbtLayout.bitOffset(D, k) + CbtLayout.width(D, k), "D=" + D + " k=" + k);
            }
            int last = (2 << D) - 1;
            assertEquals(CbtLayout.packedBits(D), CbtLayout.bitOffset(D, last) + 1);
            // eq. (25): the first node of level d starts at 2^d (D - d + 3)
            for (int d = 0; d <= D; d++) {
                assertEquals((1L << d) * (D - d + 3), CbtLayout.bitOffset(D, 1 << d));
                assertEquals(CbtLayout.packedBits(D) - CbtLayout.levelBits(D, d), CbtLayout.bitOffset(D, 1 << d));
            }
        }
    }

    @Test
    void everyFieldReadsBackWhatWasWrittenIncludingStraddlingOnes() {
        Random rnd = new Random(7);
        for (int D = 1; D <= 12; D++) {
            for (boolean packed : new boolean[] {true, false}) {
                Cbt t = Cbt.create(D, 0, packed);
                int n = 2 << D;
                int[] want = new int[n];
                for (int k = 1; k < n; k++) {
                    want[k] = rnd.nextInt(1 << CbtLayout.width(D, k));
                    if (!packed) {
                        want[k] = rnd.nextInt();
                    }
                    t.set(k, want[k]);
                }
                for (int k = 1; k < n; k++) {
                    assertEquals(want[k], t.get(k), "D=" + D + " k=" + k + " packed=" + packed);
                }
                assertEquals(D, CbtKernels.maxDepth(t.heap(), packed ? 1 : 0), "the depth survives");
            }
        }
    }

    @Test
    void depthIsStoredInElementZero() {
        for (int D = 1; D <= 20; D++) {
            Cbt t = Cbt.create(D, Math.min(D, 3), true);
            assertEquals(D, Cbt.wrap(t.heap(), true).maxDepth());
            if (D <= 14) {
                assertEquals(D, Cbt.wrap(Cbt.create(D, 0, false).heap(), false).maxDepth());
            }
        }
    }

    @Test
    void badDepthsAreOneLineErrors() {
        assertThrows(AccelGeomException.class, () -> Cbt.create(31, 0, true));
        assertThrows(AccelGeomException.class, () -> Cbt.create(0, 0, true));
        assertThrows(AccelGeomException.class, () -> Cbt.create(30, 0, false));
        assertThrows(AccelGeomException.class, () -> Cbt.create(8, 9, true));
        assertThrows(AccelGeomException.class, () -> Cbt.wrap(new int[5], true));
    }

    @Test
    void thirtyTwoBitFieldOffsetsEqualTheLongOnesUpToDepthThirty() {
        java.util.Random rnd = new java.util.Random(3);
        for (int D = 1; D <= 30; D++) {
            for (int t = 0; t < 2000; t++) {
                int d = rnd.nextInt(D + 1);
                int k = (1 << d) + rnd.nextInt(1 << d);
                if (t == 0) {
                    k = (int) ((1L << (d + 1)) - 1); // the last element of the level
                }
                assertEquals(CbtLayout.bitOffset(D, k), Integer.toUnsignedLong(CbtKernels.fieldBit(D, d, k)),
                        "D " + D + " k " + k);
            }
        }
    }
}
