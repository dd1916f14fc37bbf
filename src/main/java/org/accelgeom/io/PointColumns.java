package org.accelgeom.io;

import org.accelgeom.engine.DoubleList;

/** Coordinates collected column by column while a text file is read; becomes a {@link PointCloud}. */
final class PointColumns {
    private final DoubleList[] cols;

    PointColumns(int dimension, int capacity) {
        cols = new DoubleList[dimension];
        capacity = Math.max(16, Math.min(capacity, (1 << 22) / Math.max(1, dimension)));
        for (int k = 0; k < dimension; k++) {
            cols[k] = new DoubleList(capacity);
        }
    }

    int dimension() {
        return cols.length;
    }

    void add(int k, double v) {
        cols[k].add(v);
    }

    int size() {
        return cols[0].size();
    }

    PointCloud toCloud() {
        double[][] c = new double[cols.length][];
        for (int k = 0; k < c.length; k++) {
            c[k] = cols[k].toArray();
        }
        return new PointCloud(c);
    }
}
