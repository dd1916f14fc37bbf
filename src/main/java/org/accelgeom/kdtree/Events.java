package org.accelgeom.kdtree;

import java.util.Arrays;

/**
 * Events as sortable longs, one array per axis: the position's bits in sortable order (high 32 bits), the type
 * (2 bits: END &lt; PLANAR &lt; START) and the triangle id (30 bits). Sorting the longs sorts by (position,
 * type, triangle); one array per axis gives the thesis's (position, axis, type) order per axis, and the sweep's
 * tie rule ({@link KdTreeKernels#better}) restores the order across axes. Keys are unique per node (a triangle
 * has one reference per node), so the sorted order, and with it the tree, does not depend on how it was reached.
 */
public final class Events {

    private Events() {
    }

    static long key(float pos, int type, int tri) {
        int bits = Float.floatToRawIntBits(pos + 0.0f);
        int sortable = bits ^ ((bits >> 31) & 0x7fffffff);
        return ((long) sortable << 32) | (((long) type << 30) | tri) & 0xffffffffL;
    }

    static float pos(long key) {
        int s = (int) (key >> 32);
        return Float.intBitsToFloat(s ^ ((s >> 31) & 0x7fffffff));
    }

    static int type(long key) {
        return (int) (key >>> 30) & 3;
    }

    static int tri(long key) {
        return (int) key & 0x3fffffff;
    }

    /** The events of references [from, to) of a node on axis k, unsorted, into {@code out} from {@code at}; returns the new end. */
    static int generate(BuildNode node, int from, int to, int k, long[] out, int at) {
        int m = at;
        for (int i = from; i < to; i++) {
            float lo = node.box[6 * i + k];
            float hi = node.box[6 * i + 3 + k];
            int t = node.tri[i];
            if (lo == hi) {
                out[m++] = key(lo, KdTreeKernels.PLANAR, t);
            } else {
                out[m++] = key(lo, KdTreeKernels.START, t);
                out[m++] = key(hi, KdTreeKernels.END, t);
            }
        }
        return m;
    }

    /** The node's sorted events on every axis (O(n log n): the O(N log² N) variant does this at every node). */
    public static long[][] sorted(BuildNode node, boolean parallel) {
        long[][] e = new long[3][];
        for (int k = 0; k < 3; k++) {
            long[] a = new long[2 * node.n];
            int m = generate(node, 0, node.n, k, a, 0);
            a = Arrays.copyOf(a, m);
            if (parallel) {
                Arrays.parallelSort(a);
            } else {
                Arrays.sort(a);
            }
            e[k] = a;
        }
        return e;
    }

    /**
     * Algorithm 4 of the thesis (FindPlane), the incremental sweep over each axis's sorted events: at each
     * distinct position, N_P = p|, N_R -= p| + p-, the cost, then N_L += p+ + p|.
     */
    public static Split sweep(long[][] events, int n, float[] voxel, double[] c) {
        Split best = Split.NONE;
        for (int k = 0; k < 3; k++) {
            long[] e = events[k];
            int nl = 0;
            int nr = n;
            int i = 0;
            while (i < e.length) {
                float xi = pos(e[i]);
                int pe = 0;
                int pp = 0;
                int ps = 0;
                while (i < e.length && pos(e[i]) == xi && type(e[i]) == KdTreeKernels.END) {
                    pe++;
                    i++;
                }
                while (i < e.length && pos(e[i]) == xi && type(e[i]) == KdTreeKernels.PLANAR) {
                    pp++;
                    i++;
                }
                while (i < e.length && pos(e[i]) == xi && type(e[i]) == KdTreeKernels.START) {
                    ps++;
                    i++;
                }
                int np = pp;
                nr -= pp + pe;
                double cL = KdTreeKernels.sah(voxel, k, xi, nl, np, nr, c, true);
                double cR = KdTreeKernels.sah(voxel, k, xi, nl, np, nr, c, false);
                if (cL < cR) {
                    best = best.orBetter(k, xi, KdTreeKernels.LEFT, cL);
                } else {
                    best = best.orBetter(k, xi, KdTreeKernels.RIGHT, cR);
                }
                nl += ps + pp;
            }
        }
        return best;
    }
}
