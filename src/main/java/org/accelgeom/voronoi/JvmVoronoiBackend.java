package org.accelgeom.voronoi;

import org.accelgeom.engine.ParallelLoops;

/**
 * The {@code jvm} (one thread) and {@code jvm-parallel} (one edge per task, all cores) end-vertex search; with
 * {@code lanes > 0} it runs the device's lane layout instead ({@link EndVertexScans#searchLane} for every lane,
 * then {@link EndVertexScans#reduceLanes} per edge, pass by pass), which the tests check against the serial sweep.
 */
final class JvmVoronoiBackend implements VoronoiBackend {
    private final ParallelLoops loops;
    private final int lanes;
    private double[] qs = new double[0];
    private float[] lf = new float[0];
    private double[] ld = new double[0];
    private int[] li = new int[0];
    private double[] bx, by, bz, br, p;
    private float[] fx, fy, fz, fr;
    private int[] cellStart, cellBalls, ip;
    private int capacity;

    /** {@code loops == null}: a plain loop (the reference). */
    JvmVoronoiBackend(ParallelLoops loops) {
        this(loops, 0);
    }

    /** {@code lanes > 0}: the lane layout of the device search with that many lanes per edge. */
    JvmVoronoiBackend(ParallelLoops loops, int lanes) {
        this.loops = loops;
        this.lanes = lanes;
    }

    @Override
    public void load(double[] bx, double[] by, double[] bz, double[] br, float[] fx, float[] fy, float[] fz,
            float[] fr, int[] cellStart, int[] cellBalls, double[] params, int[] iparams, int capacity) {
        this.bx = bx;
        this.by = by;
        this.bz = bz;
        this.br = br;
        this.fx = fx;
        this.fy = fy;
        this.fz = fz;
        this.fr = fr;
        this.cellStart = cellStart;
        this.cellBalls = cellBalls;
        this.p = params;
        this.ip = iparams;
        this.capacity = capacity;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public void search(int count, double[] frames, float[] framesF, int[] gates, int[] out) {
        if (lanes > 0) {
            searchLanes(count, frames, framesF, gates, out);
            return;
        }
        search(0, count, frames, framesF, gates, out);
    }

    /** The serial sweep of edges {@code first .. end-1} (one edge per task on the pool, in chunks of 4). */
    void search(int first, int end, double[] frames, float[] framesF, int[] gates, int[] out) {
        ParallelLoops.RangeBody body = (from, to) -> {
            for (int e = first + from; e < first + to; e++) {
                VoronoiKernels.searchEdge(e, bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, p, ip, frames,
                        framesF, gates, out);
            }
        };
        if (loops == null) {
            body.run(0, end - first);
        } else {
            loops.forRange(end - first, 4, body);
        }
    }

    @Override
    public void close() {
    }

    private void searchLanes(int count, double[] frames, float[] framesF, int[] gates, int[] out) {
        if (qs.length < count) {
            qs = new double[count];
            lf = new float[count * lanes];
            ld = new double[count * lanes];
            li = new int[count * lanes * EndVertexScans.LS];
        }
        for (int pass = 0; pass < EndVertexScans.PASSES; pass++) {
            final int ps = pass;
            run(count * lanes, (from, to) -> {
                for (int k = from; k < to; k++) {
                    if (ps == 0 || qs[k / lanes] > 0) {
                        EndVertexScans.searchLane(k, lanes, ps, bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, p, ip,
                                frames, framesF, gates, qs, lf, ld, li);
                    }
                }
            });
            run(count, (from, to) -> {
                for (int e = from; e < to; e++) {
                    if (ps == 0 || qs[e] > 0) {
                        EndVertexScans.reduceLanes(e, lanes, ps, lf, ld, li, qs, p, ip, frames, out);
                    }
                }
            });
        }
    }

    private void run(int n, ParallelLoops.RangeBody body) {
        if (loops == null) {
            body.run(0, n);
        } else {
            loops.forRange(n, 64, body);
        }
    }
}
