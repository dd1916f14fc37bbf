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
 * the one-launch cycle, "leaves", "words"); a heartbeat that did not change names that task. Tagged tornado because
 * it needs tornado-api on the class path (KernelContext); it needs no device.
 */
@Tag("tornado")
class CbtLaunchCheckTest {

    @ParameterizedTest
    @CsvSource({"8, true, 1", "12, true, 1", "12, true, 3", "12, false, 2", "17, true, 8"})
    void theSlotsNameEachGraphsLastTask(int D, boolean packed, int cycles) {
        CbtBuffers b = new CbtBuffers(Cbt.create(D, 1, packed).heap(), D, packed, 0, false, CbtTaskGraphs.TOP_GROUP,
                ChunkCycle.GROUP, cycles);
        assertEquals(3, b.check.size());
        int[] slots = {CbtTaskGraphs.SLOT_CYCLE, CbtTaskGraphs.SLOT_LEAVES, CbtTaskGraphs.SLOT_WORDS};
        int[] graphs = {CbtTaskGraphs.G_CYCLE, CbtTaskGraphs.G_LEAVES, CbtTaskGraphs.G_WORDS};
        for (int i = 0; i < 3; i++) {
            String[] tasks = b.tasks(graphs[i]);
            assertEquals(tasks[tasks.length - 1], b.check.name(slots[i]), "slot of graph " + graphs[i]);
        }
        String cycle = b.check.name(CbtTaskGraphs.SLOT_CYCLE);
        boolean chunked = CbtTaskGraphs.chunked(D, packed ? 1 : 0);
        assertEquals(chunked ? (b.cycles == 1 ? "chunks" : "chunks" + (b.cycles - 1)) : "top", cycle);
    }

    @ParameterizedTest
    @CsvSource({"0, 1", "1, 1", "2, 1", "0, 4"})
    void aStaleHeartbeatNamesItsTask(int g, int cycles) {
        CbtBuffers b = new CbtBuffers(Cbt.create(12, 1, true).heap(), 12, true, 0, false, CbtTaskGraphs.TOP_GROUP,
                ChunkCycle.GROUP, cycles);
        b.grid("t"); // the grids that size() sets
        int seq = b.size(g, 0, 1, 1);
        b.info[g][CbtTaskGraphs.INFO_BEAT] = seq;
        assertDoesNotThrow(() -> b.verify(g, seq, "dev", "phase"));
        int next = b.size(g, 0, 1, 1);
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
}
