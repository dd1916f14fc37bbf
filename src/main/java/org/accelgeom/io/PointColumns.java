package org.accelgeom.io;

import java.util.Arrays;
import java.util.List;

/**
 * Coordinates collected column by column while (a block of) a text file is read; the columns of several
 * blocks are joined in order by {@link #join}.
 */
final class PointColumns {
    private final double[][] cols;
    private int n;

    PointColumns(int dimension, int capacity) {
        cols = new double[dimension][Math.max(16, Math.min(capacity, (1 << 22) / Math.max(1, dimension)))];
    }

    int dimension() {
        return cols.length;
    }

    /** Appends one point: {@code row[0..dimension)}. */
    void add(double[] row) {
        if (n == cols[0].length) {
            int grown = (int) Math.min(Integer.MAX_VALUE - 16L, cols[0].length + (cols[0].length >> 1) + 16L);
            if (grown == n) {
                throw new FormatException("more than " + n + " points: too many for one array");
            }
            for (int k = 0; k < cols.length; k++) {
                cols[k] = Arrays.copyOf(cols[k], grown);
            }
        }
        for (int k = 0; k < cols.length; k++) {
            cols[k][n] = row[k];
        }
        n++;
    }

    int size() {
        return n;
    }

    PointCloud toCloud() {
        return join(cols.length, List.of(this));
    }

    /** The points of the given columns (null entries are skipped), one after the other, as one cloud. */
    static PointCloud join(int dimension, List<PointColumns> parts) {
        long total = 0;
        for (PointColumns p : parts) {
            total += p == null ? 0 : p.n;
        }
        if (total > Integer.MAX_VALUE - 16) {
            throw new FormatException(total + " points: too many for one array (at most " + (Integer.MAX_VALUE - 16) + ")");
        }
        double[][] out = new double[dimension][(int) total];
        int[] at = new int[parts.size()];
        for (int i = 1; i < at.length; i++) {
            PointColumns p = parts.get(i - 1);
            at[i] = at[i - 1] + (p == null ? 0 : p.n);
        }
        // the parts of a parallel read copied in parallel too (240 MB at 10^7 3D points: 50 ms on one thread)
        java.util.stream.IntStream copies = java.util.stream.IntStream.range(0, at.length * dimension);
        (total < 1 << 20 ? copies : copies.parallel()).forEach(j -> {
            PointColumns p = parts.get(j / dimension);
            if (p != null) {
                System.arraycopy(p.cols[j % dimension], 0, out[j % dimension], at[j / dimension], p.n);
            }
        });
        return new PointCloud(out);
    }
}
