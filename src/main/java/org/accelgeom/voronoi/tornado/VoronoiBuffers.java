package org.accelgeom.voronoi.tornado;

import org.accelgeom.engine.tornado.LaunchCheck;
import org.accelgeom.voronoi.EndVertexScans;
import org.accelgeom.voronoi.SearchInput;
import org.accelgeom.voronoi.VoronoiKernels;

/**
 * The arrays of the end-vertex search's task graphs ({@link VoronoiTaskGraphs}), of fixed sizes: the balls, the grid
 * and the parameters (the load graph's; larger than an input's is fine, the kernels read the grid's cells and balls
 * only), a level's edges (frames and gates, {@code capacity} edges), the lanes' scratch, the results ({@code out},
 * {@link VoronoiKernels#OS} ints per edge) and the heartbeats of both graphs.
 */
public final class VoronoiBuffers {
    public final double[] bx, by, bz, br, p;
    public final float[] fx, fy, fz, fr;
    public final int[] cellStart, cellBalls, ip;
    public final double[] frames;
    public final float[] framesF;
    public final int[] gates, out;
    public final double[] qs;
    public final float[] lf;
    public final double[] ld;
    public final int[] li;
    /** The load graph's sequence number (seq[0]), written back by its task to {@link #loadCheck}. */
    public final int[] seq = new int[1];
    /** Heartbeats of the load graph and of the search graph (their slots: {@link VoronoiTaskGraphs}). */
    public final LaunchCheck loadCheck = VoronoiTaskGraphs.loadCheck(), searchCheck = VoronoiTaskGraphs.searchCheck();
    public final int capacity, lanes;

    /** Room for {@code balls} balls, {@code cells} entries of cellStart, {@code cellBalls}, {@code capacity} edges. */
    public VoronoiBuffers(int balls, int cells, int cellBalls, int capacity, int lanes) {
        this.capacity = capacity;
        this.lanes = lanes;
        bx = new double[balls];
        by = new double[balls];
        bz = new double[balls];
        br = new double[balls];
        fx = new float[balls];
        fy = new float[balls];
        fz = new float[balls];
        fr = new float[balls];
        cellStart = new int[cells];
        this.cellBalls = new int[Math.max(1, cellBalls)];
        p = new double[VoronoiKernels.PN];
        ip = new int[VoronoiKernels.IN];
        frames = new double[capacity * VoronoiKernels.FS];
        framesF = new float[capacity * VoronoiKernels.FS];
        gates = new int[capacity * VoronoiKernels.GS];
        out = new int[capacity * VoronoiKernels.OS];
        qs = new double[capacity];
        lf = new float[capacity * lanes];
        ld = new double[capacity * lanes];
        li = new int[capacity * lanes * EndVertexScans.LS];
    }

    /** Buffers of exactly the sizes of {@code in}, filled with it. */
    public static VoronoiBuffers of(SearchInput in) {
        VoronoiBuffers b = new VoronoiBuffers(in.bx.length, in.cellStart.length, in.cellBalls.length, in.capacity,
                in.lanes());
        b.fill(in.bx, in.by, in.bz, in.br, in.fx, in.fy, in.fz, in.fr, in.cellStart, in.cellBalls, in.p, in.ip);
        return b;
    }

    /** Whether balls, grid and capacity of these sizes fit (and the lanes are these). */
    public boolean fits(int balls, int cells, int cellBalls, int capacity, int lanes) {
        return balls <= bx.length && cells <= cellStart.length && cellBalls <= this.cellBalls.length
                && capacity <= this.capacity && lanes == this.lanes;
    }

    /** Copies balls, grid and parameters in (the search's launch count, ip[SEQ], is kept). */
    public void fill(double[] x, double[] y, double[] z, double[] r, float[] xf, float[] yf, float[] zf, float[] rf,
            int[] start, int[] balls, double[] params, int[] iparams) {
        int n = x.length;
        System.arraycopy(x, 0, bx, 0, n);
        System.arraycopy(y, 0, by, 0, n);
        System.arraycopy(z, 0, bz, 0, n);
        System.arraycopy(r, 0, br, 0, n);
        System.arraycopy(xf, 0, fx, 0, n);
        System.arraycopy(yf, 0, fy, 0, n);
        System.arraycopy(zf, 0, fz, 0, n);
        System.arraycopy(rf, 0, fr, 0, n);
        System.arraycopy(start, 0, cellStart, 0, start.length);
        System.arraycopy(balls, 0, cellBalls, 0, balls.length);
        System.arraycopy(params, 0, p, 0, params.length);
        int launches = ip[VoronoiTaskGraphs.SEQ];
        System.arraycopy(iparams, 0, ip, 0, iparams.length);
        ip[VoronoiTaskGraphs.SEQ] = launches;
    }
}
