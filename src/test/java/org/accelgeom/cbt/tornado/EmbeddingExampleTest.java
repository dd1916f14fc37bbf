package org.accelgeom.cbt.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.accelgeom.cbt.Cbt;
import org.accelgeom.cbt.CbtKernels;
import org.accelgeom.cbt.JvmCbtBackend;
import org.accelgeom.engine.PhaseTimings;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/**
 * The example of docs/embedding.md, "CBT usage cycle and decode", compiled and run: the user's own kernel writes a
 * CBT heap on the device, accelgeom's cycle graph takes it from there (consumeFromDevice) and runs usage cycles, its
 * list graph decodes the leaves into a list that stays on the device (persistOnDevice) for the user's next kernel.
 * The leaf count, the leaf list and the user's result equal the JVM backend's.
 */
@Tag("tornado")
class EmbeddingExampleTest {

    /** The user's kernel: the words of a packed heap of depth D whose leaves are level d (the paper's §2.9 step 1). */
    static void initHeap(int[] heap, int D, int d) {
        for (@Parallel int w = 0; w < heap.length; w++) {
            heap[w] = CbtKernels.initWord(D, 1, d, w);
        }
    }

    /** The user's next kernel: the depth of every listed leaf. */
    static void depths(int[] nodes, int[] depth) {
        for (@Parallel int l = 0; l < nodes.length; l++) {
            depth[l] = CbtKernels.depth(Math.max(1, nodes[l]));
        }
    }

    @Test
    void cyclesOnTheUsersHeapEqualTheJvm() throws Exception {
        int D = 14;
        int d0 = 4;
        int[] seeds = {11, 12, 13, 14, 15, 16};
        int split = 1 << 29;
        int merge = 1 << 29;
        int L;
        int[] heap = Cbt.uninitialised(D, true).heap();                   // 2^(D+2) bits, not a tree yet
        int[] depth = new int[1 << D];
        // --- docs/embedding.md, begin
        CbtBuffers b = new CbtBuffers(heap, D, true, 1 << D);            // packed, lists up to 2^D leaves
        TaskGraph mine = new TaskGraph("myheap")                         // the user's graph: the heap, on the device
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, heap)
                .task("init", EmbeddingExampleTest::initHeap, heap, D, d0)
                .persistOnDevice(heap);
        TaskGraph next = new TaskGraph("next")                           // the user's next graph reads the leaf list
                .consumeFromDevice(CbtTaskGraphs.graphName("cbt", CbtTaskGraphs.G_LIST), b.nodes)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, depth)
                .task("depths", EmbeddingExampleTest::depths, b.nodes, depth)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, depth);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(mine.snapshot(),
                CbtTaskGraphs.cycleGraph("cbt", b, "myheap").snapshot(),   // consumes the heap, persists it
                CbtTaskGraphs.stepGraph("cbt", b, CbtTaskGraphs.G_LIST).snapshot(), // decode and list on that heap
                next.snapshot())) {
            plan.withGridScheduler(b.grid("cbt"));                       // b.size(G_CYCLE, mode, L), b.step(g, L) size them
            plan.withGraph(0).execute();
            b.size(CbtTaskGraphs.G_CYCLE, CbtTaskGraphs.MODE_REDUCE, 0);  // the sum reduction of the new heap
            plan.withGraph(1).execute().transferToHost(b.info[CbtTaskGraphs.G_CYCLE]);
            L = b.info[CbtTaskGraphs.G_CYCLE][CbtTaskGraphs.INFO_LEAVES];
            for (int seed : seeds) {                                     // usage cycles: update + reduce, one launch
                b.setRule(seed, split, merge, 0);
                b.size(CbtTaskGraphs.G_CYCLE, CbtTaskGraphs.MODE_UPDATE | CbtTaskGraphs.MODE_REDUCE, L);
                plan.withGraph(1).execute().transferToHost(b.info[CbtTaskGraphs.G_CYCLE]);
                L = b.info[CbtTaskGraphs.G_CYCLE][CbtTaskGraphs.INFO_LEAVES];
            }
            int seq = b.step(CbtTaskGraphs.G_LIST, L);                   // one work-item per leaf
            TornadoExecutionResult r = plan.withGraph(2).execute();     // b.nodes[l]: the heap index of leaf l
            r.transferToHost(b.info[CbtTaskGraphs.G_LIST], b.nodes);
            b.verify(CbtTaskGraphs.G_LIST, seq, "the device", "list");   // its task ran: the heartbeat in b.info
            plan.withGraph(3).execute();                                 // depth[l]: the user's kernel on b.nodes
        }
        // --- docs/embedding.md, end
        assertEquals(0, b.info[CbtTaskGraphs.G_LIST][CbtTaskGraphs.INFO_BAD], "leaves that did not decode");
        assertEquals(b.params[CbtTaskGraphs.G_LIST][CbtTaskGraphs.SEQ], b.info[CbtTaskGraphs.G_LIST][CbtTaskGraphs.INFO_BEAT]);
        Cbt ref = Cbt.create(D, d0, true);
        int refL;
        int[] list;
        try (JvmCbtBackend jvm = new JvmCbtBackend(0)) {
            jvm.load(ref, new PhaseTimings());
            for (int seed : seeds) {
                jvm.update(seed, split, merge, 0);
                jvm.reduce();
            }
            refL = jvm.reduce();
            list = new int[refL];
            assertEquals(0, jvm.decodeAll(list));
        }
        assertTrue(refL != 1 << d0, "the cycles changed the tree");
        assertEquals(refL, L, "leaf count");
        assertArrayEquals(list, Arrays.copyOf(b.nodes, L), "leaf list");
        int[] refDepth = new int[1 << D];
        depths(Arrays.copyOf(list, 1 << D), refDepth);
        assertArrayEquals(Arrays.copyOf(refDepth, L), Arrays.copyOf(depth, L), "the user's kernel on the leaf list");
    }
}
