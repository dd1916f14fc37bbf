package org.accelgeom.ridge;

import java.util.Arrays;

/**
 * A uniform grid over the first min(d, 3) coordinates with cells a little larger than a radius r, hashed with
 * open addressing: items in the 3^g cells around a query point include every item within r of it (in any
 * dimension, since a projection does not lengthen distances). Only a filter: callers test exact distances, so
 * answers are the brute force's. Used to make the sequential choose step O(n) instead of O(n·|S|).
 */
final class CellGrid {

    private static final long EMPTY = Long.MIN_VALUE;
    private final int g;
    private final double inverseCell;
    private long[] keys;
    private int[] heads;
    private int[] next = new int[64];
    private int size;

    CellGrid(int d, double r) {
        this.g = Math.min(d, 3);
        this.inverseCell = 1.0 / (r * (1 + 1e-6)); // the margin absorbs rounding of the floor below
        keys = new long[256];
        heads = new int[256];
        Arrays.fill(keys, EMPTY);
    }

    /**
     * Whether the grid can index coordinates of magnitude up to {@code maxAbs} (cell indices below 2^20, so that
     * neighbour cells never wrap around).
     */
    static boolean usable(double maxAbs, double r) {
        return Double.isFinite(maxAbs / r) && maxAbs / r < (1 << 20);
    }

    long cell(double x) {
        return (long) Math.floor(x * inverseCell);
    }

    private static long key(long cx, long cy, long cz) {
        return ((cx & 0x1FFFFF) << 42) | ((cy & 0x1FFFFF) << 21) | (cz & 0x1FFFFF);
    }

    /** Adds item {@code item} (0, 1, 2, ... in order) at the cell of coordinates (x, y, z) (unused ones 0). */
    void add(int item, double x, double y, double z) {
        if (item >= next.length) {
            next = Arrays.copyOf(next, Math.max(item + 1, 2 * next.length));
        }
        if (2 * (size + 1) > keys.length) {
            grow();
        }
        long k = key(cell(x), g > 1 ? cell(y) : 0, g > 2 ? cell(z) : 0);
        int slot = slot(k);
        if (keys[slot] == EMPTY) {
            keys[slot] = k;
            heads[slot] = -1;
            size++;
        }
        next[item] = heads[slot];
        heads[slot] = item;
    }

    /** Calls {@code visitor} for the items of the cells around (x, y, z) until it returns true; true if it did. */
    boolean anyNear(double x, double y, double z, ItemTest visitor) {
        long cx = cell(x);
        long cy = g > 1 ? cell(y) : 0;
        long cz = g > 2 ? cell(z) : 0;
        int ry = g > 1 ? 1 : 0;
        int rz = g > 2 ? 1 : 0;
        for (long i = cx - 1; i <= cx + 1; i++) {
            for (long j = cy - ry; j <= cy + ry; j++) {
                for (long k = cz - rz; k <= cz + rz; k++) {
                    int slot = slot(key(i, j, k));
                    if (keys[slot] == EMPTY) {
                        continue;
                    }
                    for (int item = heads[slot]; item >= 0; item = next[item]) {
                        if (visitor.test(item)) {
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }

    @FunctionalInterface
    interface ItemTest {
        boolean test(int item);
    }

    private int slot(long k) {
        int mask = keys.length - 1;
        int h = (int) (mix(k) & mask);
        while (keys[h] != EMPTY && keys[h] != k) {
            h = (h + 1) & mask;
        }
        return h;
    }

    private static long mix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        return k;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldHeads = heads;
        keys = new long[oldKeys.length * 2];
        heads = new int[oldKeys.length * 2];
        Arrays.fill(keys, EMPTY);
        for (int s = 0; s < oldKeys.length; s++) {
            if (oldKeys[s] != EMPTY) {
                int slot = slot(oldKeys[s]);
                keys[slot] = oldKeys[s];
                heads[slot] = oldHeads[s];
            }
        }
    }
}
