package org.accelgeom.voronoi.tornado;

import org.accelgeom.voronoi.EndVertexScans;
import org.accelgeom.voronoi.VoronoiKernels;

import org.accelgeom.engine.tornado.LaunchCheck;

import uk.ac.manchester.tornado.api.GridScheduler;
import org.accelgeom.engine.tornado.CachedTaskGraph;
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
 * <p>Two graphs in one plan, over one {@link VoronoiBuffers}: {@link #load} owns the balls, the grid and the parameters
 * (uploaded when it runs, once per set of balls: a trajectory frame, the next input of a batch) and keeps them on the
 * device; {@link #search} consumes them, so new balls that fit the buffers reuse the compiled plan (TornadoVM's
 * persistOnDevice / consumeFromDevice). A program embeds the search after a graph of its own that persisted the balls
 * ({@link #search(String, VoronoiBuffers, String, boolean)}; docs/embedding.md). The tracing around the searches (the
 * vertices, the VIDIC links, a sequential walk over the edges found) stays on the host: it is not a task graph.
 */
public final class VoronoiTaskGraphs {

    /** ip slot of the search's sequence number, written by each task to its heartbeat slot (a launch that failed is seen). */
    public static final int SEQ = 7;
    /**
     * Heartbeat slots of the search graph: the float frames, then each pass's reduction (the lanes task has none:
     * TornadoVM's task takes at most 20 parameters, and it has 20).
     */
    public static final int FLOATS = 0, REDUCE0 = 1;
    /** Heartbeat slots of the load graph: its task, and a sum of what it read (not a heartbeat; see {@link #loaded}). */
    public static final int LOAD = 0, LOAD_SUM = 1;

    /** The heartbeat check of the load graph (slots {@link #LOAD}, {@link #LOAD_SUM}). */
    public static LaunchCheck loadCheck() {
        return new LaunchCheck("Voronoi upload", "load", "load sum");
    }

    /** The heartbeat check of the search graph (slots {@link #FLOATS}, {@link #REDUCE0} + pass). */
    public static LaunchCheck searchCheck() {
        String[] names = new String[REDUCE0 + EndVertexScans.PASSES];
        names[FLOATS] = "floats";
        for (int pass = 0; pass < EndVertexScans.PASSES; pass++) {
            names[REDUCE0 + pass] = "reduce" + pass;
        }
        return new LaunchCheck("Voronoi end-vertex search", names);
    }

    private VoronoiTaskGraphs() {
    }

    /**
     * Task method of the load graph: writes the load's sequence number to beat[0] and reads an element of every
     * array it uploads (so that each is a parameter TornadoVM transfers and keeps on the device).
     */
    public static void loaded(double[] bx, double[] by, double[] bz, double[] br, float[] fx, float[] fy, float[] fz,
            float[] fr, int[] cellStart, int[] cellBalls, double[] p, int[] seq, int[] beat) {
        for (@Parallel int i = 0; i < 1; i++) {
            beat[LOAD] = seq[0];
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
            beat[LOAD_SUM] = s + z;
        }
    }

    /** Name of the load graph of the search graph {@code name}. */
    public static String loadName(String name) {
        return name + "load";
    }

    /**
     * The load graph {@code loadName(name)}: balls (double and float), grid and parameters go to the device on every
     * execution of this graph (once per set of balls) and stay there for {@link #search}; seq[0] comes back in
     * {@code b.loadCheck.beat[LOAD]}.
     */
    public static TaskGraph load(String name, VoronoiBuffers b) {
        int[] beat = b.loadCheck.beat;
        return new CachedTaskGraph(loadName(name))
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, b.bx, b.by, b.bz, b.br, b.fx, b.fy, b.fz, b.fr,
                        b.cellStart, b.cellBalls, b.p, b.seq)
                .task("load", VoronoiTaskGraphs::loaded, b.bx, b.by, b.bz, b.br, b.fx, b.fy, b.fz, b.fr, b.cellStart,
                        b.cellBalls, b.p, b.seq, beat)
                .persistOnDevice(b.bx, b.by, b.bz, b.br, b.fx, b.fy, b.fz, b.fr, b.cellStart, b.cellBalls, b.p)
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
    public static void floatFrames(double[] p, int[] ip, double[] frames, float[] framesF, double[] qs, int[] beat) {
        for (@Parallel int e = 0; e < qs.length; e++) {
            if (e == 0) {
                beat[FLOATS] = ip[SEQ];
            }
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
                beat[REDUCE0 + pass] = ip[SEQ];
            }
            if (live(e, ip, qs, pass) == 1) {
                EndVertexScans.reduceLanes(e, ip[VoronoiKernels.I_LANES], pass, lf, ld, li, qs, p, ip, frames, out);
            }
        }
    }

    /**
     * The search graph {@code name} over {@code b}: balls, grid and parameters from the device buffers of the load graph
     * {@code loadName(name)}; scratch once; counts, gates and double frames every execution (the float frames are made
     * on the device); results and heartbeats on demand.
     */
    public static TaskGraph search(String name, VoronoiBuffers b) {
        return search(name, b, loadName(name), false);
    }

    /**
     * The search graph {@code name} over {@code b}, its balls, grid and parameters ({@code b.bx .. b.fr, b.cellStart,
     * b.cellBalls, b.p}) taken on the device from the graph {@code ballsFrom}, which persisted them (our load graph, or
     * a program's own); with {@code keepOut} the results {@code b.out} also stay on the device for the program's next
     * graph ({@code consumeFromDevice(name, b.out)}).
     *
     * <p>Protocol: run the graph that puts the balls on the device once per set of balls; then, per level of edges,
     * write the level's double frames and gates into {@code b.frames} and {@code b.gates} (see
     * {@code SearchInput.firstLevel}), {@code b.ip[I_COUNT]} = the edge count (at most {@code b.capacity}),
     * {@code b.ip[SEQ]}++, execute, download {@code b.out} (and {@code b.searchCheck.beat}: {@code verify} it).
     * The first execution of the graph must follow the execution of {@code ballsFrom}'s graph (TornadoVM hands a
     * persisted buffer on from the graph executed last).
     */
    public static TaskGraph search(String name, VoronoiBuffers b, String ballsFrom, boolean keepOut) {
        int[] beat = b.searchCheck.beat;
        TaskGraph g = new CachedTaskGraph(name)
                .consumeFromDevice(ballsFrom, b.bx, b.by, b.bz, b.br, b.fx, b.fy, b.fz, b.fr, b.cellStart, b.cellBalls, b.p)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, b.qs, b.lf, b.ld, b.li, b.framesF)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, b.ip, b.frames, b.gates)
                .task("floats", VoronoiTaskGraphs::floatFrames, b.p, b.ip, b.frames, b.framesF, b.qs, beat);
        for (int pass = 0; pass < EndVertexScans.PASSES; pass++) {
            g = g.task("lanes" + pass, VoronoiTaskGraphs::lanes, b.bx, b.by, b.bz, b.br, b.fx, b.fy, b.fz, b.fr, b.cellStart,
                    b.cellBalls, b.p, b.ip, b.frames, b.framesF, b.gates, b.qs, b.lf, b.ld, b.li, pass)
                    .task("reduce" + pass, VoronoiTaskGraphs::reduce, b.lf, b.ld, b.li, b.qs, b.p, b.ip, b.frames, b.out, beat,
                            pass);
        }
        if (keepOut) {
            g = g.persistOnDevice(b.out);
        }
        return g.transferToHost(DataTransferMode.UNDER_DEMAND, b.out, beat);
    }

    /** The launch geometry of the load graph and the search graph {@code name} over {@code b}. */
    public static GridScheduler grid(String name, VoronoiBuffers b) {
        return grid(name, b.capacity, b.lanes);
    }

    /** One work-item per lane or per edge slot (and one for the load task), the work-group size left to the driver. */
    static GridScheduler grid(String name, int capacity, int lanes) {
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
