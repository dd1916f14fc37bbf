package org.accelgeom.hull;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The device's farthest-point search over candidate slots ({@link HullKernels#farthestSlotPass},
 * {@link HullKernels#slotBest}): passes until one writes nothing end with every new face's (distance, -index) maximum,
 * whatever order the points run in, ties on distance included.
 */
class FarthestSlotsTest {

    @Test
    void passesUntilNoneWritesFindEveryFacesMaximum() {
        Random r = new Random(7);
        for (int trial = 0; trial < 20; trial++) {
            int n = 1 + r.nextInt(3000);
            int faces = 1 + r.nextInt(40);
            int roundBase = 5;
            int[] label = new int[n];
            double[] dist = new double[n];
            for (int p = 0; p < n; p++) {
                label[p] = r.nextInt(5) == 0 ? r.nextInt(roundBase + 1) - 1 : roundBase + r.nextInt(faces);
                dist[p] = r.nextInt(trial % 2 == 0 ? 50 : 1_000_000); // many ties in even trials
            }
            int[] active = order(n, r, trial % 3);
            int[] slot = new int[HullKernels.SLOTS * faces];
            java.util.Arrays.fill(slot, -1);
            int[] flags = new int[2];
            int passes = 0;
            do {
                flags[1] = 0;
                for (int i = 0; i < n; i++) {
                    HullKernels.farthestSlotPass(active, i, label, dist, slot, roundBase, flags, 1);
                }
                passes++;
            } while (flags[1] != 0);
            assertTrue(passes <= 3, "a sequential run settles in a pass and checks in the next: " + passes);
            for (int j = 0; j < faces; j++) {
                assertEquals(expected(label, dist, roundBase + j), HullKernels.slotBest(slot, dist, j), "face " + j);
            }
        }
    }

    /** Index order, reversed, or shuffled. */
    private static int[] order(int n, Random r, int kind) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = kind == 1 ? n - 1 - i : i;
        }
        if (kind == 2) {
            for (int i = n - 1; i > 0; i--) {
                int k = r.nextInt(i + 1);
                int t = a[i];
                a[i] = a[k];
                a[k] = t;
            }
        }
        return a;
    }

    private static int expected(int[] label, double[] dist, int face) {
        int best = -1;
        for (int p = 0; p < label.length; p++) {
            if (label[p] == face && (best < 0 || dist[p] > dist[best])) {
                best = p; // index order: the first of equal distances is the lowest index
            }
        }
        return best;
    }
}
