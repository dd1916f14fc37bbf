package org.accelgeom.kdtree.zhou.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.tornado.TornadoDevices;
import org.accelgeom.kdtree.KdTree;
import org.accelgeom.kdtree.KdTreeOptions;
import org.accelgeom.kdtree.TreeChecks;
import org.accelgeom.kdtree.Triangles;
import org.accelgeom.kdtree.zhou.ZhouBuilder;
import org.accelgeom.render.TraceBuffers;
import org.accelgeom.render.tornado.RenderTaskGraphs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.enums.TornadoDeviceType;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;

/**
 * The kd-tree example of docs/embedding.md, compiled and run: the user's kernel makes a terrain's triangles on the
 * device, the breadth-first build's graphs ({@link ZhouTaskGraphs}) take them there and leave the tree there, and the
 * trace graph traces rays through it. The tree equals the jvm build of the same triangles bit for bit (on a GPU: valid,
 * SAH within 1e-3, the builder's contract there), and the hits equal the JVM trace through the jvm's tree.
 */
@Tag("tornado")
class EmbeddingExampleTest {

    /** The user's kernel: a k × k height field, two triangles a cell (integer heights in 1/16: exact in float). */
    static void terrain(float[] v, int k) {
        for (@Parallel int t = 0; t < 2 * k * k; t++) {
            int cell = t / 2;
            int x = cell % k;
            int y = cell / k;
            int o = 9 * t;
            int up = t % 2; // 0: corners (x,y) (x+1,y) (x,y+1); 1: (x+1,y) (x+1,y+1) (x,y+1)
            v[o] = x + up;
            v[o + 1] = y;
            v[o + 2] = height(x + up, y);
            v[o + 3] = x + 1;
            v[o + 4] = y + up;
            v[o + 5] = height(x + 1, y + up);
            v[o + 6] = x;
            v[o + 7] = y + 1;
            v[o + 8] = height(x, y + 1);
        }
    }

    static float height(int x, int y) {
        return ((x * 7919 + y * 104729) % 97) * 0.0625f;
    }

    @Test
    void treeBuiltAndTracedOnTheDevice() throws Exception {
        int k = 40;
        int n = 2000;
        SplittableRandom random = new SplittableRandom(5);
        float[] ox = new float[n];
        float[] oy = new float[n];
        for (int i = 0; i < n; i++) {
            ox[i] = (float) random.nextDouble(-2, k + 2);
            oy[i] = (float) random.nextDouble(-2, k + 2);
        }
        // --- docs/embedding.md, begin
        float[] v = new float[9 * 2 * k * k];
        TaskGraph mine = new TaskGraph("mytris")                         // the user's graph: triangles on the device
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, v)
                .task("terrain", EmbeddingExampleTest::terrain, v, k)
                .persistOnDevice(v);
        ZhouBuffers z = new ZhouBuffers(v, ZhouBuilder.DEFAULT_SMALL);  // the build's arrays, the tree's
        TraceBuffers t = z.trace(n);                                     // rays through the tree's arrays
        for (int i = 0; i < n; i++) {
            t.ray(i, ox[i], oy[i], 100f, 0, 0, -1, Float.POSITIVE_INFINITY);
        }
        ZhouTaskGraphs.Grid grid = ZhouTaskGraphs.grid("kd", z, TornadoDevices.device(-1));
        TaskGraph hits = RenderTaskGraphs.trace("hits", t, ZhouTaskGraphs.treeGraph("kd"), null, false);
        TornadoExecutionResult r;
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(mine.snapshot(),
                ZhouTaskGraphs.load("kd", z, "mytris").snapshot(),      // consumes v
                ZhouTaskGraphs.levels("kd", z).snapshot(),
                ZhouTaskGraphs.small("kd", z).snapshot(),               // persists the tree
                hits.snapshot())) {                                     // consumes the tree
            plan.withGridScheduler(RenderTaskGraphs.traceGrid("hits", t, grid.scheduler()))
                    .withCompilerFlags(TornadoVMBackendType.OPENCL, ZhouTaskGraphs.COMPILER_FLAGS);
            plan.withGraph(0).execute();                                 // the user's kernel
            r = ZhouTaskGraphs.build(plan, 1, z, grid, KdTreeOptions.of(Backend.TORNADO));  // graphs 1..3
            r.transferToHost(z.split, z.info, z.leaf);                   // only for the check below
            plan.withGraph(4).execute();                                 // t.hitId, t.hitT: the closest hits
        }
        // --- docs/embedding.md, end
        float[] raw = new float[v.length];
        terrain(raw, k);                                                 // the user's kernel on the JVM
        Triangles tris = Triangles.of(raw);
        assertEquals(2 * k * k, tris.count(), "no degenerate triangles");
        KdTreeOptions o = KdTreeOptions.of(Backend.JVM);
        KdTree ref = ZhouBuilder.build(tris, o, ZhouBuilder.DEFAULT_SMALL, ZhouBuilder.DEFAULT_STAGE).tree();
        KdTree tree = new KdTree(Arrays.copyOf(z.split, z.nodes()), Arrays.copyOf(z.info, z.nodes()),
                Arrays.copyOf(z.leaf, z.words()), tris.bounds(), tris);
        if (TornadoDevices.device(-1).getDeviceType() == TornadoDeviceType.GPU) {
            // a GPU's OpenCL compiler contracts float multiply-adds: a valid tree, SAH within 1e-3 (TornadoSmallStageTest)
            double sah = ref.stats(o.kT(), o.kI()).sahCost();
            assertEquals(sah, tree.stats(o.kT(), o.kI()).sahCost(), 1e-3 * sah);
            TreeChecks.check(tree, o.depthLimit(tris.count()), 2000);
        } else {
            assertTrue(ref.sameTree(tree), "the device's tree is the jvm's");
        }
        TraceBuffers jvm = new TraceBuffers(ref, n);                     // the JVM trace through the jvm's tree
        System.arraycopy(t.rays, 0, jvm.rays, 0, t.rays.length);
        jvm.traceOnJvm();
        int hit = 0;
        for (int i = 0; i < n; i++) {
            hit += jvm.hitId[i] >= 0 ? 1 : 0;
            if (t.hitId[i] != jvm.hitId[i]) {
                // a tie at a shared edge, broken the other way by fused multiply-adds (Render's contract)
                assertTrue(Math.abs(t.hitT[i] - jvm.hitT[i]) <= 1e-6 * Math.abs(jvm.hitT[i]), "ray " + i);
            }
        }
        assertTrue(hit > n / 2, "rays hit the terrain: " + hit);
    }
}
