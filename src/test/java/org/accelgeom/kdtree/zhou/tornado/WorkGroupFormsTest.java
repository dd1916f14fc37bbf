package org.accelgeom.kdtree.zhou.tornado;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.accelgeom.engine.tornado.JvmWorkGroups;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.kdtree.KdTree;
import org.accelgeom.kdtree.KdTreeOptions;
import org.accelgeom.kdtree.Scenes;
import org.accelgeom.kdtree.TestScenes;
import org.accelgeom.kdtree.Triangles;
import org.accelgeom.kdtree.zhou.ZhouBuilder;
import org.accelgeom.kdtree.zhou.ZhouBuilder.SmallStage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The device's work-group kernels of the breadth-first builder (split, count, scan, scatter of a level; the small
 * stage's subtree work-groups) run on the JVM through {@link JvmWorkGroups} and give the jvm backend's tree bit for
 * bit: the work-group forms and the plain loops of {@code JvmZhouBackend} are the same steps (issue 15 item 3). Tagged
 * tornado because it needs tornado-api on the class path (KernelContext); it needs no device.
 */
// own-jvm: JvmWorkGroups subclasses KernelContext; once such a subclass is loaded, Graal's class hierarchy analysis can
// no longer bind KernelContext's calls in other kernels (allocate*LocalArray, atomicAdd: "address origin unimplemented:
// InvokeNode", seen with the CBT's chunk cycle on an H100), so .ci/run runs this class in a JVM of its own
@Tag("tornado")
@Tag("own-jvm")
class WorkGroupFormsTest {

    private static void same(Triangles t, SmallStage stage, int regionFactor, int scanGroup, String what) {
        KdTreeOptions o = KdTreeOptions.of(Backend.JVM);
        KdTree ref = ZhouBuilder.build(t, o, ZhouBuilder.DEFAULT_SMALL, stage).tree();
        try (WorkGroupZhouBackend steps = new WorkGroupZhouBackend(t.count(), ZhouBuilder.DEFAULT_SMALL, stage, regionFactor,
                scanGroup)) {
            KdTree wg = ZhouBuilder.build(t, o, steps, null, new PhaseTimings(), stage);
            assertTrue(ref.sameTree(wg), what + ": the work-group forms give another tree than the jvm's");
        }
    }

    // small scenes: every work-item is a thread of its own here, and a level's split has 128 per node
    @ParameterizedTest
    @ValueSource(strings = {"random", "sphere", "grid"})
    void workGroupFormsGiveTheJvmTree(String kind) {
        Triangles t = Triangles.of(TestScenes.scene(kind, 250, 3));
        same(t, kind.equals("sphere") ? SmallStage.ZHOU_MASKS : SmallStage.BITMASK, 16, 64, kind);
    }

    @Test
    void exactSmallStageAndSmallRegionsGiveTheJvmTree() {
        Triangles t = Triangles.of(Scenes.named("random:400", 2));
        same(t, SmallStage.EXACT, 16, 128, "exact small stage");
        same(t, SmallStage.BITMASK, 1, 32, "region factor 1: roots left to the host");
    }
}
