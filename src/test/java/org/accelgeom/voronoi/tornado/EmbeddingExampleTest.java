package org.accelgeom.voronoi.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;

import org.accelgeom.engine.Backend;
import org.accelgeom.voronoi.Balls;
import org.accelgeom.voronoi.SearchInput;
import org.accelgeom.voronoi.VoronoiKernels;
import org.accelgeom.voronoi.VoronoiOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;

/**
 * The Voronoi example of docs/embedding.md ("Voronoi end-vertex search"), compiled and run: a TornadoVM program puts
 * the load graph and the end-vertex search graph in its own execution plan, searches the first level of edges (those
 * of the initial vertex) and gets the jvm search's results, int for int.
 */
@Tag("tornado")
class EmbeddingExampleTest {

    @Test
    void firstLevelFromTheEmbeddedSearchEqualsTheJvm() throws Exception {
        Balls balls = Balls.randomAtoms(3000, 5);
        // --- docs/embedding.md, begin
        SearchInput in = SearchInput.of(balls, VoronoiOptions.of(Backend.TORNADO));   // grid, float copies, parameters
        VoronoiBuffers b = VoronoiBuffers.of(in);
        int count = in.firstLevel(b.frames, b.framesF, b.gates);                    // the initial vertex's edges
        b.ip[VoronoiKernels.I_COUNT] = count;
        b.ip[VoronoiTaskGraphs.SEQ] = 1;
        b.seq[0] = 1;
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(VoronoiTaskGraphs.load("mysearch", b).snapshot(),
                VoronoiTaskGraphs.search("mysearch", b).snapshot())) {
            plan.withGridScheduler(VoronoiTaskGraphs.grid("mysearch", b))
                    .withCompilerFlags(TornadoVMBackendType.OPENCL, "-w");                // IEEE doubles, no fast math
            plan.withGraph(0).execute().transferToHost(b.loadCheck.beat);            // balls and grid go up once
            plan.withGraph(1).execute().transferToHost(b.out, b.searchCheck.beat);  // one level of edges
        }
        b.loadCheck.verify(1, "the device", "load", VoronoiTaskGraphs.LOAD);
        b.searchCheck.verifyRange(1, "the device", "search", 0, b.searchCheck.size());
        int[] jvm = new int[count * VoronoiKernels.OS];
        in.searchOnJvm(count, b.frames, b.framesF, b.gates, jvm);                    // the reference
        // --- docs/embedding.md, end
        assertEquals(4, count, "the initial vertex has four edges");
        assertArrayEquals(jvm, Arrays.copyOf(b.out, count * VoronoiKernels.OS));
        for (int e = 0; e < count; e++) {
            assertEquals(true, jvm[e * VoronoiKernels.OS] >= -1, "edge " + e + ": an end ball or infinity");
        }
    }
}
