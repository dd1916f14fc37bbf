package org.accelgeom.ridge;

import java.util.Arrays;

/** A growable int array (no boxing). */
final class Ints {
    private int[] a = new int[64];
    private int n;

    void add(int v) {
        if (n == a.length) {
            a = Arrays.copyOf(a, 2 * n);
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
