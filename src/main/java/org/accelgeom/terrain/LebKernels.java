package org.accelgeom.terrain;

import org.accelgeom.cbt.CbtKernels;

/**
 * Longest-edge bisection (LEB) over the unit square, after Dupuy, "Concurrent Binary Trees (with application to
 * longest edge bisection)", HPG 2020 (external to the CBT article, which does not describe the geometry). Heap
 * node 1 is the square; nodes 2 and 3 are its two right isosceles triangles, which share the diagonal (0,0)–(1,1)
 * as their longest edge (the base):
 * <pre>
 *   node 2: v0 = (0,0), v1 = (1,0), v2 = (1,1)        node 3: v0 = (1,1), v1 = (0,1), v2 = (0,0)
 * </pre>
 * A triangle (v0, v1, v2) has its base v0–v2 and apex v1, counter-clockwise. Bisection at the base's midpoint m
 * gives child 0 = (v1, m, v0) and child 1 = (v2, m, v1): both counter-clockwise, their bases the parent's legs.
 *
 * <p>Neighbours at the same depth (0 = none, the square's boundary): L across v0–v1, R across v1–v2, B across the
 * base. A shared leg is the L leg of one triangle and the R leg of the other, so (children of P, with neighbours
 * L, R, B):
 * <pre>
 *   child 0: L = 2P + 1, R = 2B + 1, B = 2L + 1        child 1: L = 2B, R = 2P, B = 2R
 * </pre>
 * All coordinates are dyadic rationals, exact in float up to depth 46, so vertices of different triangles compare
 * exactly. Element kernels (TornadoVM subset).
 */
public final class LebKernels {

    /** Neighbour slots of {@link #neighbour}. */
    public static final int L = 0;
    public static final int R = 1;
    public static final int B = 2;

    private LebKernels() {
    }

    /**
     * The vertices of node k ≥ 2 in the unit square, written to {@code out[o .. o+5]} as u0, v0, u1, v1, u2, v2
     * (node 1, the square, gives triangle 2).
     */
    public static void vertices(int k, float[] out, int o) {
        int d = CbtKernels.depth(k);
        int second = d >= 1 ? (k >> (d - 1)) & 1 : 0; // the bit below the leading 1: which root triangle
        float u0 = second == 0 ? 0f : 1f;
        float w0 = second == 0 ? 0f : 1f;
        float u1 = second == 0 ? 1f : 0f;
        float w1 = second == 0 ? 0f : 1f;
        float u2 = second == 0 ? 1f : 0f;
        float w2 = second == 0 ? 1f : 0f;
        for (int i = d - 2; i >= 0; i--) {
            int b = (k >> i) & 1;
            float mu = (u0 + u2) * 0.5f;
            float mw = (w0 + w2) * 0.5f;
            // b = 0: (v1, m, v0); b = 1: (v2, m, v1)
            float nu0 = b == 0 ? u1 : u2;
            float nw0 = b == 0 ? w1 : w2;
            float nu2 = b == 0 ? u0 : u1;
            float nw2 = b == 0 ? w0 : w1;
            u0 = nu0;
            w0 = nw0;
            u1 = mu;
            w1 = mw;
            u2 = nu2;
            w2 = nw2;
        }
        out[o] = u0;
        out[o + 1] = w0;
        out[o + 2] = u1;
        out[o + 3] = w1;
        out[o + 4] = u2;
        out[o + 5] = w2;
    }

    /** 2x + c for a neighbour x, or 0 when there is none. */
    private static int child(int x, int c) {
        return x == 0 ? 0 : 2 * x + c;
    }

    /** The same-depth neighbour of node k ≥ 2 in slot {@link #L}, {@link #R} or {@link #B} (0: the boundary). */
    public static int neighbour(int k, int slot) {
        int d = CbtKernels.depth(k);
        int second = (k >> (d - 1)) & 1;
        int p = 2 + second;
        int nl = 0;
        int nr = 0;
        int nb = second == 0 ? 3 : 2;
        for (int i = d - 2; i >= 0; i--) {
            int b = (k >> i) & 1;
            int l0 = 2 * p + 1;
            int r0 = child(nb, 1);
            int b0 = child(nl, 1);
            int l1 = child(nb, 0);
            int r1 = 2 * p;
            int b1 = child(nr, 0);
            nl = b == 0 ? l0 : l1;
            nr = b == 0 ? r0 : r1;
            nb = b == 0 ? b0 : b1;
            p = 2 * p + b;
        }
        return slot == L ? nl : slot == R ? nr : nb;
    }
}
