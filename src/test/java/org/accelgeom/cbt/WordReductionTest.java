package org.accelgeom.cbt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;

import org.accelgeom.engine.PhaseTimings;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The word-owned reduction against the per-node reduction of the JVM backend: every word it composes equals the
 * reduced heap's word, starting from a heap whose sums are stale (random splits and merges since the last
 * reduction).
 */
class WordReductionTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 6, 9, 10, 11, 13, 16, 17, 19})
    void composedWordsEqualTheReducedHeap(int D) {
        Random rnd = new Random(D);
        Cbt tree = Cbt.create(D, Math.min(D, 2), true);
        try (JvmCbtBackend jvm = new JvmCbtBackend(0)) {
            jvm.load(tree, new PhaseTimings());
            for (int round = 0; round < 6; round++) {
                jvm.update(rnd.nextInt(), 1 << 29, 1 << 28, 0);
                jvm.reduce();
            }
            jvm.update(rnd.nextInt(), 1 << 28, 1 << 30, 0);
            int[] stale = tree.heap().clone();
            jvm.reduce();
            int[] reduced = tree.heap();
            int T = Math.min(11, WordReduction.prepass(D, 1) ? D - 6 : D - 1);
            int changed = 0;
            if (WordReduction.prepass(D, 1)) {
                int first = WordReduction.prepassFirstWord(D);
                for (int W = first; W < first + WordReduction.prepassWordCount(D); W++) {
                    assertEquals(reduced[W], WordReduction.prepassWord(stale, D, W), "prepass word " + W);
                    changed += reduced[W] != stale[W] ? 1 : 0;
                }
                assertEquals(3 << (D - 5), first + WordReduction.prepassWordCount(D), "the region ends at the bitfield");
            }
            int[] cnt = new int[1 << (T + 2)];
            for (int k = 1; k < cnt.length; k++) {
                cnt[k] = CbtKernels.read(reduced, D, 1, k);
            }
            for (int W = 0; W < WordReduction.topWordCount(D, T); W++) {
                assertEquals(reduced[W], WordReduction.topWord(stale[W], cnt, D, T, W), "top word " + W);
                changed += reduced[W] != stale[W] ? 1 : 0;
            }
            if (D >= 6) {
                assertEquals(true, changed > 0, "the last update changed some sums (" + tree.leafCount() + " leaves)");
            }
        }
    }
}
