package org.accelgeom.kdtree.zhou.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.kdtree.KdTree;
import org.accelgeom.kdtree.KdTreeOptions;
import org.accelgeom.kdtree.KdTreeResult;
import org.accelgeom.kdtree.Scenes;
import org.accelgeom.kdtree.TreeChecks;
import org.accelgeom.kdtree.Triangles;
import org.accelgeom.kdtree.zhou.ZhouBuilder.SmallStage;
import org.accelgeom.kdtree.zhou.ZhouBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bit-mask small-node stage on the device (Zhou et al. 2008, §4.3): jvm, jvm-parallel and tornado build the same
 * tree bit for bit on POCL (CI). On a GPU, whose OpenCL compiler contracts float multiply-adds, the tree must be
 * valid with an SAH cost within 1e-3 of the jvm's (as {@link TornadoZhouBuilderTest}).
 */
@Tag("tornado")
class TornadoSmallStageTest {

    private static void sameOnEveryBackend(Triangles t, int small, SmallStage stage, String what) {
        KdTreeOptions o = KdTreeOptions.of(Backend.JVM);
        KdTreeResult ref = ZhouBuilder.build(t, o, small, stage);
        KdTreeResult par = ZhouBuilder.build(t, o.withBackend(Backend.JVM_PARALLEL).withThreads(2), small, stage);
        assertTrue(ref.tree().sameTree(par.tree()), what + ": jvm-parallel");
        KdTreeResult gpu = ZhouBuilder.build(t, o.withBackend(Backend.TORNADO), small, stage);
        assertTrue(gpu.timings().phases().stream().anyMatch(p -> p.name().startsWith("small-node")), "device not used");
        if (org.accelgeom.engine.tornado.TornadoDevices.device(-1).getDeviceType()
                == uk.ac.manchester.tornado.api.enums.TornadoDeviceType.GPU) {
            assertEquals(ref.stats().sahCost(), gpu.stats().sahCost(), 1e-3 * ref.stats().sahCost(), what);
            TreeChecks.check(gpu.tree(), o.depthLimit(t.count()), 2000);
            return;
        }
        assertEquals(ref.stats(), gpu.stats(), what);
        assertTrue(ref.tree().sameTree(gpu.tree()), what);
        // a second build reuses the plan: the small stage's arrays are rewritten, not carried over
        KdTreeResult again = ZhouBuilder.build(t, o.withBackend(Backend.TORNADO), small, stage);
        assertTrue(ref.tree().sameTree(again.tree()), what + " (second build)");
    }

    @Test
    void clippedMasksGiveTheJvmTree() {
        sameOnEveryBackend(Triangles.of(Scenes.named("sphere:6000", 2)), 64, SmallStage.BITMASK, "sphere:6000 bitmask");
    }

    @Test
    void fanWithinTheReferenceBudgetGivesTheJvmTree() {
        // issue 16: slivers, where the small roots' reference budgets end the growth on the device
        Triangles t = org.accelgeom.kdtree.ReferenceBudgetTest.fan(600);
        sameOnEveryBackend(t, 64, SmallStage.BITMASK, "fan:600 bitmask");
        sameOnEveryBackend(t, 64, SmallStage.ZHOU_MASKS, "fan:600 zhou-masks");
    }

    @Test
    void zhouMasksGiveTheJvmTree() {
        sameOnEveryBackend(Triangles.of(Scenes.named("random:8000", 5)), 64, SmallStage.ZHOU_MASKS, "random:8000 zhou-masks");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 5})
    void rootsBeyondTheirRegionsGiveTheJvmTree(int factor) {
        // few region slots per reference: subtrees overflow on the device and are built again on the host; with one
        // slot the tree is longer than the device's arrays and is placed on the host, with five on the device
        Triangles t = Triangles.of(Scenes.named("sphere:5000", 3));
        KdTreeOptions o = KdTreeOptions.of(Backend.JVM);
        KdTreeResult ref = ZhouBuilder.build(t, o, 64, SmallStage.BITMASK);
        PhaseTimings pt = new PhaseTimings();
        try (TornadoZhouBackend steps = new TornadoZhouBackend(-1, t.count(), 64, SmallStage.BITMASK, factor)) {
            KdTree gpu = ZhouBuilder.build(t, o.withBackend(Backend.TORNADO), steps, null, pt, SmallStage.BITMASK);
            assertTrue(pt.phases().stream().anyMatch(p -> p.name().contains("beyond their regions")), "no root overflowed");
            assertEquals(factor == 1, pt.phases().stream().anyMatch(p -> p.name().startsWith("place on the host")));
            if (org.accelgeom.engine.tornado.TornadoDevices.device(-1).getDeviceType()
                    == uk.ac.manchester.tornado.api.enums.TornadoDeviceType.GPU) {
                TreeChecks.check(gpu, o.depthLimit(t.count()), 2000);
                return;
            }
            assertTrue(ref.tree().sameTree(gpu), "the tree differs from the jvm's");
        }
    }

    @Test
    void hostRootsAndDeviceRootsTogetherGiveTheJvmTree() {
        // huge overlapping triangles: forced hand-offs of > 64 references go to the host, the rest stays on the device
        sameOnEveryBackend(Triangles.of(Scenes.randomTriangles(1500, 2.0, 11)), 4, SmallStage.BITMASK, "overlapping");
    }
}
