package org.accelgeom.engine;

import java.util.Arrays;

/** A growable double array (no boxing), for host code that collects results of unknown count. */
public final class DoubleList {
    private double[] a;
    private int n;

    public DoubleList() {
        this(16);
    }

    public DoubleList(int capacity) {
        a = new double[Math.max(16, capacity)];
    }

    public void add(double v) {
        if (n == a.length) {
            a = Arrays.copyOf(a, a.length + (a.length >> 1));
        }
        a[n++] = v;
    }

    public int size() {
        return n;
    }

    public double get(int i) {
        return a[i];
    }

    public double[] toArray() {
        return Arrays.copyOf(a, n);
    }
}
