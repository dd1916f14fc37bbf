package org.accelgeom.kdtree;

import static org.accelgeom.kdtree.LevelBuffers.BINS;
import static org.accelgeom.kdtree.LevelBuffers.CHUNK;
import static org.accelgeom.kdtree.LevelBuffers.C_BEAT;
import static org.accelgeom.kdtree.LevelBuffers.C_D;
import static org.accelgeom.kdtree.LevelBuffers.C_DBASE;
import static org.accelgeom.kdtree.LevelBuffers.C_FORCE;
import static org.accelgeom.kdtree.LevelBuffers.C_L;
import static org.accelgeom.kdtree.LevelBuffers.C_M;
import static org.accelgeom.kdtree.LevelBuffers.C_R;
import static org.accelgeom.kdtree.LevelBuffers.DONE;
import static org.accelgeom.kdtree.LevelBuffers.HANDED;
import static org.accelgeom.kdtree.LevelBuffers.NODE_BINS;
import static org.accelgeom.kdtree.LevelBuffers.P_CHUNKS;
import static org.accelgeom.kdtree.LevelBuffers.P_DEPTH;
import static org.accelgeom.kdtree.LevelBuffers.P_DEPTH_LIMIT;
import static org.accelgeom.kdtree.LevelBuffers.P_GBASE;
import static org.accelgeom.kdtree.LevelBuffers.P_GCAP;
import static org.accelgeom.kdtree.LevelBuffers.P_M;
import static org.accelgeom.kdtree.LevelBuffers.P_MCAP;
import static org.accelgeom.kdtree.LevelBuffers.P_R;
import static org.accelgeom.kdtree.LevelBuffers.P_RCAP;
import static org.accelgeom.kdtree.LevelBuffers.P_SEQ;
import static org.accelgeom.kdtree.LevelBuffers.P_SMALL;

/**
 * Element kernels of the breadth-first large-node stage (Zhou, Hou, Wang &amp; Guo, "Real-time kd-tree
 * construction on graphics hardware", SIGGRAPH Asia 2008, §4.2, Alg. 2 "process large nodes"), in the TornadoVM
 * subset. One level is five kernels over the flat arrays of {@link LevelBuffers}:
 * <ol>
 * <li>{@link #binSlot}: per reference, the start and end bins of its clipped box on each axis in its node's
 * histograms (atomic increments on the device; Zhou et al.'s per-node reductions, here as counts);
 * <li>{@link #splitNode}: per node, the binned SAH over the {@link LevelBuffers#BINS} − 1 inner bin boundaries
 * per axis (planes with an empty side get λ: empty-space cutting at bin resolution), and the decision: split, or
 * hand the node to the small-node stage (at most {@code small} references, the depth limit, or a cost above
 * K_I·|T|, eq. 3.6); it clears its histograms for the next level;
 * <li>{@link #countChunk}: per chunk of {@link LevelBuffers#CHUNK} references, each reference's side and the
 * chunk's numbers of left, right and handed-on outputs;
 * <li>{@link #scan}: one work-item, the exclusive prefix sums of the chunks' counts and of the split nodes'
 * children (Zhou et al.'s scans for compaction), the next level's sizes, and the capacity check;
 * <li>{@link #scatterChunk} and {@link #scatterNode}: the compaction: each chunk writes its references to the next
 * level (left outputs first, then right outputs, each in reference order) or to the hand-off list, straddlers
 * clipped to the child on the split axis; each node writes its global record and its children's voxels.
 * </ol>
 * Every count is an integer and every order follows from prefix sums, so the result does not depend on the
 * order in which work-items run: the jvm reference and the device build the same arrays.
 *
 * <p>Precision: boxes and planes float; bin indices and plane positions from double arithmetic (one IEEE
 * operation each, the same on every backend); SAH in double.
 */
public final class LevelKernels {

    private LevelKernels() {
    }

    /** The bin of x in [lo, hi] split into {@link LevelBuffers#BINS} equal bins, clamped (a flat extent: bin 0). */
    public static int bin(float x, float lo, float hi) {
        double w = (double) hi - lo;
        int b = 0;
        if (w > 0) {
            b = (int) (((double) x - lo) * BINS / w);
        }
        return Math.max(0, Math.min(BINS - 1, b));
    }

    /** Position of inner bin boundary j (1 .. BINS-1) of [lo, hi]. */
    public static float boundary(float lo, float hi, int j) {
        return (float) (lo + j * ((double) hi - lo) / BINS);
    }

    /**
     * Histogram slot of reference r's box bound e (0: minimum, start; 1: maximum, end) on axis k, for node n whose
     * voxel is {@code vox[vo .. vo+5]}.
     */
    public static int binSlot(float[] box, int r, int n, float[] vox, int vo, int k, int e) {
        float x = box[6 * r + 3 * e + k];
        return n * NODE_BINS + (2 * k + e) * BINS + bin(x, vox[vo + k], vox[vo + 3 + k]);
    }

    /** MODE_LOAD, reference r of the root: triangle r with its own box, node 0. */
    public static void loadRef(float[] rootBox, int r, int[] tri, int[] node, float[] box) {
        tri[r] = r;
        node[r] = 0;
        for (int q = 0; q < 6; q++) {
            box[6 * r + q] = rootBox[6 * r + q];
        }
    }

    /** MODE_LOAD, once: the root node (voxel, global id 0) and the hand-off count reset. */
    public static void loadRoot(float[] rootBounds, float[] vox, int[] g, int[] counters) {
        for (int q = 0; q < 6; q++) {
            vox[q] = rootBounds[q];
        }
        g[0] = 0;
        counters[C_D] = 0;
    }

    /**
     * The SAH cost (the thesis's Algorithm 2, {@link KdTreeKernels#sah}) of splitting voxel {@code v[o .. o+5]}
     * at (k, ξ) with nL and nR references on the sides (no planar set: binned counts).
     */
    static double sahAt(float[] v, int o, int k, float xi, int nL, int nR, double[] c) {
        double dx = (double) v[o + 3] - v[o];
        double dy = (double) v[o + 4] - v[o + 1];
        double dz = (double) v[o + 5] - v[o + 2];
        double left = (double) xi - v[o + k];
        double right = (double) v[o + 3 + k] - xi;
        double dLx = dx;
        double dLy = dy;
        double dLz = dz;
        double dRx = dx;
        double dRy = dy;
        double dRz = dz;
        if (k == 0) {
            dLx = left;
            dRx = right;
        }
        if (k == 1) {
            dLy = left;
            dRy = right;
        }
        if (k == 2) {
            dLz = left;
            dRz = right;
        }
        double a = KdTreeKernels.halfArea(dx, dy, dz);
        double pL = KdTreeKernels.halfArea(dLx, dLy, dLz) / a;
        double pR = KdTreeKernels.halfArea(dRx, dRy, dRz) / a;
        double result = KdTreeKernels.cost(pL, pR, nL, nR, left > 0, right > 0, c);
        if (!(a > 0)) {
            result = Double.POSITIVE_INFINITY;
        }
        return result;
    }

    /**
     * Node i of the level: its reference count (the starts of axis 0), the best binned plane (lowest cost, then
     * position, then axis: {@link KdTreeKernels#better}) and the decision; records its voxel globally and clears its
     * histograms.
     */
    public static void splitNode(int[] params, double[] c, int[] bins, float[] vox, int i, int[] nodeAxis,
            float[] nodePos, int[] nodeSplit, float[] gVox) {
        int base = i * NODE_BINS;
        int count = 0;
        for (int b = 0; b < BINS; b++) {
            count += bins[base + b];
        }
        double best = Double.POSITIVE_INFINITY;
        float bestPos = 0f;
        int bestAxis = -1;
        int o = 6 * i;
        for (int k = 0; k < 3; k++) {
            float lo = vox[o + k];
            float hi = vox[o + 3 + k];
            int nl = 0;
            int nr = count;
            for (int j = 1; j < BINS; j++) {
                nl += bins[base + 2 * k * BINS + j - 1];
                nr -= bins[base + (2 * k + 1) * BINS + j - 1];
                float xi = boundary(lo, hi, j);
                if (xi > lo && xi < hi) {
                    double cost = sahAt(vox, o, k, xi, nl, nr, c);
                    boolean take = bestAxis < 0 || KdTreeKernels.better(cost, xi, k, best, bestPos, bestAxis);
                    if (take) {
                        best = cost;
                        bestPos = xi;
                        bestAxis = k;
                    }
                }
            }
        }
        int split = 1;
        if (count <= params[P_SMALL]) {
            split = 0;
        }
        if (params[P_DEPTH] >= params[P_DEPTH_LIMIT]) {
            split = 0;
        }
        if (bestAxis < 0) {
            split = 0;
        }
        if (best > c[KdTreeKernels.KI] * count) {
            split = 0;
        }
        nodeAxis[i] = Math.max(0, bestAxis);
        nodePos[i] = bestPos;
        nodeSplit[i] = split;
        int g = params[P_GBASE] + i;
        for (int q = 0; q < 6; q++) {
            gVox[6 * g + q] = vox[o + q];
        }
        for (int q = 0; q < NODE_BINS; q++) {
            bins[base + q] = 0;
        }
    }

    /**
     * Chunk ch of the level's references: each one's side (a box ending at or before ξ goes left, one starting at
     * or after ξ right, a flat one at ξ right, others both; a node that is not split hands its references on) and
     * the chunk's counts of left, right and handed-on outputs.
     */
    public static void countChunk(int[] params, int[] node, float[] box, int[] nodeAxis, float[] nodePos,
            int[] nodeSplit, int ch, int[] side, int[] chunkCnt) {
        int from = ch * CHUNK;
        int to = Math.min(params[P_R], from + CHUNK);
        int cl = 0;
        int cr = 0;
        int cd = 0;
        for (int r = from; r < to; r++) {
            int n = node[r];
            int k = nodeAxis[n];
            float xi = nodePos[n];
            float lo = box[6 * r + k];
            float hi = box[6 * r + 3 + k];
            int s = LevelBuffers.BOTH;
            if (hi <= xi) {
                s = LevelBuffers.LEFT;
            }
            if (lo >= xi) {
                s = LevelBuffers.RIGHT; // also a flat box at ξ: the binned planes send planar references right
            }
            if (nodeSplit[n] == 0) {
                s = DONE;
            }
            side[r] = s;
            cl += s & 1;
            cr += (s >> 1) & 1;
            cd += (s >> 2) & 1;
        }
        chunkCnt[3 * ch] = cl;
        chunkCnt[3 * ch + 1] = cr;
        chunkCnt[3 * ch + 2] = cd;
    }

    /**
     * One work-item: exclusive prefix sums of the split nodes' children and of the chunks' counts; the next
     * level's node and reference counts. When the next level or the hand-off list would not fit the capacities,
     * the level is forced: every node is handed to the small-node stage (so a build never fails for space).
     */
    public static void scan(int[] params, int[] nodeSplit, int[] nodeChild, int[] chunkCnt, int[] chunkOff,
            int[] counters) {
        int m = params[P_M];
        int run = 0;
        for (int i = 0; i < m; i++) {
            nodeChild[i] = run;
            run += 2 * nodeSplit[i];
        }
        int chunks = params[P_CHUNKS];
        int l = 0;
        int r = 0;
        int d = 0;
        for (int ch = 0; ch < chunks; ch++) {
            chunkOff[3 * ch] = l;
            chunkOff[3 * ch + 1] = r;
            chunkOff[3 * ch + 2] = d;
            l += chunkCnt[3 * ch];
            r += chunkCnt[3 * ch + 1];
            d += chunkCnt[3 * ch + 2];
        }
        int dBase = counters[C_D];
        int cap = params[P_RCAP];
        int force = 0;
        if (l + r > cap) {
            force = 1;
        }
        if (dBase + d + l + r > cap) {
            force = 1;
        }
        if (run > params[P_MCAP]) {
            force = 1;
        }
        if (params[P_GBASE] + m + run > params[P_GCAP]) {
            force = 1;
        }
        int nextM = run;
        int nextR = l + r;
        int newD = dBase + d;
        if (force == 1) {
            nextM = 0;
            nextR = 0;
            newD = dBase + params[P_R];
        }
        counters[C_DBASE] = dBase;
        counters[C_L] = l;
        counters[C_M] = nextM;
        counters[C_R] = nextR;
        counters[C_D] = newD;
        counters[C_FORCE] = force;
    }

    /** Chunk ch: its references to the next level (children's ids from the scan) or to the hand-off list. */
    public static void scatterChunk(int[] params, int[] counters, int ch, float[] v, int[] tri, int[] node, float[] box,
            int[] side, int[] nodeAxis, float[] nodePos, int[] nodeChild, int[] g, int[] chunkOff, int[] outTri,
            int[] outNode, float[] outBox, int[] doneTri, int[] doneNode, float[] doneBox) {
        int from = ch * CHUNK;
        int to = Math.min(params[P_R], from + CHUNK);
        int force = counters[C_FORCE];
        int ol = chunkOff[3 * ch];
        int or = counters[C_L] + chunkOff[3 * ch + 1];
        int od = counters[C_DBASE] + chunkOff[3 * ch + 2];
        if (force == 1) {
            od = counters[C_DBASE] + from;
        }
        for (int r = from; r < to; r++) {
            int s = side[r];
            if (force == 1) {
                s = DONE;
            }
            int n = node[r];
            int t = tri[r];
            int k = nodeAxis[n];
            float xi = nodePos[n];
            if (s == DONE) {
                doneTri[od] = t;
                doneNode[od] = g[n];
                for (int q = 0; q < 6; q++) {
                    doneBox[6 * od + q] = box[6 * r + q];
                }
                od++;
            }
            if ((s & 1) != 0) {
                outTri[ol] = t;
                outNode[ol] = nodeChild[n];
                for (int q = 0; q < 6; q++) {
                    outBox[6 * ol + q] = box[6 * r + q];
                }
                if (s == LevelBuffers.BOTH) {
                    clipToSide(v, t, k, xi, 1, box, 6 * r, outBox, 6 * ol);
                }
                ol++;
            }
            if ((s & 2) != 0) {
                outTri[or] = t;
                outNode[or] = nodeChild[n] + 1;
                for (int q = 0; q < 6; q++) {
                    outBox[6 * or + q] = box[6 * r + q];
                }
                if (s == LevelBuffers.BOTH) {
                    clipToSide(v, t, k, xi, 0, box, 6 * r, outBox, 6 * or);
                }
                or++;
            }
        }
    }

    /** The largest float at most x, or a little below (x - 2^-22·|x| - 1e-30, rounded: conservative, branch-free). */
    static float down(double x) {
        return (float) (x - (Math.abs(x) * 0x1p-22 + 1e-30));
    }

    /** The smallest float at least x, or a little above. */
    static float up(double x) {
        return (float) (x + (Math.abs(x) * 0x1p-22 + 1e-30));
    }

    /** Component k of (x, y, z). */
    static double comp(double x, double y, double z, int k) {
        double c = x;
        if (k == 1) {
            c = y;
        }
        if (k == 2) {
            c = z;
        }
        return c;
    }

    /**
     * Split clipping of a straddler: the box of the part of triangle t on one side of the plane (k, ξ) (left:
     * x_k ≤ ξ; right: x_k ≥ ξ), from its vertices on that side and its edges' crossings of the plane (in double,
     * rounded outwards), intersected with the reference's box {@code box[bo .. bo+5]}, which bounds t ∩ V: so the
     * result bounds t ∩ V_child. Repeated at every level, it keeps the boxes close to the perfect-split boxes
     * (Wald &amp; Havran §4.4) without a polygon clipper on the device; the hand-off clips exactly. Should
     * rounding empty the box, the reference's box cut at ξ is kept.
     */
    public static void clipToSide(float[] v, int t, int k, float xi, int left, float[] box, int bo, float[] out, int oo) {
        double mnx = Double.POSITIVE_INFINITY;
        double mny = Double.POSITIVE_INFINITY;
        double mnz = Double.POSITIVE_INFINITY;
        double mxx = Double.NEGATIVE_INFINITY;
        double mxy = Double.NEGATIVE_INFINITY;
        double mxz = Double.NEGATIVE_INFINITY;
        double sign = 1.0;
        if (left == 1) {
            sign = -1.0;
        }
        for (int i = 0; i < 3; i++) {
            int j = i + 1;
            if (j == 3) {
                j = 0;
            }
            double ax = v[9 * t + 3 * i];
            double ay = v[9 * t + 3 * i + 1];
            double az = v[9 * t + 3 * i + 2];
            double bx = v[9 * t + 3 * j];
            double by = v[9 * t + 3 * j + 1];
            double bz = v[9 * t + 3 * j + 2];
            double ak = comp(ax, ay, az, k);
            double bk = comp(bx, by, bz, k);
            double da = (ak - xi) * sign; // >= 0: on the kept side
            double db = (bk - xi) * sign;
            if (da >= 0) {
                mnx = Math.min(mnx, ax);
                mny = Math.min(mny, ay);
                mnz = Math.min(mnz, az);
                mxx = Math.max(mxx, ax);
                mxy = Math.max(mxy, ay);
                mxz = Math.max(mxz, az);
            }
            boolean crosses = (da < 0 && db > 0) || (da > 0 && db < 0);
            if (crosses) {
                double s = ((double) xi - ak) / (bk - ak);
                double px = ax + s * (bx - ax);
                double py = ay + s * (by - ay);
                double pz = az + s * (bz - az);
                if (k == 0) {
                    px = xi;
                }
                if (k == 1) {
                    py = xi;
                }
                if (k == 2) {
                    pz = xi;
                }
                mnx = Math.min(mnx, px);
                mny = Math.min(mny, py);
                mnz = Math.min(mnz, pz);
                mxx = Math.max(mxx, px);
                mxy = Math.max(mxy, py);
                mxz = Math.max(mxz, pz);
            }
        }
        float lx = Math.max(box[bo], down(mnx));
        float ly = Math.max(box[bo + 1], down(mny));
        float lz = Math.max(box[bo + 2], down(mnz));
        float hx = Math.min(box[bo + 3], up(mxx));
        float hy = Math.min(box[bo + 4], up(mxy));
        float hz = Math.min(box[bo + 5], up(mxz));
        int bad = 0;
        if (lx > hx || ly > hy || lz > hz) {
            bad = 1;
        }
        if (bad == 1) {
            lx = box[bo];
            ly = box[bo + 1];
            lz = box[bo + 2];
            hx = box[bo + 3];
            hy = box[bo + 4];
            hz = box[bo + 5];
        }
        out[oo] = lx + 0.0f;
        out[oo + 1] = ly + 0.0f;
        out[oo + 2] = lz + 0.0f;
        out[oo + 3] = hx + 0.0f;
        out[oo + 4] = hy + 0.0f;
        out[oo + 5] = hz + 0.0f;
        // the side's half-space: the kept part lies on the plane's side
        if (left == 1) {
            out[oo + 3 + k] = Math.min(out[oo + 3 + k], xi);
        }
        if (left == 0) {
            out[oo + k] = Math.max(out[oo + k], xi);
        }
    }

    /** Node i: its global record (split plane and left child's id, or handed on) and its children's voxels and ids. */
    public static void scatterNode(int[] params, int[] counters, int i, int[] nodeAxis, float[] nodePos,
            int[] nodeSplit, int[] nodeChild, float[] vox, int[] g, float[] outVox, int[] outG, int[] gAxis,
            float[] gPos, int[] gChild) {
        int gi = g[i];
        int split = nodeSplit[i];
        if (counters[C_FORCE] == 1) {
            split = 0;
        }
        int k = nodeAxis[i];
        float xi = nodePos[i];
        int ch = nodeChild[i];
        int gNext = params[P_GBASE] + params[P_M];
        gAxis[gi] = HANDED;
        gPos[gi] = 0f;
        gChild[gi] = -1;
        if (split == 1) {
            gAxis[gi] = k;
            gPos[gi] = xi;
            gChild[gi] = gNext + ch;
            outG[ch] = gNext + ch;
            outG[ch + 1] = gNext + ch + 1;
            for (int q = 0; q < 6; q++) {
                outVox[6 * ch + q] = vox[6 * i + q];
                outVox[6 * ch + 6 + q] = vox[6 * i + q];
            }
            outVox[6 * ch + 3 + k] = xi;
            outVox[6 * ch + 6 + k] = xi;
        }
    }

    /** Heartbeat of kernel j (0..4): the execution's number. */
    public static void beat(int[] params, int[] counters, int j) {
        counters[C_BEAT + j] = params[P_SEQ];
    }
}
