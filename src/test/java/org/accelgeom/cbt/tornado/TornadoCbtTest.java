package org.accelgeom.cbt.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;

import org.accelgeom.cbt.Cbt;
import org.accelgeom.cbt.CbtBackend;
import org.accelgeom.cbt.CbtBackends;
import org.accelgeom.cbt.JvmCbtBackend;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.Tuning;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The tornado CBT backend against the JVM reference: the same heap, bit for bit, after every pass. Every graph of the
 * plan (the cycle and the six step graphs on the one resident heap) runs in every round, in changing order.
 */
@Tag("tornado")
class TornadoCbtTest {

    // D < 10: the top work-group reduces every level from the bitfield; D = 11: the word-owned prepass, then the
    // top from level 6; D = 18: a per-level kernel (level 12) between them, and the top strides (levels 11..9 have
    // more nodes than its work-group has items)
    @ParameterizedTest
    @CsvSource({"4, 1, true", "8, 2, true", "11, 4, true", "7, 0, false", "18, 12, true"})
    void randomRoundsGiveTheReferenceHeap(int D, int d0, boolean packed) {
        Random rnd = new Random(D * 31 + d0);
        PhaseTimings pt = new PhaseTimings();
        Cbt ref = Cbt.create(D, d0, packed);
        Cbt dev = ref.copy();
        try (JvmCbtBackend jvm = new JvmCbtBackend(0);
                CbtBackend gpu = CbtBackends.create(Backend.TORNADO, 0, -1, 1 << D, true)) {
            jvm.load(ref, pt);
            gpu.load(dev, pt);
            for (int round = 0; round < 8; round++) {
                int seed = rnd.nextInt();
                int split = rnd.nextInt(1 << 30);
                int merge = rnd.nextInt(Integer.MAX_VALUE);
                jvm.update(seed, split, merge, 0);
                gpu.update(seed, split, merge, 0);
                gpu.idle(); // the empty pass of the benchmarks launches every kernel idle: it must change nothing
                int L = jvm.reduce();
                assertEquals(L, gpu.reduce(), "leaf count after round " + round);
                gpu.sync();
                assertArrayEquals(ref.heap(), dev.heap(), "heap after round " + round);
                int[] a = new int[L];
                int[] b = new int[L];
                assertEquals(0, jvm.decodeAll(a));
                assertEquals(0, gpu.decodeAll(b));
                assertArrayEquals(a, b);
                assertEquals(0, gpu.decodeAll(null), "decode without the list, round " + round);
                assertArrayEquals(jvm.scan(), gpu.scan());
                gpu.idle(); // the scan graph's empty pass: no scan, the heap unchanged (next round's sync)
            }
            TornadoCbtBackend t = (TornadoCbtBackend) gpu;
            assertEquals(1 << d0, t.init(d0), "re-initialised on the device");
            assertEquals(0, gpu.decodeAll(null));
            int L = t.cycle(5, 1 << 29, 0, 0);
            jvm.load(Cbt.create(D, d0, packed), pt);
            jvm.update(5, 1 << 29, 0, 0);
            assertEquals(jvm.reduce(), L, "one fused cycle");
        }
    }

    /**
     * Whole usage cycles (update + reduce in one execution) against the reference, heap for heap. At D = 9, 12, 14,
     * 17 and 21 the cycle graph is ChunkCycle's one launch (chunk roots at levels 4, 4, 4, 7 and 11: the smallest
     * chunks, 2^5 bits, up to the deepest tree it serves, whose last work-group reduces 2^11 chunk counts); from a
     * shallow start the leaves above the chunk roots split and merge across chunks. D = 8 is below it. One round runs
     * an update alone and a reduction alone in between. (A cycle decodes with the stored sums: after an update alone
     * they must be reduced first, as in the paper's cycle; otherwise the result depends on the order in which leaves
     * are processed.)
     */
    @ParameterizedTest
    @CsvSource({"9, 1, 0", "14, 2, 0", "17, 5, 3", "12, 0, 0", "8, 3, 0", "21, 4, 0"})
    void cyclesGiveTheReferenceHeap(int D, int d0, int minDepth) {
        assertEquals(D >= 9 && Tuning.CBT_CHUNKED.booleanValue(), CbtTaskGraphs.chunked(D, 1), "ChunkCycle from D = 9");
        Random rnd = new Random(D * 131 + d0);
        PhaseTimings pt = new PhaseTimings();
        Cbt ref = Cbt.create(D, d0, true);
        Cbt dev = ref.copy();
        try (JvmCbtBackend jvm = new JvmCbtBackend(0);
                CbtBackend gpu = CbtBackends.create(Backend.TORNADO, 0, -1, 1 << D, true)) {
            jvm.load(ref, pt);
            gpu.load(dev, pt);
            // -Daccelgeom.test.cbtCycles=N runs N cycles (a longer check of the one-launch cycle on a GPU)
            int cycles = Integer.getInteger("accelgeom.test.cbtCycles", D > 17 ? 7 : 12); // 2^11 groups on POCL: 7
            for (int round = 0; round < cycles; round++) {
                int seed = rnd.nextInt();
                int split = rnd.nextInt(1 << 30);
                int merge = rnd.nextInt(Integer.MAX_VALUE);
                if (round == 6) { // an update alone, then the reduction alone (the chunked graph without its update)
                    jvm.update(seed, split, merge, minDepth);
                    gpu.update(seed, split, merge, minDepth);
                    assertEquals(jvm.reduce(), gpu.reduce(), "leaf count after the update alone");
                    seed = rnd.nextInt();
                }
                jvm.update(seed, split, merge, minDepth);
                int L = jvm.reduce();
                assertEquals(L, gpu.cycle(seed, split, merge, minDepth), "leaf count after cycle " + round);
                gpu.sync();
                assertArrayEquals(ref.heap(), dev.heap(), "heap after cycle " + round);
                gpu.idle();
            }
        }
    }

    /** A three-launch tree (D = 25) with 2^24 leaves: its count is a legal one, not the one-launch cycle's poison. */
    @org.junit.jupiter.api.Test
    void deepTreesCountTwoToTheTwentyFourLeaves() {
        Cbt tree = Cbt.create(25, 0, true);
        try (CbtBackend gpu = CbtBackends.create(Backend.TORNADO, 0, -1, 0, false)) {
            gpu.load(tree, new PhaseTimings());
            assertEquals(1 << 24, ((TornadoCbtBackend) gpu).init(24));
        }
    }
}
