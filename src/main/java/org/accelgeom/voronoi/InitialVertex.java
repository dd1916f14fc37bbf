package org.accelgeom.voronoi;

/**
 * The first vertex of the tracing by the thesis' Alg. 2.2 ("nearest vertex"): for a ball b_g1, b_g2 is the
 * ball of the smallest minimal tangent sphere (MTS) with b_g1 (the nearest face), b_g3 the ball of the smallest
 * MTS with (b_g1, b_g2) (the nearest edge on that face), b_g4 the ball of the smallest tangent sphere with the
 * three (the nearest vertex on that edge). Each step keeps the sphere empty (the MTS of the nearest pair is
 * empty; the least MTS over the third balls lies on the face; the least vertex along that edge is its first),
 * and the result is checked for emptiness anyway: if it fails (degenerate input, an edge with no vertex) the
 * next b_g1 is tried. O(n) per try.
 */
final class InitialVertex {

    private InitialVertex() {
    }

    /**
     * The quadruple (sorted) and sphere x, y, z, R of a first vertex, in {@code quad} and {@code sphere}; false if
     * none was found within {@code tries} first balls.
     */
    static boolean find(Balls b, boolean[] hidden, int tries, double tol, int[] quad, double[] sphere) {
        int n = b.size();
        double[] out = new double[8];
        int tried = 0;
        for (int g1 = 0; g1 < n && tried < tries; g1++) {
            if (hidden[g1]) {
                continue;
            }
            tried++;
            int g2 = -1;
            double best = Double.MAX_VALUE;
            for (int i = 0; i < n; i++) {
                if (i == g1 || hidden[i]) {
                    continue;
                }
                double dx = b.x[i] - b.x[g1], dy = b.y[i] - b.y[g1], dz = b.z[i] - b.z[g1];
                double gap = Math.sqrt(dx * dx + dy * dy + dz * dz) - b.r[i] - b.r[g1];
                if (gap < best) {
                    best = gap;
                    g2 = i;
                }
            }
            if (g2 < 0) {
                return false;
            }
            int g3 = -1;
            best = Double.MAX_VALUE;
            for (int i = 0; i < n; i++) {
                if (i == g1 || i == g2 || hidden[i]) {
                    continue;
                }
                double m = mtsRadius(b, g1, g2, i);
                if (m < best) {
                    best = m;
                    g3 = i;
                }
            }
            if (g3 < 0) {
                return false;
            }
            int g4 = -1;
            best = Double.MAX_VALUE;
            double[] s = new double[4];
            for (int i = 0; i < n; i++) {
                if (i == g1 || i == g2 || i == g3 || hidden[i]) {
                    continue;
                }
                int k = TangentSpheres.solve(b.x, b.y, b.z, b.r, g1, g2, g3, i, out);
                if (TangentSpheres.smallestRadius(out, k) < best) {
                    best = out[3];
                    g4 = i;
                    System.arraycopy(out, 0, s, 0, 4);
                }
            }
            if (g4 < 0) {
                continue; // the nearest edge has no vertex (elliptic or unbounded without one): next g1
            }
            int[] q = {g1, g2, g3, g4};
            if (empty(b, hidden, q, s, tol)) {
                java.util.Arrays.sort(q);
                System.arraycopy(q, 0, quad, 0, 4);
                System.arraycopy(s, 0, sphere, 0, 4);
                return true;
            }
        }
        return false;
    }

    /**
     * The radius of the minimal tangent sphere of three balls, or +infinity if they have no tangent sphere: in
     * the frame of the smallest ball the tangent spheres' directions form the circle m.w = h (see
     * {@link VoronoiKernels}) and rho = k2 / (c2.w + r2) is least where c2.w is largest on the circle.
     */
    static double mtsRadius(Balls b, int i, int j, int k) {
        int a = i, p = j, q = k;
        if (b.r[p] < b.r[a]) {
            int t = a; a = p; p = t;
        }
        if (b.r[q] < b.r[a]) {
            int t = a; a = q; q = t;
        }
        double[] t = new double[VoronoiKernels.H + 1];
        if (!Trisector.frame(b, a, p, q, t, 0)) {
            return Double.POSITIVE_INFINITY;
        }
        double c2x = t[VoronoiKernels.C2X], c2y = t[VoronoiKernels.C2X + 1], c2z = t[VoronoiKernels.C2X + 2];
        double r2 = t[VoronoiKernels.R2], k2 = t[VoronoiKernels.K2], h = t[VoronoiKernels.H];
        double mx = t[VoronoiKernels.MX], my = t[VoronoiKernels.MX + 1], mz = t[VoronoiKernels.MX + 2];
        double along = c2x * mx + c2y * my + c2z * mz;
        double px = c2x - along * mx, py = c2y - along * my, pz = c2z - along * mz;
        double denMax = h * along + r2 + Math.sqrt(1 - h * h) * Math.sqrt(px * px + py * py + pz * pz);
        if (!(denMax > 0)) {
            return Double.POSITIVE_INFINITY;
        }
        return k2 / denMax - b.r[a];
    }

    /** True if no ball other than the quadruple's comes closer to the sphere's centre than R - tol (Def. of a vertex). */
    static boolean empty(Balls b, boolean[] hidden, int[] q, double[] s, double tol) {
        for (int i = 0; i < b.size(); i++) {
            if (hidden[i] || i == q[0] || i == q[1] || i == q[2] || i == q[3]) {
                continue;
            }
            double dx = b.x[i] - s[0], dy = b.y[i] - s[1], dz = b.z[i] - s[2];
            if (Math.sqrt(dx * dx + dy * dy + dz * dz) - b.r[i] < s[3] - tol) {
                return false;
            }
        }
        return true;
    }
}
