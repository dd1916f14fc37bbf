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
 */
public final class VoronoiTaskGraphs {

    /** ip slot of the launch's sequence number, written to beat[0] by the last reduction (a launch that failed is seen). */
    public static final int SEQ = 7;

    private VoronoiTaskGraphs() {
    }

    /** Task method: lanes of the live edges (e &lt; ip[count]; after pass 0, those with qs[e] &gt; 0) of one pass. */
    public static void lanes(double[] bx, double[] by, double[] bz, double[] br, float[] fx, float[] fy, float[] fz,
            float[] fr, int[] cellStart, int[] cellBalls, double[] p, int[] ip, double[] frames, float[] framesF,
            int[] gates, double[] qs, float[] lf, double[] ld, int[] li, int pass) {
        for (@Parallel int k = 0; k < lf.length; k++) {
            int e = k / ip[VoronoiKernels.I_LANES];
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
            go = go + live;
            if (go == 2) {
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
            go = go + live;
            if (go == 2) {
                EndVertexScans.reduceLanes(e, ip[VoronoiKernels.I_LANES], pass, lf, ld, li, qs, p, ip, frames, out);
            }
        }
    }

    /**
     * The graph over arrays of one capacity (edges per execution): balls, grid, parameters and scratch once;
     * counts, gates and double frames every execution (the float frames are made on the device); results on demand.
     */
    public static TaskGraph graph(String name, double[] bx, double[] by, double[] bz, double[] br, float[] fx, float[] fy,
            float[] fz, float[] fr, int[] cellStart, int[] cellBalls, double[] p, int[] ip, double[] frames,
            float[] framesF, int[] gates, double[] qs, float[] lf, double[] ld, int[] li, int[] out, int[] beat) {
        TaskGraph g = new TaskGraph(name)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, p,
                        qs, lf, ld, li, framesF)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, ip, frames, gates)
                .task("floats", VoronoiTaskGraphs::floatFrames, p, ip, frames, framesF, qs);
        for (int pass = 0; pass < EndVertexScans.PASSES; pass++) {
            g = g.task("lanes" + pass, VoronoiTaskGraphs::lanes, bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, p,
                    ip, frames, framesF, gates, qs, lf, ld, li, pass)
                    .task("reduce" + pass, VoronoiTaskGraphs::reduce, lf, ld, li, qs, p, ip, frames, out, beat, pass);
        }
        return g.transferToHost(DataTransferMode.UNDER_DEMAND, out, beat);
    }

    /** One work-item per lane or per edge slot, the work-group size left to the driver. */
    public static GridScheduler grid(String name, int capacity, int lanes) {
        GridScheduler gs = new GridScheduler();
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
