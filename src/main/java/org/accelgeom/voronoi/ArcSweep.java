package org.accelgeom.voronoi;

import static org.accelgeom.voronoi.VoronoiKernels.*;

/**
 * The serial double sweep of the JVM backends ({@link EndVertexScans#scanDouble}, Alg. 2.1 over the grid
 * candidates of one edge), with a cheap test that skips the {@link VoronoiKernels#thetaD} of a candidate that
 * cannot end the edge before the best root found so far: no division, no square root, no root.
 *
 * <p><b>The arc bound.</b> On the edge's circle of directions, w(phi) = h m + s (cos phi e1 + sin phi e2) with
 * s = sqrt(1 - h^2) (the frame of {@link VoronoiKernels}), candidate i's tangency condition is f(phi) = N.w - H_i = 0
 * with N = k2 c_i - k_i c2 and H_i = k_i r2 - k2 r_i: the plane whose roots thetaD computes. So
 * f(phi) = A + B cos phi + C sin phi with A = h N.m - H_i, B = s N.e1, C = s N.e2, and every root thetaD may
 * return lies on the arc from v_s (phi = 0) to the least of the best theta so far and theta_inf. Over that arc
 * cos phi and sin phi lie in intervals (the first or second quadrant, else [-1, 1]) that bound f; a candidate whose
 * f keeps one sign on the arc by more than {@link #MARGIN} of the plane's scale (in the normalised units thetaD
 * works in, w stays that far from its plane: far beyond thetaD's rounding, also for near-tangent planes) has no root
 * there, and is skipped. The candidates are visited in the same order and every new minimum is found as by the full
 * sweep, so the arg-min, the shrinking radius and the result are those of the sweep without the test.
 */
final class ArcSweep {

    /** The clearance, relative to |N| + |H_i|, below which a candidate is evaluated. */
    static final double MARGIN = 1e-6;
    /** The widening of the cos/sin intervals beyond their computed ends. */
    private static final double WIDEN = 1e-9;
    /** The widening of a grid cell (relative to its side) when its distance bounds a ball's: far beyond rounding. */
    private static final double CELL_SLACK = 1e-6;
    /** The doubles of an arc ({@link #bound}). */
    private static final int ARC = 6;

    private ArcSweep() {
    }

    /**
     * The arg-min (ball, or -1) of thetaD over the candidates of edge e in the box of cells within q of c_g1 (every
     * cell when full), within the shrinking radius, as {@link EndVertexScans#scanDouble} defines it.
     */
    static int argMin(int e, double q, int full, double[] bx, double[] by, double[] bz, double[] br, int[] cellStart,
            int[] cellBalls, double[] p, int[] ip, double[] f, int[] gates) {
        int fo = e * FS;
        int go = e * GS;
        int g1 = gates[go], g2 = gates[go + 1], g3 = gates[go + 2], s = gates[go + 3];
        int x0 = EndVertexScans.boxLo(e, 0, q, full, p, f), y0 = EndVertexScans.boxLo(e, 1, q, full, p, f);
        int z0 = EndVertexScans.boxLo(e, 2, q, full, p, f);
        int wx = EndVertexScans.boxW(e, 0, q, full, p, ip, f), wy = EndVertexScans.boxW(e, 1, q, full, p, ip, f);
        int wz = EndVertexScans.boxW(e, 2, q, full, p, ip, f);
        int nx = ip[I_NX], ny = ip[I_NX + 1];
        double ox = f[fo + OX], oy = f[fo + OX + 1], oz = f[fo + OX + 2], rg1 = f[fo + RG1];
        double c2x = f[fo + C2X], c2y = f[fo + C2X + 1], c2z = f[fo + C2X + 2], r2 = f[fo + R2], k2 = f[fo + K2];
        double h = f[fo + H], pinf = f[fo + PINF];
        // per edge: the projections of c2 on m, e1, e2 (N.u = k2 c.u - k_i c2.u)
        double mx = f[fo + MX], my = f[fo + MX + 1], mz = f[fo + MX + 2];
        double ax = f[fo + E1X], ay = f[fo + E1X + 1], az = f[fo + E1X + 2];
        double bxe = f[fo + E2X], bye = f[fo + E2X + 1], bze = f[fo + E2X + 2];
        double c2m = c2x * mx + c2y * my + c2z * mz;
        double c2a = c2x * ax + c2y * ay + c2z * az;
        double c2b = c2x * bxe + c2y * bye + c2z * bze;
        double c2c2 = c2x * c2x + c2y * c2y + c2z * c2z;
        double sr = Math.sqrt(Math.max(0.0, 1.0 - h * h));
        double q2 = EndVertexScans.radius2(q, full);
        double eps = p[P_EPS], rmax = p[P_RMAX];
        int arg = -1;
        double minD = NONE;
        double[] arc = new double[ARC];
        bound(minD, pinf, arc);
        double cl = arc[0], sl = arc[1], sh = arc[2];
        double m2 = 2.0 * MARGIN * MARGIN;
        double gx = p[P_GX], gy = p[P_GX + 1], gz = p[P_GX + 2], cell = p[P_CELL], slack = CELL_SLACK * cell;
        for (int rz = 0; rz < wz; rz++) {
            double dz = gap(oz, gz + (z0 + rz) * cell, cell, slack);
            for (int ry = 0; ry < wy; ry++) {
                double dy = gap(oy, gy + (y0 + ry) * cell, cell, slack);
                // the cells of this row that meet the ball of radius sqrt(q2) about c_g1
                double rem = q2 - dy * dy - dz * dz;
                if (rem < 0.0) {
                    continue;
                }
                double xr = Math.sqrt(rem) + slack;
                int xa = (int) Math.max(x0, Math.floor((ox - xr - gx) / cell));
                int xb = (int) Math.min(x0 + wx - 1, Math.floor((ox + xr - gx) / cell));
                if (xa > xb) {
                    continue;
                }
                int row = ((z0 + rz) * ny + y0 + ry) * nx;
                int end = cellStart[row + xb + 1];
                for (int j = cellStart[row + xa]; j < end; j++) {
                    int i = cellBalls[j];
                    double cx = bx[i] - ox, cy = by[i] - oy, cz = bz[i] - oz;
                    double d2 = cx * cx + cy * cy + cz * cz;
                    if (d2 > q2 || i == g1 || i == g2 || i == g3 || i == s) {
                        continue;
                    }
                    double ri = br[i] - rg1;
                    double ki = 0.5 * (d2 - ri * ri);
                    double hi = ki * r2 - k2 * ri;
                    double a = h * (k2 * (cx * mx + cy * my + cz * mz) - ki * c2m) - hi;
                    double b = sr * (k2 * (cx * ax + cy * ay + cz * az) - ki * c2a);
                    double c = sr * (k2 * (cx * bxe + cy * bye + cz * bze) - ki * c2b);
                    // f on the arc: a + b [cl, 1] + c [sl, sh]
                    double bLo = Math.min(b * cl, b), bHi = Math.max(b * cl, b);
                    double cLo = Math.min(c * sl, c * sh), cHi = Math.max(c * sl, c * sh);
                    double lo = a + bLo + cLo, up = a + bHi + cHi;
                    // the plane's scale^2, (|N| + |H_i|)^2 <= 2 (|N|^2 + H_i^2)
                    double nn2 = k2 * k2 * d2 - 2.0 * k2 * ki * (cx * c2x + cy * c2y + cz * c2z) + ki * ki * c2c2;
                    double clear2 = m2 * (Math.abs(nn2) + hi * hi);
                    if ((lo > 0.0 && lo * lo > clear2) || (up < 0.0 && up * up > clear2)
                            || clearOfArc(a, b, c, clear2, arc)) {
                        continue; // no root on the arc
                    }
                    double t = thetaD(bx, by, bz, br, i, f, fo, 0, eps);
                    if (t < minD) {
                        minD = t;
                        arg = i;
                        q2 = shrink(q2, f, fo, t, rmax);
                        bound(minD, pinf, arc);
                        cl = arc[0];
                        sl = arc[1];
                        sh = arc[2];
                    }
                }
            }
        }
        return arg;
    }

    /**
     * The distance from o to the cell [lo, lo + cell] of one axis widened by slack on both sides (0 inside): a ball
     * of that cell lies at least this far from o along the axis.
     */
    static double gap(double o, double lo, double cell, double slack) {
        return Math.max(0.0, Math.max(lo - slack - o, o - (lo + cell + slack)));
    }

    /**
     * True when a + b cos phi + c sin phi keeps one sign by more than sqrt(clear2) over the whole arc of
     * {@code arc} ({@link #bound}): the exact range of b cos phi + c sin phi = R cos(phi - alpha) there, R =
     * |(b, c)|, which is R where the direction alpha of (b, c) lies on the arc, -R where its opposite does, else
     * between the values at the arc's two ends. Whether a direction lies on the arc is decided by signs (sin alpha
     * and sin(alpha - phi_end), no angle), generously by R {@link #WIDEN}, and the ends' values are widened by as much.
     * The second test of a candidate, after the intervals of cos and sin (cheaper, looser: they allow cos phi and
     * sin phi to be at their ends at once).
     */
    static boolean clearOfArc(double a, double b, double c, double clear2, double[] arc) {
        double r = Math.sqrt(b * b + c * c);
        double lo = -r, hi = r;
        double pu = arc[3];
        if (pu < 4.0) {
            double cu = arc[4], su = arc[5];
            double tol = r * WIDEN;
            double cross = cu * c - su * b; // R sin(alpha - phi_end)
            // alpha in [0, phi_end]: sin alpha >= 0 and (an arc up to pi) and / (beyond pi) or sin(alpha - phi_end) <= 0
            boolean maxOn, minOn;
            if (pu <= 2.0) {
                maxOn = c >= -tol && cross <= tol;
                minOn = c <= tol && cross >= -tol;
            } else {
                maxOn = c >= -tol || cross <= tol;
                minOn = c <= tol || cross >= -tol;
            }
            double atEnd = b * cu + c * su;
            if (!maxOn) {
                hi = Math.max(b, atEnd) + tol;
            }
            if (!minOn) {
                lo = Math.min(b, atEnd) - tol;
            }
        }
        double fLo = a + lo, fHi = a + hi;
        return (fLo > 0.0 && fLo * fLo > clear2) || (fHi < 0.0 && fHi * fHi > clear2);
    }

    /**
     * The open arc from v_s to pseudo-angle pu = min(pEnd, pinf): arc[0] = the least cos phi, arc[1], arc[2] = the
     * least and greatest sin phi on it (the greatest cos phi is 1), widened by {@link #WIDEN}; arc[3] = pu;
     * arc[4], arc[5] = cos and sin of its end (pu &lt; 4).
     */
    static void bound(double pEnd, double pinf, double[] arc) {
        double pu = Math.min(pEnd, pinf);
        arc[0] = -1.0;
        arc[1] = -1.0;
        arc[2] = 1.0;
        arc[3] = pu;
        if (pu < 4.0) {
            double ux = pseudoX(pu), uy = pseudoY(pu);
            double len = Math.sqrt(ux * ux + uy * uy);
            arc[4] = ux / len;
            arc[5] = uy / len;
            if (pu <= 2.0) {
                arc[0] = arc[4] - WIDEN;
                arc[1] = -WIDEN;
                arc[2] = pu <= 1.0 ? arc[5] + WIDEN : 1.0;
            }
        }
    }
}
