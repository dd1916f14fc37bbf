package org.accelgeom.voronoi;

/**
 * Element kernels of the end-vertex search (Sec. 2.5.3, Alg. 2.1 and the GPU Alg. 5.2-5.5), shared by the
 * {@code jvm}, {@code jvm-parallel} and {@code tornado} backends: static, primitive arrays, an edge index.
 *
 * <h2>The edge frame and the angular distance theta</h2>
 * An edge has gate balls g1, g2, g3 (g1 the smallest) and starts at vertex v_s of start ball b_s. In the
 * frame shrunk by r_g1 with c_g1 at the origin (eq. 2.4) a tangent sphere of the gates has centre
 * p = rho w (|w| = 1, rho = R + r_g1 &gt;= 0), and each gate i gives rho (c_i.w + r_i) = k_i with
 * k_i = (|c_i|^2 - r_i^2)/2. Eliminating rho, the directions w of the whole edge lie on one circle of the unit
 * sphere: m.w = h with m = k3 c2 - k2 c3, h = k2 r3 - k3 r2 (stored normalised). The edge is the arc where
 * den(w) = c2.w + r2 &gt; 0 (there rho = k2/den); where den = 0 the edge goes to infinity (the thesis' b_inf,
 * whose tangent "sphere" is a plane). If den &gt; 0 on the whole circle the edge is elliptic (closed).
 *
 * <p>theta is the angle of w about the axis m, seen from c_g1: exactly the angular distance
 * &ang;v_s c_g1 p of Sec. 1.3, measured on the circle. <b>Orientation convention:</b> e1 points from the
 * circle's centre to w(v_s) (theta = 0 at v_s) and e2 = &plusmn;(m &times; e1) is chosen so that theta grows in
 * the direction in which b_s leaves the sphere (its additively weighted distance grows faster than the gates'),
 * i.e. along the Voronoi edge. theta_inf is where den first vanishes (4 = a full turn if elliptic). To avoid
 * trigonometry on the device, theta is a <i>pseudo-angle</i> in [0, 4): a monotone function of the true angle
 * ({@link #pseudo}); every comparison the paper makes on theta is the same on the pseudo-angle.
 *
 * <p>A candidate b_i adds the plane k2 (c_i.w + r_i) = k_i (c2.w + r2) whose intersection with the circle gives
 * 0, 1 or 2 tangent spheres (g1, g2, g3, b_i); a root is valid when den &gt; 0 and rho + r_i &gt;= 0 (external
 * tangency). The end vertex is the valid root of least theta in (0, theta_inf) over all candidates; for b_s the
 * root at v_s itself is dropped, its second root is a candidate (one quadruple, two vertices).
 *
 * <h2>Precision</h2>
 * {@link #thetaD} is the double reference; {@link #thetaF} is the float phase 1 of Alg. 5.4, which also flags
 * <i>fragile</i> candidates (near-degenerate decisions) that always go to the double phase 2.
 */
public final class VoronoiKernels {

    /** Doubles per edge frame. */
    public static final int FS = 28;
    /** Ints per edge: g1, g2, g3, start ball. */
    public static final int GS = 4;
    /** Ints per edge result: end ball (-1 = infinity), float-phase end ball, double evaluations, passes. */
    public static final int OS = 4;

    // frame layout
    public static final int OX = 0, RG1 = 3, C2X = 4, R2 = 7, K2 = 8, MX = 9, H = 12, E1X = 13, E2X = 16, PINF = 19,
            PSTAR = 20, DENMIN = 21, DENA = 22, DENCA = 23, DENSB = 24;

    // parameters P: eps, thres, rmax, grid x0 y0 z0 cell, growth, cover radius
    public static final int P_EPS = 0, P_THRES = 1, P_RMAX = 2, P_GX = 3, P_CELL = 6, P_GROW = 7, P_COVER = 8;
    /** Parameter slots of the origin shift of the float ball copies (x, y, z). */
    public static final int P_SHIFT = 10;
    /** Doubles of the search parameters. */
    public static final int PN = 13;
    // ints I: nx ny nz, n balls, edge count, mode, grid on, (7: tornado launch number), lanes per edge
    static final int I_NX = 0, I_N = 3, I_MODE = 5, I_GRID = 6;
    /** ip slot of the lanes per edge of the device search. */
    public static final int I_LANES = 8;
    /** ip slot of the batch size. */
    public static final int I_COUNT = 4;
    /** Ints of the search parameters. */
    public static final int IN = 9;

    /** Search modes. */
    public static final int MODE_DOUBLE = 0, MODE_TWO_PHASE = 1, MODE_FLOAT = 2;

    static final double NONE = 8.0;
    /** A lone root of the start ball within this pseudo-angle of v_s is v_s itself (device arithmetic, fused
     * multiply-adds, moves it by more than the host's rounding). */
    static final double START_ROOT = 1e-5;
    static final float NONE_F = 8.0f;
    static final float FRAGILE = -1.0f;

    private VoronoiKernels() {
    }

    // floating-point abs/min/max by comparison: the JDK's Math versions reinterpret bits (for -0.0), which the
    // TornadoVM OpenCL backend does not implement
    static double absD(double v) {
        double a = v;
        if (v < 0.0) {
            a = -v;
        }
        return a;
    }

    static float absF(float v) {
        float a = v;
        if (v < 0.0f) {
            a = -v;
        }
        return a;
    }

    static double minD(double a, double b) {
        double m = a;
        if (b < a) {
            m = b;
        }
        return m;
    }

    static float maxF(float a, float b) {
        float m = a;
        if (b > a) {
            m = b;
        }
        return m;
    }

    static double maxD(double a, double b) {
        double m = a;
        if (b > a) {
            m = b;
        }
        return m;
    }

    /** A pseudo-angle in [0, 4) of the direction (x, y), monotone in the true angle atan2(y, x) mod 2 pi. */
    public static double pseudo(double x, double y) {
        double ax = absD(x);
        double ay = absD(y);
        double s = ax + ay;
        double t = 0.0;
        if (s > 0.0) {
            t = ay / s;
        }
        int xn = 0;
        int yn = 0;
        if (x < 0.0) {
            xn = 1;
        }
        if (y < 0.0) {
            yn = 1;
        }
        return quadrant(t, xn, yn);
    }

    static float pseudoF(float x, float y) {
        float ax = absF(x);
        float ay = absF(y);
        float s = ax + ay;
        float t = 0.0f;
        if (s > 0.0f) {
            t = ay / s;
        }
        int xn = 0;
        int yn = 0;
        if (x < 0.0f) {
            xn = 1;
        }
        if (y < 0.0f) {
            yn = 1;
        }
        return (float) quadrant(t, xn, yn);
    }

    /** The pseudo-angle from t = |y| / (|x| + |y|) and the signs of x and y (1: negative). */
    static double quadrant(double t, int xn, int yn) {
        int q = xn + 2 * yn; // 0: x >= 0, y >= 0; 1: x < 0, y >= 0; 2: x >= 0, y < 0; 3: x < 0, y < 0
        double p = t;
        if (q == 1) {
            p = 2.0 - t;
        }
        if (q == 3) {
            p = 2.0 + t;
        }
        if (q == 2) {
            p = 4.0 - t;
        }
        return p;
    }

    /** The x (cos-like) component of the unnormalised direction of pseudo-angle p. */
    static double pseudoX(double p) {
        double t = p;
        double sx = 1.0;
        if (p > 1.0) {
            t = 2.0 - p;
            sx = -1.0;
        }
        if (p > 2.0) {
            t = p - 2.0;
        }
        if (p > 3.0) {
            t = 4.0 - p;
            sx = 1.0;
        }
        return sx * (1.0 - t);
    }

    /** The y (sin-like) component of the unnormalised direction of pseudo-angle p. */
    static double pseudoY(double p) {
        double t = p;
        double sy = 1.0;
        if (p > 1.0) {
            t = 2.0 - p;
        }
        if (p > 2.0) {
            t = p - 2.0;
            sy = -1.0;
        }
        if (p > 3.0) {
            t = 4.0 - p;
        }
        return sy * t;
    }

    /**
     * theta (pseudo-angle) of the end-vertex candidate ball i for the edge whose frame starts at F[fo], in
     * double: the least valid root in (eps, theta_inf), or {@link #NONE} (8) if none. {@code isStart = 1} for
     * the start ball b_s, whose root at v_s is dropped.
     */
    public static double thetaD(double[] bx, double[] by, double[] bz, double[] br, int i, double[] f, int fo,
            int isStart, double eps) {
        // written flat (every value computed, validity counted in 'bad'): TornadoVM 5.2 miscompiled values
        // assigned under nested conditions
        double cx = bx[i] - f[fo + OX];
        double cy = by[i] - f[fo + OX + 1];
        double cz = bz[i] - f[fo + OX + 2];
        double ri = br[i] - f[fo + RG1];
        double ki = 0.5 * (cx * cx + cy * cy + cz * cz - ri * ri);
        double c2x = f[fo + C2X], c2y = f[fo + C2X + 1], c2z = f[fo + C2X + 2], r2 = f[fo + R2], k2 = f[fo + K2];
        double mx = f[fo + MX], my = f[fo + MX + 1], mz = f[fo + MX + 2], h = f[fo + H];
        // the candidate's plane k2 (c_i.w + r_i) = k_i (c2.w + r2), normalised
        double nx = k2 * cx - ki * c2x;
        double ny = k2 * cy - ki * c2y;
        double nz = k2 * cz - ki * c2z;
        double hi = ki * r2 - k2 * ri;
        double nn = Math.sqrt(nx * nx + ny * ny + nz * nz);
        int bad = 0;
        if (nn <= 0.0) {
            bad = bad + 1;
            nn = 1.0;
        }
        nx = nx / nn;
        ny = ny / nn;
        nz = nz / nn;
        hi = hi / nn;
        double c = mx * nx + my * ny + mz * nz;
        double det = 1.0 - c * c;
        if (det <= 1e-14) {
            bad = bad + 1;
            det = 1.0;
        }
        double a1 = (h - hi * c) / det;
        double a2 = (hi - h * c) / det;
        double w0x = a1 * mx + a2 * nx, w0y = a1 * my + a2 * ny, w0z = a1 * mz + a2 * nz;
        double dx = my * nz - mz * ny, dy = mz * nx - mx * nz, dz = mx * ny - my * nx;
        double t2 = (1.0 - (w0x * w0x + w0y * w0y + w0z * w0z)) / det;
        if (t2 < 0.0) {
            bad = bad + 1;
            t2 = 0.0;
        }
        double t = Math.sqrt(t2);
        double pa = rootD(w0x + t * dx, w0y + t * dy, w0z + t * dz, ri, f, fo);
        double pb = rootD(w0x - t * dx, w0y - t * dy, w0z - t * dz, ri, f, fo);
        // the start ball: drop the root nearer to v_s (theta = 0 on the circle)
        double da = minD(pa, 4.0 - pa);
        double db = minD(pb, 4.0 - pb);
        int valid = 0;
        if (pa < NONE) {
            valid = valid + 1;
        }
        if (pb < NONE) {
            valid = valid + 1;
        }
        int both = 0;
        if (valid == 2) {
            both = 1;
        }
        int aFirst = 0;
        if (da <= db) {
            aFirst = 1;
        }
        int aNear = 0;
        if (da < START_ROOT) {
            aNear = 1;
        }
        int bNear = 0;
        if (db < START_ROOT) {
            bNear = 1;
        }
        // two roots: drop the nearer; one root: drop it if it is v_s itself
        int dropA = isStart * (both * aFirst + (1 - both) * aNear);
        int dropB = isStart * (both * (1 - aFirst) + (1 - both) * bNear);
        if (dropA > 0) {
            pa = NONE;
        }
        if (dropB > 0) {
            pb = NONE;
        }
        double pinf = f[fo + PINF];
        double result = better(NONE, pa, eps, pinf);
        result = better(result, pb, eps, pinf);
        if (bad > 0) {
            result = NONE;
        }
        return result;
    }

    /** The least of best and p, counting p only when it lies in (lo, hi). */
    static double better(double best, double p, double lo, double hi) {
        int ok = 0;
        if (p > lo) {
            ok = ok + 1;
        }
        if (p < hi) {
            ok = ok + 1;
        }
        if (p < best) {
            ok = ok + 1;
        }
        double r = best;
        if (ok == 3) {
            r = p;
        }
        return r;
    }

    static float betterF(float best, float p, float lo, float hi) {
        int ok = 0;
        if (p > lo) {
            ok = ok + 1;
        }
        if (p < hi) {
            ok = ok + 1;
        }
        if (p < best) {
            ok = ok + 1;
        }
        float r = best;
        if (ok == 3) {
            r = p;
        }
        return r;
    }

    /** 1 (two-phase: fragile candidates flagged for the double phase) unless the precision is float (0: plain float). */
    static int strictF(int[] ip) {
        int s = 1;
        if (ip[I_MODE] == MODE_FLOAT) {
            s = 0;
        }
        return s;
    }

    /** 1 if |v - c| &lt; tol. */
    static int near(float v, float c, float tol) {
        int r = 0;
        if (absF(v - c) < tol) {
            r = 1;
        }
        return r;
    }

    /** theta of root w if it is a valid tangent sphere (den &gt; 0, rho + r_i &gt;= 0), else NONE. */
    private static double rootD(double wx, double wy, double wz, double ri, double[] f, int fo) {
        double den = f[fo + C2X] * wx + f[fo + C2X + 1] * wy + f[fo + C2X + 2] * wz + f[fo + R2];
        int ok = 0;
        if (den > 0.0) {
            ok = ok + 1;
        }
        double rho = f[fo + K2] / maxD(den, 1e-300);
        if (rho + ri >= 0.0) {
            ok = ok + 1;
        }
        double p = pseudo(f[fo + E1X] * wx + f[fo + E1X + 1] * wy + f[fo + E1X + 2] * wz,
                f[fo + E2X] * wx + f[fo + E2X + 1] * wy + f[fo + E2X + 2] * wz);
        if (ok < 2) {
            p = NONE;
        }
        return p;
    }

    /**
     * Phase 1 of the two-phase search (Alg. 5.4) in float: theta of candidate i as {@link #thetaD}, or
     * {@link #NONE_F}, or {@link #FRAGILE} (-1) when a decision is too close to call in float (near-parallel
     * planes, near-tangential roots, a root near infinity, near v_s on either side, near theta_inf, the start ball): such a
     * candidate is always recomputed in double in phase 2.
     */
    public static float thetaF(float[] bx, float[] by, float[] bz, float[] br, int i, float[] f, int fo, int isStart,
            float tol, int strict) {
        float cx = bx[i] - f[fo + OX];
        float cy = by[i] - f[fo + OX + 1];
        float cz = bz[i] - f[fo + OX + 2];
        float ri = br[i] - f[fo + RG1];
        float ki = 0.5f * (cx * cx + cy * cy + cz * cz - ri * ri);
        float c2x = f[fo + C2X], c2y = f[fo + C2X + 1], c2z = f[fo + C2X + 2], r2 = f[fo + R2], k2 = f[fo + K2];
        float mx = f[fo + MX], my = f[fo + MX + 1], mz = f[fo + MX + 2], h = f[fo + H];
        float nx = k2 * cx - ki * c2x;
        float ny = k2 * cy - ki * c2y;
        float nz = k2 * cz - ki * c2z;
        float hi = ki * r2 - k2 * ri;
        float nn = (float) Math.sqrt(nx * nx + ny * ny + nz * nz);
        int bad = 0;
        int fragile = isStart;
        if (nn <= 0.0f) {
            bad = bad + 1;
            nn = 1.0f;
        }
        nx = nx / nn;
        ny = ny / nn;
        nz = nz / nn;
        hi = hi / nn;
        float c = mx * nx + my * ny + mz * nz;
        float det = 1.0f - c * c;
        if (det < 1e-3f) {
            fragile = fragile + 1;
            det = 1.0f;
        }
        float a1 = (h - hi * c) / det;
        float a2 = (hi - h * c) / det;
        float w0x = a1 * mx + a2 * nx, w0y = a1 * my + a2 * ny, w0z = a1 * mz + a2 * nz;
        float dx = my * nz - mz * ny, dy = mz * nx - mx * nz, dz = mx * ny - my * nx;
        float t2 = (1.0f - (w0x * w0x + w0y * w0y + w0z * w0z)) / det;
        if (absF(t2) < 1e-3f) {
            fragile = fragile + 1;
        }
        if (t2 < 0.0f) {
            bad = bad + 1;
            t2 = 0.0f;
        }
        float t = (float) Math.sqrt(t2);
        float pa = rootF(w0x + t * dx, w0y + t * dy, w0z + t * dz, ri, f, fo, tol, strict);
        float pb = rootF(w0x - t * dx, w0y - t * dy, w0z - t * dz, ri, f, fo, tol, strict);
        float pinf = f[fo + PINF];
        float lo = tol * strict;
        float result = betterF(NONE_F, pa, lo, pinf);
        result = betterF(result, pb, lo, pinf);
        // fragile: a root flagged so, or near v_s (either side), or near theta_inf
        fragile = fragile + near(pa, FRAGILE, 0.5f) + near(pb, FRAGILE, 0.5f) + near(pa, 0.0f, tol) + near(pb, 0.0f, tol)
                + near(pa, 4.0f, tol) + near(pb, 4.0f, tol) + near(pa, pinf, tol) + near(pb, pinf, tol);
        if (bad > 0) {
            result = NONE_F;
        }
        if (fragile * strict > 0) {
            result = FRAGILE;
        }
        return result;
    }

    private static float rootF(float wx, float wy, float wz, float ri, float[] f, int fo, float tol, int strict) {
        float c2x = f[fo + C2X], c2y = f[fo + C2X + 1], c2z = f[fo + C2X + 2], r2 = f[fo + R2];
        float den = c2x * wx + c2y * wy + c2z * wz + r2;
        float scale = absF(c2x) + absF(c2y) + absF(c2z) + absF(r2);
        float rho = f[fo + K2] / maxF(den, 1e-30f);
        float m = tol * (rho + absF(ri));
        int state = 0; // 0: no tangent sphere, 1: fragile, 2: valid
        int ok = 0;
        if (den >= tol * scale) {
            ok = ok + 1;
        }
        if (rho + ri >= m) {
            ok = ok + 1;
        }
        if (ok == 2) {
            state = 2;
        }
        int edge = 0;
        if (den >= tol * scale) {
            edge = edge + 1;
        }
        if (absF(rho + ri) < m) {
            edge = edge + 1;
        }
        if (edge == 2) {
            state = 1;
        }
        if (absF(den) < tol * scale) {
            state = 1;
        }
        // not strict (precision float): valid as in double, den > 0 and rho + r_i >= 0, nothing fragile
        int plain = 0;
        if (den > 0.0f) {
            plain = plain + 1;
        }
        if (rho + ri >= 0.0f) {
            plain = plain + 1;
        }
        if (strict == 0) {
            state = 0;
        }
        if (strict + plain == 2) {
            state = 2;
        }
        float p = pseudoF(f[fo + E1X] * wx + f[fo + E1X + 1] * wy + f[fo + E1X + 2] * wz,
                f[fo + E2X] * wx + f[fo + E2X + 1] * wy + f[fo + E2X + 2] * wz);
        if (state == 0) {
            p = NONE_F;
        }
        if (state == 1) {
            p = FRAGILE;
        }
        return p;
    }

    /**
     * The radius about c_g1 within which every ball that could end the edge before pseudo-angle pEnd lies
     * (the grid pruning's proof): a ball touching the edge's sphere at q (|q - c_g1| = rho_q) has
     * |c_i - c_g1| &lt;= 2 rho_q + r_i - r_g1, and rho = k2/den is largest where den is least on [0, pEnd]
     * (den = A + a cos theta + b sin theta, least at theta* if inside, else at an end). Infinite if den vanishes.
     */
    public static double needRadius(double[] f, int fo, double pEnd, double rmax) {
        double ux = pseudoX(pEnd);
        double uy = pseudoY(pEnd);
        double len = RobustTheta.sqrtD(ux * ux + uy * uy); // the device's sqrt may be float-accurate
        double den1 = f[fo + DENA] + (f[fo + DENCA] * ux + f[fo + DENSB] * uy) / len;
        double den0 = f[fo + DENA] + f[fo + DENCA];
        double low = minD(den0, den1);
        if (f[fo + PSTAR] <= pEnd) {
            low = minD(low, f[fo + DENMIN]);
        }
        double need = 1e300;
        if (low > 0.0) {
            need = 2.0 * f[fo + K2] / low + rmax - f[fo + RG1];
        }
        return need;
    }

    /**
     * The end ball of edge e (Alg. 2.1 / 5.2): over the candidates of the grid cells within Q of c_g1 (all balls
     * if the grid is off or Q covers them), with Q grown until {@link #needRadius} proves no farther ball can
     * come first. Mode double: theta in double; float: phase 1 only; two-phase: phase 1 in float, then every
     * suspect (theta within thres of the float minimum, or fragile) in double, the final choice in double.
     * The start ball b_s is not a candidate here: as in Alg. 5.2 the host recomputes its second root in double
     * ({@link #thetaD} with isStart = 1) and takes it when it comes first.
     * Writes out[e*OS ..]: end ball among the others (-1: none before infinity), phase-1 ball, double
     * evaluations, passes.
     */
    public static void searchEdge(int e, double[] bx, double[] by, double[] bz, double[] br, float[] fx, float[] fy,
            float[] fz, float[] fr, int[] cellStart, int[] cellBalls, double[] p, int[] ip, double[] frames,
            float[] framesF, int[] gates, int[] out) {
        int fo = e * FS;
        int go = e * GS;
        int mode = ip[I_MODE];
        double q = EndVertexScans.firstRadius(p, frames, fo);
        int done = 0;
        int best = -1;
        int bestF = -1;
        int passes = 0;
        out[e * OS + 2] = 0;
        for (int pass = 0; pass < 12; pass++) {
            if (done == 0) {
                int full = 0;
                if (ip[I_GRID] == 0) {
                    full = 1;
                }
                if (q >= p[P_COVER]) {
                    full = 1;
                }
                if (pass == 11) {
                    full = 1;
                }
                bestF = -1;
                double minF = NONE;
                int total = 0; // the candidate count, for the float and two-phase sweeps
                if (mode != MODE_DOUBLE) {
                    total = EndVertexScans.boxTotal(e, q, full, cellStart, p, ip, frames);
                    bestF = EndVertexScans.scanFloat(e, 0, 1, total, q, full, bx, by, bz, fx, fy, fz, fr, cellStart, cellBalls, p, ip, frames, framesF,
                            gates);
                }
                if (bestF >= 0) {
                    minF = thetaF(fx, fy, fz, fr, bestF, framesF, fo, 0, (float) p[P_THRES], strictF(ip));
                }
                if (mode == MODE_FLOAT) {
                    best = bestF;
                }
                if (mode == MODE_DOUBLE) {
                    best = EndVertexScans.scanDouble(e, q, full, bx, by, bz, br, cellStart, cellBalls, p, ip, frames, gates);
                }
                if (mode == MODE_TWO_PHASE) {
                    float cut = (float) minF + (float) p[P_THRES];
                    best = EndVertexScans.scanSuspects(cut, e, 0, 1, total, q, full, bx, by, bz, br, fx, fy, fz, fr, cellStart,
                            cellBalls, p, ip, frames, framesF, gates, out, e * OS + 2);
                }
                passes = pass + 1;
                if (full == 1) {
                    done = 1;
                }
                if (done == 0) {
                    double need = 1e300;
                    if (best >= 0) {
                        double pe = thetaD(bx, by, bz, br, best, frames, fo, 0, p[P_EPS]);
                        need = needRadius(frames, fo, pe, p[P_RMAX]);
                    }
                    if (need <= q) {
                        done = 1;
                    }
                    q = maxD(need, 2.0 * q);
                }
            }
        }
        if (mode == MODE_DOUBLE) {
            bestF = best;
        }
        out[e * OS] = best;
        out[e * OS + 1] = bestF;
        out[e * OS + 3] = passes;
    }

    public static int startFlag(int i, int[] gates, int go) {
        int s = 0;
        if (i == gates[go + 3]) {
            s = 1;
        }
        return s;
    }

    /** First cell index along one axis of the cube of half-side q about coordinate o (0 when full). */
    static int cellLo(double o, double q, double g0, double cell, int full) {
        int c = 0;
        if (full == 0) {
            c = Math.max(0, (int) ((o - q - g0) / cell)); // truncation: a superset of the cells floor gives
        }
        return c;
    }

    /** Last cell index along one axis (n - 1 when full). */
    static int cellHi(double o, double q, double g0, double cell, int n, int full) {
        int c = n - 1;
        if (full == 0) {
            c = Math.min(n - 1, (int) ((o + q - g0) / cell));
        }
        return c;
    }

    /**
     * The squared search radius after a candidate at pseudo-angle pEnd was found: no ball farther from c_g1 than
     * {@link #needRadius}(pEnd) can end the edge before it, so the sweep skips them (beyond the paper).
     */
    static double shrink(double q2, double[] frames, int fo, double pEnd, double rmax) {
        double nr = needRadius(frames, fo, pEnd, rmax);
        return minD(q2, nr * nr);
    }

    /** 1 if candidate i is neither a gate nor the start ball and lies within sqrt(q2) of c_g1, else 0. */
    static int inRange(double[] bx, double[] by, double[] bz, int i, int g1, int g2, int g3, int s, double ox,
            double oy, double oz, double q2) {
        double dx = bx[i] - ox, dy = by[i] - oy, dz = bz[i] - oz;
        int bad = 0;
        if (dx * dx + dy * dy + dz * dz > q2) {
            bad = bad + 1;
        }
        if (i == g1) {
            bad = bad + 1;
        }
        if (i == g2) {
            bad = bad + 1;
        }
        if (i == g3) {
            bad = bad + 1;
        }
        if (i == s) {
            bad = bad + 1;
        }
        int ok = 0;
        if (bad == 0) {
            ok = 1;
        }
        return ok;
    }
}
