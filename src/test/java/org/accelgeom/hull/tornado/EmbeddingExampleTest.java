package org.accelgeom.hull.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.accelgeom.engine.Backend;
import org.accelgeom.hull.Hull;
import org.accelgeom.hull.HullChecks;
import org.accelgeom.hull.HullOptions;
import org.accelgeom.hull.HullResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import uk.ac.manchester.tornado.api.ImmutableTaskGraph;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.annotations.Parallel;

/**
 * The example of docs/embedding.md ("Convex hull"), compiled and run: a TornadoVM program's own kernel makes points on
 * the device, and the hull's task graphs take them there (consumeFromDevice), with no upload; the hull equals the JVM
 * reference's of the same points computed on the host.
 */
@Tag("tornado")
class EmbeddingExampleTest {

    // --- docs/embedding.md, kernel begin
    /** The user's kernel: point i of a scrambled lattice in a cube (integer arithmetic, exact in double). */
    static void lattice(double[] x, double[] y, double[] z) {
        for (@Parallel int i = 0; i < x.length; i++) {
            x[i] = ((7919L * i) % 1000003L - 500001L) * 0x1p-20;
            y[i] = ((104729L * i) % 1000033L - 500016L) * 0x1p-20;
            z[i] = ((1299709L * i) % 1000037L - 500018L) * 0x1p-20;
        }
    }
    // --- docs/embedding.md, kernel end

    @Test
    void hullOfPointsMadeOnTheDevice() throws Exception {
        int n = 50_000;
        HullResult h;
        // --- docs/embedding.md, begin
        double[] x = new double[n];
        double[] y = new double[n];
        double[] z = new double[n];
        TaskGraph points = new TaskGraph("points")                              // the user's graph
                .task("lattice", EmbeddingExampleTest::lattice, x, y, z)
                .persistOnDevice(x, y, z);                                      // the points stay on the device
        HullBuffers b = HullBuffers.onDevice(x, y, z);                          // the hull's buffers over them
        List<ImmutableTaskGraph> graphs = new ArrayList<>(List.of(points.snapshot()));
        for (TaskGraph g : HullTaskGraphs.graphs("hull", b, "points")) {        // consumeFromDevice("points", x, y, z)
            graphs.add(g.snapshot());
        }
        HullTaskGraphs.Grid grid = HullTaskGraphs.grid("hull", b);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graphs.toArray(new ImmutableTaskGraph[0]))) {
            plan.withGridScheduler(grid.scheduler());
            plan.withGraph(0).execute();                                        // the user's kernel
            h = TornadoHullBackend.onDevice(plan, 1, b, grid, HullOptions.of(Backend.TORNADO)); // graphs 1..9: the hull
        }
        // --- docs/embedding.md, end
                double[] hx = new double[n];
        double[] hy = new double[n];
        double[] hz = new double[n];
        lattice(hx, hy, hz); // the same kernel as plain Java
        assertArrayEquals(hx, b.hx);
        assertArrayEquals(hy, b.hy);
        assertArrayEquals(hz, b.hz);
        HullResult ref = Hull.compute(hx, hy, hz, HullOptions.of(Backend.JVM));
        assertEquals(3, ref.dimension());
        assertArrayEquals(ref.vertices(), h.vertices());
        assertEquals(HullChecks.canonicalFacets(ref), HullChecks.canonicalFacets(h));
    }
}
