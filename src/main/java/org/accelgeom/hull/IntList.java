package org.accelgeom.hull;

import java.util.Arrays;

/** A growable list of ints, without boxing. */
final class IntList {
    private int[] a = new int[16];
    private int size;

    void add(int v) {
        if (size == a.length) {
            a = Arrays.copyOf(a, size * 2);
        }
        a[size++] = v;
    }

    int get(int i) {
        return a[i];
    }

    int size() {
        return size;
    }

    void clear() {
        size = 0;
    }

    int[] toArray() {
        return Arrays.copyOf(a, size);
    }
}
