package org.accelgeom.voronoi;

import static org.accelgeom.voronoi.VoronoiKernels.*;

/**
 * Builds the frame of an edge on the host, in double (see {@link VoronoiKernels} for the frame, theta and
 * the orientation convention): gates sorted so g1 has the smallest radius, the circle (m, h) of the edge's
 * directions seen from c_g1, the basis (e1, e2) with theta = 0 at v_s and growing along the edge, theta_inf
 * (where the edge meets b_inf, a full turn for an elliptic edge) and the coefficients of den(theta) used by the
 * pruning bound.
 */
final class EdgeFrames {

    private EdgeFrames() {
    }

    /**
     * Writes the frame of the edge of gates a, b, c leaving the vertex at (px, py, pz) away from start ball s.
     * Returns false if the gates are degenerate (no circle of directions).
     */
    static boolean build(Balls bl, int a, int b, int c, int s, double px, double py, double pz, double[] f, int fo,
            int[] g, int go) {
        double[] x = bl.x, y = bl.y, z = bl.z, r = bl.r;
        // g1: the smallest radius (ties: the smaller index); g2 < g3 by index
        int g1 = a, g2 = b, g3 = c;
        if (r[g2] < r[g1] || (r[g2] == r[g1] && g2 < g1)) {
            int t = g1; g1 = g2; g2 = t;
        }
        if (r[g3] < r[g1] || (r[g3] == r[g1] && g3 < g1)) {
            int t = g1; g1 = g3; g3 = t;
        }
        if (g3 < g2) {
            int t = g2; g2 = g3; g3 = t;
        }
        if (!Trisector.frame(bl, g1, g2, g3, f, fo)) {
            return false;
        }
        double ox = x[g1], oy = y[g1], oz = z[g1];
        double c2x = f[fo + C2X], c2y = f[fo + C2X + 1], c2z = f[fo + C2X + 2], r2 = f[fo + R2];
        double k2 = f[fo + K2], h = f[fo + H];
        double mx = f[fo + MX], my = f[fo + MX + 1], mz = f[fo + MX + 2];
        double wx = px - ox, wy = py - oy, wz = pz - oz;
        double wl = Math.sqrt(wx * wx + wy * wy + wz * wz);
        if (!(wl > 0)) {
            return false;
        }
        wx /= wl;
        wy /= wl;
        wz /= wl;
        // e1: from the circle's centre h m towards w(v_s), in the circle's plane
        double zx = h * mx, zy = h * my, zz = h * mz;
        double e1x = wx - zx, e1y = wy - zy, e1z = wz - zz;
        double along = e1x * mx + e1y * my + e1z * mz;
        e1x -= along * mx;
        e1y -= along * my;
        e1z -= along * mz;
        double l1 = Math.sqrt(e1x * e1x + e1y * e1y + e1z * e1z);
        if (!(l1 > 0)) {
            return false;
        }
        e1x /= l1;
        e1y /= l1;
        e1z /= l1;
        double e2x = my * e1z - mz * e1y, e2y = mz * e1x - mx * e1z, e2z = mx * e1y - my * e1x;
        double sr = Math.sqrt(1 - h * h);
        // orientation: along +e2, does b_s leave the sphere? d/dtheta of d(p, b_s) - d(p, b_g1) must be > 0
        double den = c2x * wx + c2y * wy + c2z * wz + r2;
        double rho = k2 / den;
        double wdx = sr * e2x, wdy = sr * e2y, wdz = sr * e2z; // dw/dtheta at theta = 0
        double drho = -rho * rho * (c2x * wdx + c2y * wdy + c2z * wdz) / k2;
        double dpx = rho * wdx + drho * wx, dpy = rho * wdy + drho * wy, dpz = rho * wdz + drho * wz;
        double sx = x[s] - px, sy = y[s] - py, sz = z[s] - pz;
        double sl = Math.sqrt(sx * sx + sy * sy + sz * sz);
        double dg = (-wx - sx / sl) * dpx + (-wy - sy / sl) * dpy + (-wz - sz / sl) * dpz;
        if (dg < 0) {
            e2x = -e2x;
            e2y = -e2y;
            e2z = -e2z;
        }
        // den(theta) = A + a cos(theta) + b sin(theta)
        double dA = c2x * zx + c2y * zy + c2z * zz + r2;
        double da = sr * (c2x * e1x + c2y * e1y + c2z * e1z);
        double db = sr * (c2x * e2x + c2y * e2y + c2z * e2z);
        double dB = Math.sqrt(da * da + db * db);
        double pinf = 4.0;
        if (dA - dB <= 0 && dB > 0) {
            double phi = Math.atan2(db, da);
            double delta = Math.acos(Math.max(-1, Math.min(1, -dA / dB)));
            double t1 = positive(phi + delta), t2 = positive(phi - delta);
            double ti = Math.min(t1, t2);
            pinf = pseudo(Math.cos(ti), Math.sin(ti));
            if (pinf == 0) {
                pinf = 4.0;
            }
        }
        f[fo + E1X] = e1x;
        f[fo + E1X + 1] = e1y;
        f[fo + E1X + 2] = e1z;
        f[fo + E2X] = e2x;
        f[fo + E2X + 1] = e2y;
        f[fo + E2X + 2] = e2z;
        f[fo + PINF] = pinf;
        f[fo + PSTAR] = pseudo(-da, -db);
        f[fo + DENMIN] = dA - dB;
        f[fo + DENA] = dA;
        f[fo + DENCA] = da;
        f[fo + DENSB] = db;
        g[go] = g1;
        g[go + 1] = g2;
        g[go + 2] = g3;
        g[go + 3] = s;
        return true;
    }

    /** The angle in (0, 2 pi] equal to t mod 2 pi. */
    private static double positive(double t) {
        double twoPi = 2 * Math.PI;
        t = t % twoPi;
        if (t <= 1e-15) {
            t += twoPi;
        }
        return t;
    }

    /** The float copy of frame fo, its origin shifted by (sx, sy, sz) as the float ball arrays are. */
    static void toFloat(double[] f, int fo, float[] ff, double sx, double sy, double sz) {
        EndVertexScans.floatFrameAt(fo, sx, sy, sz, f, ff); // the device's float frames, one code
    }
}
