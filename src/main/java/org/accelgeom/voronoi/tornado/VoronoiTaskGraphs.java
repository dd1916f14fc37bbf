package org.accelgeom.voronoi.tornado;

import org.accelgeom.voronoi.EndVertexScans;
import org.accelgeom.voronoi.VoronoiKernels;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.WorkerGrid;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/**
 * The TornadoVM tasks of the end-vertex search, all frontier edges of a tracing level in one execution:
 * per pruning pass, ip[I_LANES] work-items per edge (default {@link EndVertexScans#LANES}) sweep the edge's grid candidates
 * ({@link EndVertexScans#searchLane}: float phase 1, the lane's suspects in double) and one work-item per edge
 * reduces its lanes and checks the pruning proof ({@link EndVertexScans#reduceLanes}); an edge whose proof fails
 * goes on in the next pass (the last one scans every cell), the others idle. The balls, the grid and the lanes'
 * scratch arrays go to the device once and stay there; the frames of a level go up and the results come down with
 * every execution. Public so that other TornadoVM programs can embed the graph.
 *
 * <p>Two graphs in one plan: {@link #load} owns the balls, the grid and the parameters (uploaded when it runs, once
 * per set of balls: a trajectory frame) and keeps them on the device; {@link #graph}, the search, consumes them, so a
 * new frame of as many balls reuses the compiled plan (TornadoVM's persistOnDevice / consumeFromDevice).
 */
public final class VoronoiTaskGraphs {

    /** ip slot of the launch's sequence number, written to beat[0] by the last reduction (a launch that failed is seen). */
    public static final int SEQ = 7;

    private VoronoiTaskGraphs() {
    }

    /**
     * Task method of the load graph: writes the load's sequence number to beat[0] and reads an element of every
     * array it uploads (so that each is a parameter TornadoVM transfers and keeps on the device).
     */
    public static void loaded(double[] bx, double[] by, double[] bz, double[] br, float[] fx, float[] fy, float[] fz,
            float[] fr, int[] cellStart, int[] cellBalls, double[] p, int[] seq, int[] beat) {
        for (@Parallel int i = 0; i < 1; i++) {
            beat[0] = seq[0];
            double d = bx[i] + by[i] + bz[i] + br[i] + p[i];
            float f = fx[i] + fy[i] + fz[i] + fr[i];
            int s = cellStart[i] + cellBalls[i];
            int z = 0;
            if (d != d) {
                z = 1;
            }
            if (f != f) {
                z = 1;
            }
            beat[1] = s + z;
        }
    }

    /** Name of the load graph of the search graph {@code name}. */
    public static String loadName(String name) {
        return name + "load";
    }

    /**
     * The load graph: balls (double and float), grid and parameters go to the device on every execution of this
     * graph (once per set of balls) and stay there for {@link #graph}; seq[0] comes back in beat[0].
     */
    public static TaskGraph load(String name, double[] bx, double[] by, double[] bz, double[] br, float[] fx, float[] fy,
            float[] fz, float[] fr, int[] cellStart, int[] cellBalls, double[] p, int[] seq, int[] beat) {
        return new org.accelgeom.engine.tornado.CachedTaskGraph(loadName(name))
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, p,
                        seq)
                .task("load", VoronoiTaskGraphs::loaded, bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, p, seq, beat)
                .persistOnDevice(bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, p)
                .transferToHost(DataTransferMode.UNDER_DEMAND, beat);
    }

    /**
     * 1 if batch edge e is searched in this pass: e &lt; ip[count], and pass 0 or its pruning radius qs[e] still
     * positive (flags as ints, no compound conditions: TornadoVM 5.2, see VoronoiKernels).
     */
    static int live(int e, int[] ip, double[] qs, int pass) {
        int go = 0;
        if (e < ip[VoronoiKernels.I_COUNT]) {
            go = go + 1;
        }
        int live = 0;
        if (pass == 0) {
            live = 1;
        }
        if (qs[e] > 0.0) {
            live = 1;
        }
        return go + live == 2 ? 1 : 0;
    }

    /** Task method: lanes of the live edges (e &lt; ip[count]; after pass 0, those with qs[e] &gt; 0) of one pass. */
    public static void lanes(double[] bx, double[] by, double[] bz, double[] br, float[] fx, float[] fy, float[] fz,
            float[] fr, int[] cellStart, int[] cellBalls, double[] p, int[] ip, double[] frames, float[] framesF,
            int[] gates, double[] qs, float[] lf, double[] ld, int[] li, int pass) {
        for (@Parallel int k = 0; k < lf.length; k++) {
            int e = k / ip[VoronoiKernels.I_LANES];
            if (live(e, ip, qs, pass) == 1) {
                EndVertexScans.searchLane(k, ip[VoronoiKernels.I_LANES], pass, bx, by, bz, br, fx, fy, fz, fr, cellStart,
                        cellBalls, p, ip, frames, framesF, gates, qs, lf, ld, li);
            }
        }
    }

    /** Task method: the float frames of the batch's edges (the host uploads only the double ones). */
    public static void floatFrames(double[] p, int[] ip, double[] frames, float[] framesF, double[] qs) {
        for (@Parallel int e = 0; e < qs.length; e++) {
            if (e < ip[VoronoiKernels.I_COUNT]) {
                EndVertexScans.floatFrame(e, p, frames, framesF);
            }
        }
    }

    /** Task method: the reduction and pruning proof of every live edge after one pass. */
    public static void reduce(float[] lf, double[] ld, int[] li, double[] qs, double[] p, int[] ip, double[] frames,
            int[] out, int[] beat, int pass) {
        for (@Parallel int e = 0; e < qs.length; e++) {
            if (e == 0) {
                beat[0] = ip[SEQ] * 4 + pass;
            }
            if (live(e, ip, qs, pass) == 1) {
                EndVertexScans.reduceLanes(e, ip[VoronoiKernels.I_LANES], pass, lf, ld, li, qs, p, ip, frames, out);
            }
        }
    }

    /**
     * The search graph over arrays of one capacity (edges per execution): balls, grid and parameters from the load
     * graph's device buffers; scratch once; counts, gates and double frames every execution (the float frames are made
     * on the device); results on demand.
     */
    public static TaskGraph graph(String name, double[] bx, double[] by, double[] bz, double[] br, float[] fx, float[] fy,
            float[] fz, float[] fr, int[] cellStart, int[] cellBalls, double[] p, int[] ip, double[] frames,
            float[] framesF, int[] gates, double[] qs, float[] lf, double[] ld, int[] li, int[] out, int[] beat) {
        TaskGraph g = new org.accelgeom.engine.tornado.CachedTaskGraph(name)
                .consumeFromDevice(loadName(name), bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, p)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, qs, lf, ld, li, framesF)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, ip, frames, gates)
                .task("floats", VoronoiTaskGraphs::floatFrames, p, ip, frames, framesF, qs);
        for (int pass = 0; pass < EndVertexScans.PASSES; pass++) {
            g = g.task("lanes" + pass, VoronoiTaskGraphs::lanes, bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, p,
                    ip, frames, framesF, gates, qs, lf, ld, li, pass)
                    .task("reduce" + pass, VoronoiTaskGraphs::reduce, lf, ld, li, qs, p, ip, frames, out, beat, pass);
        }
        return g.transferToHost(DataTransferMode.UNDER_DEMAND, out, beat);
    }

    /** One work-item per lane or per edge slot (and one for the load task), the work-group size left to the driver. */
    public static GridScheduler grid(String name, int capacity, int lanes) {
        GridScheduler gs = new GridScheduler();
        WorkerGrid one = new WorkerGrid1D(1);
        one.setLocalWorkToNull();
        gs.addWorkerGrid(loadName(name) + ".load", one);
        WorkerGrid f = new WorkerGrid1D(capacity);
        f.setLocalWorkToNull();
        gs.addWorkerGrid(name + ".floats", f);
        for (int pass = 0; pass < EndVertexScans.PASSES; pass++) {
            WorkerGrid w = new WorkerGrid1D(capacity * lanes);
            w.setLocalWorkToNull();
            gs.addWorkerGrid(name + ".lanes" + pass, w);
            WorkerGrid r = new WorkerGrid1D(capacity);
            r.setLocalWorkToNull();
            gs.addWorkerGrid(name + ".reduce" + pass, r);
        }
        return gs;
    }
}
