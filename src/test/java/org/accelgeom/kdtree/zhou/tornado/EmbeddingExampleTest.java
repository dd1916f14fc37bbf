package org.accelgeom.kdtree.zhou.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.tornado.TornadoDevices;
import org.accelgeom.kdtree.KdTree;
import org.accelgeom.kdtree.KdTreeOptions;
import org.accelgeom.kdtree.Scenes;
import org.accelgeom.kdtree.TreeChecks;
import org.accelgeom.kdtree.Triangles;
import org.accelgeom.kdtree.zhou.LevelBuilder;
import org.accelgeom.render.TraceBuffers;
import org.accelgeom.render.tornado.RenderTaskGraphs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.enums.TornadoDeviceType;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;

/**
 * The kd-tree example of docs/embedding.md, compiled and run: the tree built on the device in a DeviceSession equals
 * the jvm build bit for bit (on a GPU: valid, SAH within 1e-3, the builder's contract there), and the trace graph run in
 * the program's own plan gives the JVM trace's hits through the same tree.
 */
@Tag("tornado")
class EmbeddingExampleTest {

    @Test
    void deviceBuiltTreeTracedInTheUsersPlan() throws Exception {
        Triangles tris = Triangles.of(Scenes.named("sphere:4000", 2));
        int n = 2000;
        SplittableRandom r = new SplittableRandom(5);
        float[] ox = new float[n];
        float[] oy = new float[n];
        float[] oz = new float[n];
        for (int i = 0; i < n; i++) {
            ox[i] = (float) r.nextDouble(-1.2, 1.2);
            oy[i] = (float) r.nextDouble(-1.2, 1.2);
            oz[i] = 5f;
        }
        // --- docs/embedding.md, begin
        KdTree tree;
        try (DeviceSession session = DeviceSession.open(Execution.tornado(-1))) {
            tree = LevelBuilder.build(tris, KdTreeOptions.of(Backend.TORNADO), LevelBuilder.DEFAULT_SMALL,
                    LevelBuilder.DEFAULT_STAGE, session).tree();
        }
        TraceBuffers b = new TraceBuffers(tree, n);            // the tree's arrays, not copies
        for (int i = 0; i < n; i++) {
            b.ray(i, ox[i], oy[i], oz[i], 0, 0, -1, Float.POSITIVE_INFINITY);
        }
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(RenderTaskGraphs.trace("kdhits", b, null, null, false).snapshot())) {
            plan.withGridScheduler(RenderTaskGraphs.traceGrid("kdhits", b, new GridScheduler()))
                    .withCompilerFlags(TornadoVMBackendType.OPENCL, RenderTaskGraphs.COMPILER_FLAGS);
            plan.execute();                                    // b.hitId, b.hitT: the closest hits
        }
        // --- docs/embedding.md, end
        KdTreeOptions o = KdTreeOptions.of(Backend.JVM);
        KdTree ref = LevelBuilder.build(tris, o, LevelBuilder.DEFAULT_SMALL, LevelBuilder.DEFAULT_STAGE).tree();
        if (TornadoDevices.device(-1).getDeviceType() == TornadoDeviceType.GPU) {
            // a GPU's OpenCL compiler contracts float multiply-adds: a valid tree, SAH within 1e-3 (TornadoSmallStageTest)
            double sah = ref.stats(o.kT(), o.kI()).sahCost();
            assertEquals(sah, tree.stats(o.kT(), o.kI()).sahCost(), 1e-3 * sah);
            TreeChecks.check(tree, o.depthLimit(tris.count()), 2000);
        } else {
            assertTrue(ref.sameTree(tree), "the device's tree is the jvm's");
        }
        TraceBuffers jvm = new TraceBuffers(tree, n);           // the trace step alone: the same tree on the JVM
        System.arraycopy(b.rays, 0, jvm.rays, 0, b.rays.length);
        jvm.traceOnJvm();
        int hits = 0;
        for (int i = 0; i < n; i++) {
            hits += jvm.hitId[i] >= 0 ? 1 : 0;
            if (b.hitId[i] != jvm.hitId[i]) {
                // a tie at a shared edge, broken the other way by fused multiply-adds (RayCaster's contract)
                assertTrue(Math.abs(b.hitT[i] - jvm.hitT[i]) <= 1e-6 * Math.abs(jvm.hitT[i]), "ray " + i);
            }
        }
        assertTrue(hits > n / 4, "rays hit the sphere: " + hits);
        assertArrayEquals(b.rays, jvm.rays);
    }
}
