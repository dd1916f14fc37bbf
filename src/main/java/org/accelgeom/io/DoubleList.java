package org.accelgeom.io;

import java.util.Arrays;

/** A growable double array (no boxing). */
final class DoubleList {
    private double[] a;
    private int n;

    DoubleList() {
        this(1024);
    }

    DoubleList(int capacity) {
        a = new double[Math.max(16, capacity)];
    }

    void add(double v) {
        if (n == a.length) {
            a = Arrays.copyOf(a, a.length + (a.length >> 1));
        }
        a[n++] = v;
    }

    int size() {
        return n;
    }

    double get(int i) {
        return a[i];
    }

    double[] toArray() {
        return Arrays.copyOf(a, n);
    }
}
