package org.accelgeom.voronoi;

/**
 * End-vertex searches done again on the host, in double, by the reference kernel ({@link VoronoiKernels#searchEdge},
 * mode double, the same arithmetic as the jvm backend): the edges the device flagged as near ties
 * ({@link EndVertexScans#TIE}: two candidates' theta within {@link EndVertexScans#TIE_BAND}, where the device's
 * contracted multiply-adds may order them otherwise than Java) or whose arg-min the device found uncertain
 * ({@link RobustTheta}: a decision within its error bound of the threshold; POCL's float-accurate double sqrt gave
 * 4JSV 38 extra vertices and 52 inconsistent links before), and every edge in precision float.
 *
 * <p>Precision {@code float} (the device searches in float only: phase 1 of
 * Alg. 5.4 without phase 2, an error study): every edge is searched again on the host in double
 * ({@link VoronoiKernels#searchEdge}, mode double) and a search whose float answer differs is a <i>float error</i>
 * (the thesis' swaps, Table 8.2, without the rescue of phase 2). The tracing goes on from the double answer: a
 * single wrong end vertex would start an endless trail of wrong vertices, and a wrong one can even be a true vertex
 * of the diagram (past a ball that the edge enters and leaves again), which no local check of the vertex sees.
 */
final class HostRecheck {
    private final Balls b;
    private final BallGrid grid;
    private final float[] fx, fy, fz, fr;
    private final double[] p;
    private final int[] ipDouble;

    HostRecheck(Balls b, BallGrid grid, float[] fx, float[] fy, float[] fz, float[] fr, double[] p, int[] ip) {
        this.b = b;
        this.grid = grid;
        this.fx = fx;
        this.fy = fy;
        this.fz = fz;
        this.fr = fr;
        this.p = p;
        this.ipDouble = ip.clone();
        this.ipDouble[VoronoiKernels.I_MODE] = VoronoiKernels.MODE_DOUBLE;
    }

    /** Searches edge e of the batch again in double (writes out[e*OS] and out[e*OS+3]; keeps the float ball). */
    void research(int e, double[] frames, float[] framesF, int[] gates, int[] out) {
        int bestF = out[e * VoronoiKernels.OS + 1];
        int evals = out[e * VoronoiKernels.OS + 2];
        VoronoiKernels.searchEdge(e, b.x, b.y, b.z, b.r, fx, fy, fz, fr, grid.cellStart, grid.cellBalls, p, ipDouble,
                frames, framesF, gates, out);
        out[e * VoronoiKernels.OS + 1] = bestF;
        out[e * VoronoiKernels.OS + 2] = evals;
    }
}
