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
 *
 * <p><b>The arc ball and the seed.</b> Every tangent sphere of the open arc lies in a ball about the start sphere's
 * centre p_0 ({@link #arcBall}), so a ball with a root there lies within its radius plus r_i - r_g1 of p_0: the rows
 * are trimmed to that ball too, and a candidate outside it is skipped before its plane is computed. That ball is
 * only bounded once a root is found, so a first sweep (the seed) visits the shell just beyond the start sphere, where
 * the end vertex's ball mostly lies; the sweep proper then starts with its tests bounded at the seed's theta plus
 * {@link #SEED_END} (every theta up to the seed's stays inside the arc by that much, so no candidate that could be
 * the arg-min is skipped) and keeps the order, the arg-min and the result of the sweep without the tests.
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

    /** The seed's shell beyond the start sphere, relative to its radius rho_0 ({@link #argMin}). */
    static final double SEED = 0.25;
    /** The widening of the arc ball's radius ({@link #arcBall}), relative: far beyond its rounding. */
    private static final double BALL_SLACK = 1e-6;
    /** The seed's theta plus this bounds the main sweep's tests: every theta up to the seed's lies inside. */
    private static final double SEED_END = 1e-7;
    /** No bound. */
    private static final double FAR = 1e150;

    // the edge and the grid
    private final double[] bx, by, bz, br, f;
    private final int[] cellStart, cellBalls;
    private final int fo, g1, g2, g3, s, nx, ny, x0, y0, z0, wx, wy, wz;
    private final double ox, oy, oz, rg1, gx, gy, gz, cell, slack, eps, rmax, q2First;
    // the frame's projections (N.u = k2 c.u - k_i c2.u) and the arc ball's centre p_0 (relative to c_g1)
    private final double c2x, c2y, c2z, r2, k2, h, pinf, mx, my, mz, ax, ay, az, bxe, bye, bze, c2m, c2a, c2b, c2c2, sr;
    private final double rho0, p0x, p0y, p0z;
    // the sweep's state: the arg-min in visiting order, and the bound that the tests use (end >= minD)
    private int arg = -1;
    private double minD = NONE;
    private double end = NONE;
    private double q2;
    private double rb = FAR;
    private final double[] arc = new double[ARC];

    private ArcSweep(int e, double q, int full, double[] bx, double[] by, double[] bz, double[] br, int[] cellStart,
            int[] cellBalls, double[] p, int[] ip, double[] f, int[] gates) {
        this.bx = bx;
        this.by = by;
        this.bz = bz;
        this.br = br;
        this.f = f;
        this.cellStart = cellStart;
        this.cellBalls = cellBalls;
        fo = e * FS;
        int go = e * GS;
        g1 = gates[go];
        g2 = gates[go + 1];
        g3 = gates[go + 2];
        s = gates[go + 3];
        x0 = EndVertexScans.boxLo(e, 0, q, full, p, f);
        y0 = EndVertexScans.boxLo(e, 1, q, full, p, f);
        z0 = EndVertexScans.boxLo(e, 2, q, full, p, f);
        wx = EndVertexScans.boxW(e, 0, q, full, p, ip, f);
        wy = EndVertexScans.boxW(e, 1, q, full, p, ip, f);
        wz = EndVertexScans.boxW(e, 2, q, full, p, ip, f);
        nx = ip[I_NX];
        ny = ip[I_NX + 1];
        ox = f[fo + OX];
        oy = f[fo + OX + 1];
        oz = f[fo + OX + 2];
        rg1 = f[fo + RG1];
        c2x = f[fo + C2X];
        c2y = f[fo + C2X + 1];
        c2z = f[fo + C2X + 2];
        r2 = f[fo + R2];
        k2 = f[fo + K2];
        h = f[fo + H];
        pinf = f[fo + PINF];
        mx = f[fo + MX];
        my = f[fo + MX + 1];
        mz = f[fo + MX + 2];
        ax = f[fo + E1X];
        ay = f[fo + E1X + 1];
        az = f[fo + E1X + 2];
        bxe = f[fo + E2X];
        bye = f[fo + E2X + 1];
        bze = f[fo + E2X + 2];
        c2m = c2x * mx + c2y * my + c2z * mz;
        c2a = c2x * ax + c2y * ay + c2z * az;
        c2b = c2x * bxe + c2y * bye + c2z * bze;
        c2c2 = c2x * c2x + c2y * c2y + c2z * c2z;
        sr = Math.sqrt(Math.max(0.0, 1.0 - h * h));
        q2First = EndVertexScans.radius2(q, full);
        q2 = q2First;
        eps = p[P_EPS];
        rmax = p[P_RMAX];
        gx = p[P_GX];
        gy = p[P_GX + 1];
        gz = p[P_GX + 2];
        cell = p[P_CELL];
        slack = CELL_SLACK * cell;
        // the start vertex's sphere: centre rho_0 w(0), w(0) = h m + s e1, radius rho_0 (it passes through c_g1)
        double den0 = f[fo + DENA] + f[fo + DENCA];
        rho0 = den0 > 0.0 && k2 > 0.0 ? k2 / den0 : 0.0;
        p0x = rho0 * (h * mx + sr * ax);
        p0y = rho0 * (h * my + sr * ay);
        p0z = rho0 * (h * mz + sr * az);
        bound(NONE, pinf, arc);
    }

    /** The main sweep after the seed: the seed's best theta bounds the tests, the visit starts again. */
    private void restart() {
        double seed = minD;
        arg = -1;
        minD = NONE;
        q2 = q2First;
        end = NONE;
        rb = FAR;
        bound(NONE, pinf, arc);
        if (seed < NONE) {
            tighten(Math.min(seed + SEED_END, 4.0));
        }
    }

    /**
     * The tests' bound moved to pseudo-angle pEnd (&lt; end): the arc, the radius about c_g1 ({@link VoronoiKernels#shrink})
     * and the arc ball about p_0 ({@link #arcBall}).
     */
    private void tighten(double pEnd) {
        end = pEnd;
        q2 = shrink(q2, f, fo, pEnd, rmax);
        bound(pEnd, pinf, arc);
        rb = arcBall(f, fo, arc, sr, rho0);
    }

    /**
     * The arg-min (ball, or -1) of thetaD over the candidates of edge e in the box of cells within q of c_g1 (every
     * cell when full), within the shrinking radius, as {@link EndVertexScans#scanDouble} defines it.
     */
    static int argMin(int e, double q, int full, double[] bx, double[] by, double[] bz, double[] br, int[] cellStart,
            int[] cellBalls, double[] p, int[] ip, double[] f, int[] gates) {
        ArcSweep s = new ArcSweep(e, q, full, bx, by, bz, br, cellStart, cellBalls, p, ip, f, gates);
        if (s.rho0 > 0.0) {
            s.scan(s.rho0 * (1.0 + SEED)); // the seed: the shell about the start sphere
            s.restart();
        }
        s.scan(FAR);
        return s.arg;
    }

    /**
     * One sweep over the rows of the box in cell order: each candidate within sqrt(q2) of c_g1 and within the ball
     * about p_0 (radius {@code limit} when less than the arc ball's, plus r_i - r_g1) whose plane is not clear of the
     * arc gets its thetaD; a new least theta is the arg-min and tightens the tests.
     */
    private void scan(double limit) {
        double[] bx = this.bx, by = this.by, bz = this.bz, br = this.br;
        int[] cellStart = this.cellStart, cellBalls = this.cellBalls;
        double ox = this.ox, oy = this.oy, oz = this.oz, rg1 = this.rg1, k2 = this.k2, r2 = this.r2, h = this.h;
        double mx = this.mx, my = this.my, mz = this.mz, ax = this.ax, ay = this.ay, az = this.az;
        double bxe = this.bxe, bye = this.bye, bze = this.bze, c2m = this.c2m, c2a = this.c2a, c2b = this.c2b;
        double c2x = this.c2x, c2y = this.c2y, c2z = this.c2z, c2c2 = this.c2c2, sr = this.sr;
        double px = ox + p0x, py = oy + p0y, pz = oz + p0z, reach = rmax - rg1;
        double m2 = 2.0 * MARGIN * MARGIN;
        double q2 = this.q2, ball = Math.min(limit, rb), cl = arc[0], sl = arc[1], sh = arc[2];
        for (int rz = 0; rz < wz; rz++) {
            double zlo = gz + (z0 + rz) * cell;
            double dz = gap(oz, zlo, cell, slack), ez = gap(pz, zlo, cell, slack);
            for (int ry = 0; ry < wy; ry++) {
                double ylo = gy + (y0 + ry) * cell;
                double dy = gap(oy, ylo, cell, slack), ey = gap(py, ylo, cell, slack);
                // the cells of this row that meet the ball of radius sqrt(q2) about c_g1 and the ball about p_0
                double rem = q2 - dy * dy - dz * dz;
                double bl = ball + reach;
                double remB = bl * bl - ey * ey - ez * ez;
                if (rem < 0.0 || remB < 0.0) {
                    continue;
                }
                double xr = Math.sqrt(rem) + slack, xrB = Math.sqrt(remB) + slack;
                int xa = (int) Math.max(x0, Math.max(Math.floor((ox - xr - gx) / cell), Math.floor((px - xrB - gx) / cell)));
                int xb = (int) Math.min(x0 + wx - 1, Math.min(Math.floor((ox + xr - gx) / cell),
                        Math.floor((px + xrB - gx) / cell)));
                if (xa > xb) {
                    continue;
                }
                int row = ((z0 + rz) * ny + y0 + ry) * nx;
                int stop = cellStart[row + xb + 1];
                for (int j = cellStart[row + xa]; j < stop; j++) {
                    int i = cellBalls[j];
                    double cx = bx[i] - ox, cy = by[i] - oy, cz = bz[i] - oz;
                    double ri = br[i] - rg1;
                    double ux = cx - p0x, uy = cy - p0y, uz = cz - p0z, tb = ball + ri;
                    double d2 = cx * cx + cy * cy + cz * cz;
                    if (d2 > q2 || ux * ux + uy * uy + uz * uz > tb * tb || tb < 0.0
                            || i == g1 || i == g2 || i == g3 || i == s) {
                        continue;
                    }
                    double ki = 0.5 * (d2 - ri * ri);
                    double hi = ki * r2 - k2 * ri;
                    // N in the frame (m, e1, e2)
                    double nm = k2 * (cx * mx + cy * my + cz * mz) - ki * c2m;
                    double na = k2 * (cx * ax + cy * ay + cz * az) - ki * c2a;
                    double nb = k2 * (cx * bxe + cy * bye + cz * bze) - ki * c2b;
                    double a = h * nm - hi, b = sr * na, c = sr * nb;
                    // f on the arc: a + b [cl, 1] + c [sl, sh]
                    double bLo = Math.min(b * cl, b), bHi = Math.max(b * cl, b);
                    double cLo = Math.min(c * sl, c * sh), cHi = Math.max(c * sl, c * sh);
                    double lo = a + bLo + cLo, up = a + bHi + cHi;
                    // the plane's scale^2, (|N| + |H_i|)^2 <= 2 (|N|^2 + H_i^2)
                    double clear2 = m2 * (nm * nm + na * na + nb * nb + hi * hi);
                    if ((lo > 0.0 && lo * lo > clear2) || (up < 0.0 && up * up > clear2)
                            || clearOfArc(a, b, c, clear2, arc)) {
                        continue; // no root on the arc
                    }
                    double t = thetaD(bx, by, bz, br, i, f, fo, 0, eps);
                    if (t < minD) {
                        minD = t;
                        arg = i;
                        if (t < end) {
                            tighten(t);
                            q2 = this.q2;
                            ball = Math.min(limit, rb);
                            cl = arc[0];
                            sl = arc[1];
                            sh = arc[2];
                        }
                    }
                }
            }
        }
    }

    /**
     * The radius of a ball about p_0 = rho_0 w(0) that holds every tangent sphere of the edge on the arc of
     * {@code arc} ({@link #bound}), or {@link #FAR}. A ball with a root there touches the sphere at phi from outside,
     * |c_i - p(phi)| = rho(phi) + r_i - r_g1, so it lies within this radius plus r_i - r_g1 of p_0. With
     * p(phi) = rho(phi) w(phi): |p(phi) - p_0| + rho(phi) &lt;= rho(phi) |w(phi) - w(0)| + |rho(phi) - rho_0| + rho(phi), and
     * rho = k2 / den lies between k2 over the greatest and over the least den on the arc (den = A + a cos phi + b sin
     * phi: at an end, or where its extreme directions lie on the arc), |w(phi) - w(0)| within the chord s |(cos phi - 1,
     * sin phi)| to the arc's end (or 2 s beyond a half turn). Widened by {@link #BALL_SLACK}.
     */
    static double arcBall(double[] f, int fo, double[] arc, double sr, double rho0) {
        double pu = arc[3];
        double k2 = f[fo + K2];
        if (pu >= 4.0 || !(k2 > 0.0) || !(rho0 > 0.0)) {
            return FAR;
        }
        double cu = arc[4], su = arc[5];
        double dA = f[fo + DENA], da = f[fo + DENCA], db = f[fo + DENSB];
        double den0 = dA + da, den1 = dA + da * cu + db * su;
        double low = Math.min(den0, den1), high = Math.max(den0, den1);
        if (f[fo + PSTAR] <= pu) {
            low = Math.min(low, f[fo + DENMIN]);
        }
        if (pseudo(da, db) <= pu) {
            high = Math.max(high, dA + Math.sqrt(da * da + db * db));
        }
        if (!(low > 0.0)) {
            return FAR;
        }
        double rhoMax = k2 / low, rhoMin = k2 / high;
        double chord = pu <= 2.0 ? sr * Math.sqrt((1.0 - cu) * (1.0 - cu) + su * su) : 2.0 * sr;
        double r = rhoMax * (1.0 + chord) + Math.max(rhoMax - rho0, rho0 - rhoMin);
        return r * (1.0 + BALL_SLACK) + BALL_SLACK * rho0;
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
