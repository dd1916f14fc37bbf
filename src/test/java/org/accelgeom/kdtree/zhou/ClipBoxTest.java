package org.accelgeom.kdtree.zhou;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * {@link SmallKernels#clipBox} skips the planes that cut nothing (every vertex of the polygon so far inside): the
 * boxes must be those of Sutherland–Hodgman through all six planes, bit for bit, for triangles that straddle, touch
 * or lie in a voxel's planes.
 */
class ClipBoxTest {

    @Test
    void skippingPlanesThatCutNothingGivesTheSameBoxes() {
        SplittableRandom r = new SplittableRandom(19);
        float[] v = new float[9];
        float[] vox = new float[6];
        float[] box = new float[6];
        float[] got = new float[6];
        float[] want = new float[6];
        double[] poly = new double[60];
        int cut = 0;
        for (int trial = 0; trial < 200_000; trial++) {
            for (int k = 0; k < 3; k++) {
                float a = grid(r);
                float b = grid(r);
                vox[k] = Math.min(a, b);
                vox[3 + k] = Math.max(a, b);
            }
            for (int a = 0; a < 9; a++) {
                v[a] = r.nextInt(4) == 0 ? vox[(a % 3) + 3 * r.nextInt(2)] : grid(r); // some vertices in a plane
            }
            for (int k = 0; k < 3; k++) {
                box[k] = Math.min(v[k], Math.min(v[3 + k], v[6 + k]));
                box[3 + k] = Math.max(v[k], Math.max(v[3 + k], v[6 + k]));
            }
            SmallKernels.clipBox(v, 0, vox, 0, box, 0, poly, got, 0);
            allPlanes(v, vox, box, poly, want);
            for (int a = 0; a < 6; a++) {
                assertEquals(Float.floatToRawIntBits(want[a]), Float.floatToRawIntBits(got[a]), "trial " + trial);
            }
            if (!java.util.Arrays.equals(got, box)) {
                cut++;
            }
        }
        assertTrue(cut > 50_000, "too few triangles clipped: " + cut);
    }

    /** A coordinate on a coarse grid (shared planes and vertices) or anywhere in [-1, 1]. */
    private static float grid(SplittableRandom r) {
        return r.nextBoolean() ? (r.nextInt(9) - 4) / 4f : (float) r.nextDouble(-1, 1);
    }

    /** Sutherland–Hodgman through all six planes (clipBox before it skipped planes), the same arithmetic. */
    private static void allPlanes(float[] v, float[] vox, float[] box, double[] poly, float[] out) {
        int n = 3;
        for (int a = 0; a < 9; a++) {
            poly[a] = v[a];
        }
        int src = 0;
        for (int plane = 0; plane < 6; plane++) {
            int k = plane % 3;
            double cpos = vox[plane];
            double sign = plane >= 3 ? -1.0 : 1.0;
            int dst = 30 - src;
            int m = 0;
            for (int a = 0; a < n; a++) {
                int b = (a + 1) % n;
                double pa = poly[src + 3 * a + k];
                double pb = poly[src + 3 * b + k];
                boolean inA = (pa - cpos) * sign >= 0;
                boolean inB = (pb - cpos) * sign >= 0;
                if (inA) {
                    System.arraycopy(poly, src + 3 * a, poly, dst + 3 * m, 3);
                    m++;
                }
                if (inA != inB) {
                    double s = (cpos - pa) / (pb - pa);
                    for (int q = 0; q < 3; q++) {
                        double qa = poly[src + 3 * a + q];
                        poly[dst + 3 * m + q] = qa - s * (qa - poly[src + 3 * b + q]);
                    }
                    poly[dst + 3 * m + k] = cpos;
                    m++;
                }
            }
            n = m;
            src = dst;
        }
        for (int k = 0; k < 3; k++) {
            double mn = 1e300;
            double mx = -1e300;
            for (int a = 0; a < n; a++) {
                mn = Math.min(mn, poly[src + 3 * a + k]);
                mx = Math.max(mx, poly[src + 3 * a + k]);
            }
            float lo = Math.max(Math.max(LevelKernels.down(mn), vox[k]), box[k]);
            float hi = Math.min(Math.min(LevelKernels.up(mx), vox[3 + k]), box[3 + k]);
            if (n == 0 || lo > hi) {
                lo = Math.max(vox[k], box[k]);
                hi = Math.min(vox[3 + k], box[3 + k]);
            }
            out[k] = lo + 0.0f;
            out[3 + k] = hi + 0.0f;
        }
    }
}
