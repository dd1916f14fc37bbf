package org.accelgeom.voronoi.tornado;

import org.accelgeom.voronoi.VoronoiKernels;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.WorkerGrid;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/**
 * The TornadoVM task of the end-vertex search: one work-item per frontier edge (level-by-level tracing: the
 * whole batch in one launch), each running {@link VoronoiKernels#searchEdge} over its grid-pruned candidates,
 * both phases of the two-phase search inside the work-item. The balls and the grid go to the device once
 * and stay there; the frames of a batch go up and the results come down with every launch. Public so that
 * other TornadoVM programs can embed the graph.
 */
public final class VoronoiTaskGraphs {

    /** ip slot of the launch's sequence number, written to beat[0] by work-item 0 (a launch that failed is seen). */
    public static final int SEQ = 7;

    private VoronoiTaskGraphs() {
    }

    /** Task method: the end ball of every edge e &lt; ip[count] of the batch. */
    public static void searchAll(double[] bx, double[] by, double[] bz, double[] br, float[] fx, float[] fy, float[] fz,
            float[] fr, int[] cellStart, int[] cellBalls, double[] p, int[] ip, double[] frames, float[] framesF,
            int[] gates, int[] out, int[] beat, int capacity) {
        for (@Parallel int e = 0; e < capacity; e++) {
            if (e == 0) {
                beat[0] = ip[SEQ];
            }
            if (e < ip[VoronoiKernels.I_COUNT]) {
                VoronoiKernels.searchEdge(e, bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, p, ip, frames, framesF,
                        gates, out);
            }
        }
    }

    /** The graph: balls, grid and parameters once; frames and counts every launch; results on demand. */
    public static TaskGraph graph(String name, double[] bx, double[] by, double[] bz, double[] br, float[] fx, float[] fy,
            float[] fz, float[] fr, int[] cellStart, int[] cellBalls, double[] p, int[] ip, double[] frames,
            float[] framesF, int[] gates, int[] out, int[] beat, int capacity) {
        return new TaskGraph(name)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, p)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, ip, frames, framesF, gates)
                .task("search", VoronoiTaskGraphs::searchAll, bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, p, ip,
                        frames, framesF, gates, out, beat, capacity)
                .transferToHost(DataTransferMode.UNDER_DEMAND, out, beat);
    }

    /** One work-item per edge slot, the work-group size left to the driver. */
    public static GridScheduler grid(String name, int capacity) {
        GridScheduler gs = new GridScheduler();
        WorkerGrid w = new WorkerGrid1D(capacity);
        w.setLocalWorkToNull();
        gs.addWorkerGrid(name + ".search", w);
        return gs;
    }
}
