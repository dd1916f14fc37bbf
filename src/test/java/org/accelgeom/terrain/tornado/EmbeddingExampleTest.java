package org.accelgeom.terrain.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.accelgeom.cbt.Cbt;
import org.accelgeom.cbt.tornado.CbtTaskGraphs;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.terrain.FlightPath;
import org.accelgeom.terrain.JvmTerrainBackend;
import org.accelgeom.terrain.Terrain;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/**
 * The example of docs/embedding.md, "Terrain frame", compiled and run: the user's own kernel makes the heightmap on
 * the device, accelgeom's frame graph takes it from there (consumeFromDevice) and leaves the triangles on the device
 * (persistOnDevice) for the user's next kernel. The mesh equals the JVM backend's frame for frame.
 */
@Tag("tornado")
class EmbeddingExampleTest {

    /** The user's kernel: a heightmap of nx·ny samples, row major, from 0 to 1. */
    static void hills(float[] h, int nx, int ny) {
        for (@Parallel int k = 0; k < nx * ny; k++) {
            int i = k % nx;
            int j = k / nx;
            h[k] = ((i * 7 + j * 3) % 11) * 0.1f;
        }
    }

    /** The user's next kernel: the mean height of every triangle. */
    static void meanHeight(float[] tri, float[] mean) {
        for (@Parallel int t = 0; t < mean.length; t++) {
            mean[t] = (tri[9 * t + 2] + tri[9 * t + 5] + tri[9 * t + 8]) / 3f;
        }
    }

    @Test
    void framesOnTheUsersHeightsEqualTheJvm() throws Exception {
        int D = 14;
        int nx = 33;
        int ny = 33;
        int cap = 1 << 14;
        int frames = 6;
        FlightPath path = new FlightPath(1000, 100, 30, 20, 60, 320, 240, 1);
        float[] h = new float[nx * ny];
        float[] mean = new float[cap];
        Cbt tree = Cbt.create(D, 1, true);                                // the two root triangles
        int[] counts = new int[frames];
        // --- docs/embedding.md, begin
        TerrainBuffers b = new TerrainBuffers(tree.heap(), D, tree.leafCount(), h, nx, ny, cap, CbtTaskGraphs.TOP_GROUP);
        TaskGraph mine = new TaskGraph("myheights")                       // the user's graph: the heights, on the device
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, h)
                .task("hills", EmbeddingExampleTest::hills, h, nx, ny)
                .persistOnDevice(h);
        TaskGraph next = new TaskGraph("next")                            // the user's next graph reads the triangles
                .consumeFromDevice("terrainMerge", b.tri)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, mean)
                .task("meanHeight", EmbeddingExampleTest::meanHeight, b.tri, mean)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, mean);
        TaskGraph[] frame = TerrainTaskGraphs.graphs("terrain", b, "myheights", true);  // "terrainSplit", "terrainMerge"
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(mine.snapshot(), frame[0].snapshot(),
                frame[1].snapshot(), next.snapshot())) {
            plan.withGridScheduler(b.grid("terrain"));                      // b.split(mode), b.merge() size its tasks
            plan.withGraph(0).execute();
            b.split(TerrainTaskGraphs.MODE_CLEAR);                          // first execution: zero the split flags
            plan.withGraph(1).execute();
            TornadoExecutionResult r = null;
            for (int f = 0; f < frames; f++) {
                b.camera(Terrain.kernelCamera(path.frame(f, 20), 1000, 100, 10));  // size, height scale, target pixels
                b.split(TerrainTaskGraphs.MODE_SPLIT | CbtTaskGraphs.MODE_REDUCE);  // split, apply, reduce
                plan.withGraph(1).execute().transferToHost(b.info);
                b.leaves(b.info[0]);
                b.merge();                                                  // merge, reduce, emit
                r = plan.withGraph(2).execute();
                r.transferToHost(b.infoB);
                counts[f] = b.infoB[0];                                     // L triangles in b.tri, b.node
                b.leaves(counts[f]);
            }
            r.transferToHost(b.node);
            plan.withGraph(3).execute();                                    // mean[t]: the user's kernel on b.tri
        }
        // --- docs/embedding.md, end
        float[] hHost = new float[nx * ny];
        hills(hHost, nx, ny);
        float[] tri = new float[9 * cap];
        int[] node = new int[cap];
        int L = 0;
        try (JvmTerrainBackend jvm = new JvmTerrainBackend(0)) {
            jvm.load(Cbt.create(D, 1, true), hHost, nx, ny, cap, new PhaseTimings());
            for (int f = 0; f < frames; f++) {
                L = jvm.frame(Terrain.kernelCamera(path.frame(f, 20), 1000, 100, 10), tri, node);
                assertEquals(L, counts[f], "triangles of frame " + f);
            }
        }
        assertTrue(L > 100, "refined: " + L);
        assertArrayEquals(Arrays.copyOf(node, L), Arrays.copyOf(b.node, L), "the last frame's nodes");
        float[] refMean = new float[cap];
        meanHeight(tri, refMean);
        // the tolerance of TornadoTerrainTest: the heights are bilinear interpolations in float, which the device may
        // contract to fma (the nodes, the mesh itself, are exact)
        assertArrayEquals(Arrays.copyOf(refMean, L), Arrays.copyOf(mean, L), 1e-3f, "the user's kernel on the triangles");
    }
}
