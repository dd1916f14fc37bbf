package org.accelgeom.hull;

/**
 * Face planes for the filtered tests of {@link HullKernels}, computed on the host in double.
 *
 * <p>For a face (a, b, c) with u = b − a, v = c − a and n = u × v, the kernel evaluates
 * {@code s = n̂·p − n̂·a} with the computed unit normal n̂'. Its distance from the true signed distance is at
 * most (η + 7ε)(|p|₁ + |a|₁), where ε = 2⁻⁵³ and η ≤ 15ε|u||v|/|n| + 3ε bounds the direction error of n̂'
 * (rounding of u, v, the cross product and the normalisation). We store {@code beta = 2(η + 8ε)}: a factor two
 * of safety. When the sign of s is not certain under that bound the host decides exactly. A face whose
 * computed normal vanishes gets an infinite bound: every test against it is left to the host.
 */
public final class FacePlanes {

    private static final double EPS = 0x1p-53;

    private FacePlanes() {
    }

    /** Writes the plane of face (a, b, c) to {@code plane[6*slot ..]}. */
    public static void compute(double[] x, double[] y, double[] z, int a, int b, int c, double[] plane, int slot) {
        compute(x[a], y[a], z[a], x[b], y[b], z[b], x[c], y[c], z[c], plane, slot);
    }

    /** Writes the plane of the face with corners (ax, ay, az), (bx, by, bz), (cx, cy, cz) to {@code plane[6*slot ..]}. */
    public static void compute(double ax, double ay, double az, double bx, double by, double bz, double cx, double cy,
            double cz, double[] plane, int slot) {
        double ux = bx - ax, uy = by - ay, uz = bz - az; // the edges a->b and a->c
        double vx = cx - ax, vy = cy - ay, vz = cz - az;
        double nx = uy * vz - uz * vy;
        double ny = uz * vx - ux * vz;
        double nz = ux * vy - uy * vx;
        double len = Math.sqrt(nx * nx + ny * ny + nz * nz);
        int o = HullKernels.PLANE_STRIDE * slot;
        double a1 = Math.abs(ax) + Math.abs(ay) + Math.abs(az);
        if (!(len > 0) || !Double.isFinite(len)) {
            plane[o] = 0;
            plane[o + 1] = 0;
            plane[o + 2] = 0;
            plane[o + 3] = 0;
            plane[o + 4] = Double.POSITIVE_INFINITY;
            plane[o + 5] = a1;
            return;
        }
        nx /= len;
        ny /= len;
        nz /= len;
        double lu = Math.sqrt(ux * ux + uy * uy + uz * uz);
        double lv = Math.sqrt(vx * vx + vy * vy + vz * vz);
        double eta = 16 * EPS * (lu * lv / len) + 4 * EPS;
        plane[o] = nx;
        plane[o + 1] = ny;
        plane[o + 2] = nz;
        plane[o + 3] = nx * ax + ny * ay + nz * az;
        plane[o + 4] = 2 * (eta + 8 * EPS);
        plane[o + 5] = a1;
    }

    /** The kernel's signed distance of point p to the plane in {@code slot}, as {@link HullKernels} computes it. */
    public static double distance(double[] plane, int slot, double px, double py, double pz) {
        int o = HullKernels.PLANE_STRIDE * slot;
        return plane[o] * px + plane[o + 1] * py + plane[o + 2] * pz - plane[o + 3];
    }
}
