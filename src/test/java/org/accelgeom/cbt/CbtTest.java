package org.accelgeom.cbt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.accelgeom.engine.PhaseTimings;
import org.junit.jupiter.api.Test;

/** Operations of the CBT and its invariants under random split/merge rounds, on every JVM backend. */
class CbtTest {

    @Test
    void initAtDepthGivesThePerfectLevel() {
        for (boolean packed : new boolean[] {true, false}) {
            for (int D = 1; D <= 10; D++) {
                for (int d = 0; d <= D; d++) {
                    Cbt t = Cbt.create(D, d, packed);
                    assertEquals(1 << d, t.leafCount());
                    int[] leaves = t.leaves();
                    for (int l = 0; l < leaves.length; l++) {
                        assertEquals((1 << d) + l, leaves[l]);
                    }
                    assertArrayEquals(leaves, t.leavesByScan());
                    // every node's sum is its leaf count: 2^(d - d_k) above level d, 1 or 0 below
                    for (int k = 1; k < (2 << D); k++) {
                        int dk = CbtLayout.depth(k);
                        int want = dk <= d ? 1 << (d - dk) : (CbtLayout.encode(D, k) % (1L << (D - d)) == 0 ? 1 : 0);
                        assertEquals(want, t.get(k), "D=" + D + " d=" + d + " k=" + k);
                    }
                }
            }
        }
    }

    @Test
    void splitAndMergeOfTheArticle() {
        Cbt t = Cbt.create(4, 0, true);
        assertEquals(1, t.leafCount());
        t.split(1);
        t.split(3);
        t.split(7);
        assertArrayEquals(new int[] {2, 6, 14, 15}, t.leaves());
        assertArrayEquals(t.leaves(), t.leavesByScan());
        t.split(7); // idempotent: 7 is already split
        assertArrayEquals(new int[] {2, 6, 14, 15}, t.leaves());
        assertTrue(t.isLeaf(14));
        assertFalse(t.isLeaf(7));
        assertFalse(t.isLeaf(4)); // inside leaf 2
        assertFalse(t.isPresent(4));
        t.merge(7);
        assertArrayEquals(new int[] {2, 6, 7}, t.leaves());
        assertEquals(2, t.get(3)); // 3 covers leaves 6 and 7
    }

    @Test
    void mergeIsRefusedUnlessBothChildrenAreLeaves() {
        Cbt t = Cbt.create(4, 0, true);
        t.split(1);
        t.split(3);
        t.split(7);
        assertThrows(IllegalArgumentException.class, () -> t.merge(1)); // 3 is internal: would encode no tree
        assertThrows(IllegalArgumentException.class, () -> t.merge(2)); // 2 is a leaf, its children do not exist
        assertThrows(IllegalArgumentException.class, () -> t.merge(15)); // level D
        assertThrows(IllegalArgumentException.class, () -> t.split(16)); // level D cannot split
        assertThrows(IllegalArgumentException.class, () -> t.split(4)); // not in the tree
        assertArrayEquals(new int[] {2, 6, 14, 15}, t.leaves());
    }

    /** The invariants of §2.5–2.6 checked against a brute-force count over the bitfield. */
    static void checkInvariants(Cbt t) {
        int D = t.maxDepth();
        int[] leaves = t.leaves();
        assertEquals(leaves.length, t.get(1), "root = leaf count");
        assertArrayEquals(t.leavesByScan(), leaves, "decoding agrees with the bitfield scan");
        long next = 0; // decoding l = 0..L-1 gives a partition of the bitfield, in order
        for (int k : leaves) {
            assertEquals(next, CbtLayout.encode(D, k), "leaf " + k + " starts where the previous one ends");
            assertTrue(t.bit(next));
            next += 1L << (D - CbtLayout.depth(k));
        }
        assertEquals(1L << D, next);
        if (D <= 10) {
            for (int k = 1; k < (1 << D); k++) {
                long x = CbtLayout.encode(D, k);
                assertEquals(t.countBits(x, x + (1L << (D - CbtLayout.depth(k)))), t.get(k), "sum of node " + k);
            }
        }
    }

    @Test
    void invariantsHoldUnderRandomRoundsOnEveryJvmBackend() {
        Random rnd = new Random(11);
        PhaseTimings pt = new PhaseTimings();
        for (int trial = 0; trial < 24; trial++) {
            int D = 1 + rnd.nextInt(trial < 16 ? 10 : 16);
            boolean packed = trial % 3 != 2;
            int d0 = rnd.nextInt(D + 1);
            Cbt ref = Cbt.create(D, d0, packed);
            int threads = new int[] {1, 2, 4, 8, 16}[trial % 5];
            Cbt par = ref.copy();
            try (JvmCbtBackend seq = new JvmCbtBackend(0); JvmCbtBackend pool = new JvmCbtBackend(threads)) {
                seq.load(ref, pt);
                pool.load(par, pt);
                for (int round = 0; round < 12; round++) {
                    int seed = rnd.nextInt();
                    int split = rnd.nextInt(1 << 30);
                    int merge = rnd.nextInt(Integer.MAX_VALUE);
                    seq.update(seed, split, merge, 0);
                    pool.update(seed, split, merge, 0);
                    assertArrayEquals(ref.heap(), par.heap(), "the rule's decisions do not depend on the order");
                    int L = seq.reduce();
                    assertEquals(L, pool.reduce());
                    assertArrayEquals(ref.heap(), par.heap());
                    checkInvariants(ref);
                    int[] a = new int[L];
                    int[] b = new int[L];
                    assertEquals(0, seq.decodeAll(a));
                    assertEquals(0, pool.decodeAll(b));
                    assertArrayEquals(ref.leaves(), a);
                    assertArrayEquals(a, b);
                    long[] s = seq.scan();
                    assertEquals(L, s[0]);
                    long sum = 0;
                    for (int k : a) {
                        sum += k;
                    }
                    assertEquals(sum, s[1]);
                }
            }
        }
    }

    /** {@code cycles(seeds)} is as many single cycles, on both JVM backends (the tornado one: TornadoCbtCyclesTest). */
    @Test
    void severalCyclesInOneCallAreAsManySingleCycles() {
        PhaseTimings pt = new PhaseTimings();
        int[] seeds = {11, -7, 123456, 42, 9};
        Cbt ref = Cbt.create(12, 3, true);
        try (JvmCbtBackend one = new JvmCbtBackend(0); JvmCbtBackend par = new JvmCbtBackend(3)) {
            one.load(ref, pt);
            int L = 0;
            for (int s : seeds) {
                L = one.cycle(s, 1 << 28, 1 << 29, 1);
            }
            Cbt t = Cbt.create(12, 3, true);
            par.load(t, pt);
            assertEquals(L, par.cycles(seeds, 1 << 28, 1 << 29, 1));
            assertArrayEquals(ref.heap(), t.heap());
            assertThrows(IllegalArgumentException.class, () -> par.cycles(new int[0], 0, 0, 1));
        }
    }

    @Test
    void packedAndUnpackedEncodeTheSameTree() {
        Random rnd = new Random(3);
        PhaseTimings pt = new PhaseTimings();
        for (int D = 1; D <= 12; D++) {
            Cbt p = Cbt.create(D, D / 2, true);
            Cbt u = Cbt.create(D, D / 2, false);
            try (JvmCbtBackend bp = new JvmCbtBackend(0); JvmCbtBackend bu = new JvmCbtBackend(0)) {
                bp.load(p, pt);
                bu.load(u, pt);
                for (int r = 0; r < 6; r++) {
                    int seed = rnd.nextInt();
                    bp.update(seed, 1 << 29, 1 << 30, 1);
                    bu.update(seed, 1 << 29, 1 << 30, 1);
                    assertEquals(bp.reduce(), bu.reduce());
                    for (int k = 1; k < (2 << D); k++) {
                        assertEquals(p.get(k), u.get(k));
                    }
                }
            }
        }
    }

    @Test
    void memoryOfPackedAgainstUnpacked() {
        assertEquals(512 * 1024L, Cbt.create(20, 0, true).memoryBytes());
        assertEquals(8L << 20, Cbt.create(20, 0, false).memoryBytes());
    }
}
