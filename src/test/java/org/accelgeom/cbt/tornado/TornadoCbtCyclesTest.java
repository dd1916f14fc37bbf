package org.accelgeom.cbt.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;

import org.accelgeom.cbt.Cbt;
import org.accelgeom.cbt.CbtBackend;
import org.accelgeom.cbt.CbtBackends;
import org.accelgeom.cbt.CbtOptions;
import org.accelgeom.cbt.JvmCbtBackend;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.Tuning;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The tornado CBT backend running several usage cycles per execution, against single cycles of the JVM reference. */
@Tag("tornado")
class TornadoCbtCyclesTest {

    /**
     * Several cycles per execution (a cycle graph of three one-launch cycles): 3, then 2 (one copy idle), then 1 (two
     * idle) cycles per execution, with a reduction alone between, give the heap and L of as many single cycles of the
     * JVM reference, bit for bit. D = 9 and 17 run ChunkCycle (from a shallow start, flips across chunks); D = 8 is
     * below it, where the backend runs one cycle per execution. At D = 9 a one-cycle plan runs first in the process.
     */
    @ParameterizedTest
    @CsvSource({"9, 1, 0, true", "17, 3, 2, false", "8, 2, 0, false"})
    void severalCyclesPerExecutionGiveTheReferenceHeap(int D, int d0, int minDepth, boolean oneCycleFirst) {
        if (oneCycleFirst) { // a one-cycle plan first, in the same process (its kernel is another task method)
            try (CbtBackend one = CbtBackends.create(CbtOptions.of(Backend.TORNADO))) {
                Cbt t = Cbt.create(D, d0, true);
                one.load(t, new PhaseTimings());
                Cbt r = t.copy();
                try (JvmCbtBackend jvm = new JvmCbtBackend(0)) {
                    jvm.load(r, new PhaseTimings());
                    assertEquals(jvm.cycle(3, 1 << 28, 1 << 29, minDepth), one.cycle(3, 1 << 28, 1 << 29, minDepth));
                }
            }
        }
        Random rnd = new Random(D * 7 + d0);
        PhaseTimings pt = new PhaseTimings();
        Cbt ref = Cbt.create(D, d0, true);
        Cbt dev = ref.copy();
        try (JvmCbtBackend jvm = new JvmCbtBackend(0);
                CbtBackend gpu = CbtBackends.create(CbtOptions.of(Backend.TORNADO).withSyncable(true)
                        .withCyclesPerLaunch(3))) {
            jvm.load(ref, pt);
            gpu.load(dev, pt);
            assertEquals(D >= 9 && Tuning.CBT_CHUNKED.booleanValue() ? 3 : 1, ((TornadoCbtBackend) gpu).cyclesPerExecution());
            int split = 1 << 28;
            int merge = 1 << 29;
            for (int[] n : new int[][] {{3, 2}, {5, 0}, {1, 4}}) { // cycles in one call, then those of a second call
                for (int calls = 0; calls < 2; calls++) {
                    int[] seeds = new int[calls == 0 ? n[0] : n[1]];
                    if (seeds.length == 0) {
                        continue;
                    }
                    int L = 0;
                    for (int i = 0; i < seeds.length; i++) {
                        seeds[i] = rnd.nextInt();
                        jvm.update(seeds[i], split, merge, minDepth);
                        L = jvm.reduce();
                    }
                    assertEquals(L, gpu.cycles(seeds, split, merge, minDepth), "leaf count after " + seeds.length + " cycles");
                    gpu.sync();
                    assertArrayEquals(ref.heap(), dev.heap(), "heap after " + seeds.length + " cycles");
                }
                assertEquals(jvm.reduce(), gpu.reduce(), "a reduction alone");
            }
        }
    }

}
