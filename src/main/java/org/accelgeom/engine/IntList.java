package org.accelgeom.engine;

import java.util.Arrays;

/** A growable int array (no boxing), for host code that collects results of unknown count. */
public final class IntList {
    private int[] a;
    private int n;

    public IntList() {
        this(16);
    }

    public IntList(int capacity) {
        a = new int[Math.max(16, capacity)];
    }

    public void add(int v) {
        if (n == a.length) {
            a = Arrays.copyOf(a, a.length + (a.length >> 1));
        }
        a[n++] = v;
    }

    public int size() {
        return n;
    }

    public int get(int i) {
        return a[i];
    }

    public void clear() {
        n = 0;
    }

    public int[] toArray() {
        return Arrays.copyOf(a, n);
    }
}
