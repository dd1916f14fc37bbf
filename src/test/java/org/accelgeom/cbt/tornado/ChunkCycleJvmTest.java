package org.accelgeom.cbt.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import org.accelgeom.cbt.Cbt;
import org.accelgeom.cbt.CbtChunks;
import org.accelgeom.cbt.JvmCbtBackend;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.tornado.JvmWorkGroups;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ChunkCycle}'s one-launch usage cycle, the work-group kernel itself, run on the JVM through
 * {@link JvmWorkGroups} (local arrays shared by a group's items, {@code localBarrier} a barrier of the group, the
 * work-groups one after another, so the last ticket is the last group's), gives the jvm backend's heap and leaf count
 * after each cycle (update, then reduction), bit for bit: the kernel and the plain loops of {@link JvmCbtBackend} are
 * the same cycle (issue 15 item 3). Depths 9 to 17 (chunk roots at levels 4 and 7), from shallow and deep starts, and
 * work-groups of 8 (the kernel's least: several passes of every item loop) to 64 items; D = 17 (128 groups)
 * runs two cycles only, to keep the test within seconds. Tagged tornado because it
 * needs tornado-api on the class path (KernelContext); it needs no device.
 */
// own-jvm: JvmWorkGroups subclasses KernelContext (see WorkGroupFormsTest), so .ci/run runs it in a JVM of its own
@Tag("tornado")
@Tag("own-jvm")
class ChunkCycleJvmTest {

    @ParameterizedTest
    @CsvSource({"9, 1, 0, 32, 6", "10, 6, 2, 8, 6", "12, 0, 0, 64, 6", "14, 3, 1, 16, 6", "17, 5, 3, 16, 2"})
    void theWorkGroupKernelGivesTheReferenceHeap(int D, int d0, int minDepth, int group, int cycles) {
        assertTrue(CbtChunks.eligible(D, 1), "D = " + D + " is a one-launch depth");
        Random rnd = new Random(31L * D + d0);
        Cbt ref = Cbt.create(D, d0, true);
        int[] heap = ref.heap().clone();
        int[] params = new int[CbtTaskGraphs.cycleSeed(0) + 1];
        params[CbtTaskGraphs.DEPTH] = D;
        params[CbtTaskGraphs.PACKED] = 1;
        params[CbtTaskGraphs.TOP] = Math.min(CbtTaskGraphs.TOP_LEVEL, CbtTaskGraphs.firstLevel(D, 1));
        params[CbtTaskGraphs.STOP] = ChunkCycle.ALL;
        params[CbtTaskGraphs.MODE] = CbtTaskGraphs.MODE_UPDATE | CbtTaskGraphs.MODE_REDUCE;
        params[CbtTaskGraphs.cycleMode(0)] = params[CbtTaskGraphs.MODE];
        int[] sums = new int[1 << CbtChunks.level(D)];
        Arrays.fill(sums, -1);
        int[] info = new int[4];
        AtomicInteger ticket = new AtomicInteger();
        int L = ref.leafCount();
        boolean changed = false;
        try (JvmCbtBackend jvm = new JvmCbtBackend(1)) {
            jvm.load(ref, new PhaseTimings());
            for (int cycle = 0; cycle < cycles; cycle++) {
                int seed = rnd.nextInt();
                int split = rnd.nextInt(1 << 30);
                int merge = rnd.nextInt(Integer.MAX_VALUE);
                jvm.update(seed, split, merge, minDepth);
                int expected = jvm.reduce();
                params[CbtTaskGraphs.SEED] = seed;
                params[CbtTaskGraphs.cycleSeed(0)] = seed;
                params[CbtTaskGraphs.SPLIT] = split;
                params[CbtTaskGraphs.MERGE] = merge;
                params[CbtTaskGraphs.MIN_DEPTH] = minDepth;
                params[CbtTaskGraphs.ITEMS] = L;
                params[CbtTaskGraphs.SEQ] = cycle + 1;
                JvmWorkGroups.run((int) ChunkCycle.workItems(D, params[CbtTaskGraphs.cycleMode(0)], group), group,
                        c -> ChunkCycle.cycle0(c, params, heap, sums, info, ticket));
                changed |= info[CbtTaskGraphs.INFO_LEAVES] != L;
                L = info[CbtTaskGraphs.INFO_LEAVES];
                assertEquals(expected, L, "leaf count after cycle " + cycle);
                assertEquals(cycle + 1, info[CbtTaskGraphs.INFO_BEAT], "heartbeat of cycle " + cycle);
                assertArrayEquals(ref.heap(), heap, "heap after cycle " + cycle);
            }
            assertTrue(changed, "the cycles changed the leaf count");
        }
    }
}
