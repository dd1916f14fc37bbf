package org.accelgeom.voronoi;

import org.accelgeom.engine.ParallelLoops;

/** The {@code jvm} (one thread) and {@code jvm-parallel} (one edge per task, all cores) end-vertex search. */
final class JvmEndVertexSearch implements EndVertexSearch {
    private final ParallelLoops loops;
    private double[] bx, by, bz, br, p;
    private float[] fx, fy, fz, fr;
    private int[] cellStart, cellBalls, ip;

    /** {@code loops == null}: a plain loop (the reference). */
    JvmEndVertexSearch(ParallelLoops loops) {
        this.loops = loops;
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
    }

    @Override
    public void search(int count, double[] frames, float[] framesF, int[] gates, int[] out) {
        ParallelLoops.RangeBody body = (from, to) -> {
            for (int e = from; e < to; e++) {
                VoronoiKernels.searchEdge(e, bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, p, ip, frames,
                        framesF, gates, out);
            }
        };
        if (loops == null) {
            body.run(0, count);
        } else {
            loops.forRange(count, 4, body);
        }
    }

    @Override
    public void close() {
    }
}
