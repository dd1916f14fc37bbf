package org.accelgeom.hull.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.accelgeom.hull.RandomPoints;
import org.accelgeom.io.PointCloud;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;

/**
 * The example of docs/embedding.md, compiled and run: a TornadoVM program takes accelgeom's hull TaskGraph,
 * runs it in its own execution plan, and reads a result back (here the extreme points along the six axes).
 */
@Tag("tornado")
class EmbeddingExampleTest {

    @Test
    void extremePointsFromTheEmbeddedGraph() throws Exception {
        PointCloud pts = RandomPoints.ball(100_000, 7);
        // --- docs/embedding.md, begin
        HullBuffers b = new HullBuffers(pts.x(), pts.y(), pts.z(), 1024, 1024, 256, 64);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(HullTaskGraphs.setup("myhull", b).snapshot())) {
            plan.withGridScheduler(HullTaskGraphs.grid("myhull", b));
            b.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_INIT;        // labels and index list
            plan.execute();
            double[] axes = {-1, 0, 0, 1, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, -1, 0, 0, 1};
            System.arraycopy(axes, 0, b.dD, 0, axes.length);
            b.params[HullTaskGraphs.MODE] = HullTaskGraphs.MODE_EXTREMES;    // the paper's Init_tetr kernel
            b.params[HullTaskGraphs.N_DIRS] = 6;
            TornadoExecutionResult r = plan.execute();
            r.transferToHost(b.red);                                         // b.red[k]: extreme point along axis k
            // --- docs/embedding.md, end
            double[][] c = {pts.x(), pts.y(), pts.z()};
            for (int k = 0; k < 6; k++) {
                double[] a = c[k / 2];
                int best = 0;
                for (int i = 1; i < a.length; i++) {
                    if (k % 2 == 0 ? a[i] < a[best] : a[i] > a[best]) {
                        best = i;
                    }
                }
                assertEquals(best, b.red[k], "axis " + k);
            }
        }
    }
}
