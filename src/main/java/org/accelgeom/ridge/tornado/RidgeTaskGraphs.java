package org.accelgeom.ridge.tornado;

import static org.accelgeom.ridge.tornado.RidgeBuffers.D;
import static org.accelgeom.ridge.tornado.RidgeBuffers.EPS;
import static org.accelgeom.ridge.tornado.RidgeBuffers.INV_SCALE;
import static org.accelgeom.ridge.tornado.RidgeBuffers.MODE;
import static org.accelgeom.ridge.tornado.RidgeBuffers.NS;
import static org.accelgeom.ridge.tornado.RidgeBuffers.R1SQ;
import static org.accelgeom.ridge.tornado.RidgeBuffers.SCALE;
import static org.accelgeom.ridge.tornado.RidgeBuffers.SEQ;
import static org.accelgeom.ridge.tornado.RidgeBuffers.TILES;

import org.accelgeom.ridge.Precision;
import org.accelgeom.ridge.RidgeKernels;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.KernelContext;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.WorkerGrid;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.LongArray;

/**
 * TornadoVM task methods of one evolution iteration (Alg. 8–10) and the TaskGraph that chains them:
 * {@code load} (MODE_LOAD only: take new representatives after decimation and mark every tile active),
 * {@code clear} (zero the accumulators), {@code closest} (closestSphereKernel, Alg. 9: one work-item per cloud point,
 * nearest representative of its tile, fixed-point atomic adds into SpherePointCount and CordSums), {@code shift}
 * (shiftSphereKernel, Alg. 10: one work-item per representative, centroid and move test, per-tile changed
 * flags) and {@code activate} (a tile stays active while one of its representatives moved). The host runs the
 * graph until {@code flags[0]} is 0, downloading 4 bytes per iteration. Every task writes the execution's number
 * to its heartbeat slot, so a kernel that failed to launch is detected.
 *
 * <p>Public, so that other TornadoVM programs can embed the graph: {@link #graph(String, RidgeBuffers)} and
 * {@link #grid(String, RidgeBuffers)}.
 */
public final class RidgeTaskGraphs {

    /** Copy {@code repsIn} to the resident representatives, activate all tiles, then iterate. */
    public static final int MODE_LOAD = 1;
    /** One more iteration on the resident representatives. */
    public static final int MODE_ITERATE = 2;
    /** Heartbeat slots (one per task). */
    public static final int BEATS = 5;

    private RidgeTaskGraphs() {
    }

    public static void load(int[] params, double[] repsIn, double[] s, int[] active, int items, int d, int[] beat) {
        for (@Parallel int k = 0; k < items; k++) {
            if (params[MODE] == MODE_LOAD) {
                if (k < params[NS]) {
                    for (int c = 0; c < d; c++) {
                        s[k * d + c] = repsIn[k * d + c];
                    }
                }
                if (k < params[TILES]) {
                    active[k] = 1;
                }
            }
            if (k == 0) {
                beat[0] = params[SEQ];
            }
        }
    }

    public static void loadF(int[] params, float[] repsIn, float[] s, int[] active, int items, int d, int[] beat) {
        for (@Parallel int k = 0; k < items; k++) {
            if (params[MODE] == MODE_LOAD) {
                if (k < params[NS]) {
                    for (int c = 0; c < d; c++) {
                        s[k * d + c] = repsIn[k * d + c];
                    }
                }
                if (k < params[TILES]) {
                    active[k] = 1;
                }
            }
            if (k == 0) {
                beat[0] = params[SEQ];
            }
        }
    }

    public static void clear(int[] params, int[] count, LongArray sums, int[] changed, int[] flags, int items, int d,
            int[] beat) {
        for (@Parallel int k = 0; k < items; k++) {
            if (k < params[NS]) {
                count[k] = 0;
                for (int c = 0; c < d; c++) {
                    sums.set(k * d + c, 0L);
                }
            }
            if (k < params[TILES]) {
                changed[k] = 0;
            }
            if (k == 0) {
                flags[0] = 0;
                beat[1] = params[SEQ];
            }
        }
    }

    /** closestSphereKernel (Alg. 9), double. */
    public static void closest(KernelContext ctx, int[] params, double[] fparams, double[] p, int[] pointTile,
            double[] s, int[] tileStart, int[] active, int[] count, LongArray sums, int n, int d, int[] beat) {
        for (@Parallel int i = 0; i < n; i++) {
            int t = pointTile[i];
            if (active[t] == 1) {
                int o = RidgeKernels.nearest(p, n, d, i, s, tileStart[t], tileStart[t + 1], fparams[R1SQ]);
                if (o >= 0) {
                    ctx.atomicAdd(count, o, 1);
                    for (int c = 0; c < d; c++) {
                        ctx.atomicAdd(sums, o * d + c, RidgeKernels.offset(p[c * n + i], s[o * d + c], fparams[SCALE]));
                    }
                }
            }
            if (i == 0) {
                beat[2] = params[SEQ];
            }
        }
    }

    /** closestSphereKernel (Alg. 9), float. */
    public static void closestF(KernelContext ctx, int[] params, float[] fparams, float[] p, int[] pointTile,
            float[] s, int[] tileStart, int[] active, int[] count, LongArray sums, int n, int d, int[] beat) {
        for (@Parallel int i = 0; i < n; i++) {
            int t = pointTile[i];
            if (active[t] == 1) {
                int o = RidgeKernels.nearest(p, n, d, i, s, tileStart[t], tileStart[t + 1], fparams[R1SQ]);
                if (o >= 0) {
                    ctx.atomicAdd(count, o, 1);
                    for (int c = 0; c < d; c++) {
                        ctx.atomicAdd(sums, o * d + c, RidgeKernels.offset(p[c * n + i], s[o * d + c], fparams[SCALE]));
                    }
                }
            }
            if (i == 0) {
                beat[2] = params[SEQ];
            }
        }
    }

    /** shiftSphereKernel (Alg. 10), double. */
    public static void shift(int[] params, double[] fparams, double[] s, int[] repTile, int[] active, int[] count,
            LongArray sums, int[] changed, int[] flags, int items, int d, int[] beat) {
        for (@Parallel int k = 0; k < items; k++) {
            if (k < params[NS]) {
                int t = repTile[k];
                int m = count[k];
                if (active[t] == 1) {
                    if (m > 0) {
                        for (int c = 0; c < d; c++) {
                            double si = s[k * d + c];
                            double mc = RidgeKernels.centroid(si, sums.get(k * d + c), m, fparams[INV_SCALE]);
                            if (RidgeKernels.noticeable(mc, si, m, fparams[EPS], fparams[INV_SCALE])) {
                                changed[t] = 1;
                                flags[0] = 1;
                            }
                            s[k * d + c] = mc;
                        }
                    }
                }
            }
            if (k == 0) {
                beat[3] = params[SEQ];
            }
        }
    }

    /** shiftSphereKernel (Alg. 10), float. */
    public static void shiftF(int[] params, float[] fparams, float[] s, int[] repTile, int[] active, int[] count,
            LongArray sums, int[] changed, int[] flags, int items, int d, int[] beat) {
        for (@Parallel int k = 0; k < items; k++) {
            if (k < params[NS]) {
                int t = repTile[k];
                int m = count[k];
                if (active[t] == 1) {
                    if (m > 0) {
                        for (int c = 0; c < d; c++) {
                            float si = s[k * d + c];
                            float mc = RidgeKernels.centroid(si, sums.get(k * d + c), m, fparams[INV_SCALE]);
                            if (RidgeKernels.noticeable(mc, si, m, fparams[EPS], fparams[INV_SCALE])) {
                                changed[t] = 1;
                                flags[0] = 1;
                            }
                            s[k * d + c] = mc;
                        }
                    }
                }
            }
            if (k == 0) {
                beat[3] = params[SEQ];
            }
        }
    }

    public static void activate(int[] params, int[] active, int[] changed, int items, int[] beat) {
        for (@Parallel int t = 0; t < items; t++) {
            if (t < params[TILES]) {
                active[t] = changed[t];
            }
            if (t == 0) {
                beat[4] = params[SEQ];
            }
        }
    }

    /**
     * The evolution TaskGraph over {@code b}: the cloud, its tiles and the constants go to the device once; per
     * execution the parameters, the tile ranges and (used in MODE_LOAD only) the new representatives; the changed
     * flag and the heartbeats come back on demand, the representatives when the evolution has converged.
     */
    public static TaskGraph graph(String name, RidgeBuffers b) {
        KernelContext ctx = new KernelContext();
        int items = b.repItems();
        if (b.precision == Precision.FLOAT) {
            return new TaskGraph(name)
                    .transferToDevice(DataTransferMode.FIRST_EXECUTION, b.pf, b.pointTile, b.fparamsF, b.sf, b.count,
                            b.sums, b.active, b.changed)
                    .transferToDevice(DataTransferMode.EVERY_EXECUTION, b.params, b.repsInF, b.tileStart, b.repTile)
                    .task("load", RidgeTaskGraphs::loadF, b.params, b.repsInF, b.sf, b.active, items, b.d, b.beat)
                    .task("clear", RidgeTaskGraphs::clear, b.params, b.count, b.sums, b.changed, b.flags, items, b.d,
                            b.beat)
                    .task("closest", RidgeTaskGraphs::closestF, ctx, b.params, b.fparamsF, b.pf, b.pointTile, b.sf,
                            b.tileStart, b.active, b.count, b.sums, b.n, b.d, b.beat)
                    .task("shift", RidgeTaskGraphs::shiftF, b.params, b.fparamsF, b.sf, b.repTile, b.active, b.count,
                            b.sums, b.changed, b.flags, items, b.d, b.beat)
                    .task("activate", RidgeTaskGraphs::activate, b.params, b.active, b.changed, items, b.beat)
                    .transferToHost(DataTransferMode.UNDER_DEMAND, b.flags, b.beat, b.sf);
        }
        return new TaskGraph(name)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, b.p, b.pointTile, b.fparams, b.s, b.count, b.sums,
                        b.active, b.changed)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, b.params, b.repsIn, b.tileStart, b.repTile)
                .task("load", RidgeTaskGraphs::load, b.params, b.repsIn, b.s, b.active, items, b.d, b.beat)
                .task("clear", RidgeTaskGraphs::clear, b.params, b.count, b.sums, b.changed, b.flags, items, b.d, b.beat)
                .task("closest", RidgeTaskGraphs::closest, ctx, b.params, b.fparams, b.p, b.pointTile, b.s, b.tileStart,
                        b.active, b.count, b.sums, b.n, b.d, b.beat)
                .task("shift", RidgeTaskGraphs::shift, b.params, b.fparams, b.s, b.repTile, b.active, b.count, b.sums,
                        b.changed, b.flags, items, b.d, b.beat)
                .task("activate", RidgeTaskGraphs::activate, b.params, b.active, b.changed, items, b.beat)
                .transferToHost(DataTransferMode.UNDER_DEMAND, b.flags, b.beat, b.s);
    }

    /**
     * One 1D grid per task, of exactly its loop's size, work-group size left to the driver (TornadoVM's default
     * work-group size failed to launch large kernels on an H200 with CL_OUT_OF_RESOURCES).
     */
    public static GridScheduler grid(String name, RidgeBuffers b) {
        GridScheduler gs = new GridScheduler();
        for (String task : new String[] {"load", "clear", "shift", "activate"}) {
            add(gs, name + "." + task, b.repItems());
        }
        add(gs, name + ".closest", b.n);
        return gs;
    }

    private static void add(GridScheduler gs, String task, int global) {
        WorkerGrid w = new WorkerGrid1D(global);
        w.setLocalWorkToNull();
        gs.addWorkerGrid(task, w);
    }
}
