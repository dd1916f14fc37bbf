package org.accelgeom.hull;

import java.util.Arrays;

/**
 * The degenerate answers of the 3D hull: the convex polygon of exactly coplanar points (Andrew's monotone
 * chain on the projection that drops the normal's largest axis, with exact {@link Predicates#orient2d}), and
 * the segment of exactly collinear points.
 */
final class Hull2D {

    private Hull2D() {
    }

    /**
     * Corners of the convex hull of {@code idx}, counter-clockwise seen from the side the normal
     * (nx, ny, nz) points to; collinear boundary points are not corners.
     */
    static int[] polygon(double[] x, double[] y, double[] z, int[] idx, double nx, double ny, double nz) {
        double ax = Math.abs(nx);
        double ay = Math.abs(ny);
        double az = Math.abs(nz);
        final double[] u;
        final double[] v;
        boolean flip;
        if (az >= ax && az >= ay) {
            u = x;
            v = y;
            flip = nz < 0;
        } else if (ax >= ay) {
            u = y;
            v = z;
            flip = nx < 0;
        } else {
            u = z;
            v = x;
            flip = ny < 0;
        }
        Integer[] order = new Integer[idx.length];
        for (int i = 0; i < idx.length; i++) {
            order[i] = idx[i];
        }
        Arrays.sort(order, (p, q) -> {
            int c = Double.compare(u[p], u[q]);
            return c != 0 ? c : Double.compare(v[p], v[q]);
        });
        int[] hull = new int[2 * order.length + 1];
        int k = 0;
        for (int pass = 0; pass < 2; pass++) {
            int lower = k;
            for (int s = 0; s < order.length; s++) {
                int p = order[pass == 0 ? s : order.length - 1 - s];
                while (k >= lower + 2 && Predicates.orient2d(u[hull[k - 2]], v[hull[k - 2]], u[hull[k - 1]], v[hull[k - 1]],
                        u[p], v[p]) <= 0) {
                    k--;
                }
                hull[k++] = p;
            }
            k--; // the last point of each chain starts the other
        }
        int[] out = Arrays.copyOf(hull, Math.max(k, 0));
        if (flip) {
            for (int i = 0, j = out.length - 1; i < j; i++, j--) {
                int t = out[i];
                out[i] = out[j];
                out[j] = t;
            }
        }
        return out;
    }
}
