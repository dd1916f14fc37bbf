package org.accelgeom.kdtree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.accelgeom.engine.Backend;
import org.accelgeom.kdtree.zhou.ZhouBuilder.SmallStage;
import org.accelgeom.kdtree.zhou.ZhouBuilder;
import org.junit.jupiter.api.Test;

/**
 * Issue 16, item 4: the reference budget bounds every builder's tree on sliver triangles (a polygon fan), and the
 * budget's arithmetic conserves it.
 */
public class ReferenceBudgetTest {

    /** The fan triangulation (v0, vi, vi+1) of a regular polygon of n vertices on the unit circle: long slivers. */
    public static Triangles fan(int n) {
        float[] raw = new float[9 * (n - 2)];
        for (int i = 1; i + 1 < n; i++) {
            int o = 9 * (i - 1);
            for (int k = 0; k < 3; k++) {
                int j = k == 0 ? 0 : i + k - 1;
                double a = 2 * Math.PI * j / n;
                raw[o + 3 * k] = (float) Math.cos(a);
                raw[o + 3 * k + 1] = (float) Math.sin(a);
                raw[o + 3 * k + 2] = 0f;
            }
        }
        return Triangles.of(raw);
    }

    /** The bound of the exact builders: FACTOR times the triangles. */
    static long exactBound(Triangles t) {
        return (long) ReferenceBudget.FACTOR * t.count();
    }

    /** The bound of the breadth-first builder: its hand-off list holds at most 2N + 256 references. */
    static long zhouBound(Triangles t) {
        return (long) ReferenceBudget.FACTOR * (2L * t.count() + 256);
    }

    @Test
    void fanOfAThousandVerticesStaysWithinTheBoundOnTheExactBuilders() {
        // issue 16: 25.7 million references and 22 s before the budget
        Triangles t = fan(1000);
        KdTreeOptions o = KdTreeOptions.of(Backend.JVM);
        KdTreeResult ref = KdTreeBuilder.build(t, o);
        assertTrue(ref.stats().references() <= exactBound(t), ref.stats().format());
        assertTrue(ref.stats().references() > 10L * t.count(), "the budget, not the SAH, should end the growth: "
                + ref.stats().format());
        KdTreeResult nlogn = KdTreeBuilder.build(t, o.withVariant(KdTreeOptions.Variant.NLOGN));
        KdTreeResult par = KdTreeBuilder.build(t, o.withBackend(Backend.JVM_PARALLEL).withThreads(2));
        assertTrue(ref.tree().sameTree(nlogn.tree()), "O(N log N) variant differs");
        assertTrue(ref.tree().sameTree(par.tree()), "jvm-parallel differs");
        TreeChecks.check(ref.tree(), o.depthLimit(t.count()), 500);
    }

    @Test
    void fanStaysWithinTheBoundOnEveryBreadthFirstStage() {
        Triangles t = fan(600);
        KdTreeOptions o = KdTreeOptions.of(Backend.JVM);
        for (SmallStage stage : SmallStage.values()) {
            KdTreeResult ref = ZhouBuilder.build(t, o, 64, stage);
            assertTrue(ref.stats().references() <= zhouBound(t), stage + ": " + ref.stats().format());
            KdTreeResult par = ZhouBuilder.build(t, o.withBackend(Backend.JVM_PARALLEL).withThreads(2), 64, stage);
            assertTrue(ref.tree().sameTree(par.tree()), stage + ": jvm-parallel differs");
            TreeChecks.check(ref.tree(), o.depthLimit(t.count()), 300);
        }
        // a larger small-node threshold hands the exact builder bigger small roots
        KdTreeResult big = ZhouBuilder.build(t, o, 256, SmallStage.EXACT);
        assertTrue(big.stats().references() <= zhouBound(t), big.stats().format());
    }

    @Test
    void budgetSplitsConserveTheBudgetAndCoverTheCounts() {
        SplittableRandom r = new SplittableRandom(4);
        for (int i = 0; i < 100_000; i++) {
            int nl = r.nextInt(0, Integer.MAX_VALUE / 2);
            int nr = r.nextInt(i % 2, Integer.MAX_VALUE / 2);
            long budget = (long) nl + nr + r.nextLong(0, 1L << (i % 62));
            long lb = ReferenceBudget.left(budget, nl, nr);
            long rb = budget - lb;
            assertTrue(lb >= nl && rb >= nr, budget + " " + nl + " " + nr);
            assertEquals(java.math.BigInteger.valueOf(budget).multiply(java.math.BigInteger.valueOf(nl))
                    .divide(java.math.BigInteger.valueOf((long) nl + nr)).longValueExact(), lb);
            int sb = r.nextInt(0, ReferenceBudget.FACTOR * 64 + 1);
            int snl = r.nextInt(0, 65);
            int snr = r.nextInt(snl == 0 ? 1 : 0, 65);
            if (snl + snr <= sb) {
                int sl = ReferenceBudget.leftSmall(sb, snl, snr);
                assertTrue(sl >= snl && sb - sl >= snr);
            }
        }
    }
}
