package org.accelgeom.ridge.tornado;

import static org.accelgeom.ridge.tornado.RidgeBuffers.CAP;
import static org.accelgeom.ridge.tornado.RidgeBuffers.DONE;
import static org.accelgeom.ridge.tornado.RidgeBuffers.EPS;
import static org.accelgeom.ridge.tornado.RidgeBuffers.FLOAT;
import static org.accelgeom.ridge.tornado.RidgeBuffers.INV_SCALE;
import static org.accelgeom.ridge.tornado.RidgeBuffers.LIMIT;
import static org.accelgeom.ridge.tornado.RidgeBuffers.MODE;
import static org.accelgeom.ridge.tornado.RidgeBuffers.MOVED;
import static org.accelgeom.ridge.tornado.RidgeBuffers.NS;
import static org.accelgeom.ridge.tornado.RidgeBuffers.PRECISION;
import static org.accelgeom.ridge.tornado.RidgeBuffers.SEQ;
import static org.accelgeom.ridge.tornado.RidgeBuffers.STRIPES;
import static org.accelgeom.ridge.tornado.RidgeBuffers.TILES;

import org.accelgeom.engine.tornado.CachedTaskGraph;
import org.accelgeom.engine.tornado.LaunchCheck;
import org.accelgeom.ridge.Precision;
import org.accelgeom.ridge.SphereSteps;
import org.accelgeom.ridge.SphereStepsF;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.KernelContext;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.WorkerGrid;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.LongArray;

/**
 * TornadoVM task methods of the evolution (Alg. 8–10) and the TaskGraph that chains them. One execution runs
 * {@code load} (MODE_LOAD only: take the representatives after a decimation, mark every tile active, zero the
 * accumulators) and then {@code unroll} iterations of two kernels:
 * <ul>
 * <li>{@code closest}: closestSphereKernel (Alg. 9), one work-item per {@code chunk} consecutive points of an active tile: the
 * nearest representative of each point's tile within R1, then fixed-point atomic adds into SpherePointCount and
 * CordSums, one per run of consecutive points with the same representative ({@link ClosestSphere});</li>
 * <li>{@code shift}: shiftSphereKernel (Alg. 10), one work-item per representative: the centroid, the move test
 * (per-tile changed flags), and the accumulators zeroed for the next iteration.</li>
 * </ul>
 * Per-tile changed flags and the global moved/done flags are double-buffered by the parity q of the iteration: an
 * iteration reads the previous iteration's buffer (which tiles are active; whether it is live at all: something
 * moved and the cap is not reached) and writes its own, so no kernel reads a slot another work-item of the same
 * kernel writes. Iterations after convergence or the cap do nothing, so the result and the iteration count are the
 * JVM's; the host downloads one small array per execution. Heartbeats ({@link #launchCheck}: every task, each
 * copy its own slot, writes the execution's number) detect a kernel that failed to launch; they are downloaded and
 * checked once per evolve call (a kernel that does not run stops the loop: nothing moves).
 *
 * <p>Public, so that other TornadoVM programs can embed the graph (docs/embedding.md, "Ridge detection"):
 * {@link #graph(String, RidgeBuffers, String, boolean)} and {@link #grid(String, RidgeBuffers)}. The protocol of one
 * evolve call (Alg. 2), as {@link TornadoRidgeBackend} runs it:
 * <ol>
 * <li>{@link RidgeBuffers#setParameters} once; {@link RidgeBuffers#start} with the representatives grouped by tile
 * (MODE_LOAD);</li>
 * <li>execute, download {@code b.flags}; while {@link RidgeBuffers#live()} (it switches to MODE_ITERATE) download
 * {@code b.changed1}, call {@link RidgeBuffers#narrow()} (closest then launches only over the active tiles' points;
 * optional, the same result without it) and execute again;</li>
 * <li>download {@code b.representatives()} and {@code b.check.beat}; {@link RidgeBuffers#verify} checks every task
 * ran; {@link RidgeBuffers#result} copies the representatives out and {@link RidgeBuffers#iterations()} counts the
 * iterations.</li>
 * </ol>
 */
public final class RidgeTaskGraphs {

    /** Copy {@code repsIn} to the resident representatives, activate all tiles, then iterate. */
    public static final int MODE_LOAD = 1;
    /** Go on iterating on the resident representatives. */
    public static final int MODE_ITERATE = 2;
    /** The largest unroll TornadoVM 5.2 takes: larger graphs overflow its bytecode buffer. */
    public static final int MAX_UNROLL = 10;

    private RidgeTaskGraphs() {
    }

    /** Heartbeat slots ({@link #launchCheck}): load, then closest j and shift j of every copy j of the iteration. */
    public static final int SLOT_LOAD = 0;

    /** The heartbeat slot of copy j of closest. */
    public static int slotClosest(int j) {
        return 1 + 2 * j;
    }

    /** The heartbeat slot of copy j of shift. */
    public static int slotShift(int j) {
        return 2 + 2 * j;
    }

    /** The launch check of a graph of {@code unroll} iterations: slots "load", "closest0", "shift0", "closest1", ... */
    public static LaunchCheck launchCheck(int unroll) {
        String[] names = new String[1 + 2 * unroll];
        names[SLOT_LOAD] = "load";
        for (int j = 0; j < unroll; j++) {
            names[slotClosest(j)] = "closest" + j;
            names[slotShift(j)] = "shift" + j;
        }
        return new LaunchCheck("ridge detection", names);
    }

    /**
     * MODE_LOAD: the representatives from {@code repsIn} (double) or {@code repsInF} (float, {@code params[PRECISION]});
     * the other precision's arrays are one-element stand-ins that no work-item touches.
     */
    public static void load(int[] params, double[] repsIn, double[] s, float[] repsInF, float[] sf, int[] active,
            int[] count, LongArray sums, int[] flags, int[] beat, int items, int d) {
        for (@Parallel int k = 0; k < items; k++) {
            if (params[MODE] == MODE_LOAD) {
                if (k < params[NS]) {
                    for (int c = 0; c < d; c++) {
                        if (params[PRECISION] == FLOAT) {
                            sf[k * d + c] = repsInF[k * d + c];
                        } else {
                            s[k * d + c] = repsIn[k * d + c];
                        }
                    }
                    for (int r = 0; r < params[STRIPES]; r++) {
                        int at = r * params[CAP] + k;
                        count[at] = 0;
                        for (int c = 0; c < d; c++) {
                            sums.set(at * d + c, 0L);
                        }
                    }
                }
                if (k < params[TILES]) {
                    active[k] = 1;
                }
            }
            if (k == 0) {
                startExecution(params, flags);
                beat[SLOT_LOAD] = params[SEQ];
            }
        }
    }

    /** MODE_LOAD: the state "after iteration -1" (parity 1): everything moved, nothing done. */
    private static void startExecution(int[] params, int[] flags) {
        if (params[MODE] == MODE_LOAD) {
            flags[MOVED + 1] = 1;
            flags[DONE + 1] = 0;
        }
    }

    /**
     * shiftSphereKernel (Alg. 10), iteration of parity q, on {@code s} (double) or {@code sf} (float,
     * {@code params[PRECISION]}; ε and 2^-k rounded to float as the JVM's float step has them); work-item 0 counts the
     * iteration if it was live.
     */
    public static void shift(int[] params, double[] fparams, double[] s, float[] sf, int[] repTile, int[] prev,
            int[] cur, int[] count, LongArray sums, int[] flags, int[] beat, int items, int d, int q, int slot) {
        for (@Parallel int k = 0; k < items; k++) {
            int capped = 0;
            if (flags[DONE + 1 - q] >= params[LIMIT]) {
                capped = 1;
            }
            if (k < params[NS]) {
                int t = repTile[k];
                int stripes = params[STRIPES];
                int cap = params[CAP];
                int m = 0;
                for (int r = 0; r < stripes; r++) { // the copies of SpherePointCount (RidgeBuffers.count)
                    m += count[r * cap + k];
                }
                int live = prev[t];
                if (capped == 1) {
                    live = 0;
                }
                if (live == 1) {
                    if (m > 0) {
                        for (int c = 0; c < d; c++) {
                            long sum = 0;
                            for (int r = 0; r < stripes; r++) {
                                sum += sums.get((r * cap + k) * d + c);
                            }
                            int moved = 0;
                            if (params[PRECISION] == FLOAT) {
                                moved = SphereStepsF.moveToCentroid(sf, k * d + c, sum, m,
                                        (float) fparams[EPS], (float) fparams[INV_SCALE]);
                            } else {
                                moved = SphereSteps.moveToCentroid(s, k * d + c, sum, m,
                                        fparams[EPS], fparams[INV_SCALE]);
                            }
                            if (moved == 1) {
                                cur[t] = 1;
                                flags[MOVED + q] = 1; // an OR fused into shift: @Reduce would be a task per iteration
                            }
                        }
                    }
                }
                for (int r = 0; r < stripes; r++) {
                    int at = r * cap + k;
                    count[at] = 0;
                    for (int c = 0; c < d; c++) {
                        sums.set(at * d + c, 0L);
                    }
                }
            }
            if (k == 0) {
                endIteration(flags, capped, q);
                beat[slot] = params[SEQ];
            }
        }
    }

    /** The iteration was live if the previous one moved something and the cap was not reached. */
    private static void endIteration(int[] flags, int capped, int q) {
        int live = flags[MOVED + 1 - q];
        if (capped == 1) {
            live = 0;
        }
        flags[DONE + q] = flags[DONE + 1 - q] + live;
    }

    /**
     * The evolution TaskGraph over {@code b}, with the cloud uploaded on the first execution and the representatives
     * downloaded on demand: {@link #graph(String, RidgeBuffers, String, boolean)} with neither option.
     */
    public static TaskGraph graph(String name, RidgeBuffers b) {
        return graph(name, b, null, false);
    }

    /**
     * The evolution TaskGraph over {@code b}: the cloud ({@link RidgeBuffers#cloud()}), its tiles and the constants go
     * to the device once; per execution the parameters, closest's work list, the tile ranges and (used in MODE_LOAD only) the new
     * representatives; {@code flags} comes back on demand after each execution, the representatives
     * ({@link RidgeBuffers#representatives()}) and the heartbeats when the evolution has converged.
     *
     * @param cloudFrom   null, or the name of the user's own task graph (executed first, in the same execution
     *                    plan) that leaves the cloud on the device ({@code persistOnDevice(b.cloud())}): this graph
     *                    then takes it from there ({@code consumeFromDevice}) instead of uploading it
     * @param persistReps whether the representatives stay on the device ({@code persistOnDevice}) for the user's
     *                    next graph, which takes them with {@code consumeFromDevice(name, b.representatives())}
     */
    public static TaskGraph graph(String name, RidgeBuffers b, String cloudFrom, boolean persistReps) {
        KernelContext ctx = new KernelContext();
        int items = b.repItems();
        boolean f = b.precision == Precision.FLOAT;
        int[] beat = b.check.beat;
        TaskGraph g = new CachedTaskGraph(name); // built in KernelCache.onDevice: tasks an earlier process compiled skip Graal
        if (cloudFrom != null) {
            g.consumeFromDevice(cloudFrom, b.cloud());
        } else {
            g.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.cloud());
        }
        // after MODE_LOAD the active set is "changed in iteration -1", parity 1: changed1 = all ones
        // load and shift serve both precisions (params[PRECISION]); the other precision's arrays are one-element
        // stand-ins, sent once
        g.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.tileFirst, b.fparams, b.s, b.sf, b.count, b.sums,
                b.changed0, b.changed1, b.flags, beat);
        if (f) {
            g.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.fparamsF, b.repsIn)
                    .transferToDevice(DataTransferMode.EVERY_EXECUTION, b.params, b.work, b.repsInF, b.tileStart, b.repTile);
        } else {
            g.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.repsInF)
                    .transferToDevice(DataTransferMode.EVERY_EXECUTION, b.params, b.work, b.repsIn, b.tileStart, b.repTile);
        }
        g.task("load", RidgeTaskGraphs::load, b.params, b.repsIn, b.s, b.repsInF, b.sf, b.changed1, b.count, b.sums,
                b.flags, beat, items, b.d);
        for (int j = 0; j < b.unroll; j++) {
            int q = j & 1;
            int[] prev = q == 0 ? b.changed1 : b.changed0;
            int[] cur = q == 0 ? b.changed0 : b.changed1;
            if (f) {
                g.task("closest" + j, ClosestSphereF::closest, ctx, b.params, b.fparamsF, b.pf, b.tileFirst, b.work, b.sf,
                        b.tileStart, prev, cur, b.count, b.sums, b.flags, beat, b.n, b.d, q, slotClosest(j),
                        b.chunk, b.closestItems())
                        .task("shift" + j, RidgeTaskGraphs::shift, b.params, b.fparams, b.s, b.sf, b.repTile, prev,
                                cur, b.count, b.sums, b.flags, beat, items, b.d, q, slotShift(j));
            } else {
                g.task("closest" + j, ClosestSphere::closest, ctx, b.params, b.fparams, b.p, b.tileFirst, b.work, b.s,
                        b.tileStart, prev, cur, b.count, b.sums, b.flags, beat, b.n, b.d, q, slotClosest(j),
                        b.chunk, b.closestItems())
                        .task("shift" + j, RidgeTaskGraphs::shift, b.params, b.fparams, b.s, b.sf, b.repTile, prev,
                                cur, b.count, b.sums, b.flags, beat, items, b.d, q, slotShift(j));
            }
        }
        if (persistReps) {
            g.persistOnDevice(b.representatives());
        }
        return g.transferToHost(DataTransferMode.UNDER_DEMAND, b.flags, b.changed1, beat, b.representatives());
    }

    /**
     * One 1D grid per task, of exactly its loop's size, work-group size left to the driver (TornadoVM's default
     * work-group size failed to launch large kernels on an H200 with CL_OUT_OF_RESOURCES).
     */
    public static GridScheduler grid(String name, RidgeBuffers b) {
        GridScheduler gs = new GridScheduler();
        add(gs, name + ".load", b.repItems());
        for (int j = 0; j < b.unroll; j++) {
            add(gs, name + ".closest" + j, b.closestItems());
            add(gs, name + ".shift" + j, b.repItems());
        }
        return gs;
    }

    private static void add(GridScheduler gs, String task, int global) {
        WorkerGrid w = new WorkerGrid1D(global);
        w.setLocalWorkToNull();
        gs.addWorkerGrid(task, w);
    }
}
