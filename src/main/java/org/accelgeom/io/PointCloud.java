package org.accelgeom.io;

import java.util.Arrays;

/**
 * Points of any dimension, stored as structure of arrays: {@code coords[k][i]} is coordinate k of point i.
 * This is the layout the element kernels take ({@code x = coords[0]}, {@code y = coords[1]}, ...).
 *
 * @param coords one array per dimension, all of the same length
 */
public record PointCloud(double[][] coords) {

    public PointCloud {
        if (coords.length == 0) {
            throw new IllegalArgumentException("a point cloud needs at least one dimension");
        }
        for (double[] c : coords) {
            if (c.length != coords[0].length) {
                throw new IllegalArgumentException("coordinate arrays of different lengths");
            }
        }
    }

    /** A 3D cloud over the given arrays (not copied). */
    public static PointCloud of(double[] x, double[] y, double[] z) {
        return new PointCloud(new double[][] {x, y, z});
    }

    public int dimension() {
        return coords.length;
    }

    public int size() {
        return coords[0].length;
    }

    public double[] x() {
        return coords[0];
    }

    public double[] y() {
        return coords[1];
    }

    public double[] z() {
        return coords[2];
    }

    /** The index of the first point with a NaN or infinite coordinate, or -1 if all are finite. */
    public int firstNonFinite() {
        int n = size();
        for (int i = 0; i < n; i++) {
            for (double[] c : coords) {
                if (!Double.isFinite(c[i])) {
                    return i;
                }
            }
        }
        return -1;
    }

    /** This cloud without the points that have a NaN or infinite coordinate (this cloud itself if there are none). */
    public PointCloud withoutNonFinite() {
        if (firstNonFinite() < 0) {
            return this;
        }
        int n = size();
        boolean[] keep = new boolean[n];
        int m = 0;
        for (int i = 0; i < n; i++) {
            boolean ok = true;
            for (double[] c : coords) {
                ok &= Double.isFinite(c[i]);
            }
            keep[i] = ok;
            m += ok ? 1 : 0;
        }
        double[][] out = new double[coords.length][m];
        for (int k = 0; k < coords.length; k++) {
            for (int i = 0, j = 0; i < n; i++) {
                if (keep[i]) {
                    out[k][j++] = coords[k][i];
                }
            }
        }
        return new PointCloud(out);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PointCloud p && Arrays.deepEquals(coords, p.coords);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(coords);
    }

    @Override
    public String toString() {
        return "PointCloud[" + size() + " points, dimension " + dimension() + "]";
    }
}
