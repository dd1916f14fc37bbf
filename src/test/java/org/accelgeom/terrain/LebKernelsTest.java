package org.accelgeom.terrain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The LEB geometry and neighbour recurrence against brute-force edge matching of a uniform tiling. */
class LebKernelsTest {

    static float[] tri(int k) {
        float[] v = new float[6];
        LebKernels.vertices(k, v, 0);
        return v;
    }

    static boolean sameEdge(float[] a, int ai, int aj, float[] b, int bi, int bj) {
        return a[2 * ai] == b[2 * bj] && a[2 * ai + 1] == b[2 * bj + 1] && a[2 * aj] == b[2 * bi] && a[2 * aj + 1] == b[2 * bi + 1];
    }

    @Test
    void rootsAndChildrenAreCounterClockwiseAndTileTheSquare() {
        for (int d = 1; d <= 10; d++) {
            double area = 0;
            for (int k = 1 << d; k < 2 << d; k++) {
                float[] v = tri(k);
                double a = ((v[2] - v[0]) * (double) (v[5] - v[1]) - (v[3] - v[1]) * (double) (v[4] - v[0])) / 2;
                assertTrue(a > 0, "counter-clockwise " + k);
                assertEquals(Math.pow(0.5, d), a, 1e-12);
                area += a;
            }
            assertEquals(1.0, area, 1e-9);
        }
    }

    @Test
    void neighboursShareTheirEdgeExactly() {
        int[][] edges = {{0, 1}, {1, 2}, {2, 0}}; // L: v0-v1, R: v1-v2, B: v2-v0
        for (int d = 1; d <= 9; d++) {
            for (int k = 1 << d; k < 2 << d; k++) {
                float[] v = tri(k);
                for (int s = 0; s < 3; s++) {
                    int n = LebKernels.neighbour(k, s);
                    // brute force: the unique other triangle of the level with this edge reversed
                    int found = 0;
                    for (int m = 1 << d; m < 2 << d; m++) {
                        if (m == k) {
                            continue;
                        }
                        float[] w = tri(m);
                        for (int[] e : edges) {
                            if (sameEdge(v, edges[s][0], edges[s][1], w, e[0], e[1])) {
                                found = m;
                            }
                        }
                    }
                    assertEquals(found, n, "neighbour " + s + " of node " + k);
                    if (n != 0 && s != LebKernels.B) {
                        assertEquals(k, LebKernels.neighbour(n, 1 - s), "a shared leg is L of one and R of the other");
                    }
                    if (n != 0 && s == LebKernels.B) {
                        assertEquals(k, LebKernels.neighbour(n, LebKernels.B));
                    }
                }
            }
        }
    }
}
