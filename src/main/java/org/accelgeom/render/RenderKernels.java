package org.accelgeom.render;

import org.accelgeom.kdtree.KdTreeKernels;

/**
 * Element kernels of the ray caster: stack-based kd-tree traversal with a short fixed stack per ray, watertight
 * ray–triangle intersection (Woop, Benthin &amp; Wald, "Watertight Ray/Triangle Intersection", JCGT 2013), pinhole
 * primary rays, shadow rays and shading; one work-item per pixel. Written in the TornadoVM subset; every backend
 * (jvm, jvm-parallel, tornado) runs these same methods.
 *
 * <p>TornadoVM 5.2 constraints this code obeys (see docs/kdtree.md, "Ray casting on the GPU"): no infinite float or
 * double constants (Graal's scheduler fails on them: "Unable to compile task"): "no hit" is -1 and the far end of a
 * primary ray comes from the camera array; no loop over the three slabs of the scene box (a float-guarded
 * loop-carried update): the slabs are written out; no Math.min/max on values that may be NaN (OpenCL's fmin/fmax
 * drop a NaN, Java's propagate it); no {@code &&}/{@code ||} mixing comparisons (TornadoVM 5.2 emits wrong OpenCL
 * for some): each comparison is a 0/1 int flag, combined with {@code &} and {@code |}. The device compiles with
 * IEEE arithmetic (no -cl-fast-relaxed-math: the rays use infinities).
 *
 * <p>Reproducibility: every result is the same on any IEEE-754 machine whether or not its compiler fuses
 * multiply-adds: float quantities are single operations or sums of float×float products formed exactly in double
 * and rounded once; the intersection's edge functions are exact-product differences in double, so their signs
 * are exact for the sheared vertices (which makes the test watertight without Woop's double fall-back). Only the
 * hit distance T/det may differ in its last bits where a device fuses U·A_z + V·B_z + W·C_z (TornadoVM's compiler
 * emits fma for it); whether T is positive is decided with a margin above that rounding (see {@link #intersect}), so
 * the set of triangles hit is the same everywhere, and only a tie between two triangles hit at the same distance
 * may be broken differently.
 *
 * <p>Closest hit: smallest t &gt; 0 (up to tMax), ties to the smaller triangle index, the same rule as
 * {@link #bruteForce}.
 */
public class RenderKernels {

    public static final int STACK = KdTreeKernels.STACK_SIZE;
    /** Layout of the camera array. */
    public static final int EYE = 0;
    public static final int FORWARD = 3;
    public static final int RIGHT = 6;
    public static final int UP = 9;
    public static final int LIGHT = 12;
    public static final int SHADOW_EPS = 15;
    /** The far end of primary rays: +∞ (an array entry, not a constant: see the class comment). */
    public static final int FAR = 16;
    public static final int CAMERA_FLOATS = 17;

    /** Layout of the int parameter array. */
    public static final int WIDTH = 0;
    public static final int HEIGHT = 1;
    public static final int SHADOWS = 2;
    /** A device backend's execution counter (its heartbeat). */
    public static final int SEQ = 3;
    public static final int PARAMS = 4;

    /** Counters per pixel: nodes visited, triangles tested, rays traced. */
    public static final int COUNTS = 3;

    /**
     * Floats per ray of {@link #closestHit}'s ray array: the origin (x, y, z), the direction (x, y, z; any non-zero
     * length, t is measured in its units) and the far end tMax (+∞ for no limit).
     */
    public static final int RAY_FLOATS = 7;

    /** Relative slack of the comparison of a node's entry distance (float) with the best hit (double). */
    static final double SLACK = 1.0 + 1e-6;

    RenderKernels() {
    }

    /** Component k of (x, y, z) (exact through double). */
    static float comp(float x, float y, float z, int k) {
        return (float) KdTreeKernels.comp(x, y, z, k);
    }

    /** The axis of the largest |d| (z on ties, as Woop's max_dim does from x upwards). */
    static int maxDim(float dx, float dy, float dz) {
        float ax = Math.abs(dx);
        float ay = Math.abs(dy);
        float az = Math.abs(dz);
        int x = (ax > ay ? 1 : 0) & (ax > az ? 1 : 0);
        int y = (ay >= ax ? 1 : 0) & (ay > az ? 1 : 0);
        return 2 - 2 * x - y;
    }

    /**
     * Watertight intersection of a ray with triangle t (Woop et al. 2013, Fig. 2/3): the distance t &gt; 0 of the
     * hit in units of |d|, or -1 when it misses (a ray that starts on the triangle's plane, up to 1e-12 relative,
     * misses it). (okx, oky, okz) is the origin permuted to (kx, ky, kz); kz is the
     * dominant axis of d, kx/ky the other two (swapped when d[kz] &lt; 0 to keep the winding), s = (d[kx]/d[kz],
     * d[ky]/d[kz], 1/d[kz]) the shear.
     */
    static double intersect(float[] tri, int t, float okx, float oky, float okz, int kx, int ky, int kz, float sx,
            float sy, float sz) {
        int b = 9 * t;
        float akx = tri[b + kx] - okx;
        float aky = tri[b + ky] - oky;
        float akz = tri[b + kz] - okz;
        float bkx = tri[b + 3 + kx] - okx;
        float bky = tri[b + 3 + ky] - oky;
        float bkz = tri[b + 3 + kz] - okz;
        float ckx = tri[b + 6 + kx] - okx;
        float cky = tri[b + 6 + ky] - oky;
        float ckz = tri[b + 6 + kz] - okz;
        // shear and scale of the vertices (eq. 4 of the paper)
        float sAx = (float) (akx - (double) sx * akz);
        float sAy = (float) (aky - (double) sy * akz);
        float sBx = (float) (bkx - (double) sx * bkz);
        float sBy = (float) (bky - (double) sy * bkz);
        float sCx = (float) (ckx - (double) sx * ckz);
        float sCy = (float) (cky - (double) sy * ckz);
        // scaled barycentric coordinates: 2D edge functions, exact products in double
        double u = (double) sCx * sBy - (double) sCy * sBx;
        double v = (double) sAx * sCy - (double) sAy * sCx;
        double w = (double) sBx * sAy - (double) sBy * sAx;
        double result = -1;
        int neg = (u < 0 ? 1 : 0) | (v < 0 ? 1 : 0) | (w < 0 ? 1 : 0);
        int pos = (u > 0 ? 1 : 0) | (v > 0 ? 1 : 0) | (w > 0 ? 1 : 0);
        double det = u + v + w;
        // the scaled distance T (eq. 5): a hit needs T of det's sign, by more than the rounding of its three terms
        // (1e-12 of their magnitudes), so that whether a device fuses the multiply-adds or not cannot decide
        // whether a ray starting on the triangle (T = 0) hits it
        double ta = u * ((double) sz * akz);
        double tb = v * ((double) sz * bkz);
        double tc = w * ((double) sz * ckz);
        double tt = ta + tb + tc;
        double bound = 1e-12 * (Math.abs(ta) + Math.abs(tb) + Math.abs(tc));
        int front = (det > 0 ? 1 : 0) & (tt > bound ? 1 : 0);
        int back = (det < 0 ? 1 : 0) & (tt < -bound ? 1 : 0);
        if (((1 - (neg & pos)) & (front | back)) == 1) {
            double dist = tt / det;
            if (dist > 0) {
                result = dist;
            }
        }
        return result;
    }

    /**
     * The entry or exit distance of a ray at one slab face, (face - o)·(1/d); 0·∞ (a ray parallel to the slab
     * starting in its face) gives NaN, which {@link #trace} ignores, as pbrt's slab test does.
     */
    static float slab(float face, float o, float inv) {
        return (face - o) * inv;
    }

    /**
     * Traces the ray (o, d) for t in (0, tMax] through the tree (stack-based traversal as in pbrt §4.4.5 and Wald's
     * thesis): returns the closest triangle hit or -1; its distance goes to {@code hitT[slot]} (tMax when nothing
     * is hit); the nodes visited and triangles tested are added to {@code counts[3·slot]} and
     * {@code counts[3·slot+1]}, and one ray to {@code counts[3·slot+2]}.
     */
    public static int trace(float[] split, int[] info, int[] leafTris, float[] tri, float[] bounds, float ox, float oy,
            float oz, float dx, float dy, float dz, float tMax, double[] hitT, int slot, int[] counts) {
        float ix = (float) (1.0 / dx);
        float iy = (float) (1.0 / dy);
        float iz = (float) (1.0 / dz);
        // the scene box: [t0, t1], slab by slab (a slab with a NaN distance does not bound the ray)
        float ax = slab(bounds[0], ox, ix);
        float bx = slab(bounds[3], ox, ix);
        float ay = slab(bounds[1], oy, iy);
        float by = slab(bounds[4], oy, iy);
        float az = slab(bounds[2], oz, iz);
        float bz = slab(bounds[5], oz, iz);
        int okx = (ax == ax ? 1 : 0) & (bx == bx ? 1 : 0);
        int oky = (ay == ay ? 1 : 0) & (by == by ? 1 : 0);
        int okz = (az == az ? 1 : 0) & (bz == bz ? 1 : 0);
        float lx = ax < bx ? ax : bx;
        float hx = ax < bx ? bx : ax;
        float ly = ay < by ? ay : by;
        float hy = ay < by ? by : ay;
        float lz = az < bz ? az : bz;
        float hz = az < bz ? bz : az;
        float t0 = 0f;
        float t1 = tMax;
        t0 = (okx & (lx > t0 ? 1 : 0)) == 1 ? lx : t0;
        t0 = (oky & (ly > t0 ? 1 : 0)) == 1 ? ly : t0;
        t0 = (okz & (lz > t0 ? 1 : 0)) == 1 ? lz : t0;
        t1 = (okx & (hx < t1 ? 1 : 0)) == 1 ? hx : t1;
        t1 = (oky & (hy < t1 ? 1 : 0)) == 1 ? hy : t1;
        t1 = (okz & (hz < t1 ? 1 : 0)) == 1 ? hz : t1;
        int[] k = new int[3];
        float[] s = new float[3];
        shear(dx, dy, dz, k, s);
        return traverse(split, info, leafTris, tri, ox, oy, oz, dx, dy, dz, ix, iy, iz, k[0], k[1], k[2], s[0], s[1], s[2],
                t0, t1, tMax, hitT, slot, counts);
    }

    /**
     * The shear of the watertight test (Woop et al., Fig. 2) for direction d: the axes (kx, ky, kz) into k (kz the
     * largest |d|; kx, ky swapped when d_kz is negative, to keep the winding), (sx, sy, sz) into s.
     */
    static void shear(float dx, float dy, float dz, int[] k, float[] s) {
        int kz = maxDim(dx, dy, dz);
        int kx = kz + 1;
        if (kx == 3) {
            kx = 0;
        }
        int ky = kx + 1;
        if (ky == 3) {
            ky = 0;
        }
        float dkz = comp(dx, dy, dz, kz);
        if (dkz < 0) {
            int tmp = kx;
            kx = ky;
            ky = tmp;
        }
        k[0] = kx;
        k[1] = ky;
        k[2] = kz;
        s[0] = (float) (comp(dx, dy, dz, kx) / (double) dkz);
        s[1] = (float) (comp(dx, dy, dz, ky) / (double) dkz);
        s[2] = (float) (1.0 / dkz);
    }

    /**
     * The traversal loop of {@link #trace} for the ray with origin o, direction d and reciprocal direction i whose
     * shear and scene-box interval [t0, t1] are known. One loop; an iteration visits a node: an inner node descends
     * to its near child, pushing the far one (with its interval) when the ray reaches it; a leaf tests its triangles
     * and pops the next node that starts before the best hit (with a slack of a few float ulps: a hit computed in
     * double on the plane that bounds a node may lie just before the node's rounded entry distance). The search
     * ends when the stack is empty. (Entry distances do not always decrease towards the top: a ray lying in a
     * plane pushes the far child with the current entry distance, so every entry is checked.) Float comparisons
     * only set 0/1 int flags, combined with {@code &} and {@code |}, and the state is updated by selects on them, the
     * form TornadoVM 5.2 compiles correctly; the stack writes are unconditional (the slot above the top is free).
     * The stack needs one entry per level of the tree (at most {@link #STACK}, the builders' depth limit).
     */
    static int traverse(float[] split, int[] info, int[] leafTris, float[] tri, float ox, float oy, float oz, float dx,
            float dy, float dz, float ix, float iy, float iz, int kx, int ky, int kz, float sx, float sy, float sz,
            float t0, float t1, float tMax, double[] hitT, int slot, int[] counts) {
        int[] stNode = new int[STACK + 1];
        float[] stMin = new float[STACK + 1];
        float[] stMax = new float[STACK + 1];
        float okx = comp(ox, oy, oz, kx);
        float oky = comp(ox, oy, oz, ky);
        float okz = comp(ox, oy, oz, kz);
        int sp = 0;
        double best = tMax;
        int bestId = -1;
        int nodes = 0;
        int tests = 0;
        int node = 0;
        float tmin = t0;
        float tmax = t1;
        int live = t0 > t1 ? 0 : 1;
        while (live != 0) {
            int inf = info[node];
            nodes++;
            int k = inf & 3;
            if (k != 3) {
                float o = comp(ox, oy, oz, k);
                float d = comp(dx, dy, dz, k);
                float xi = split[node];
                float tp = (xi - o) * comp(ix, iy, iz, k);
                int on = o == xi ? 1 : 0;
                int below = (o < xi ? 1 : 0) | (on & (d <= 0 ? 1 : 0));
                int near = node + 1;
                int far = inf >>> 2;
                int first = below * near + (1 - below) * far;
                int second = below * far + (1 - below) * near;
                // the ray lies in the plane: both children over the same interval
                int inPlane = on & (d == 0 ? 1 : 0);
                int crosses = (tp <= tmax ? 1 : 0) & (tp > 0 ? 1 : 0);
                int beforeMin = tp < tmin ? 1 : 0;
                // the far child is visited after the near one: push it; the plane is crossed before the interval
                // starts: only the far child
                int push = inPlane | (crosses & (1 - beforeMin));
                int skip = (1 - inPlane) & crosses & beforeMin;
                stNode[sp] = second;
                stMin[sp] = inPlane == 1 ? tmin : tp;
                stMax[sp] = tmax;
                sp += push;
                tmax = (push & (1 - inPlane)) == 1 ? tp : tmax;
                node = skip * second + (1 - skip) * first;
            } else {
                int at = inf >>> 2;
                int m = leafTris[at];
                for (int j = 0; j < m; j++) {
                    int t = leafTris[at + 1 + j];
                    double h = intersect(tri, t, okx, oky, okz, kx, ky, kz, sx, sy, sz);
                    tests++;
                    // closest hit in (0, tMax], ties to the smaller index
                    int tie = (h == best ? 1 : 0) & ((bestId < 0 ? 1 : 0) | (t < bestId ? 1 : 0));
                    int better = (h > 0 ? 1 : 0) & ((h < best ? 1 : 0) | tie);
                    best = better == 1 ? h : best;
                    bestId = better * t + (1 - better) * bestId;
                }
                // pop the next node that may hold a hit as close as the best (a tie may still win by its index)
                int found = 0;
                while (((sp > 0 ? 1 : 0) & (1 - found)) == 1) {
                    sp--;
                    found = stMin[sp] <= best * SLACK ? 1 : 0;
                }
                node = stNode[sp];
                tmin = stMin[sp];
                tmax = stMax[sp];
                live = found;
            }
        }
        hitT[slot] = best;
        counts[COUNTS * slot] += nodes;
        counts[COUNTS * slot + 1] += tests;
        counts[COUNTS * slot + 2] += 1;
        return bestId;
    }

    /** The closest hit of the ray over all n triangles (the oracle), with {@link #trace}'s tie rule. */
    public static int bruteForce(float[] tri, int n, float ox, float oy, float oz, float dx, float dy, float dz,
            float tMax, double[] hitT, int slot) {
        int[] k = new int[3];
        float[] s = new float[3];
        shear(dx, dy, dz, k, s);
        double best = Double.POSITIVE_INFINITY;  // brute force runs on the host only
        int bestId = -1;
        for (int t = 0; t < n; t++) {
            double h = intersect(tri, t, comp(ox, oy, oz, k[0]), comp(ox, oy, oz, k[1]), comp(ox, oy, oz, k[2]), k[0], k[1],
                    k[2], s[0], s[1], s[2]);
            if (h > 0 && h <= tMax && h < best) {
                best = h;
                bestId = t;
            }
        }
        hitT[slot] = best;
        return bestId;
    }

    /**
     * The pixel of work-item i: the image is cut into bands of 4 rows and each band into tiles of 8 columns (the
     * last band and tile may be smaller), work-items go tile by tile, row by row inside a tile. 32 neighbouring
     * work-items (a GPU warp) then trace an 8×4 block of pixels, whose rays take similar paths through the tree
     * (less divergence than a run of 32 pixels of one row). A bijection of [0, w·h); every step of a render maps
     * its work-item the same way, so the jvm loop that runs all steps per work-item stays consistent.
     */
    public static int pixel(int w, int h, int i) {
        int band = i / (4 * w);
        int y0 = 4 * band;
        int bh = Math.min(4, h - y0);
        int r = i - y0 * w;
        int c = r / (8 * bh);
        int q = r - c * 8 * bh;
        int cw = Math.min(8, w - 8 * c);
        return (y0 + q / cw) * w + 8 * c + q % cw;
    }

    /**
     * The closest hit of ray i of {@code rays} ({@link #RAY_FLOATS} floats per ray) for t in (0, tMax]: the triangle
     * into {@code hitId[i]} (-1: none), its distance into {@code hitT[i]} (tMax: none); {@code counts[3i ..]} its
     * work ({@link #trace}). The kernel of the embeddable trace graph (render.tornado.RenderTaskGraphs#trace).
     */
    public static void closestHit(float[] split, int[] info, int[] leafTris, float[] tri, float[] bounds, float[] rays, int i,
            int[] hitId, double[] hitT, int[] counts) {
        int o = RAY_FLOATS * i;
        counts[COUNTS * i] = 0;
        counts[COUNTS * i + 1] = 0;
        counts[COUNTS * i + 2] = 0;
        hitId[i] = trace(split, info, leafTris, tri, bounds, rays[o], rays[o + 1], rays[o + 2], rays[o + 3], rays[o + 4],
                rays[o + 5], rays[o + 6], hitT, i, counts);
    }

    /**
     * The primary ray of work-item i0's pixel i ({@link #pixel}) (row-major, y down) from the pinhole camera: d = F + s_x·R + s_y·U with s in
     * (-1, 1), traced up to {@code cam[FAR]} (+∞); its hit goes to {@code hitId[i]} and {@code hitT[i]} (+∞: none).
     */
    public static void primary(float[] split, int[] info, int[] leafTris, float[] tri, float[] bounds, float[] cam,
            int[] params, int i0, int[] hitId, double[] hitT, int[] counts) {
        int w = params[WIDTH];
        int h = params[HEIGHT];
        int i = pixel(w, h, i0);
        int px = i % w;
        int py = i / w;
        float s = (float) ((2.0 * px + 1.0) / w - 1.0);
        float q = (float) (1.0 - (2.0 * py + 1.0) / h);
        float dx = (float) (cam[FORWARD] + (double) s * cam[RIGHT] + (double) q * cam[UP]);
        float dy = (float) (cam[FORWARD + 1] + (double) s * cam[RIGHT + 1] + (double) q * cam[UP + 1]);
        float dz = (float) (cam[FORWARD + 2] + (double) s * cam[RIGHT + 2] + (double) q * cam[UP + 2]);
        counts[COUNTS * i] = 0;
        counts[COUNTS * i + 1] = 0;
        counts[COUNTS * i + 2] = 0;
        hitId[i] = trace(split, info, leafTris, tri, bounds, cam[EYE], cam[EYE + 1], cam[EYE + 2], dx, dy, dz,
                cam[FAR], hitT, i, counts);
    }

    /** Floats per pixel of the shading scratch array: unit normal, light factor, shadow-ray origin. */
    public static final int AUX = 7;

    /**
     * Shading, step 1, after {@link #primary}: the hit triangle's unit normal turned towards the eye, the light
     * factor 0.35 + 0.65·cos(angle to the light), and the shadow ray's origin (the hit point lifted off the surface
     * by {@code cam[SHADOW_EPS]}) into {@code aux[7i .. 7i+6]}.
     */
    public static void surface(float[] tri, float[] cam, int[] params, int i0, int[] hitId, double[] hitT, float[] aux) {
        int i = pixel(params[WIDTH], params[HEIGHT], i0);
        int id = hitId[i];
        if (id >= 0) {
            int w = params[WIDTH];
            int h = params[HEIGHT];
            float s = (float) ((2.0 * (i % w) + 1.0) / w - 1.0);
            float q = (float) (1.0 - (2.0 * (i / w) + 1.0) / h);
            float dx = (float) (cam[FORWARD] + (double) s * cam[RIGHT] + (double) q * cam[UP]);
            float dy = (float) (cam[FORWARD + 1] + (double) s * cam[RIGHT + 1] + (double) q * cam[UP + 1]);
            float dz = (float) (cam[FORWARD + 2] + (double) s * cam[RIGHT + 2] + (double) q * cam[UP + 2]);
            int b = 9 * id;
            // the normal, from float edge vectors (double products of floats are exact)
            float ux = tri[b + 3] - tri[b];
            float uy = tri[b + 4] - tri[b + 1];
            float uz = tri[b + 5] - tri[b + 2];
            float vx = tri[b + 6] - tri[b];
            float vy = tri[b + 7] - tri[b + 1];
            float vz = tri[b + 8] - tri[b + 2];
            double nx = (double) uy * vz - (double) uz * vy;
            double ny = (double) uz * vx - (double) ux * vz;
            double nz = (double) ux * vy - (double) uy * vx;
            double len = Math.sqrt(nx * nx + ny * ny + nz * nz);
            if (nx * dx + ny * dy + nz * dz > 0) {
                len = -len;
            }
            nx = nx / len;
            ny = ny / len;
            nz = nz / len;
            double t = hitT[i];
            double hx = cam[EYE] + t * dx;
            double hy = cam[EYE + 1] + t * dy;
            double hz = cam[EYE + 2] + t * dz;
            double lx = cam[LIGHT] - hx;
            double ly = cam[LIGHT + 1] - hy;
            double lz = cam[LIGHT + 2] - hz;
            double lambert = (nx * lx + ny * ly + nz * lz) / Math.sqrt(lx * lx + ly * ly + lz * lz);
            if (lambert < 0) {
                lambert = 0;
            }
            double eps = cam[SHADOW_EPS];
            aux[AUX * i] = (float) nx;
            aux[AUX * i + 1] = (float) ny;
            aux[AUX * i + 2] = (float) nz;
            aux[AUX * i + 3] = (float) (0.35 + 0.65 * lambert);
            aux[AUX * i + 4] = (float) (hx + eps * nx);
            aux[AUX * i + 5] = (float) (hy + eps * ny);
            aux[AUX * i + 6] = (float) (hz + eps * nz);
        }
    }

    /**
     * Shading, step 2 (when {@code params[SHADOWS]}): a lit hit whose shadow ray to the light meets a triangle gets
     * the ambient light factor 0.35 only.
     */
    public static void shadow(float[] split, int[] info, int[] leafTris, float[] tri, float[] bounds, float[] cam,
            int[] params, int i0, int[] hitId, double[] shadowT, int[] counts, float[] aux) {
        int i = pixel(params[WIDTH], params[HEIGHT], i0);
        if (((params[SHADOWS] != 0 ? 1 : 0) & (hitId[i] >= 0 ? 1 : 0) & (aux[AUX * i + 3] > 0.35f ? 1 : 0)) == 1) {
            float ox = aux[AUX * i + 4];
            float oy = aux[AUX * i + 5];
            float oz = aux[AUX * i + 6];
            int blocker = trace(split, info, leafTris, tri, bounds, ox, oy, oz, cam[LIGHT] - ox, cam[LIGHT + 1] - oy,
                    cam[LIGHT + 2] - oz, 1f, shadowT, i, counts);
            if (blocker >= 0) {
                aux[AUX * i + 3] = 0.35f;
            }
        }
    }

    /** Shading, step 3: the unit normal mapped to RGB times the light factor; background black. */
    public static void colour(int[] params, int i0, int[] hitId, float[] aux, int[] rgb) {
        int i = pixel(params[WIDTH], params[HEIGHT], i0);
        int c = 0;
        if (hitId[i] >= 0) {
            double light = aux[AUX * i + 3];
            int red = (int) (255 * light * (0.5 + 0.5 * aux[AUX * i]));
            int green = (int) (255 * light * (0.5 + 0.5 * aux[AUX * i + 1]));
            int blue = (int) (255 * light * (0.5 + 0.5 * aux[AUX * i + 2]));
            c = (red << 16) | (green << 8) | blue;
        }
        rgb[i] = c;
    }
}
