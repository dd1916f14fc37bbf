package org.accelgeom.terrain;

import org.accelgeom.cbt.CbtKernels;

/**
 * Element kernels of the CBT terrain (Dupuy 2020's LEB application; the CBT article only names it): the
 * level-of-detail criterion from a camera and a heightmap, the conforming split, the diamond merge and the
 * emission of a leaf's triangle. Shared by every backend (TornadoVM subset: booleans are combined as 0/1 ints,
 * see {@link CbtKernels#wantsSplitFlag}).
 *
 * <p>The world: the unit square scaled to {@code cam[SIZE]} metres in x and y, heights {@code h[nx·ny]} (row
 * major, row y) sampled bilinearly and scaled by {@code cam[Z_SCALE]}.
 *
 * <p><b>Bit updates with atomic add only.</b> A conforming split also splits the chain of base neighbours
 * (Dupuy's {@code leb_SplitNode}); several leaves may need the same node split in one pass, so the article's
 * idempotent atomic OR is replaced by two passes: {@link #markSplit} stores 1 in a per-bit flag array (writers of
 * one flag all store the same value), then {@link #applyFlags} lets the single owner of each bitfield word OR
 * its 32 flags in and clear them. A merge clears only the merging right child's own bit, which no other
 * work-item touches, so it is an atomic add of −2^b (see {@link CbtKernels}).
 */
public final class TerrainKernels {

    public static final int CX = 0;
    public static final int CY = 1;
    public static final int CZ = 2;
    public static final int DX = 3;
    public static final int DY = 4;
    public static final int DZ = 5;
    /** Pixels per unit of (size / distance): screen height / (2 tan(fov/2)). */
    public static final int PIXEL_SCALE = 6;
    /** Target size in pixels of a triangle's longest edge. */
    public static final int TARGET = 7;
    public static final int SIZE = 8;
    public static final int Z_SCALE = 9;
    public static final int CAMERA_FLOATS = 10;

    private TerrainKernels() {
    }

    /** Bilinear height at (u, v) in the unit square, in grid units (clamped to the grid). */
    public static float height(float[] h, int nx, int ny, float u, float v) {
        float gx = Math.min(Math.max(u, 0f), 1f) * (nx - 1);
        float gy = Math.min(Math.max(v, 0f), 1f) * (ny - 1);
        int x0 = Math.min((int) gx, nx - 2 < 0 ? 0 : nx - 2);
        int y0 = Math.min((int) gy, ny - 2 < 0 ? 0 : ny - 2);
        int x1 = Math.min(x0 + 1, nx - 1);
        int y1 = Math.min(y0 + 1, ny - 1);
        float fx = gx - x0;
        float fy = gy - y0;
        float a = h[y0 * nx + x0] * (1 - fx) + h[y0 * nx + x1] * fx;
        float b = h[y1 * nx + x0] * (1 - fx) + h[y1 * nx + x1] * fx;
        return a * (1 - fy) + b * fy;
    }

    /**
     * Projected size in pixels of node k's longest edge (its base) seen from the camera: 3D base length over the
     * distance to the triangle's centre, times the pixel scale; 0 when the triangle lies wholly behind the camera.
     */
    public static float pixels(float[] h, int nx, int ny, float[] cam, int k) {
        float[] t = new float[6];
        LebKernels.vertices(k, t, 0);
        float s = cam[SIZE];
        float zs = cam[Z_SCALE];
        float x0 = t[0] * s;
        float y0 = t[1] * s;
        float z0 = height(h, nx, ny, t[0], t[1]) * zs;
        float x1 = t[2] * s;
        float y1 = t[3] * s;
        float z1 = height(h, nx, ny, t[2], t[3]) * zs;
        float x2 = t[4] * s;
        float y2 = t[5] * s;
        float z2 = height(h, nx, ny, t[4], t[5]) * zs;
        float bx = x2 - x0;
        float by = y2 - y0;
        float bz = z2 - z0;
        float base = (float) Math.sqrt(bx * bx + by * by + bz * bz);
        float cx = (x0 + x1 + x2) / 3 - cam[CX];
        float cy = (y0 + y1 + y2) / 3 - cam[CY];
        float cz = (z0 + z1 + z2) / 3 - cam[CZ];
        float dist = (float) Math.sqrt(cx * cx + cy * cy + cz * cz);
        float ahead = cx * cam[DX] + cy * cam[DY] + cz * cam[DZ];
        float visible = ahead > -base ? 1f : 0f;
        return visible * base / Math.max(dist, 1e-6f * s) * cam[PIXEL_SCALE];
    }

    /** 1 when leaf k wants to split: above depth D and larger than the target on screen. */
    public static int wantsSplit(float[] h, int nx, int ny, float[] cam, int D, int k) {
        return (CbtKernels.depth(k) < D ? 1 : 0) & (pixels(h, nx, ny, cam, k) > cam[TARGET] ? 1 : 0);
    }

    /** The bitfield bit whose setting splits node n: the bit of its right child 2n + 1. */
    public static int splitBit(int D, int n) {
        return CbtKernels.bitElement(D, 2 * n + 1) - (1 << D);
    }

    /**
     * Conforming split of leaf k (Dupuy's leb_SplitNode): split k, then walk the base neighbours: split the
     * same-depth base neighbour n, its parent, that parent's base neighbour, ... up to the root. Splits of nodes
     * already split set bits already set; a base neighbour still covered by a coarser leaf is refined in the same
     * pass by the split of its parent. Marks flags; {@link #applyFlags} writes them.
     */
    public static void markSplit(int[] flags, int D, int k) {
        flags[splitBit(D, k)] = 1;
        int n = LebKernels.neighbour(k, LebKernels.B);
        for (int i = 0; i < 2 * D; i++) {
            if (n > 1) {
                flags[splitBit(D, n)] = 1;
                n = n >> 1;
                if (n > 1) {
                    flags[splitBit(D, n)] = 1;
                    n = LebKernels.neighbour(n, LebKernels.B);
                }
            }
        }
    }

    /** The new value of bitfield word j (D ≥ 5): its old bits OR its 32 flags; clears the flags. */
    public static int applyFlags(int[] heap, int[] flags, int D, int j) {
        int w = (3 << (D - 5)) + j;
        int v = heap[w];
        for (int b = 0; b < 32; b++) {
            int f = flags[32 * j + b];
            v |= (f & 1) << b;
            flags[32 * j + b] = 0;
        }
        return v;
    }

    /**
     * 1 when leaf k, a right child, should clear its bit and so merge its parent p (a diamond merge): p is above
     * the root triangles, both children of p are leaves (p's count is 2), the same holds for p's base neighbour
     * q (or p lies on the boundary), and both p and q are below the target size. p's and q's right children
     * evaluate the same predicate, so both halves of the diamond merge together.
     */
    public static int mergeAction(int[] heap, int D, int packed, float[] h, int nx, int ny, float[] cam, int k) {
        int ok = mergeTopology(heap, D, packed, k);
        int small = mergeSmall(h, nx, ny, cam, Math.max(k >> 1, 2));
        return ok & small;
    }

    /** The topological half of {@link #mergeAction}: k is a right child, p = k/2 ≥ 2 has count 2, and so has q or q = 0. */
    public static int mergeTopology(int[] heap, int D, int packed, int k) {
        int p = k >> 1;
        int right = k & 1;
        int above = p >= 2 ? 1 : 0;
        int pSafe = Math.max(p, 2);
        int pPair = CbtKernels.read(heap, D, packed, pSafe) == 2 ? 1 : 0;
        int q = LebKernels.neighbour(pSafe, LebKernels.B);
        int boundary = q == 0 ? 1 : 0;
        int qPair = CbtKernels.read(heap, D, packed, Math.max(q, 2)) == 2 ? 1 : 0;
        return right & above & pPair & (boundary | qPair);
    }

    /** The level-of-detail half of {@link #mergeAction}: p and its base neighbour (if any) are below the target. */
    public static int mergeSmall(float[] h, int nx, int ny, float[] cam, int p) {
        int q = LebKernels.neighbour(p, LebKernels.B);
        int pSmall = pixels(h, nx, ny, cam, p) < cam[TARGET] ? 1 : 0;
        int qSmall = pixels(h, nx, ny, cam, Math.max(q, 2)) < cam[TARGET] ? 1 : 0;
        return pSmall & ((q == 0 ? 1 : 0) | qSmall);
    }

    /** The triangle of node k in world coordinates: 9 floats x, y, z per vertex at out[o..o+8]. */
    public static void emit(float[] h, int nx, int ny, float[] cam, int k, float[] out, int o) {
        float[] t = new float[6];
        LebKernels.vertices(k, t, 0);
        float s = cam[SIZE];
        float zs = cam[Z_SCALE];
        for (int i = 0; i < 3; i++) {
            float u = t[2 * i];
            float v = t[2 * i + 1];
            out[o + 3 * i] = u * s;
            out[o + 3 * i + 1] = v * s;
            out[o + 3 * i + 2] = height(h, nx, ny, u, v) * zs;
        }
    }
}
