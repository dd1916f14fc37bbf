package org.accelgeom.hull;

/**
 * Element kernels of the parallel QuickHull: static methods over primitive arrays and an index, in the
 * subset of Java that TornadoVM compiles. The {@code jvm} backend calls them in a plain loop, {@code jvm-parallel}
 * over fork/join chunks, {@code tornado} from {@code @Parallel} loops (see {@code hull.tornado.HullTaskGraphs}).
 *
 * <p>Precision: double throughout. Every above/below decision is a <em>filtered</em> test: the signed distance
 * {@code s} of a point to a face plane is computed in double together with a forward error bound {@code b}
 * (see {@link FacePlanes}); {@code s > b} is certainly above, {@code s < -b} certainly not above, anything else
 * is <em>uncertain</em> and is left to the host, which decides it with the exact predicates of
 * {@link Predicates}. So results are exact on every backend even though kernels only do floating point.
 *
 * <p>Plane layout: face f occupies {@code plane[6f .. 6f+5] = nx, ny, nz, off, beta, a1} where (nx, ny, nz) is
 * the unit outward normal, {@code off = n·a}, and the bound for point p is {@code beta * (|p|_1 + a1)}.
 *
 * <p>Point labels: {@code label[p] >= 0} is the face whose outside set holds p (the paper's step 2);
 * {@code -1} means p is no longer a candidate (interior, culled, or already a hull vertex);
 * {@code <= -2} encodes "uncertain at the cone of deleted face f" as {@code -2 - f}.
 * A deleted face f has {@code coneCount[f] > 0}: the faces {@code coneFirst[f] .. coneFirst[f]+coneCount[f]-1}
 * are the cone (step 7) of the insertion that deleted it. Face 0 is a virtual root whose cone is the initial
 * tetrahedron, so the paper's segmentation (step 2) is the same kernel as the reassignment (step 8).
 */
public final class HullKernels {

    /** Doubles per face in the plane array. */
    public static final int PLANE_STRIDE = 6;
    /** Directions handled per pass of {@link #extremesPartial}: kept in private arrays on the device. */
    public static final int DIR_BLOCK = 8;
    /** Index of the "some point was uncertain" flag. */
    public static final int FLAG_UNCERTAIN = 0;
    /** Index of the first "farthest pass j changed something" flag. */
    public static final int FLAG_PASS = 1;

    private HullKernels() {
    }

    /**
     * Steps 2 and 8 (segmentation and reassignment) for the point {@code active[i]}: while its face is deleted,
     * move it to the first face of that face's cone that it is certainly above; if it is above none, it is
     * inside the new hull and gets label -1 (QuickHull's lemma: a point above a visible face is above a new
     * face or inside). Its signed distance to the final face goes to {@code dist}, for the farthest-point step.
     */
    public static void reassign(double[] x, double[] y, double[] z, int[] active, int i, int[] label, double[] dist,
            double[] plane, int[] coneFirst, int[] coneCount, int[] flags) {
        int p = active[i];
        int f = label[p];
        if (f < 0) {
            return;
        }
        if (coneCount[f] == 0) {
            return;
        }
        double d = 0.0; // the signed distance to the final face
        double px = x[p];
        double py = y[p];
        double pz = z[p];
        double an = Math.abs(px) + Math.abs(py) + Math.abs(pz);
        // every array index below stays in bounds even if a compiler evaluates both sides of a condition
        int state = 0; // 0: f is deleted, follow its cone; 1: f is live; 2: inside; 3: uncertain at f
        while (state == 0) {
            int first = coneFirst[f];
            int end = first + coneCount[f];
            int next = -1;
            int unsure = 0;
            for (int j = first; j < end; j++) {
                if (next < 0 && unsure == 0) {
                    int o = PLANE_STRIDE * j;
                    double s = plane[o] * px + plane[o + 1] * py + plane[o + 2] * pz - plane[o + 3];
                    double b = plane[o + 4] * (an + plane[o + 5]);
                    if (s > b) {
                        next = j;
                        d = s;
                    } else if (s >= -b) {
                        unsure = 1;
                    }
                }
            }
            if (unsure == 1) {
                state = 3;
            } else if (next < 0) {
                state = 2;
            } else {
                f = next;
                if (coneCount[f] == 0) {
                    state = 1;
                }
            }
        }
        if (state == 3) {
            label[p] = -2 - f;
            flags[FLAG_UNCERTAIN] = 1;
        } else if (state == 2) {
            label[p] = -1;
        } else {
            label[p] = f;
            dist[p] = d;
        }
    }

    /**
     * Candidate slots per new face in the device's farthest-point search ({@link #farthestSlotPass}).
     */
    public static final int SLOTS = 16;

    /**
     * One pass of the farthest-point search (step 3, the paper's {@code distance} kernel) over points whose face was
     * created in this round, with {@link #SLOTS} candidate slots per new face: new face {@code j = label - roundBase}
     * owns {@code slot[SLOTS * j .. SLOTS * j + SLOTS - 1]}, and point p may write only slot {@code p % SLOTS} of its
     * face, when it is better (farther, or equally far with a lower index) than every point in the face's slots. Writes
     * race (TornadoVM kernels lack atomic max), and each pass that writes sets {@code flags[flagIndex]}; every write
     * improves on what it read, and a pass leaves up to SLOTS improving points, whose best beats about SLOTS / (SLOTS +
     * 1) of the points still better than the slots before (one slot: half of them), so a face of m points settles in
     * about log17 m passes. A pass in which nobody wrote ends the search: then the best point of every face is in its
     * slots ({@link #slotBest}), whatever the interleaving. (The host backends use compare-and-set instead.)
     */
    public static void farthestSlotPass(int[] active, int i, int[] label, double[] dist, int[] slot, int roundBase,
            int[] flags, int flagIndex) {
        int p = active[i];
        int base = SLOTS * (label[p] - roundBase);
        if (base >= 0) {
            double dp = dist[p];
            int better = 1;
            for (int k = 0; k < SLOTS; k++) {
                int c = slot[base + k];
                if (c >= 0) {
                    if (beats(dp, p, dist[c], c) == 0) {
                        better = 0;
                    }
                }
            }
            if (better == 1) {
                slot[base + p % SLOTS] = p;
                flags[flagIndex] = 1;
            }
        }
    }

    /** The best point in new face j's slots (largest distance, then lowest index), -1 when they are empty. */
    public static int slotBest(int[] slot, double[] dist, int j) {
        int best = -1;
        double bd = 0.0;
        for (int k = 0; k < SLOTS; k++) {
            int c = slot[SLOTS * j + k];
            if (c >= 0) {
                double dc = dist[c];
                if (beats(dc, c, bd, best) == 1) {
                    best = c;
                    bd = dc;
                }
            }
        }
        return best;
    }

    /**
     * Interior culling (beyond the paper): drops the point {@code active[i]} when it is certainly strictly
     * inside the inner polytope whose {@code nInner} face planes are given. Points on or near its boundary
     * are kept, so culling never removes a hull vertex.
     */
    public static void cullInterior(double[] x, double[] y, double[] z, int[] active, int i, int[] label,
            double[] inner, int nInner) {
        int p = active[i];
        if (label[p] < 0) {
            return;
        }
        double px = x[p];
        double py = y[p];
        double pz = z[p];
        double an = Math.abs(px) + Math.abs(py) + Math.abs(pz);
        int inside = 1;
        for (int k = 0; k < nInner && inside == 1; k++) {
            int o = PLANE_STRIDE * k;
            double s = inner[o] * px + inner[o + 1] * py + inner[o + 2] * pz - inner[o + 3];
            double b = inner[o + 4] * (an + inner[o + 5]);
            if (s >= -b) {
                inside = 0;
            }
        }
        if (inside == 1) {
            label[p] = -1;
        }
    }

    /**
     * Extreme points (the paper's {@code Init_tetr} kernel, generalised to many directions for culling):
     * work-item g keeps, for directions
     * {@code block*DIR_BLOCK ..} the largest dot product and its lowest index. Work-item g scans the points
     * {@code first, first+step, ... < end}: on a GPU g, g+G, g+2G (coalesced), on the CPU a contiguous chunk
     * (cache-friendly). Partial results go to {@code bestVal/bestIdx[(g * nDirs) + k]}; {@link #argmaxReduce}
     * combines them.
     */
    public static void extremesPartial(double[] x, double[] y, double[] z, int first, int end, int step,
            double[] dirs, int nDirs, int block, int g, double[] bestVal, int[] bestIdx) {
        double[] bv = new double[DIR_BLOCK];
        int[] bi = new int[DIR_BLOCK];
        int k0 = block * DIR_BLOCK;
        for (int k = 0; k < DIR_BLOCK; k++) {
            bv[k] = Double.NEGATIVE_INFINITY;
            bi[k] = -1;
        }
        for (int p = first; p < end; p += step) {
            double px = x[p];
            double py = y[p];
            double pz = z[p];
            for (int k = 0; k < DIR_BLOCK; k++) {
                int d = k0 + k;
                if (d < nDirs) {
                    double v = dirs[3 * d] * px + dirs[3 * d + 1] * py + dirs[3 * d + 2] * pz;
                    if (v > bv[k]) {
                        bv[k] = v;
                        bi[k] = p;
                    }
                }
            }
        }
        for (int k = 0; k < DIR_BLOCK; k++) {
            int d = k0 + k;
            if (d < nDirs) {
                bestVal[g * nDirs + d] = bv[k];
                bestIdx[g * nDirs + d] = bi[k];
            }
        }
    }

    /**
     * Partial arg-max of a distance score for the initial tetrahedron (step 1): {@code mode 0} is the squared
     * distance to the line through a with direction u = b - a, {@code mode 1} the absolute distance to the plane
     * through a with normal u. Work-item g scans points {@code first, first+step, ... < end} (see
     * {@link #extremesPartial}); result in {@code bestVal/bestIdx[g]}.
     */
    public static void farthestPartial(double[] x, double[] y, double[] z, int first, int end, int step,
            double[] geom, int mode, int g, double[] bestVal, int[] bestIdx) {
        double ax = geom[0];
        double ay = geom[1];
        double az = geom[2];
        double ux = geom[3];
        double uy = geom[4];
        double uz = geom[5];
        double best = -1.0;
        int bestI = -1;
        for (int p = first; p < end; p += step) {
            double dx = x[p] - ax;
            double dy = y[p] - ay;
            double dz = z[p] - az;
            double v;
            if (mode == 0) {
                double cx = dy * uz - dz * uy;
                double cy = dz * ux - dx * uz;
                double cz = dx * uy - dy * ux;
                v = cx * cx + cy * cy + cz * cz;
            } else {
                v = Math.abs(dx * ux + dy * uy + dz * uz);
            }
            if (v > best) {
                best = v;
                bestI = p;
            }
        }
        bestVal[g] = best;
        bestIdx[g] = bestI;
    }

    /**
     * Combines the partial arg-max results of {@code groups} work-items for column k (of {@code stride}):
     * largest value, ties to the lowest index.
     */
    public static void argmaxReduce(double[] bestVal, int[] bestIdx, int groups, int stride, int k, int[] out) {
        int j = argmaxEntry(bestVal, bestIdx, 0, groups, stride, k);
        int bi = -1;
        if (j >= 0) {
            bi = bestIdx[j];
        }
        out[k] = bi;
    }

    /**
     * The first stage of a two-stage {@link #argmaxReduce}: the best of the partial results of groups
     * {@code first .. end - 1} for column k, to {@code outVal/outIdx[slot]} (index -1 when none). The arg-max with ties
     * to the lowest index is associative, so the second stage over these gives what one stage over all gives.
     */
    public static void argmaxChunk(double[] bestVal, int[] bestIdx, int first, int end, int stride, int k,
            double[] outVal, int[] outIdx, int slot) {
        int j = argmaxEntry(bestVal, bestIdx, first, end, stride, k);
        double v = 0.0;
        int bi = -1;
        if (j >= 0) {
            v = bestVal[j];
            bi = bestIdx[j];
        }
        outVal[slot] = v;
        outIdx[slot] = bi;
    }

    /** The entry {@code g * stride + k} (g in first .. end - 1) of the largest value, ties to the lowest index; -1 if none. */
    private static int argmaxEntry(double[] bestVal, int[] bestIdx, int first, int end, int stride, int k) {
        double best = Double.NEGATIVE_INFINITY;
        int bi = -1;
        int bj = -1;
        for (int g = first; g < end; g++) {
            int j = g * stride + k;
            int idx = bestIdx[j];
            if (idx >= 0) {
                double v = bestVal[j];
                if (beats(v, idx, best, bi) == 1) {
                    best = v;
                    bi = idx;
                    bj = j;
                }
            }
        }
        return bj;
    }

    /** 1 when (v, idx) beats the best so far (bi -1: none yet): a larger value, or an equal one with a lower index. */
    private static int beats(double v, int idx, double best, int bi) {
        // independent tests, not an if-else chain: TornadoVM 5.2 negated part of the chained form
        int take = 0;
        if (bi < 0) {
            take = 1;
        }
        if (v > best) {
            take = 1;
        }
        if (v == best) {
            if (idx < bi) {
                take = 1;
            }
        }
        return take;
    }
}
