package org.accelgeom.cbt.tornado;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.accelgeom.cbt.Cbt;
import org.accelgeom.engine.AccelGeomException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The CBT's launch check ({@link CbtTaskGraphs#launchCheck}, {@link CbtBuffers#verify}): slot g belongs to graph g
 * and is named after the graph's last task, the one whose heartbeat the info array holds ("top" or the last copy of
 * the one-launch cycle; a step graph's one task, named after its step); a heartbeat that did not change names that task. Tagged tornado because
 * it needs tornado-api on the class path (KernelContext); it needs no device.
 */
@Tag("tornado")
class CbtLaunchCheckTest {

    @ParameterizedTest
    @CsvSource({"8, true, 1", "12, true, 1", "12, true, 3", "12, false, 2", "17, true, 8"})
    void theSlotsNameEachGraphsLastTask(int D, boolean packed, int cycles) {
        CbtBuffers b = new CbtBuffers(Cbt.create(D, 1, packed).heap(), D, packed, 0, false, CbtTaskGraphs.TOP_GROUP,
                ChunkCycle.GROUP, cycles);
        assertEquals(CbtTaskGraphs.GRAPHS, b.check.size());
        int[] slots = {CbtTaskGraphs.SLOT_CYCLE, CbtTaskGraphs.SLOT_UPDATE, CbtTaskGraphs.SLOT_DECODE,
            CbtTaskGraphs.SLOT_LIST, CbtTaskGraphs.SLOT_INIT, CbtTaskGraphs.SLOT_SNAPSHOT, CbtTaskGraphs.SLOT_SCAN};
        int[] graphs = {CbtTaskGraphs.G_CYCLE, CbtTaskGraphs.G_UPDATE, CbtTaskGraphs.G_DECODE, CbtTaskGraphs.G_LIST,
            CbtTaskGraphs.G_INIT, CbtTaskGraphs.G_SNAPSHOT, CbtTaskGraphs.G_SCAN};
        String[] steps = {null, "update", "decode", "list", "init", "snapshot", "scan"};
        for (int i = 0; i < slots.length; i++) {
            String[] tasks = b.tasks(graphs[i]);
            assertEquals(tasks[tasks.length - 1], b.check.name(slots[i]), "slot of graph " + graphs[i]);
            if (i > 0) { // a step graph: one task, named after its step
                assertEquals(java.util.List.of(steps[i]), java.util.List.of(tasks), "tasks of graph " + graphs[i]);
            }
        }
        String cycle = b.check.name(CbtTaskGraphs.SLOT_CYCLE);
        boolean chunked = CbtTaskGraphs.chunked(D, packed ? 1 : 0);
        assertEquals(chunked ? (b.cycles == 1 ? "chunks" : "chunks" + (b.cycles - 1)) : "top", cycle);
    }

    @ParameterizedTest
    @CsvSource({"0, 1", "1, 1", "2, 1", "3, 1", "4, 1", "5, 1", "6, 1", "0, 4"})
    void aStaleHeartbeatNamesItsTask(int g, int cycles) {
        CbtBuffers b = new CbtBuffers(Cbt.create(12, 1, true).heap(), 12, true, 0, false, CbtTaskGraphs.TOP_GROUP,
                ChunkCycle.GROUP, cycles);
        b.grid("t"); // the grids that size() and step() set
        int seq = g == CbtTaskGraphs.G_CYCLE ? b.size(g, 0, 1, 1) : b.step(g, 1);
        b.info[g][CbtTaskGraphs.INFO_BEAT] = seq;
        assertDoesNotThrow(() -> b.verify(g, seq, "dev", "phase"));
        int next = b.empty(g);
        // the kernels did not run: the heartbeat still holds the previous execution's number
        AccelGeomException e = assertThrows(AccelGeomException.class, () -> b.verify(g, next, "dev", "decode"));
        String[] tasks = b.tasks(g);
        assertTrue(e.getMessage().contains("'" + tasks[tasks.length - 1] + "'"), e.getMessage());
        assertTrue(e.getMessage().contains("CBT") && e.getMessage().contains("'decode'") && e.getMessage().contains("dev"),
                e.getMessage());
        // the check reads graph g's slot only: the other graphs never ran (their heartbeats hold 0)
        b.info[g][CbtTaskGraphs.INFO_BEAT] = next;
        assertDoesNotThrow(() -> b.verify(g, next, "dev", "decode"));
    }

    /** A step graph has no modes: step(g, L) sets its work-items (L, the heap's words or 1), empty(g) none. */
    @org.junit.jupiter.api.Test
    void stepGraphsAreSizedByTheirStep() {
        int[] heap = Cbt.create(12, 3, true).heap();
        CbtBuffers b = new CbtBuffers(heap, 12, true, 64, true, CbtTaskGraphs.TOP_GROUP, ChunkCycle.GROUP);
        b.grid("t");
        int[][] expected = {{CbtTaskGraphs.G_UPDATE, 8}, {CbtTaskGraphs.G_DECODE, 8}, {CbtTaskGraphs.G_LIST, 8},
            {CbtTaskGraphs.G_INIT, heap.length}, {CbtTaskGraphs.G_SNAPSHOT, heap.length}, {CbtTaskGraphs.G_SCAN, 1}};
        for (int[] e : expected) {
            int seq = b.step(e[0], 8);
            assertEquals(e[1], b.params[e[0]][CbtTaskGraphs.ITEMS], "work-items of graph " + e[0]);
            assertEquals(seq, b.params[e[0]][CbtTaskGraphs.SEQ]);
            b.empty(e[0]);
            assertEquals(0, b.params[e[0]][CbtTaskGraphs.ITEMS], "empty pass of graph " + e[0]);
            assertThrows(IllegalArgumentException.class, () -> b.size(e[0], CbtTaskGraphs.MODE_REDUCE, 8));
        }
        assertThrows(IllegalArgumentException.class, () -> b.step(CbtTaskGraphs.G_CYCLE, 8));
        b.size(CbtTaskGraphs.G_CYCLE, CbtTaskGraphs.MODE_REDUCE, 8); // the reduction alone: no update work-item
        assertEquals(0, b.params[CbtTaskGraphs.G_CYCLE][CbtTaskGraphs.ITEMS]);
        b.size(CbtTaskGraphs.G_CYCLE, CbtTaskGraphs.MODE_UPDATE | CbtTaskGraphs.MODE_REDUCE, 8);
        assertEquals(8, b.params[CbtTaskGraphs.G_CYCLE][CbtTaskGraphs.ITEMS]);
    }
}
