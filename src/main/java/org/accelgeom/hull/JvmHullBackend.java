package org.accelgeom.hull;

import java.util.Arrays;

import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;

/**
 * The {@code jvm} and {@code jvm-parallel} backends: the element kernels of {@link HullKernels} in a plain
 * loop, or split over cores ({@code loops != null}). Points still in play are kept in a compacted index list,
 * so late rounds touch only the few points left.
 */
final class JvmHullBackend implements HullBackend {

    private static final int GRAIN = 4096;
    /** Extreme points: a ball for at least this many directions and points. */
    private static final int BALL_DIRECTIONS = 16;
    private static final int BALL_POINTS = 1 << 16;

    private final ParallelLoops loops;
    /** The ball pre-tests ({@link InnerBall}) are on: they change no result (off: for comparisons). */
    private final boolean balls;
    private PhaseTimings timings;
    private double[] x;
    private double[] y;
    private double[] z;
    private int n;
    private int[] active;
    private int activeCount;
    private int[] label;
    private double[] dist;
    private int[] coneFirst;
    private int[] coneCount;
    private int[] cand;
    private double[] plane;
    /** The result of the last {@link #extremes}: the inner polytope's vertices, for the culling ball. */
    private int[] extremePoints;
    private final int[] flags = new int[64];
    /** Atomic access to {@code cand}'s elements. */
    private final java.lang.invoke.VarHandle candAccess = java.lang.invoke.MethodHandles.arrayElementVarHandle(int[].class);

    /** {@code loops == null}: serial reference; otherwise the parallel baseline. */
    JvmHullBackend(ParallelLoops loops) {
        this(loops, org.accelgeom.engine.Tuning.HULL_BALLS.booleanValue());
    }

    /** As {@link #JvmHullBackend(ParallelLoops)}, with the ball pre-tests on or off. */
    JvmHullBackend(ParallelLoops loops, boolean balls) {
        this.loops = loops;
        this.balls = balls;
    }

    @Override
    public ParallelLoops hostLoops() {
        return loops;
    }

    private void forEach(int count, ParallelLoops.RangeBody body) {
        forEach(count, GRAIN, body);
    }

    /** {@code grain}: the fewest loop indices worth a task (points: thousands; work-items of a partial: one). */
    private void forEach(int count, int grain, ParallelLoops.RangeBody body) {
        if (loops == null) {
            body.run(0, count);
        } else {
            loops.forRange(count, grain, body);
        }
    }

    @Override
    public void load(double[] x, double[] y, double[] z, int faceCapacity, PhaseTimings timings) {
        this.timings = timings;
        this.x = x;
        this.y = y;
        this.z = z;
        this.n = x.length;
        timings.time("load points", Kind.HOST, () -> {
            active = new int[n];
            label = new int[n];
            dist = new double[n];
            forEach(n, (from, to) -> {
                for (int i = from; i < to; i++) {
                    active[i] = i;
                }
            });
            ensureFaces(Math.max(faceCapacity, 16));
        });
        activeCount = n;
    }

    private void ensureFaces(int need) {
        if (coneCount != null && need <= coneCount.length) {
            return;
        }
        int cap = coneCount == null ? need : Math.max(need, coneCount.length * 2);
        coneFirst = coneFirst == null ? new int[cap] : Arrays.copyOf(coneFirst, cap);
        coneCount = coneCount == null ? new int[cap] : Arrays.copyOf(coneCount, cap);
        cand = cand == null ? new int[cap] : Arrays.copyOf(cand, cap);
        plane = plane == null ? new double[HullKernels.PLANE_STRIDE * cap]
                : Arrays.copyOf(plane, HullKernels.PLANE_STRIDE * cap);
    }

    /** Work-items of the arg-max passes: one per thread chunk, each scanning points g, g+G, ... */
    private int groups() {
        return loops == null ? 1 : Math.max(1, Math.min(loops.threads() * 4, n / GRAIN));
    }

    @Override
    public int[] extremes(double[] dirs, int nDirs) {
        return timings.time("extreme points", Kind.KERNEL, () -> {
            int groups = groups();
            double[] bestVal = new double[groups * nDirs];
            int[] bestIdx = new int[groups * nDirs];
            double[] ball = balls && nDirs >= BALL_DIRECTIONS && n >= BALL_POINTS ? sampleBall(dirs, nDirs) : null;
            if (ball != null) {
                forEach(groups, 1, (from, to) -> {
                    for (int g = from; g < to; g++) {
                        int chunk = (n + groups - 1) / groups;
                        extremesOutside(g * chunk, Math.min(n, (g + 1) * chunk), 1, dirs, nDirs, ball, g, bestVal, bestIdx);
                    }
                });
            } else {
                int blocks = (nDirs + HullKernels.DIR_BLOCK - 1) / HullKernels.DIR_BLOCK;
                forEach(groups * blocks, 1, (from, to) -> {
                    for (int w = from; w < to; w++) {
                        int g = w / blocks;
                        int chunk = (n + groups - 1) / groups;
                        HullKernels.extremesPartial(x, y, z, g * chunk, Math.min(n, (g + 1) * chunk), 1, dirs, nDirs,
                                w % blocks, g, bestVal, bestIdx);
                    }
                });
            }
            int[] out = new int[nDirs];
            for (int k = 0; k < nDirs; k++) {
                HullKernels.argmaxReduce(bestVal, bestIdx, groups, nDirs, k, out);
            }
            extremePoints = out;
            return out;
        });
    }

    /**
     * The ball of {@link InnerBall#ofDirections} from the extremes of a sample of 1.6 n^(2/3) points (every k-th), around
     * the mean of those extremes.
     */
    private double[] sampleBall(double[] dirs, int nDirs) {
        // the sample's cost grows with its size s, the points left outside the ball as s^(-1/2) n: s ~ n^(2/3)
        int step = Math.max(1, (int) (n / (1.6 * Math.pow(n, 2.0 / 3))));
        double[] low = new double[nDirs];
        int[] at = new int[nDirs];
        extremesOutside(0, n, step, dirs, nDirs, InnerBall.none(), 0, low, at);
        double cx = 0;
        double cy = 0;
        double cz = 0;
        for (int k = 0; k < nDirs; k++) {
            cx += x[at[k]];
            cy += y[at[k]];
            cz += z[at[k]];
        }
        return InnerBall.ofDirections(dirs, nDirs, low, cx / nDirs, cy / nDirs, cz / nDirs);
    }

    /**
     * {@link HullKernels#extremesPartial} of points {@code first, first + step, .. < end} for all directions at once,
     * skipping the points inside {@code ball} (none of them is an extreme point): the same partial results.
     */
    private void extremesOutside(int first, int end, int step, double[] dirs, int nDirs, double[] ball, int g,
            double[] bestVal, int[] bestIdx) {
        int o = g * nDirs;
        java.util.Arrays.fill(bestVal, o, o + nDirs, Double.NEGATIVE_INFINITY);
        java.util.Arrays.fill(bestIdx, o, o + nDirs, -1);
        for (int p = first; p < end; p += step) {
            double px = x[p];
            double py = y[p];
            double pz = z[p];
            if (InnerBall.inside(ball, px, py, pz)) {
                continue;
            }
            for (int k = 0; k < nDirs; k++) {
                double v = dirs[3 * k] * px + dirs[3 * k + 1] * py + dirs[3 * k + 2] * pz;
                if (v > bestVal[o + k]) {
                    bestVal[o + k] = v;
                    bestIdx[o + k] = p;
                }
            }
        }
    }

    @Override
    public int farthest(double[] geom, int mode) {
        return timings.time("extreme points", Kind.KERNEL, () -> {
            int groups = groups();
            double[] bestVal = new double[groups];
            int[] bestIdx = new int[groups];
            forEach(groups, 1, (from, to) -> {
                for (int g = from; g < to; g++) {
                    int chunk = (n + groups - 1) / groups;
                    HullKernels.farthestPartial(x, y, z, g * chunk, Math.min(n, (g + 1) * chunk), 1, geom, mode, g,
                            bestVal, bestIdx);
                }
            });
            int[] out = new int[1];
            HullKernels.argmaxReduce(bestVal, bestIdx, groups, 1, 0, out);
            return out[0];
        });
    }

    @Override
    public void kill(int[] points) {
        for (int p : points) {
            label[p] = -1;
        }
    }

    @Override
    public int cull(double[] inner, int nInner) {
        double[] ball = balls ? cullBall(inner, nInner) : InnerBall.none();
        timings.time("cull interior", Kind.KERNEL, () -> forEach(activeCount, (from, to) -> {
            for (int i = from; i < to; i++) {
                int p = active[i];
                if (label[p] >= 0 && InnerBall.inside(ball, x[p], y[p], z[p])) {
                    label[p] = -1; // what cullInterior decides, proved by the ball
                } else {
                    HullKernels.cullInterior(x, y, z, active, i, label, inner, nInner);
                }
            }
        }));
        int before = activeCount;
        compact();
        return before - activeCount;
    }

    /**
     * The ball of {@link InnerBall#ofPlanes} around the mean of the distinct extreme points of the last
     * {@link #extremes} (the inner polytope's vertices, so the mean is inside it); none without extremes.
     */
    private double[] cullBall(double[] inner, int nInner) {
        return extremePoints == null ? InnerBall.none() : InnerBall.ofPlanes(inner, nInner, x, y, z, extremePoints);
    }

    @Override
    public int[] round(RoundDelta d, UncertainResolver resolver) {
        timings.time("apply round delta", Kind.HOST, () -> {
            ensureFaces(d.newBase + d.newCount);
            System.arraycopy(d.planes, 0, plane, d.newBase * HullKernels.PLANE_STRIDE, d.newCount * HullKernels.PLANE_STRIDE);
            for (int j = 0; j < d.newCount; j++) {
                coneCount[d.newBase + j] = 0;
                cand[d.newBase + j] = -1;
            }
            for (int k = 0; k < d.deletedCount; k++) {
                coneFirst[d.deleted[k]] = d.coneFirst[k];
                coneCount[d.deleted[k]] = d.coneCount[k];
            }
            for (int k = 0; k < d.apexCount; k++) {
                label[d.apexes[k]] = -1;
            }
        });
        flags[HullKernels.FLAG_UNCERTAIN] = 0;
        int base = d.newBase;
        // the farthest point of each new face (step 3) in the same pass: a point that lands on a new face offers itself
        timings.time("reassign and farthest point", Kind.KERNEL, () -> forEach(activeCount, (from, to) -> {
            for (int i = from; i < to; i++) {
                HullKernels.reassign(x, y, z, active, i, label, dist, plane, coneFirst, coneCount, flags);
                int p = active[i];
                if (label[p] >= base) {
                    offer(p, label[p]);
                }
            }
        }));
        if (flags[HullKernels.FLAG_UNCERTAIN] != 0) {
            timings.time("resolve uncertain (exact)", Kind.HOST, () -> {
                double[] out = new double[1];
                for (int i = 0; i < activeCount; i++) {
                    int p = active[i];
                    if (label[p] <= -2) {
                        int f = resolver.resolve(p, -2 - label[p], out);
                        label[p] = f;
                        if (f >= 0) {
                            dist[p] = out[0];
                        }
                        if (f >= base) {
                            offer(p, f);
                        }
                    }
                }
            });
        }
        return Arrays.copyOfRange(cand, base, base + d.newCount);
    }

    /**
     * Makes p face f's candidate if it is better (farther, or as far with a lower index: the order of {@link
     * HullKernels#farthestSlotPass}) than the one there, by compare-and-set: the candidate only ever improves,
     * so after the pass it is the best of the face's points whatever the threads' interleaving (the device needs
     * passes until nothing changes; a host thread can retry its own write).
     */
    private void offer(int p, int f) {
        double dp = dist[p];
        while (true) {
            int c = (int) candAccess.getVolatile(cand, f);
            if (c >= 0 && !(dp > dist[c] || dp == dist[c] && p < c)) {
                return;
            }
            if (candAccess.compareAndSet(cand, f, c, p)) {
                return;
            }
        }
    }

    @Override
    public void compact() {
        int k = 0;
        for (int i = 0; i < activeCount; i++) {
            int p = active[i];
            if (label[p] >= 0 || label[p] <= -2) {
                active[k++] = p;
            }
        }
        activeCount = k;
    }

    @Override
    public void close() {
        active = null;
        label = null;
        dist = null;
    }
}
