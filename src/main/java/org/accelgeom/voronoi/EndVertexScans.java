package org.accelgeom.voronoi;

import static org.accelgeom.voronoi.VoronoiKernels.*;

/**
 * The sweeps of the end-vertex search over the grid candidates of an edge, split over {@code lanes} work-items
 * (the thesis' Alg. 5.4 gives each candidate its own thread; here lane l of an edge takes the candidates at
 * positions l, l + lanes, l + 2 lanes, ... of the edge's candidate list, the balls of the cells within q of
 * c_g1 in cell order), and the per-edge reduction of the lanes' results (Alg. 5.4's arg-min reduction, then the
 * pruning proof of {@link VoronoiKernels#needRadius}). {@code lanes = 1} is the serial sweep of Alg. 2.1 that
 * {@link VoronoiKernels#searchEdge} runs on the JVM backends; the tornado backend runs {@link #searchLane} with
 * {@link #LANES} lanes per edge, then {@link #reduceLanes} per edge, for up to {@link #PASSES} pruning passes.
 *
 * <p>Two-phase in a lane ({@link #scanTwoPhase}): one sweep computes the float theta of each candidate and
 * recomputes in double those within thres of the lane's running float minimum, or fragile. The running minimum is
 * never below the edge's final one, so these contain the edge's suspects of Alg. 5.5: the double arg-min over
 * them is the same ball.
 */
public final class EndVertexScans {

    /** Work-items per edge on the device (a warp: one edge's lanes read the same frame). */
    public static final int LANES = 32;
    /** Pruning passes of the device search; the last one scans every cell. */
    public static final int PASSES = 3;
    /** Ints per lane result: float arg-min, double arg-min, double evaluations (+ TIE when a near tie was seen). */
    public static final int LS = 3;
    /**
     * Flag added to a lane's evaluation count and to out[e*OS+3] (the passes) when two candidates' double theta
     * came within {@link #TIE_BAND} of each other at the minimum: the device's arithmetic (contracted multiply-adds)
     * may order them otherwise than the host, so the host decides such an edge again ({@link VoronoiKernels#searchEdge}).
     */
    public static final int TIE = 1 << 20;
    /**
     * Flag of a lane result (li[LS k + 2]) whose arg-min is uncertain ({@link RobustTheta}: a borderline decision
     * of the device's arithmetic); {@link #reduceLanes} turns it into {@link #TIE} when that lane wins.
     */
    public static final int UNCERTAIN = 1 << 21;
    /** The near-tie band of double theta (pseudo-angle units). */
    public static final double TIE_BAND = 1e-9;

    private EndVertexScans() {
    }

    /**
     * The float copy of frame e on the device, as {@link EdgeFrames#toFloat} makes it on the host: every value
     * rounded to float, the origin shifted by p[P_SHIFT ..] as the float balls are (only the double frame is uploaded).
     */
    public static void floatFrame(int e, double[] p, double[] frames, float[] framesF) {
        floatFrameAt(e * FS, p[P_SHIFT], p[P_SHIFT + 1], p[P_SHIFT + 2], frames, framesF);
    }

    /**
     * The float copy of the frame at fo, its origin shifted by (sx, sy, sz) as the float ball arrays are: the device
     * makes it ({@link #floatFrame}) and the host for the jvm backends ({@code EdgeFrames.toFloat}), one code.
     */
    static void floatFrameAt(int fo, double sx, double sy, double sz, double[] frames, float[] framesF) {
        for (int k = 0; k < FS; k++) {
            framesF[fo + k] = (float) frames[fo + k];
        }
        framesF[fo + OX] = (float) (frames[fo + OX] - sx);
        framesF[fo + OX + 1] = (float) (frames[fo + OX + 1] - sy);
        framesF[fo + OX + 2] = (float) (frames[fo + OX + 2] - sz);
    }

    /** The first search radius of the edge at frame fo: GROW times the bound of the start vertex's sphere. */
    public static double firstRadius(double[] p, double[] frames, int fo) {
        double den0 = frames[fo + DENA] + frames[fo + DENCA];
        return 2.0 * p[P_GROW] * frames[fo + K2] / den0 + p[P_RMAX] - frames[fo + RG1];
    }

    /** First cell along axis a (0 x, 1 y, 2 z) of the box of cells within q of c_g1 of edge e (0 when full). */
    static int boxLo(int e, int a, double q, int full, double[] p, double[] frames) {
        return cellLo(frames[e * FS + OX + a], q, p[P_GX + a], p[P_CELL], full);
    }

    /** Width in cells of that box along axis a. */
    static int boxW(int e, int a, double q, int full, double[] p, int[] ip, double[] frames) {
        int lo = cellLo(frames[e * FS + OX + a], q, p[P_GX + a], p[P_CELL], full);
        int hi = cellHi(frames[e * FS + OX + a], q, p[P_GX + a], p[P_CELL], ip[I_NX + a], full);
        return Math.max(0, hi - lo + 1);
    }

    /** The number of balls in the box of cells within q of c_g1: the length of the edge's candidate list. */
    public static int boxTotal(int e, double q, int full, int[] cellStart, double[] p, int[] ip, double[] frames) {
        int x0 = boxLo(e, 0, q, full, p, frames), y0 = boxLo(e, 1, q, full, p, frames), z0 = boxLo(e, 2, q, full, p, frames);
        int wx = boxW(e, 0, q, full, p, ip, frames), wy = boxW(e, 1, q, full, p, ip, frames);
        int rows = wy * boxW(e, 2, q, full, p, ip, frames);
        int nx = ip[I_NX], ny = ip[I_NX + 1];
        int total = 0;
        int ry = 0;
        int rz = 0;
        for (int r = 0; r < rows; r++) {
            int c0 = ((z0 + rz) * ny + y0 + ry) * nx + x0;
            total += cellStart[c0 + wx] - cellStart[c0];
            ry = ry + 1;
            int wrap = 0;
            if (ry == wy) {
                wrap = 1;
            }
            ry = ry - wrap * wy;
            rz = rz + wrap;
        }
        return total;
    }

    /** 1 if a and b differ by less than {@link #TIE_BAND} (and a is a valid theta). */
    static int nearTie(double a, double b) {
        double d = a - b;
        int n = 0;
        if (d < TIE_BAND) {
            n = n + 1;
        }
        if (d > -TIE_BAND) {
            n = n + 1;
        }
        if (a < NONE) {
            n = n + 1;
        }
        int r = 0;
        if (n == 3) {
            r = 1;
        }
        return r;
    }

    /** The squared radius of a sweep: q^2, or unbounded when full. */
    static double radius2(double q, int full) {
        double q2 = q * q;
        if (full == 1) {
            q2 = 1e300;
        }
        return q2;
    }

    /**
     * scanDouble (the JVM backends): arg-min of theta in double over the edge's candidates (the ball, or -1). The
     * sweep radius shrinks to the proven radius of the best found so far ({@link VoronoiKernels#shrink}), and a
     * candidate whose plane stays clear of the arc still open is not evaluated ({@link ArcSweep}). A JVM sweep: the
     * device runs {@link #scanDoubleU}.
     */
    public static int scanDouble(int e, double q, int full, double[] bx, double[] by, double[] bz, double[] br, int[] cellStart, int[] cellBalls, double[] p, int[] ip, double[] frames,
            int[] gates) {
        return ArcSweep.argMin(e, q, full, bx, by, bz, br, cellStart, cellBalls, p, ip, frames, gates);
    }

    /**
     * scanDouble on the device: as {@link #scanDouble}, theta by {@link RobustTheta} (the least possible theta of an
     * uncertain candidate: the shrunk radius stays proven); tie[to] gets TIE for a near tie, UNCERTAIN when the
     * arg-min is uncertain.
     */
    static int scanDoubleU(int e, int lane, int lanes, int total, double q, int full, double[] bx, double[] by,
            double[] bz, double[] br, int[] cellStart, int[] cellBalls, double[] p, int[] ip, double[] frames,
            int[] gates, int[] tie, int to) {
        int fo = e * FS;
        int go = e * GS;
        int x0 = boxLo(e, 0, q, full, p, frames), y0 = boxLo(e, 1, q, full, p, frames), z0 = boxLo(e, 2, q, full, p, frames);
        int wx = boxW(e, 0, q, full, p, ip, frames), wy = boxW(e, 1, q, full, p, ip, frames);
        double ox = frames[fo + OX], oy = frames[fo + OX + 1], oz = frames[fo + OX + 2];
        double q2 = radius2(q, full);
        double eps = p[P_EPS];
        int arg = -1;
        double minD = NONE;
        int ties = 0;
        int uncD = 0;
        // the candidates: the rows of cells (x0 .. x0+wx-1, y, z), each a contiguous run of cellBalls
        int nx = ip[I_NX], ny = ip[I_NX + 1];
        int ry = 0;
        int rz = 0;
        int c0 = (z0 * ny + y0) * nx + x0;
        int start = cellStart[c0];
        int base = 0;
        int cnt = cellStart[c0 + wx] - start;
        for (int pos = lane; pos < total; pos += lanes) {
            while (pos >= base + cnt) {
                base = base + cnt;
                ry = ry + 1;
                int wrap = 0;
                if (ry == wy) {
                    wrap = 1;
                }
                ry = ry - wrap * wy;
                rz = rz + wrap;
                c0 = ((z0 + rz) * ny + y0 + ry) * nx + x0;
                start = cellStart[c0];
                cnt = cellStart[c0 + wx] - start;
            }
            int i = cellBalls[start + pos - base];
            if (inRange(bx, by, bz, i, gates[go], gates[go + 1], gates[go + 2], gates[go + 3], ox, oy, oz, q2) == 1) {
                double tu = RobustTheta.theta(bx, by, bz, br, i, frames, fo, eps);
                int unc = RobustTheta.flagged(tu);
                double t = tu - RobustTheta.FLAG * unc;
                ties = ties + nearTie(t, minD);
                if (t < minD) {
                    minD = t;
                    arg = i;
                    uncD = unc;
                    q2 = shrink(q2, frames, fo, t, p[P_RMAX]);
                }
            }
        }
        int flag = 0;
        if (ties > 0) {
            flag = TIE;
        }
        tie[to] = flag + UNCERTAIN * uncD;
        return arg;
    }

    /** scanFloat: arg-min of the float theta over the lane's candidates, fragile ones ignored (phase 1). */
    public static int scanFloat(int e, int lane, int lanes, int total, double q, int full, double[] bx, double[] by, double[] bz,
            float[] fx, float[] fy, float[] fz, float[] fr, int[] cellStart, int[] cellBalls, double[] p, int[] ip,
            double[] frames, float[] framesF, int[] gates) {
        int fo = e * FS;
        int go = e * GS;
        int x0 = boxLo(e, 0, q, full, p, frames), y0 = boxLo(e, 1, q, full, p, frames), z0 = boxLo(e, 2, q, full, p, frames);
        int wx = boxW(e, 0, q, full, p, ip, frames), wy = boxW(e, 1, q, full, p, ip, frames);
        double ox = frames[fo + OX], oy = frames[fo + OX + 1], oz = frames[fo + OX + 2];
        double q2 = radius2(q, full);
        float tol = (float) p[P_THRES];
        int strict = strictF(ip);
        int arg = -1;
        float minF = NONE_F;
        // the candidates: the rows of cells (x0 .. x0+wx-1, y, z), each a contiguous run of cellBalls
        int nx = ip[I_NX], ny = ip[I_NX + 1];
        int ry = 0;
        int rz = 0;
        int c0 = (z0 * ny + y0) * nx + x0;
        int start = cellStart[c0];
        int base = 0;
        int cnt = cellStart[c0 + wx] - start;
        for (int pos = lane; pos < total; pos += lanes) {
            while (pos >= base + cnt) {
                base = base + cnt;
                ry = ry + 1;
                int wrap = 0;
                if (ry == wy) {
                    wrap = 1;
                }
                ry = ry - wrap * wy;
                rz = rz + wrap;
                c0 = ((z0 + rz) * ny + y0 + ry) * nx + x0;
                start = cellStart[c0];
                cnt = cellStart[c0 + wx] - start;
            }
            int i = cellBalls[start + pos - base];
            if (inRange(bx, by, bz, i, gates[go], gates[go + 1], gates[go + 2], gates[go + 3], ox, oy, oz, q2) == 1) {
                float t = thetaF(fx, fy, fz, fr, i, framesF, fo, 0, tol, strict);
                int lower = 0;
                if (t >= 0.0f) {
                    lower = lower + 1;
                }
                if (t < minF) {
                    lower = lower + 1;
                }
                if (lower == 2) {
                    minF = t;
                    arg = i;
                    q2 = shrink(q2, frames, fo, minD(t + 4.0 * tol, 3.999999), p[P_RMAX]);
                }
            }
        }
        return arg;
    }

    /**
     * scanSuspects (phase 2): float theta again, double theta for the suspects (theta_f &lt;= cut, or fragile);
     * arg-min of the double values. Adds the number of double evaluations to count[co].
     */
    public static int scanSuspects(float cut, int e, int lane, int lanes, int total, double q, int full, double[] bx, double[] by,
            double[] bz, double[] br, float[] fx, float[] fy, float[] fz, float[] fr, int[] cellStart, int[] cellBalls,
            double[] p, int[] ip, double[] frames, float[] framesF, int[] gates, int[] count, int co) {
        int fo = e * FS;
        int go = e * GS;
        int x0 = boxLo(e, 0, q, full, p, frames), y0 = boxLo(e, 1, q, full, p, frames), z0 = boxLo(e, 2, q, full, p, frames);
        int wx = boxW(e, 0, q, full, p, ip, frames), wy = boxW(e, 1, q, full, p, ip, frames);
        double ox = frames[fo + OX], oy = frames[fo + OX + 1], oz = frames[fo + OX + 2];
        double q2 = radius2(q, full);
        float tol = (float) p[P_THRES];
        double eps = p[P_EPS];
        int arg = -1;
        double minD = NONE;
        int suspects = 0;
        // the candidates: the rows of cells (x0 .. x0+wx-1, y, z), each a contiguous run of cellBalls
        int nx = ip[I_NX], ny = ip[I_NX + 1];
        int ry = 0;
        int rz = 0;
        int c0 = (z0 * ny + y0) * nx + x0;
        int start = cellStart[c0];
        int base = 0;
        int cnt = cellStart[c0 + wx] - start;
        for (int pos = lane; pos < total; pos += lanes) {
            while (pos >= base + cnt) {
                base = base + cnt;
                ry = ry + 1;
                int wrap = 0;
                if (ry == wy) {
                    wrap = 1;
                }
                ry = ry - wrap * wy;
                rz = rz + wrap;
                c0 = ((z0 + rz) * ny + y0 + ry) * nx + x0;
                start = cellStart[c0];
                cnt = cellStart[c0 + wx] - start;
            }
            int i = cellBalls[start + pos - base];
            if (inRange(bx, by, bz, i, gates[go], gates[go + 1], gates[go + 2], gates[go + 3], ox, oy, oz, q2) == 1) {
                float tf = thetaF(fx, fy, fz, fr, i, framesF, fo, 0, tol, 1);
                int suspect = 0;
                if (tf < 0.0f) {
                    suspect = 1;
                }
                if (tf <= cut) {
                    suspect = 1;
                }
                if (suspect == 1) {
                    suspects++;
                    double t = thetaD(bx, by, bz, br, i, frames, fo, 0, eps);
                    if (t < minD) {
                        minD = t;
                        arg = i;
                        q2 = shrink(q2, frames, fo, t, p[P_RMAX]);
                    }
                }
            }
        }
        count[co] = count[co] + suspects;
        return arg;
    }

    /** 1 if the sweep of pass 'pass' at radius q scans every cell (grid off, q covers the grid, or the last pass). */
    static int fullSweep(double q, int pass, int lastPass, double[] p, int[] ip) {
        int full = 0;
        if (ip[I_GRID] == 0) {
            full = 1;
        }
        if (q >= p[P_COVER]) {
            full = 1;
        }
        if (pass == lastPass) {
            full = 1;
        }
        return full;
    }

    /**
     * Lane k (edge k / lanes) of pass 'pass' of the device search: the edge's search radius (pass 0: the first;
     * then qs[e], which {@link #reduceLanes} grew), the lane's sweeps in the precision mode, and its results:
     * lf[k] float minimum (phase 1), ld[k] theta in double of the lane's end ball, li[LS k ..]: float arg-min,
     * final arg-min, double evaluations. Call only for live edges (pass 0, or qs[e] &gt; 0).
     */
    public static void searchLane(int k, int lanes, int pass, double[] bx, double[] by, double[] bz, double[] br,
            float[] fx, float[] fy, float[] fz, float[] fr, int[] cellStart, int[] cellBalls, double[] p, int[] ip,
            double[] frames, float[] framesF, int[] gates, double[] qs, float[] lf, double[] ld, int[] li) {
        int e = k / lanes;
        int lane = k - e * lanes;
        int fo = e * FS;
        int mode = ip[I_MODE];
        double q = qs[e];
        if (pass == 0) {
            q = firstRadius(p, frames, fo);
        }
        int full = fullSweep(q, pass, PASSES - 1, p, ip);
        int total = boxTotal(e, q, full, cellStart, p, ip, frames);
        li[LS * k + 2] = 0;
        int argF = -1;
        float minF = NONE_F;
        if (mode == MODE_FLOAT) {
            argF = scanFloat(e, lane, lanes, total, q, full, bx, by, bz, fx, fy, fz, fr, cellStart, cellBalls, p, ip, frames,
                    framesF, gates);
        }
        if (argF >= 0) {
            minF = thetaF(fx, fy, fz, fr, argF, framesF, fo, 0, (float) p[P_THRES], strictF(ip));
        }
        int arg = argF;
        if (mode == MODE_DOUBLE) {
            arg = scanDoubleU(e, lane, lanes, total, q, full, bx, by, bz, br, cellStart, cellBalls, p, ip, frames, gates, li,
                    LS * k + 2);
        }
        double t = NONE;
        double tu = NONE;
        if (arg >= 0) {
            t = thetaD(bx, by, bz, br, arg, frames, fo, 0, p[P_EPS]);
            tu = RobustTheta.theta(bx, by, bz, br, arg, frames, fo, p[P_EPS]);
        }
        // double: the arg-min's own (least possible) theta, as the lanes compare it; float: the plain double theta
        double tr = tu - RobustTheta.FLAG * RobustTheta.flagged(tu);
        if (mode == MODE_DOUBLE) {
            t = tr;
        }
        if (mode != MODE_TWO_PHASE) {
            lf[k] = minF;
            ld[k] = t;
            li[LS * k] = argF;
            li[LS * k + 1] = arg;
        }
        if (mode == MODE_TWO_PHASE) {
            scanTwoPhase(k, e, lane, lanes, total, q, full, bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, p, ip,
                    frames, framesF, gates, lf, ld, li);
        }
    }

    /**
     * Both phases of a lane in one sweep (the device's two-phase search): float theta of every candidate and the
     * running float minimum (phase 1, the sweep radius shrinking with the float bound as in {@link #scanFloat}, so
     * the float winner is scanFloat's), and double theta at once for every candidate within thres of the running
     * float minimum, or fragile (phase 2). The running minimum is never below the final one, so the candidates
     * recomputed in double contain those of the separate phase 2 ({@link #scanSuspects}): the double arg-min is the
     * same ball, and the candidates are read once. Writes lf[k], ld[k], li[LS k ..] as {@link #searchLane}.
     */
    static void scanTwoPhase(int k, int e, int lane, int lanes, int total, double q, int full, double[] bx, double[] by,
            double[] bz, double[] br, float[] fx, float[] fy, float[] fz, float[] fr, int[] cellStart, int[] cellBalls,
            double[] p, int[] ip, double[] frames, float[] framesF, int[] gates, float[] lf, double[] ld, int[] li) {
        int fo = e * FS;
        int go = e * GS;
        int x0 = boxLo(e, 0, q, full, p, frames), y0 = boxLo(e, 1, q, full, p, frames), z0 = boxLo(e, 2, q, full, p, frames);
        int wx = boxW(e, 0, q, full, p, ip, frames), wy = boxW(e, 1, q, full, p, ip, frames);
        double ox = frames[fo + OX], oy = frames[fo + OX + 1], oz = frames[fo + OX + 2];
        double q2 = radius2(q, full);
        float tol = (float) p[P_THRES];
        double eps = p[P_EPS];
        int argF = -1;
        float minF = NONE_F;
        int argD = -1;
        double minDv = NONE;
        int suspects = 0;
        int ties = 0;
        int uncD = 0;
        // the candidates: the rows of cells (x0 .. x0+wx-1, y, z), each a contiguous run of cellBalls
        int nx = ip[I_NX], ny = ip[I_NX + 1];
        int ry = 0;
        int rz = 0;
        int c0 = (z0 * ny + y0) * nx + x0;
        int start = cellStart[c0];
        int base = 0;
        int cnt = cellStart[c0 + wx] - start;
        for (int pos = lane; pos < total; pos += lanes) {
            while (pos >= base + cnt) {
                base = base + cnt;
                ry = ry + 1;
                int wrap = 0;
                if (ry == wy) {
                    wrap = 1;
                }
                ry = ry - wrap * wy;
                rz = rz + wrap;
                c0 = ((z0 + rz) * ny + y0 + ry) * nx + x0;
                start = cellStart[c0];
                cnt = cellStart[c0 + wx] - start;
            }
            int i = cellBalls[start + pos - base];
            if (inRange(bx, by, bz, i, gates[go], gates[go + 1], gates[go + 2], gates[go + 3], ox, oy, oz, q2) == 1) {
                float tf = thetaF(fx, fy, fz, fr, i, framesF, fo, 0, tol, 1);
                int lower = 0;
                if (tf >= 0.0f) {
                    lower = lower + 1;
                }
                if (tf < minF) {
                    lower = lower + 1;
                }
                if (lower == 2) {
                    minF = tf;
                    argF = i;
                    q2 = shrink(q2, frames, fo, minD(tf + 4.0 * tol, 3.999999), p[P_RMAX]);
                }
                int suspect = 0;
                if (tf < 0.0f) {
                    suspect = 1;
                }
                if (tf <= minF + tol) {
                    suspect = 1;
                }
                if (suspect == 1) {
                    suspects++;
                    double tu = RobustTheta.theta(bx, by, bz, br, i, frames, fo, eps);
                    int unc = RobustTheta.flagged(tu);
                    double t = tu - RobustTheta.FLAG * unc;
                    ties = ties + nearTie(t, minDv);
                    if (t < minDv) {
                        minDv = t;
                        argD = i;
                        uncD = unc;
                    }
                }
            }
        }
        lf[k] = minF;
        ld[k] = minDv;
        li[LS * k] = argF;
        li[LS * k + 1] = argD;
        int flag = 0;
        if (ties > 0) {
            flag = TIE;
        }
        li[LS * k + 2] = suspects + flag + UNCERTAIN * uncD;
    }

    /**
     * Edge e after pass 'pass': the arg-min over its lanes (ties to the lower lane), then the pruning proof: done
     * when the sweep was full or {@link VoronoiKernels#needRadius} of the end ball is within the radius; else
     * qs[e] is the next radius (qs[e] = -1: done). Writes out[e*OS ..] as {@link VoronoiKernels#searchEdge} does.
     */
    public static void reduceLanes(int e, int lanes, int pass, float[] lf, double[] ld, int[] li, double[] qs,
            double[] p, int[] ip, double[] frames, int[] out) {
        int fo = e * FS;
        int mode = ip[I_MODE];
        float mf = NONE_F;
        int af = -1;
        int lfBest = e * lanes;
        double md = NONE;
        double md2 = NONE;
        int ad = -1;
        int sus = 0;
        int tie = 0;
        int adUnc = 0;
        for (int l = 0; l < lanes; l++) {
            int k = e * lanes + l;
            if (lf[k] < mf) {
                mf = lf[k];
                af = li[LS * k];
                lfBest = k;
            }
            double v = ld[k];
            int lower = 0;
            if (v < md) {
                lower = 1;
            }
            int c = li[LS * k + 2];
            int unc = 0;
            if (c >= UNCERTAIN) {
                unc = 1;
            }
            c = c - unc * UNCERTAIN;
            double second = md2;
            if (v < md2) {
                second = v;
            }
            if (lower == 1) {
                second = md;
            }
            md2 = second;
            if (lower == 1) {
                md = v;
                ad = li[LS * k + 1];
                adUnc = unc;
            }
            int flagged = 0;
            if (c >= TIE) {
                flagged = 1;
            }
            sus = sus + c - flagged * TIE;
            tie = tie + flagged;
        }
        int best = ad;
        double pe = md;
        if (mode == MODE_FLOAT) {
            best = af;
            pe = ld[lfBest];
        }
        if (mode == MODE_DOUBLE) {
            af = ad;
        }
        double q = qs[e];
        if (pass == 0) {
            q = firstRadius(p, frames, fo);
        }
        int full = fullSweep(q, pass, PASSES - 1, p, ip);
        double need = 1e300;
        if (best >= 0) {
            need = needRadius(frames, fo, pe, p[P_RMAX]);
        }
        int done = full;
        if (need <= q) {
            done = 1;
        }
        double next = maxD(need, 2.0 * q);
        if (done == 1) {
            next = -1.0;
        }
        int before = 0;
        if (pass > 0) {
            before = out[e * OS + 2];
        }
        out[e * OS] = best;
        out[e * OS + 1] = af;
        out[e * OS + 2] = before + sus;
        tie = tie + nearTie(md2, md);
        if (mode != MODE_FLOAT) {
            tie = tie + adUnc;
        }
        int tieFlag = 0;
        if (tie > 0) {
            tieFlag = TIE;
        }
        out[e * OS + 3] = pass + 1 + tieFlag;
        qs[e] = next;
    }
}
