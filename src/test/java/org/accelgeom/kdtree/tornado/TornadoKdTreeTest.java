package org.accelgeom.kdtree.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.kdtree.KdTreeBuilder;
import org.accelgeom.kdtree.KdTreeOptions;
import org.accelgeom.kdtree.KdTreeResult;
import org.accelgeom.kdtree.Scenes;
import org.accelgeom.kdtree.Triangles;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The tornado builder against the jvm reference, on the TornadoVM device (POCL in CI). */
@Tag("tornado")
class TornadoKdTreeTest {

    @Test
    void perNodeKernelsGiveTheJvmTree() {
        for (String scene : new String[] {"random:3000", "sphere:2000"}) {
            Triangles t = Triangles.of(Scenes.named(scene, 3));
            KdTreeOptions o = KdTreeOptions.of(Backend.JVM).withDeviceMinRefs(512);
            KdTreeResult ref = KdTreeBuilder.build(t, o);
            KdTreeResult gpu = KdTreeBuilder.build(t, o.withBackend(Backend.TORNADO));
            assertEquals(ref.stats(), gpu.stats(), scene);
            assertTrue(ref.tree().sameTree(gpu.tree()), scene);
            assertTrue(gpu.timings().phases().stream().anyMatch(p -> p.name().startsWith("K2 counts")), "device not used");
        }
    }

    @Test
    void fanWithinTheReferenceBudgetGivesTheJvmTree() {
        // issue 16: slivers, where the reference budget ends the growth (nodes of 512+ references on the device)
        Triangles t = org.accelgeom.kdtree.ReferenceBudgetTest.fan(600);
        KdTreeOptions o = KdTreeOptions.of(Backend.JVM).withDeviceMinRefs(512);
        KdTreeResult ref = KdTreeBuilder.build(t, o);
        KdTreeResult gpu = KdTreeBuilder.build(t, o.withBackend(Backend.TORNADO));
        assertEquals(ref.stats(), gpu.stats());
        assertTrue(ref.tree().sameTree(gpu.tree()));
        assertTrue(gpu.stats().references() <= (long) org.accelgeom.kdtree.ReferenceBudget.FACTOR * t.count());
    }

    @Test
    void nodesOfEveryCapacityTierGiveTheJvmTree() {
        // 40 000 small triangles: the root runs on the full-size tier, nodes below 16 384 references on the small one
        Triangles t = Triangles.of(Scenes.randomTriangles(40000, 0.01, 5));
        KdTreeOptions o = KdTreeOptions.of(Backend.JVM).withDeviceMinRefs(4096).withMaxDepth(10);
        KdTreeResult ref = KdTreeBuilder.build(t, o);
        KdTreeResult gpu = KdTreeBuilder.build(t, o.withBackend(Backend.TORNADO));
        assertTrue(ref.tree().sameTree(gpu.tree()));
        // "K1 events (kernel)" with TornadoVM's profiler, "K1 events (device, wall)" without it (the default)
        long deviceNodes = gpu.timings().phases().stream().filter(p -> p.name().startsWith("K1 events ("))
                .mapToLong(p -> p.count()).sum();
        assertTrue(deviceNodes > 3, "nodes run on the device: " + deviceNodes);
    }

    @Test
    void rootStepsAreTimedPerKernel() {
        Triangles t = Triangles.of(Scenes.named("random:20000", 1));
        PhaseTimings p = KdTreeBuilder.rootSteps(t, KdTreeOptions.of(Backend.TORNADO), 2);
        assertTrue(p.phases().stream().anyMatch(x -> x.name().startsWith("K1 events (") && x.count() == 2), p.format());
    }
}
