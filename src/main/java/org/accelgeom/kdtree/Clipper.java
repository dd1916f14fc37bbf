package org.accelgeom.kdtree;

/**
 * "Perfect splits" (Wald &amp; Havran 2006, §4.4; Havran 2000): the box of the part of a triangle inside a voxel,
 * B(t ∩ V), by Sutherland–Hodgman clipping of the triangle against the voxel's six planes in double, rounded
 * outwards to float and intersected with the triangle's box in the parent, so that a child's box is never larger
 * than its parent's and no part of the triangle inside V is lost to rounding.
 */
public final class Clipper {

    private final double[] a = new double[3 * 10];
    private final double[] b = new double[3 * 10];

    /**
     * Writes B(t ∩ V) ∩ parentBox to {@code out[o .. o+5]}. When rounding makes the clipped polygon vanish (the
     * triangle only grazes V), the parent box intersected with V is used, which still contains t ∩ V.
     */
    public void clip(float[] v, int t, float[] voxel, float[] parentBox, int pb, float[] out, int o) {
        int n = 3;
        for (int i = 0; i < 9; i++) {
            a[i] = v[9 * t + i];
        }
        double[] src = a;
        double[] dst = b;
        for (int plane = 0; plane < 6 && n > 0; plane++) {
            int k = plane % 3;
            boolean isMin = plane < 3;
            double c = voxel[plane];
            int m = 0;
            for (int i = 0; i < n; i++) {
                int j = (i + 1) % n;
                double pi = src[3 * i + k];
                double pj = src[3 * j + k];
                boolean inI = isMin ? pi >= c : pi <= c;
                boolean inJ = isMin ? pj >= c : pj <= c;
                if (inI) {
                    copy(src, i, dst, m++);
                }
                if (inI != inJ) {
                    double s = (c - pi) / (pj - pi);
                    for (int q = 0; q < 3; q++) {
                        dst[3 * m + q] = src[3 * i + q] + s * (src[3 * j + q] - src[3 * i + q]);
                    }
                    dst[3 * m + k] = c;
                    m++;
                }
            }
            n = m;
            double[] tmp = src;
            src = dst;
            dst = tmp;
        }
        for (int k = 0; k < 3; k++) {
            float lo;
            float hi;
            if (n == 0) {
                lo = voxel[k];
                hi = voxel[3 + k];
            } else {
                double mn = Double.POSITIVE_INFINITY;
                double mx = Double.NEGATIVE_INFINITY;
                for (int i = 0; i < n; i++) {
                    mn = Math.min(mn, src[3 * i + k]);
                    mx = Math.max(mx, src[3 * i + k]);
                }
                lo = down(mn);
                hi = up(mx);
            }
            lo = Math.max(Math.max(lo, voxel[k]), parentBox[pb + k]);
            hi = Math.min(Math.min(hi, voxel[3 + k]), parentBox[pb + 3 + k]);
            if (lo > hi) { // only through rounding at a grazing contact: keep the parent's extent in V
                lo = Math.max(voxel[k], parentBox[pb + k]);
                hi = Math.min(voxel[3 + k], parentBox[pb + 3 + k]);
            }
            out[o + k] = lo + 0.0f;
            out[o + 3 + k] = hi + 0.0f;
        }
    }

    private static void copy(double[] src, int i, double[] dst, int m) {
        dst[3 * m] = src[3 * i];
        dst[3 * m + 1] = src[3 * i + 1];
        dst[3 * m + 2] = src[3 * i + 2];
    }

    /** The largest float not above x. */
    static float down(double x) {
        float f = (float) x;
        return f > x ? Math.nextDown(f) : f;
    }

    /** The smallest float not below x. */
    static float up(double x) {
        float f = (float) x;
        return f < x ? Math.nextUp(f) : f;
    }
}
