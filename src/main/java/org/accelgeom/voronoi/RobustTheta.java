package org.accelgeom.voronoi;

import static org.accelgeom.voronoi.VoronoiKernels.*;

/**
 * The device's double theta of a candidate, with every borderline decision flagged (beyond the thesis): the same
 * roots as {@link VoronoiKernels#thetaD} (isStart = 0), plus a forward error bound of each quantity the search
 * decides on, so that the device's answer is either the host's (Java double, the reference arithmetic) or flagged
 * as <i>uncertain</i>, and then the host searches the edge again ({@link HostRecheck}).
 *
 * <p><b>Why.</b> The device's double arithmetic is not Java's: POCL's double sqrt is only float-accurate (hence
 * {@link #sqrtD}), and OpenCL compilers may contract a*b + c into one fused multiply-add, so even with an exact
 * sqrt the device's values differ from Java's in the last bits. The search's
 * decisions (the plane normal non-zero, det &gt; 1e-14, the discriminant t2 &gt;= 0, den &gt; 0, rho + r_i &gt;= 0,
 * eps &lt; theta &lt; theta_inf, the wrap at 4, the arg-min) flip when a value is within that difference of its
 * threshold: on 4JSV, POCL missed three end vertices of 380,194 searches (an end vertex 1.9e-6 after the start, two
 * vertices 2e-5 apart) before sqrtD and these flags.
 *
 * <p><b>The margins.</b> A sum of n products evaluated with or without contractions and in any order differs
 * from Java's by at most about 2 n u times the sum of the absolute values of its terms (u = 2^-53); the inputs of
 * a candidate (ball minus frame origin) are single correctly rounded subtractions, equal on both sides, and
 * division is correctly rounded in OpenCL double, sqrt by {@link #sqrtD} to within an ulp. With G = 32 u per step (n &lt;= 4 terms, a factor 4
 * to spare) the errors are propagated to first order through the chain (k_i, the normal n and h_i, normalised;
 * c = m.n, det = 1 - c^2; a1, a2 divided by det; w0; t2 divided by det; t = sqrt(t2), whose error is at most
 * 2 E/(t + sqrt E); the root w = w0 &plusmn; t d; den = c2.w + r2; rho = k2/den; the pseudo-angle of (e1.w, e2.w),
 * whose derivative is at most 1/(|x| + |y|)), and a decision counts as certain only when its value is more than
 * K = 8 bounds from its threshold. A root is <i>certain</i> when every decision on it is; an uncertain root
 * enters the arg-min with its least possible theta (theta - K E_theta, 0 near the wrap), and is flagged. A root
 * whose theta bound exceeds a quarter of {@link EndVertexScans#TIE_BAND} is uncertain too, so certain thetas
 * order as on the host unless they are within the tie band (flagged by the near-tie test). Hence: if the
 * edge's arg-min is certain and no near tie was seen, the host's arg-min is the same ball.
 *
 * <p>Encoding (one double, no extra arrays on the device): theta, or {@link VoronoiKernels#NONE} (8), or
 * {@link #FLAG} + the least possible theta when uncertain.
 */
public final class RobustTheta {

    /** Added to the returned value of an uncertain candidate. */
    public static final double FLAG = 16.0;
    /** Error bound per evaluation step: 32 u. */
    static final double G = 32.0 * 0x1p-53;
    /** Safety factor of a decision: certain when farther than K bounds from the threshold. */
    static final double K = 8.0;

    private RobustTheta() {
    }

    /**
     * sqrt in double to within an ulp on any device: POCL's double sqrt (TornadoVM 5.2 on this machine) returned
     * float precision (seen: 47.017696380615234 for 47.01769700486695, a relative error of 1.3e-8, the cause of
     * 4JSV's three wrong end vertices); two Newton steps from it, s = (s + x/s)/2, square the relative error each
     * (1e-8 -> 1e-16 -> an ulp), and leave a correctly rounded sqrt within an ulp.
     */
    public static double sqrtD(double x) {
        // into float's range, exactly: four coarse steps of 2^(+-256) into [2^-200, 2^200] (the root by 2^(-+128)),
        // then one of 2^(+-128) into [2^-72, 2^72]
        double xs = x;
        double sc = 1.0;
        for (int k = 0; k < 5; k++) {
            double lim = 0x1p-200;
            double step = 0x1p256;
            double root = 0x1p-128;
            if (k == 4) {
                lim = 0x1p-64;
                step = 0x1p128;
                root = 0x1p-64;
            }
            double up = 1.0;
            double back = 1.0;
            if (xs < lim) {
                up = step;
                back = root;
            }
            if (xs * lim > 1.0) {
                up = 1.0 / step;
                back = 1.0 / root;
            }
            xs = xs * up;
            sc = sc * back;
        }
        double s = Math.sqrt(xs);
        double zero = 1.0;
        if (s <= 0.0) {
            zero = 0.0;
        }
        double d = s;
        if (s <= 0.0) {
            d = 1.0;
        }
        s = 0.5 * (s + xs / d);
        d = s;
        if (s <= 0.0) {
            d = 1.0;
        }
        s = 0.5 * (s + xs / d);
        return s * sc * zero;
    }

    /** 1 if v carries {@link #FLAG}. */
    public static int flagged(double v) {
        int f = 0;
        if (v >= 12.0) {
            f = 1;
        }
        return f;
    }

    /**
     * theta of candidate i (not the start ball) as {@link VoronoiKernels#thetaD}, encoded: the least valid root in
     * (eps, theta_inf), NONE, or FLAG + the least theta the host could find when a decision is borderline.
     */
    public static double theta(double[] bx, double[] by, double[] bz, double[] br, int i, double[] f, int fo,
            double eps) {
        double cx = bx[i] - f[fo + OX];
        double cy = by[i] - f[fo + OX + 1];
        double cz = bz[i] - f[fo + OX + 2];
        double ri = br[i] - f[fo + RG1];
        double ki = 0.5 * (cx * cx + cy * cy + cz * cz - ri * ri);
        double kAbs = 0.5 * (cx * cx + cy * cy + cz * cz + ri * ri);
        double c2x = f[fo + C2X], c2y = f[fo + C2X + 1], c2z = f[fo + C2X + 2], r2 = f[fo + R2], k2 = f[fo + K2];
        double mx = f[fo + MX], my = f[fo + MX + 1], mz = f[fo + MX + 2], h = f[fo + H];
        double nx = k2 * cx - ki * c2x;
        double ny = k2 * cy - ki * c2y;
        double nz = k2 * cz - ki * c2z;
        double hi = ki * r2 - k2 * ri;
        double ak2 = absD(k2);
        double c2a = absD(c2x) + absD(c2y) + absD(c2z);
        // error scales of the normal and of h_i (sums of absolute terms; k_i's own error is G kAbs)
        double sn = ak2 * (absD(cx) + absD(cy) + absD(cz)) + kAbs * c2a + ak2 * absD(ri) + kAbs * absD(r2);
        double nn = sqrtD(nx * nx + ny * ny + nz * nz);
        int degen = 0;
        if (nn <= K * G * sn) {
            degen = degen + 1;
        }
        if (nn <= 0.0) {
            nn = 1.0;
        }
        nx = nx / nn;
        ny = ny / nn;
        nz = nz / nn;
        hi = hi / nn;
        double ahi = absD(hi);
        // absolute error of the normalised n and h_i
        double en = 2.0 * G * sn / nn * (1.0 + ahi) + G;
        double c = mx * nx + my * ny + mz * nz;
        double det = 1.0 - c * c;
        double edet = 2.0 * (en + G) + G;
        if (det <= 1e-14 + K * edet) {
            degen = degen + 1;
        }
        if (det <= 1e-14) {
            det = 1.0;
        }
        double a1 = (h - hi * c) / det;
        double a2 = (hi - h * c) / det;
        double w0x = a1 * mx + a2 * nx, w0y = a1 * my + a2 * ny, w0z = a1 * mz + a2 * nz;
        // w0, the point of the planes' line nearest the origin: moving the plane (n, h_i) by en moves the line by
        // 2 en / sin(angle of the planes) = 2 en / sqrt(det); the formula's own rounding (the subtraction in a1, a2,
        // the scaling by 1/det, the sum a1 m + a2 n) adds about 4 G (1 + |h| + |h_i|) / det
        double sdet = sqrtD(det);
        double ew0 = 2.0 * en / sdet + 4.0 * G * (1.0 + absD(h) + ahi) / det;
        double dx = my * nz - mz * ny, dy = mz * nx - mx * nz, dz = mx * ny - my * nx;
        double w02 = w0x * w0x + w0y * w0y + w0z * w0z;
        double t2 = (1.0 - w02) / det;
        // t2 det = 1 - |w0|^2, the squared half chord
        double et2 = (2.0 * sqrtD(w02) * ew0 + 2.0 * G) / det;
        int tangent = 0;
        if (t2 <= K * et2) {
            tangent = tangent + 1;
        }
        if (t2 >= -K * et2) {
            tangent = tangent + 1;
        }
        int force = 0;
        if (tangent == 2) {
            force = 1; // near-tangential: the roots may not exist on the host
        }
        int none = 0;
        if (t2 < -K * et2) {
            none = 1; // certainly no root
        }
        if (t2 < 0.0) {
            t2 = 0.0;
        }
        double t = sqrtD(t2);
        // the half chord t sqrt(det): error at most 2 E / (hc + sqrt E) for an error E of its square
        double ehc = 2.0 * et2 * det / (t * sdet + sqrtD(et2 * det));
        double ew = ew0 + ehc + t * (2.0 * en + G) + G;
        double va = root(w0x + t * dx, w0y + t * dy, w0z + t * dz, ew, ri, f, fo, eps, c2a, force);
        double vb = root(w0x - t * dx, w0y - t * dy, w0z - t * dz, ew, ri, f, fo, eps, c2a, force);
        int ua = flagged(va);
        int ub = flagged(vb);
        double pa = va - FLAG * ua;
        double pb = vb - FLAG * ub;
        double v = pa;
        int fl = ua;
        if (pb < pa) {
            v = pb;
            fl = ub;
        }
        if (pb == pa) {
            fl = ua + ub - ua * ub;
        }
        if (none == 1) {
            v = NONE;
            fl = 0;
        }
        if (degen > 0) {
            v = 0.0; // parallel planes or a vanishing normal: nothing is known, the host decides
            fl = 1;
        }
        return v + FLAG * fl;
    }

    /**
     * Root w (error bound ew) of candidate radius ri: theta if certainly valid in (eps, theta_inf), NONE if
     * certainly not, else FLAG + its least possible theta. force = 1: the root's existence is uncertain.
     */
    static double root(double wx, double wy, double wz, double ew, double ri, double[] f, int fo, double eps,
            double c2a, int force) {
        double r2 = f[fo + R2];
        double den = f[fo + C2X] * wx + f[fo + C2X + 1] * wy + f[fo + C2X + 2] * wz + r2;
        double eden = c2a * ew + G * (c2a + absD(r2));
        double rho = f[fo + K2] / maxD(den, 1e-300);
        double erho = absD(rho) * (eden / maxD(absD(den) - eden, 1e-300) + G);
        double s = rho + ri;
        double es = K * (erho + G * (absD(rho) + absD(ri)));
        double x = f[fo + E1X] * wx + f[fo + E1X + 1] * wy + f[fo + E1X + 2] * wz;
        double y = f[fo + E2X] * wx + f[fo + E2X + 1] * wy + f[fo + E2X + 2] * wz;
        double p = pseudo(x, y);
        double m = K * (2.0 * (ew + G) / maxD(absD(x) + absD(y), 1e-300) + G);
        double pinf = f[fo + PINF];
        int ok = 0;
        if (den > 0.0) {
            ok = ok + 1;
        }
        if (s >= 0.0) {
            ok = ok + 1;
        }
        if (p > eps) {
            ok = ok + 1;
        }
        if (p < pinf) {
            ok = ok + 1;
        }
        int unc = force;
        if (absD(den) <= K * eden) {
            unc = unc + 1;
        }
        if (absD(s) <= es) {
            unc = unc + 1;
        }
        if (p <= eps + m) {
            unc = unc + 1;
        }
        if (p >= 4.0 - m) {
            unc = unc + 1;
        }
        if (absD(p - pinf) <= m) {
            unc = unc + 1;
        }
        if (m >= 0.25 * EndVertexScans.TIE_BAND) {
            unc = unc + 1;
        }
        // certainly invalid: den or rho + r_i certainly negative, or theta certainly in [theta_inf, 4)
        int sure = 0;
        if (den < -K * eden) {
            sure = sure + 1;
        }
        if (s < -es) {
            sure = sure + 1;
        }
        int beyond = 0;
        if (p >= pinf + m) {
            beyond = beyond + 1;
        }
        if (p <= 4.0 - m) {
            beyond = beyond + 1;
        }
        if (beyond == 2) {
            sure = sure + 1;
        }
        double v = NONE;
        if (ok == 4) {
            v = p;
        }
        double lo = maxD(0.0, p - m);
        if (p >= 4.0 - m) {
            lo = 0.0;
        }
        int u = 0;
        if (unc > 0) {
            u = 1;
        }
        if (sure > 0) {
            u = 0;
        }
        if (u == 1) {
            v = FLAG + lo;
        }
        return v;
    }
}
