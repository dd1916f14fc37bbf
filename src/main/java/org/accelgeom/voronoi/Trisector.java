package org.accelgeom.voronoi;

/**
 * The circle of tangent-sphere directions of three balls, seen from the first (host side, double): with the
 * centres and radii taken relative to ball g1 (c_i, r_i = r_gi − r_g1) and k_i = (|c_i|² − r_i²) / 2, the unit
 * directions w of the tangent spheres' centres satisfy m·w = h with m = k3 c2 − k2 c3 and h = k2 r3 − k3 r2 (eq. 2.6
 * solved for the two planes of the gates; see {@link VoronoiKernels}), normalised here by |m|.
 */
final class Trisector {

    private Trisector() {
    }

    /**
     * Writes the start of an edge frame of balls g1 (the origin: callers pass the smallest radius), g2 and g3 into
     * {@code f} from {@code fo}, in {@link VoronoiKernels}' layout: OX (the centre of g1), RG1, C2X, R2, K2, MX (m,
     * unit) and H. Returns false, writing nothing, when the three have no such circle (|m| = 0, k2 or k3 not
     * positive, or |h| ≥ 1).
     */
    static boolean frame(Balls b, int g1, int g2, int g3, double[] f, int fo) {
        double ox = b.x[g1], oy = b.y[g1], oz = b.z[g1], r1 = b.r[g1];
        double c2x = b.x[g2] - ox, c2y = b.y[g2] - oy, c2z = b.z[g2] - oz, r2 = b.r[g2] - r1;
        double c3x = b.x[g3] - ox, c3y = b.y[g3] - oy, c3z = b.z[g3] - oz, r3 = b.r[g3] - r1;
        double k2 = 0.5 * (c2x * c2x + c2y * c2y + c2z * c2z - r2 * r2);
        double k3 = 0.5 * (c3x * c3x + c3y * c3y + c3z * c3z - r3 * r3);
        double mx = k3 * c2x - k2 * c3x, my = k3 * c2y - k2 * c3y, mz = k3 * c2z - k2 * c3z;
        double h = k2 * r3 - k3 * r2;
        double nm = Math.sqrt(mx * mx + my * my + mz * mz);
        if (!(nm > 0) || !(k2 > 0) || !(k3 > 0)) {
            return false;
        }
        h /= nm;
        if (!(Math.abs(h) < 1)) {
            return false;
        }
        f[fo + VoronoiKernels.OX] = ox;
        f[fo + VoronoiKernels.OX + 1] = oy;
        f[fo + VoronoiKernels.OX + 2] = oz;
        f[fo + VoronoiKernels.RG1] = r1;
        f[fo + VoronoiKernels.C2X] = c2x;
        f[fo + VoronoiKernels.C2X + 1] = c2y;
        f[fo + VoronoiKernels.C2X + 2] = c2z;
        f[fo + VoronoiKernels.R2] = r2;
        f[fo + VoronoiKernels.K2] = k2;
        f[fo + VoronoiKernels.MX] = mx / nm;
        f[fo + VoronoiKernels.MX + 1] = my / nm;
        f[fo + VoronoiKernels.MX + 2] = mz / nm;
        f[fo + VoronoiKernels.H] = h;
        return true;
    }
}
