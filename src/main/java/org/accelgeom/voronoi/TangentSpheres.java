package org.accelgeom.voronoi;

/**
 * The spheres externally tangent to four balls (Sec. 2.4.1 of the thesis, after Kim, Cho &amp; Kim 2005), in
 * double precision. A "tangent sphere" of centre p and radius R satisfies |p - c_i| = R + r_i for the four
 * balls; R may be negative (p then lies inside the balls, as for overlapping atoms) but never below
 * -min r_i, since a distance cannot be negative.
 *
 * <p>Steps, as the paper: (1) shrink every ball by the smallest radius r_4 and move c_4 to the origin
 * (eq. 2.4); (2) subtract |p|^2 = rho^2 from the three other tangency equations (2.5a-c), giving the 3x4
 * linear system x_i x + y_i y + z_i z + r_i rho = (x_i^2 + y_i^2 + z_i^2 - r_i^2)/2 (eq. 2.6); (3) solve it
 * for three unknowns as affine functions of the fourth, the free unknown being the one whose 3x3 minor has
 * the largest |determinant| (the stable choice); (4) substitute into x^2 + y^2 + z^2 = rho^2 (eq. 2.5d), a
 * quadratic in the free unknown; (5) keep the real roots with rho &gt;= 0 and back-transform
 * (p + c_4, rho - r_4).
 */
public final class TangentSpheres {

    private TangentSpheres() {
    }

    /**
     * The radius of the smallest of the {@code m} spheres {@link #solve} wrote to {@code out} (the first: they come
     * ordered by R), or infinity when there is none.
     */
    static double smallestRadius(double[] out, int m) {
        return m > 0 ? out[3] : Double.POSITIVE_INFINITY;
    }

    /**
     * The tangent spheres of balls {@code a b c d} (indices into the arrays), written to {@code out} as
     * {@code x y z R} per sphere, at most two, ordered by increasing R (ties: by x). Returns how many:
     * 0, 1 or 2; a degenerate system (infinitely many or numerically undecidable) returns 0.
     */
    public static int solve(double[] bx, double[] by, double[] bz, double[] br, int a, int b, int c, int d,
            double[] out) {
        int[] q = {a, b, c, d};
        int k = 0; // the ball with the smallest radius (ties: the first)
        for (int i = 1; i < 4; i++) {
            if (br[q[i]] < br[q[k]]) {
                k = i;
            }
        }
        double ox = bx[q[k]], oy = by[q[k]], oz = bz[q[k]], or = br[q[k]];
        // eq. 2.6: three rows [x_i y_i z_i r_i | rhs_i] of the shrunk, translated balls
        double[][] m = new double[3][5];
        int row = 0;
        for (int i = 0; i < 4; i++) {
            if (i == k) {
                continue;
            }
            double x = bx[q[i]] - ox, y = by[q[i]] - oy, z = bz[q[i]] - oz, r = br[q[i]] - or;
            m[row][0] = x;
            m[row][1] = y;
            m[row][2] = z;
            m[row][3] = r;
            m[row][4] = 0.5 * (x * x + y * y + z * z - r * r);
            row++;
        }
        // the free unknown: the column whose removal leaves the best-conditioned 3x3 minor
        int free = -1;
        double best = 0;
        double scale = 0;
        for (int j = 0; j < 4; j++) {
            for (int i = 0; i < 3; i++) {
                scale = Math.max(scale, Math.abs(m[i][j]));
            }
        }
        for (int f = 0; f < 4; f++) {
            double det = Math.abs(minor(m, f));
            if (det > best) {
                best = det;
                free = f;
            }
        }
        if (free < 0 || best <= 1e-13 * scale * scale * scale) {
            return 0;
        }
        // u_j = alpha_j + beta_j * t for the three bound unknowns j != free, t = u_free (Cramer's rule)
        double[] alpha = new double[4];
        double[] beta = new double[4];
        alpha[free] = 0;
        beta[free] = 1;
        int[] cols = new int[3];
        for (int j = 0, n = 0; j < 4; j++) {
            if (j != free) {
                cols[n++] = j;
            }
        }
        double det = det3(m, cols[0], cols[1], cols[2]);
        for (int n = 0; n < 3; n++) {
            // replace column cols[n] by the right-hand side (alpha) or by -column free (beta)
            alpha[cols[n]] = det3(m, n == 0 ? 4 : cols[0], n == 1 ? 4 : cols[1], n == 2 ? 4 : cols[2]) / det;
            beta[cols[n]] = -det3(m, n == 0 ? free : cols[0], n == 1 ? free : cols[1], n == 2 ? free : cols[2])
                    / det;
        }
        // eq. 2.5d: x^2 + y^2 + z^2 - rho^2 = 0 as qa t^2 + 2 qb t + qc = 0
        double qa = beta[0] * beta[0] + beta[1] * beta[1] + beta[2] * beta[2] - beta[3] * beta[3];
        double qb = alpha[0] * beta[0] + alpha[1] * beta[1] + alpha[2] * beta[2] - alpha[3] * beta[3];
        double qc = alpha[0] * alpha[0] + alpha[1] * alpha[1] + alpha[2] * alpha[2] - alpha[3] * alpha[3];
        double[] roots = new double[2];
        int nr = 0;
        if (Math.abs(qa) <= 1e-14 * (beta[0] * beta[0] + beta[1] * beta[1] + beta[2] * beta[2] + beta[3] * beta[3])) {
            if (qb != 0) {
                roots[nr++] = -qc / (2 * qb);
            }
        } else {
            double disc = qb * qb - qa * qc;
            if (disc >= 0) {
                double s = Math.sqrt(disc);
                double big = -qb - Math.copySign(s, qb); // stable: no cancellation
                if (big != 0) {
                    roots[nr++] = big / qa;
                    roots[nr++] = qc / big;
                } else {
                    roots[nr++] = 0;
                }
            }
        }
        int count = 0;
        for (int i = 0; i < nr; i++) {
            double t = roots[i];
            double rho = alpha[3] + beta[3] * t;
            if (!(rho >= 0)) {
                continue; // not a real tangency with the shrunk ball at the origin
            }
            double x = alpha[0] + beta[0] * t + ox, y = alpha[1] + beta[1] * t + oy, z = alpha[2] + beta[2] * t + oz;
            if (count == 1 && out[0] == x && out[1] == y && out[2] == z) {
                continue; // a double root
            }
            out[4 * count] = x;
            out[4 * count + 1] = y;
            out[4 * count + 2] = z;
            out[4 * count + 3] = rho - or;
            count++;
        }
        if (count == 2 && (out[7] < out[3] || (out[7] == out[3] && out[4] < out[0]))) {
            for (int j = 0; j < 4; j++) {
                double t = out[j];
                out[j] = out[4 + j];
                out[4 + j] = t;
            }
        }
        return count;
    }

    private static double minor(double[][] m, int skip) {
        int[] c = new int[3];
        for (int j = 0, n = 0; j < 4; j++) {
            if (j != skip) {
                c[n++] = j;
            }
        }
        return det3(m, c[0], c[1], c[2]);
    }

    private static double det3(double[][] m, int c0, int c1, int c2) {
        return m[0][c0] * (m[1][c1] * m[2][c2] - m[1][c2] * m[2][c1])
                - m[0][c1] * (m[1][c0] * m[2][c2] - m[1][c2] * m[2][c0])
                + m[0][c2] * (m[1][c0] * m[2][c1] - m[1][c1] * m[2][c0]);
    }
}
