package org.accelgeom.kdtree.zhou;

import static org.accelgeom.kdtree.zhou.LevelBuffers.P_SEQ;

import org.accelgeom.kdtree.Clipper;

/**
 * Element kernels of the small-node stage of Zhou, Hou, Wang &amp; Guo, "Real-time kd-tree construction on graphics
 * hardware" (SIGGRAPH Asia 2008), §4.3 (Alg. 4 "preprocess small nodes"), in the TornadoVM subset; the per-node
 * SAH (Alg. 5) and the subtrees are in {@link SubtreeKernels}. A small root is a node the large-node stage handed on
 * with at most {@link #MAX_REFS} references; its references are a contiguous run of the hand-off list (the large
 * stage writes each level's outputs grouped by node, in node order), so bit q of a mask stands for the run's q-th
 * reference.
 * <ol>
 * <li>{@link #clear}, {@link #bounds}: each global node's run [first, end) in the hand-off list;
 * <li>{@link #candidates} (Zhou et al.'s masks only): per hand-off reference, its split candidates, the ends of its
 * box on each axis, with the masks of the root's references whose boxes start below (left) and end above (right) the
 * plane;
 * <li>{@link #clipBox}: a reference's box clipped exactly to a node's voxel (the default: masks over clipped boxes);
 * {@link #cull}: with Zhou et al.'s masks, a straddler whose triangle misses a child's voxel leaves that child.
 * </ol>
 * Every count is a popcount and every order comes from the reference order: the jvm and the device build the same
 * subtrees.
 */
public final class SmallKernels {

    /** One 64-bit mask per node: small roots have at most 64 references. */
    public static final int MAX_REFS = 64;

    /** {@link LevelBuffers#state} slots of this stage, parameters set by the host: global nodes of the large stage. */
    public static final int S_G = 37;
    /** References in the hand-off list. */
    public static final int S_D = 38;
    /** 1: references clipped exactly to each node's voxel; 0: Zhou et al.'s masks over the small root's boxes. */
    public static final int S_CLIP = 41;
    /** Length of the candidates' position array (indices are clamped to it: loads under a false guard stay in bounds). */
    public static final int S_CSLOTS = 42;
    /** Region slots per reference ({@link SubtreeKernels#FACTOR}, smaller in tests). */
    public static final int S_FACTOR = 43;
    /** Node slots of the regions. */
    public static final int S_REGION = 44;
    /** Heartbeats of the stage's tasks. */
    public static final int S_BEAT = 52;

    private SmallKernels() {
    }

    /**
     * The number of set bits, as two 32-bit halves: TornadoVM 5.2 maps Long.bitCount to OpenCL's 64-bit popcount,
     * whose long result made every count derived from it (loop bounds, the reference budget's division) 64-bit
     * arithmetic on the device; Integer.bitCount gives ints (the GPU counts 32 bits per instruction either way).
     */
    public static int popcount(long x) {
        return Integer.bitCount((int) x) + Integer.bitCount((int) (x >> 32));
    }

    /** Global node i: an empty run (nodes without references keep it). */
    public static void clear(int[] state, int i, int[] gFirst, int[] gEnd) {
        if (i < state[S_G]) {
            gFirst[i] = 0;
            gEnd[i] = 0;
        }
    }

    /** Hand-off reference r: the start and end of its node's run (each written by one work-item). */
    public static void bounds(int[] state, int r, int[] doneInt, int[] gFirst, int[] gEnd) {
        int d = state[S_D];
        if (r < d) {
            int gid = doneInt[2 * r + 1];
            int prev = doneInt[2 * Math.max(0, r - 1) + 1];
            int next = doneInt[2 * Math.min(d - 1, r + 1) + 1];
            if (r == 0) {
                prev = -1;
            }
            if (r == d - 1) {
                next = -1;
            }
            if (prev != gid) {
                gFirst[gid] = r;
            }
            if (next != gid) {
                gEnd[gid] = r + 1;
            }
        }
    }

    /**
     * Alg. 4 for hand-off reference r of a small root: its six candidates (slot 6r + 2k + e: the minimum (e = 0)
     * or maximum (e = 1) of its box on axis k) and, over the root's references q, the left mask (box minimum below
     * the plane) and the right mask (box maximum above it); a reference in neither is flat in the plane.
     */
    public static void candidates(int[] state, int r, int[] doneInt, float[] doneBox, int[] gFirst, int[] gEnd,
            float[] cPos, long[] cMask) {
        int slots = 0;
        if (r < state[S_D]) {
            slots = 1;
        }
        if (state[S_CLIP] == 1) {
            slots = 0;
        }
        if (slots == 1) {
            int gid = doneInt[2 * r + 1];
            int f = gFirst[gid];
            int cnt = gEnd[gid] - f;
            if (cnt <= MAX_REFS) {
                for (int k = 0; k < 3; k++) {
                    for (int e = 0; e < 2; e++) {
                        float x = doneBox[6 * r + 3 * e + k];
                        long left = 0L;
                        long right = 0L;
                        for (int q = 0; q < cnt; q++) {
                            float lo = doneBox[6 * (f + q) + k];
                            float hi = doneBox[6 * (f + q) + 3 + k];
                            if (lo < x) {
                                left |= 1L << q;
                            }
                            if (hi > x) {
                                right |= 1L << q;
                            }
                        }
                        int slot = Math.min(6 * r + 2 * k + e, state[S_CSLOTS] - 1);
                        cPos[slot] = x;
                        cMask[2 * slot] = left;
                        cMask[2 * slot + 1] = right;
                    }
                }
            }
        }
    }

    /**
     * B(t ∩ V) ∩ box: the box of triangle t clipped to the voxel {@code vox[o .. o+5]} by Sutherland–Hodgman in
     * double (as {@link Clipper}), rounded outwards ({@link LevelKernels#down}, {@link LevelKernels#up}) and
     * intersected with the reference's box {@code box[bo .. bo+5]}; when rounding empties the polygon (a grazing
     * contact) or the intersection, the box cut to the voxel. Written to {@code out[oo .. oo+5]}.
     */
    public static void clipBox(float[] v, int t, float[] vox, int o, float[] box, int bo, double[] poly, float[] out,
            int oo) {
        int n = 3;
        // a triangle inside the closed voxel is its own clipped polygon: Sutherland–Hodgman would keep its three
        // vertices in order at every plane (each test below is exact), so the planes are skipped
        int planes = 0;
        for (int a = 0; a < 9; a++) {
            double p = v[9 * t + a];
            poly[a] = p;
            if (p < vox[o + a % 3]) {
                planes = 6;
            }
            if (p > vox[o + 3 + a % 3]) {
                planes = 6;
            }
        }
        int src = 0;
        for (int plane = 0; plane < planes; plane++) {
            int k = plane % 3;
            double cpos = vox[o + plane];
            double sign = 1.0;
            if (plane >= 3) {
                sign = -1.0; // inside: sign·(x - c) >= 0
            }
            int dst = 30 - src;
            int m = 0;
            for (int a = 0; a < n; a++) {
                int b = a + 1;
                if (b == n) {
                    b = 0;
                }
                double pa = poly[src + 3 * a + k];
                double pb = poly[src + 3 * b + k];
                double da = (pa - cpos) * sign;
                double db = (pb - cpos) * sign;
                int inA = 0;
                int inB = 0;
                if (da >= 0) {
                    inA = 1;
                }
                if (db >= 0) {
                    inB = 1;
                }
                if (inA == 1) {
                    for (int q = 0; q < 3; q++) {
                        poly[dst + 3 * m + q] = poly[src + 3 * a + q];
                    }
                    m++;
                }
                if (inA != inB) {
                    double s = (cpos - pa) / (pb - pa);
                    for (int q = 0; q < 3; q++) {
                        double qa = poly[src + 3 * a + q];
                        double qb = poly[src + 3 * b + q];
                        poly[dst + 3 * m + q] = qa - s * (qa - qb); // a difference of a product (LevelKernels.halfArea)
                    }
                    poly[dst + 3 * m + k] = cpos;
                    m++;
                }
            }
            n = m;
            src = dst;
        }
        for (int k = 0; k < 3; k++) {
            double mn = 1e300; // finite starts (TornadoVM 5.2, see LevelKernels.clipToSide)
            double mx = -1e300;
            for (int a = 0; a < n; a++) {
                mn = Math.min(mn, poly[src + 3 * a + k]);
                mx = Math.max(mx, poly[src + 3 * a + k]);
            }
            float lo = Math.max(Math.max(LevelKernels.down(mn), vox[o + k]), box[bo + k]);
            float hi = Math.min(Math.min(LevelKernels.up(mx), vox[o + 3 + k]), box[bo + 3 + k]);
            int bad = 0;
            if (n == 0) {
                bad = 1;
            }
            if (lo > hi) {
                bad = 1;
            }
            if (bad == 1) {
                lo = Math.max(vox[o + k], box[bo + k]);
                hi = Math.min(vox[o + 3 + k], box[bo + 3 + k]);
            }
            out[oo + k] = lo + 0.0f;
            out[oo + 3 + k] = hi + 0.0f;
        }
    }

    /**
     * Whether triangle t may meet the closed box {@code box[o .. o+5]}: 0 only when one of the 13 separating axes of
     * Akenine-Möller's triangle–box test (the box's normals, the triangle's normal, the 9 edge × box-axis
     * products) separates them by more than a relative margin of 1e-6, so rounding (and a device's fused
     * multiply-adds) can only keep a triangle, never drop one that touches the box.
     */
    public static int overlaps(float[] v, int t, float[] box, int o) {
        double cx = 0.5 * ((double) box[o] + box[o + 3]);
        double cy = 0.5 * ((double) box[o + 1] + box[o + 4]);
        double cz = 0.5 * ((double) box[o + 2] + box[o + 5]);
        double hx = 0.5 * ((double) box[o + 3] - box[o]);
        double hy = 0.5 * ((double) box[o + 4] - box[o + 1]);
        double hz = 0.5 * ((double) box[o + 5] - box[o + 2]);
        double ax = v[9 * t] - cx;
        double ay = v[9 * t + 1] - cy;
        double az = v[9 * t + 2] - cz;
        double bx = v[9 * t + 3] - cx;
        double by = v[9 * t + 4] - cy;
        double bz = v[9 * t + 5] - cz;
        double dx = v[9 * t + 6] - cx;
        double dy = v[9 * t + 7] - cy;
        double dz = v[9 * t + 8] - cz;
        int apart = 0;
        // the box's normals
        apart |= separated(ax, bx, dx, hx);
        apart |= separated(ay, by, dy, hy);
        apart |= separated(az, bz, dz, hz);
        // the triangle's normal
        double e0x = bx - ax;
        double e0y = by - ay;
        double e0z = bz - az;
        double e1x = dx - bx;
        double e1y = dy - by;
        double e1z = dz - bz;
        double e2x = ax - dx;
        double e2y = ay - dy;
        double e2z = az - dz;
        double nx = e0y * e1z - e0z * e1y;
        double ny = e0z * e1x - e0x * e1z;
        double nz = e0x * e1y - e0y * e1x;
        double s = nx * ax + ny * ay + nz * az;
        double r = hx * Math.abs(nx) + hy * Math.abs(ny) + hz * Math.abs(nz);
        apart |= separated(s, s, s, r);
        // edge × x, edge × y, edge × z for the three edges
        apart |= edgeAxis(e0z, e0y, ay, az, by, bz, dy, dz, hy, hz);
        apart |= edgeAxis(e1z, e1y, ay, az, by, bz, dy, dz, hy, hz);
        apart |= edgeAxis(e2z, e2y, ay, az, by, bz, dy, dz, hy, hz);
        apart |= edgeAxis(e0x, e0z, az, ax, bz, bx, dz, dx, hz, hx);
        apart |= edgeAxis(e1x, e1z, az, ax, bz, bx, dz, dx, hz, hx);
        apart |= edgeAxis(e2x, e2z, az, ax, bz, bx, dz, dx, hz, hx);
        apart |= edgeAxis(e0y, e0x, ax, ay, bx, by, dx, dy, hx, hy);
        apart |= edgeAxis(e1y, e1x, ax, ay, bx, by, dx, dy, hx, hy);
        apart |= edgeAxis(e2y, e2x, ax, ay, bx, by, dx, dy, hx, hy);
        return 1 - apart;
    }

    /**
     * The axis (0, -eq, ep) in the plane of box axes p, q (the cross product of a box axis with an edge e): the
     * vertices project to -eq·p + ep·q, the box to ±(hp·|eq| + hq·|ep|).
     */
    private static int edgeAxis(double eq, double ep, double ap, double aq, double bp, double bq, double dp, double dq,
            double hp, double hq) {
        double pa = ep * aq - eq * ap;
        double pb = ep * bq - eq * bp;
        double pd = ep * dq - eq * dp;
        double r = hp * Math.abs(eq) + hq * Math.abs(ep);
        return separated(pa, pb, pd, r);
    }

    /** 1 when the projections a, b, d lie all beyond r or all below -r, by more than the margin. */
    private static int separated(double a, double b, double d, double r) {
        double lo = Math.min(a, Math.min(b, d));
        double hi = Math.max(a, Math.max(b, d));
        double tol = 1e-6 * (r + Math.max(Math.abs(lo), Math.abs(hi))) + 1e-30;
        int out = 0;
        if (lo - r > tol) {
            out = 1;
        }
        if (-r - hi > tol) {
            out = 1;
        }
        return out;
    }

    /**
     * The references of {@code mask} (over the run starting at hand-off index f) whose triangles may meet the voxel
     * {@code vox[o .. o+5]}, of those in {@code test}; the others are kept as they are.
     */
    public static long cull(float[] v, int[] doneInt, int f, long mask, long test, float[] vox, int o) {
        long out = mask;
        for (int q = 0; q < MAX_REFS; q++) {
            if (((test >>> q) & 1L) != 0L) {
                int t = doneInt[2 * (f + q)];
                if (overlaps(v, t, vox, o) == 0) {
                    out = out & ~(1L << q);
                }
            }
        }
        return out;
    }

    /** Heartbeat j of this execution (work-item 0 of each task). */
    public static void beat(int[] state, int j) {
        state[S_BEAT + j] = state[P_SEQ];
    }
}
