package org.accelgeom.io;

import java.util.Arrays;

/** A growable int array (no boxing). */
final class IntList {
    private int[] a;
    private int n;

    IntList() {
        this(1024);
    }

    IntList(int capacity) {
        a = new int[Math.max(16, capacity)];
    }

    void add(int v) {
        if (n == a.length) {
            a = Arrays.copyOf(a, a.length + (a.length >> 1));
        }
        a[n++] = v;
    }

    int size() {
        return n;
    }

    int get(int i) {
        return a[i];
    }

    int[] toArray() {
        return Arrays.copyOf(a, n);
    }
}
