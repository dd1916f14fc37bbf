package org.accelgeom.kdtree.zhou;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.kdtree.KdTree;
import org.accelgeom.kdtree.KdTreeBuilder;
import org.accelgeom.kdtree.KdTreeOptions;
import org.accelgeom.kdtree.KdTreeResult;
import org.accelgeom.kdtree.Scenes;
import org.accelgeom.kdtree.TestScenes;
import org.accelgeom.kdtree.TreeChecks;
import org.accelgeom.kdtree.TreeWriter;
import org.accelgeom.kdtree.Triangles;
import org.accelgeom.kdtree.zhou.ZhouBuilder.SmallStage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Zhou et al.'s small-node stage with bit masks (the zhou builder's default): a valid tree (invariants, ray hits
 * equal to brute force), SAH within 5 % of the exact builder, the same tree on jvm and jvm-parallel, the host
 * fall-back for large handed-on nodes, and the O(nodes) layout against a recursive emission.
 */
class SmallStageTest {

    @ParameterizedTest
    @ValueSource(strings = {"random", "large", "sphere", "grid"})
    void validTreeCloseToTheExactSah(String kind) {
        Triangles t = Triangles.of(TestScenes.scene(kind, 4000, 5));
        KdTreeOptions o = KdTreeOptions.of(Backend.JVM);
        KdTreeResult mask = ZhouBuilder.build(t, o, 64, SmallStage.BITMASK);
        KdTreeResult exact = KdTreeBuilder.build(t, o);
        TreeChecks.check(mask.tree(), o.depthLimit(t.count()), 4000);
        assertTrue(mask.timings().phases().stream().anyMatch(p -> p.name().startsWith("small nodes: ")
                && p.name().contains("bit masks")), "bit-mask stage not used");
        double ratio = mask.stats().sahCost() / exact.stats().sahCost();
        assertTrue(ratio < ZhouBuilderTest.SAH_MARGIN, kind + ": SAH " + mask.stats().sahCost() + " vs exact "
                + exact.stats().sahCost());
        assertEquals(t.count(), mask.stats().triangles());
        ZhouBuilderTest.raysHitTheBruteForceTriangle(mask.tree(), 5, kind.equals("grid"));
        assertEquals(sameLayout(mask.tree()), true);
    }

    @ParameterizedTest
    @ValueSource(strings = {"random", "sphere", "grid"})
    void zhouMasksGiveAValidTree(String kind) {
        // Zhou et al.'s masks as they are (no clipping below the small roots): valid, but the SAH is looser
        Triangles t = Triangles.of(TestScenes.scene(kind, 3000, 4));
        KdTreeOptions o = KdTreeOptions.of(Backend.JVM);
        KdTreeResult r = ZhouBuilder.build(t, o, 64, SmallStage.ZHOU_MASKS);
        TreeChecks.check(r.tree(), o.depthLimit(t.count()), 3000);
        ZhouBuilderTest.raysHitTheBruteForceTriangle(r.tree(), 4, kind.equals("grid"));
        KdTreeResult par = ZhouBuilder.build(t, o.withBackend(Backend.JVM_PARALLEL).withThreads(3), 64, SmallStage.ZHOU_MASKS);
        assertTrue(r.tree().sameTree(par.tree()));
    }

    @Test
    void smallRootsOnlyTheWholeTreeIsTheSmallStage() {
        // 60 triangles: the root itself is a small root, the tree comes from the bit-mask stage alone
        Triangles t = Triangles.of(TestScenes.scene("large", 60, 2));
        KdTreeOptions o = KdTreeOptions.of(Backend.JVM);
        KdTreeResult r = ZhouBuilder.build(t, o, 64, SmallStage.BITMASK);
        assertTrue(r.stats().nodes() > 1, "the small root was not split");
        TreeChecks.check(r.tree(), o.depthLimit(t.count()), 2000);
        ZhouBuilderTest.raysHitTheBruteForceTriangle(r.tree(), 3, false);
        double ratio = r.stats().sahCost() / KdTreeBuilder.build(t, o).stats().sahCost();
        assertTrue(ratio < ZhouBuilderTest.SAH_MARGIN, "SAH ratio " + ratio);
    }

    @Test
    void jvmParallelGivesTheJvmTree() {
        Triangles t = Triangles.of(Scenes.named("random:20000", 7));
        KdTreeOptions o = KdTreeOptions.of(Backend.JVM);
        KdTreeResult ref = ZhouBuilder.build(t, o, 64, SmallStage.BITMASK);
        KdTreeResult par = ZhouBuilder.build(t, o.withBackend(Backend.JVM_PARALLEL).withThreads(3), 64, SmallStage.BITMASK);
        assertTrue(ref.tree().sameTree(par.tree()));
        assertEquals(ref.stats(), par.stats());
    }

    @Test
    void largeHandedNodesGoToTheHostAndTheTreeStaysValid() {
        // huge overlapping triangles: the large stage's capacity check hands whole levels on, nodes of > 64 references
        Triangles t = Triangles.of(Scenes.randomTriangles(3000, 2.0, 11));
        KdTreeOptions o = KdTreeOptions.of(Backend.JVM);
        KdTreeResult r = ZhouBuilder.build(t, o, 4, SmallStage.BITMASK);
        assertTrue(r.timings().phases().stream().anyMatch(p -> p.name().contains("roots of > 64 references")),
                "no host roots: the test does not test them");
        TreeChecks.check(r.tree(), o.depthLimit(t.count()), 2000);
        ZhouBuilderTest.raysHitTheBruteForceTriangle(r.tree(), 5, false);
        assertTrue(sameLayout(r.tree()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"BITMASK", "ZHOU_MASKS"})
    void rootsBeyondTheirRegionsAreBuiltOnTheHostAndTheTreeIsTheSame(String stage) {
        // one region slot per reference: most subtrees overflow their regions and are built again on the host
        SmallStage st = SmallStage.valueOf(stage);
        Triangles t = Triangles.of(TestScenes.scene("random", 3000, 6));
        KdTreeOptions o = KdTreeOptions.of(Backend.JVM);
        org.accelgeom.engine.PhaseTimings pt = new org.accelgeom.engine.PhaseTimings();
        LevelBuffers b = new LevelBuffers(t.count(), 64, st, 1);
        KdTree tree = ZhouBuilder.build(t, o, new JvmZhouBackend(b, null), null, pt, st);
        assertTrue(pt.phases().stream().anyMatch(p -> p.name().contains("roots on the host")), "no root went to the host");
        assertTrue(tree.sameTree(ZhouBuilder.build(t, o, 64, st).tree()), "the host's subtrees differ");
        TreeChecks.check(tree, o.depthLimit(t.count()), 2000);
        assertTrue(sameLayout(tree));
    }

    @ParameterizedTest
    @ValueSource(strings = {"BITMASK", "EXACT"})
    void reusedArraysGiveTheSameTree(String stage) {
        // the loop backends keep the last build's arrays for the next one of the same size: nothing may leak between
        SmallStage st = SmallStage.valueOf(stage);
        Triangles a = Triangles.of(TestScenes.scene("random", 2500, 1));
        Triangles b = Triangles.of(TestScenes.scene("large", 2500, 2));
        assertEquals(a.count(), b.count());
        KdTreeOptions o = KdTreeOptions.of(Backend.JVM);
        KdTree first = ZhouBuilder.build(a, o, 64, st).tree();
        KdTree other = ZhouBuilder.build(b, o, 64, st).tree();
        KdTree again = ZhouBuilder.build(a, o, 64, st).tree();
        assertTrue(first.sameTree(again));
        TreeChecks.check(other, o.depthLimit(b.count()), 1000);
    }

    @Test
    void popcountIsLongBitCount() {
        long x = 0x8000_0000_0000_0001L;
        assertEquals(2, SmallKernels.popcount(x));
        assertEquals(64, SmallKernels.popcount(-1L));
        assertEquals(0, SmallKernels.popcount(0L));
        java.util.SplittableRandom r = new java.util.SplittableRandom(3);
        for (int i = 0; i < 10_000; i++) { // as two 32-bit halves (ints on the device)
            long y = r.nextLong() >> r.nextInt(64);
            assertEquals(Long.bitCount(y), SmallKernels.popcount(y));
        }
    }

    @Test
    void thresholdAboveSixtyFourNeedsTheExactStage() {
        Triangles t = Triangles.of(TestScenes.scene("random", 100, 1));
        KdTreeOptions o = KdTreeOptions.of(Backend.JVM);
        assertThrows(AccelGeomException.class, () -> ZhouBuilder.build(t, o, 65, SmallStage.BITMASK));
        assertTrue(ZhouBuilder.build(t, o, 65, SmallStage.EXACT).stats().nodes() > 1);
    }

    /**
     * The depth-first layout: re-emitting the tree recursively (left child at n + 1, right after the left
     * subtree, leaves' lists in visiting order) gives the same arrays.
     */
    static boolean sameLayout(KdTree tree) {
        TreeWriter w = new TreeWriter();
        emit(tree, 0, w);
        return java.util.Arrays.equals(java.util.Arrays.copyOf(w.info, w.nodes), tree.info())
                && java.util.Arrays.equals(java.util.Arrays.copyOf(w.split, w.nodes), tree.split())
                && java.util.Arrays.equals(java.util.Arrays.copyOf(w.leafTris, w.leafSize), tree.leafTris());
    }

    private static void emit(KdTree tree, int n, TreeWriter w) {
        int idx = w.reserve();
        if (tree.isLeaf(n)) {
            int m = tree.leafSize(n);
            int[] tri = new int[m];
            for (int i = 0; i < m; i++) {
                tri[i] = tree.leafTriangle(n, i);
            }
            w.leaf(idx, tri, m);
            return;
        }
        emit(tree, n + 1, w);
        w.inner(idx, tree.axis(n), tree.split()[n], w.nodes);
        emit(tree, tree.right(n), w);
    }
}
