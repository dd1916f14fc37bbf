package org.accelgeom.ridge;

import java.util.Arrays;

/** A growable double array (no boxing), for representatives chosen one by one. */
final class Doubles {
    private double[] a = new double[256];
    private int n;

    void add(double v) {
        if (n == a.length) {
            a = Arrays.copyOf(a, 2 * a.length);
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
