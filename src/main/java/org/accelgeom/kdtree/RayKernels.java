package org.accelgeom.kdtree;

/**
 * Element kernels of the ray caster: stack-based kd-tree traversal with a short fixed stack per ray, watertight
 * ray–triangle intersection (Woop, Benthin &amp; Wald, "Watertight Ray/Triangle Intersection", JCGT 2013), pinhole
 * primary rays, shadow rays and shading. In the TornadoVM subset; one work-item per pixel.
 *
 * <p>Reproducibility: every result is the same on any IEEE-754 machine whether or not its compiler fuses
 * multiply-adds: float quantities are single operations or sums of float×float products formed exactly in double
 * and rounded once; the intersection's edge functions are exact-product differences in double, so their signs
 * are exact for the sheared vertices (which makes the test watertight without Woop's double fall-back). Only the
 * hit distance T/det may differ in its last bits where a device fuses U·A_z + V·B_z + W·C_z.
 *
 * <p>Closest hit: smallest t &gt; 0 (up to tMax), ties to the smaller triangle index, the same rule as
 * {@link #bruteForce}.
 */
public final class RayKernels {

    public static final int STACK = KdTreeKernels.STACK_SIZE;

    /** Layout of the camera array. */
    public static final int EYE = 0;
    public static final int FORWARD = 3;
    public static final int RIGHT = 6;
    public static final int UP = 9;
    public static final int LIGHT = 12;
    public static final int SHADOW_EPS = 15;
    public static final int CAMERA_FLOATS = 16;

    /** Layout of the int parameter array. */
    public static final int WIDTH = 0;
    public static final int HEIGHT = 1;
    public static final int SHADOWS = 2;
    public static final int PARAMS = 4;

    /** Counters per pixel: nodes visited, triangles tested, rays traced. */
    public static final int COUNTS = 3;

    /** Relative slack of the comparison of a node's entry distance (float) with the best hit (double). */
    static final double SLACK = 1.0 + 1e-6;

    private RayKernels() {
    }

    static float comp(float x, float y, float z, int k) {
        float r = x;
        if (k == 1) {
            r = y;
        }
        if (k == 2) {
            r = z;
        }
        return r;
    }

    /** The axis of the largest |d| (z on ties, as Woop's max_dim does from x upwards). */
    static int maxDim(float dx, float dy, float dz) {
        float ax = Math.abs(dx);
        float ay = Math.abs(dy);
        float az = Math.abs(dz);
        int k = 2;
        if (ax > ay && ax > az) {
            k = 0;
        }
        if (ay >= ax && ay > az) {
            k = 1;
        }
        return k;
    }

    /**
     * Watertight intersection of the ray (o, d) with triangle t (Woop et al. 2013, Fig. 2/3): the distance t &gt; 0
     * of the hit in units of |d|, or +∞ when it misses; kz is the dominant axis of d, kx/ky the other two
     * (swapped when d[kz] &lt; 0 to keep the winding), s = (d[kx]/d[kz], d[ky]/d[kz], 1/d[kz]) the shear.
     */
    static double intersect(float[] tri, int t, float ox, float oy, float oz, int kx, int ky, int kz, float sx, float sy,
            float sz) {
        int b = 9 * t;
        float ax = tri[b] - ox;
        float ay = tri[b + 1] - oy;
        float az = tri[b + 2] - oz;
        float bx = tri[b + 3] - ox;
        float by = tri[b + 4] - oy;
        float bz = tri[b + 5] - oz;
        float cx = tri[b + 6] - ox;
        float cy = tri[b + 7] - oy;
        float cz = tri[b + 8] - oz;
        float akz = comp(ax, ay, az, kz);
        float bkz = comp(bx, by, bz, kz);
        float ckz = comp(cx, cy, cz, kz);
        // shear and scale of the vertices (eq. 4 of the paper)
        float sAx = (float) (comp(ax, ay, az, kx) - (double) sx * akz);
        float sAy = (float) (comp(ax, ay, az, ky) - (double) sy * akz);
        float sBx = (float) (comp(bx, by, bz, kx) - (double) sx * bkz);
        float sBy = (float) (comp(bx, by, bz, ky) - (double) sy * bkz);
        float sCx = (float) (comp(cx, cy, cz, kx) - (double) sx * ckz);
        float sCy = (float) (comp(cx, cy, cz, ky) - (double) sy * ckz);
        // scaled barycentric coordinates: 2D edge functions, exact products in double
        double u = (double) sCx * sBy - (double) sCy * sBx;
        double v = (double) sAx * sCy - (double) sAy * sCx;
        double w = (double) sBx * sAy - (double) sBy * sAx;
        double result = Double.POSITIVE_INFINITY;
        boolean neg = u < 0 || v < 0 || w < 0;
        boolean pos = u > 0 || v > 0 || w > 0;
        double det = u + v + w;
        if (!(neg && pos) && det != 0) {
            double tt = u * ((double) sz * akz) + v * ((double) sz * bkz) + w * ((double) sz * ckz);
            double dist = tt / det;
            if (dist > 0) {
                result = dist;
            }
        }
        return result;
    }

    /**
     * Traces the ray (o, d) for t in (0, tMax] through the tree (stack-based traversal as in pbrt §4.4.5 and Wald's
     * thesis): returns the closest triangle hit or -1; its distance goes to {@code hitT[slot]}; the nodes visited
     * and triangles tested are added to {@code counts[3·slot]} and {@code counts[3·slot+1]}, and one ray to
     * {@code counts[3·slot+2]}.
     */
    public static int trace(float[] split, int[] info, int[] leafTris, float[] tri, float[] bounds, float ox, float oy,
            float oz, float dx, float dy, float dz, float tMax, double[] hitT, int slot, int[] counts) {
        float ix = (float) (1.0 / dx);
        float iy = (float) (1.0 / dy);
        float iz = (float) (1.0 / dz);
        // the scene box: [t0, t1]
        float t0 = 0f;
        float t1 = tMax;
        for (int k = 0; k < 3; k++) {
            float o = comp(ox, oy, oz, k);
            float inv = comp(ix, iy, iz, k);
            float tn = (bounds[k] - o) * inv;
            float tf = (bounds[3 + k] - o) * inv;
            float lo = Math.min(tn, tf);
            float hi = Math.max(tn, tf);
            if (lo > t0) {
                t0 = lo;
            }
            if (hi < t1) {
                t1 = hi;
            }
        }
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
        float sx = (float) (comp(dx, dy, dz, kx) / (double) dkz);
        float sy = (float) (comp(dx, dy, dz, ky) / (double) dkz);
        float sz = (float) (1.0 / dkz);

        int[] stNode = new int[STACK];
        float[] stMin = new float[STACK];
        float[] stMax = new float[STACK];
        int sp = 0;
        double best = Double.POSITIVE_INFINITY;
        int bestId = -1;
        int nodes = 0;
        int tests = 0;
        int node = 0;
        float tmin = t0;
        float tmax = t1;
        boolean active = t0 <= t1;
        while (active) {
            int inf = info[node];
            nodes++;
            if ((inf & 3) != 3) {
                int k = inf & 3;
                float o = comp(ox, oy, oz, k);
                float d = comp(dx, dy, dz, k);
                float xi = split[node];
                float tp = (xi - o) * comp(ix, iy, iz, k);
                boolean belowFirst = o < xi || (o == xi && d <= 0);
                int first = node + 1;
                int second = inf >>> 2;
                if (!belowFirst) {
                    first = inf >>> 2;
                    second = node + 1;
                }
                if (o == xi && d == 0) {
                    // the ray lies in the plane: both children
                    stNode[sp] = second;
                    stMin[sp] = tmin;
                    stMax[sp] = tmax;
                    sp++;
                    node = first;
                } else if (tp > tmax || tp <= 0) {
                    node = first;
                } else if (tp < tmin) {
                    node = second;
                } else {
                    stNode[sp] = second;
                    stMin[sp] = tp;
                    stMax[sp] = tmax;
                    sp++;
                    node = first;
                    tmax = tp;
                }
            } else {
                int at = inf >>> 2;
                int m = leafTris[at];
                for (int j = 0; j < m; j++) {
                    int t = leafTris[at + 1 + j];
                    double h = intersect(tri, t, ox, oy, oz, kx, ky, kz, sx, sy, sz);
                    tests++;
                    if (h <= tMax && (h < best || (h == best && t < bestId))) {
                        best = h;
                        bestId = t;
                    }
                }
                // pop the next node that may hold a hit as close as the best (a tie may still win by its index);
                // nodes pushed front to back start at or after this leaf's end, so a hit before it ends the search.
                // The nodes' float entry distances are compared with a slack of a few float ulps: a hit computed in
                // double on the plane that bounds a node may lie just before the node's rounded entry distance
                boolean searching = true;
                while (searching) {
                    if (sp == 0) {
                        active = false;
                        searching = false;
                    } else {
                        sp--;
                        node = stNode[sp];
                        tmin = stMin[sp];
                        tmax = stMax[sp];
                        if (tmin <= best * SLACK) {
                            searching = false;
                        }
                    }
                }
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
        int kz = maxDim(dx, dy, dz);
        int kx = (kz + 1) % 3;
        int ky = (kx + 1) % 3;
        float dkz = comp(dx, dy, dz, kz);
        if (dkz < 0) {
            int tmp = kx;
            kx = ky;
            ky = tmp;
        }
        float sx = (float) (comp(dx, dy, dz, kx) / (double) dkz);
        float sy = (float) (comp(dx, dy, dz, ky) / (double) dkz);
        float sz = (float) (1.0 / dkz);
        double best = Double.POSITIVE_INFINITY;
        int bestId = -1;
        for (int t = 0; t < n; t++) {
            double h = intersect(tri, t, ox, oy, oz, kx, ky, kz, sx, sy, sz);
            if (h <= tMax && h < best) {
                best = h;
                bestId = t;
            }
        }
        hitT[slot] = best;
        return bestId;
    }

    /**
     * One pixel: the primary ray of pixel i (row-major, y down) from the pinhole camera (d = F + s_x·R + s_y·U with
     * s in (-1, 1)), its hit, an optional shadow ray to the point light, and the colour: the surface normal mapped
     * to RGB, dimmed in shadow and by the angle to the light; background black.
     */
    public static void pixel(float[] split, int[] info, int[] leafTris, float[] tri, float[] bounds, float[] cam,
            int[] params, int i, int[] hitId, double[] hitT, int[] counts, int[] rgb) {
        int w = params[WIDTH];
        int h = params[HEIGHT];
        int px = i % w;
        int py = i / w;
        float s = (float) ((2.0 * px + 1.0) / w - 1.0);
        float q = (float) (1.0 - (2.0 * py + 1.0) / h);
        float dx = (float) (cam[FORWARD] + (double) s * cam[RIGHT] + (double) q * cam[UP]);
        float dy = (float) (cam[FORWARD + 1] + (double) s * cam[RIGHT + 1] + (double) q * cam[UP + 1]);
        float dz = (float) (cam[FORWARD + 2] + (double) s * cam[RIGHT + 2] + (double) q * cam[UP + 2]);
        float ox = cam[EYE];
        float oy = cam[EYE + 1];
        float oz = cam[EYE + 2];
        counts[COUNTS * i] = 0;
        counts[COUNTS * i + 1] = 0;
        counts[COUNTS * i + 2] = 0;
        int id = trace(split, info, leafTris, tri, bounds, ox, oy, oz, dx, dy, dz, Float.POSITIVE_INFINITY, hitT, i, counts);
        hitId[i] = id;
        int colour = 0;
        if (id >= 0) {
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
            nx = nx / len;
            ny = ny / len;
            nz = nz / len;
            if (nx * dx + ny * dy + nz * dz > 0) {
                nx = -nx;
                ny = -ny;
                nz = -nz;
            }
            double t = hitT[i];
            double hx = ox + t * dx;
            double hy = oy + t * dy;
            double hz = oz + t * dz;
            double lx = cam[LIGHT] - hx;
            double ly = cam[LIGHT + 1] - hy;
            double lz = cam[LIGHT + 2] - hz;
            double ll = Math.sqrt(lx * lx + ly * ly + lz * lz);
            double lambert = (nx * lx + ny * ly + nz * lz) / ll;
            if (lambert < 0) {
                lambert = 0;
            }
            double light = 0.35 + 0.65 * lambert;
            if (params[SHADOWS] != 0 && lambert > 0) {
                double eps = cam[SHADOW_EPS];
                float sox = (float) (hx + eps * nx);
                float soy = (float) (hy + eps * ny);
                float soz = (float) (hz + eps * nz);
                int blocker = trace(split, info, leafTris, tri, bounds, sox, soy, soz, (float) (cam[LIGHT] - sox),
                        (float) (cam[LIGHT + 1] - soy), (float) (cam[LIGHT + 2] - soz), 1f, hitT, i, counts);
                hitT[i] = t;
                if (blocker >= 0) {
                    light = 0.35;
                }
            }
            int r = (int) (255 * light * (0.5 + 0.5 * nx));
            int g = (int) (255 * light * (0.5 + 0.5 * ny));
            int bl = (int) (255 * light * (0.5 + 0.5 * nz));
            colour = (r << 16) | (g << 8) | bl;
        }
        rgb[i] = colour;
    }
}
