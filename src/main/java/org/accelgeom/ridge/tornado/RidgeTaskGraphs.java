package org.accelgeom.ridge.tornado;

import static org.accelgeom.ridge.tornado.RidgeBuffers.BEAT;
import static org.accelgeom.ridge.tornado.RidgeBuffers.DONE;
import static org.accelgeom.ridge.tornado.RidgeBuffers.EPS;
import static org.accelgeom.ridge.tornado.RidgeBuffers.INV_SCALE;
import static org.accelgeom.ridge.tornado.RidgeBuffers.LIMIT;
import static org.accelgeom.ridge.tornado.RidgeBuffers.LIVE;
import static org.accelgeom.ridge.tornado.RidgeBuffers.MODE;
import static org.accelgeom.ridge.tornado.RidgeBuffers.MOVED;
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
 * TornadoVM task methods of the evolution (Alg. 8–10) and the TaskGraph that chains them. One execution runs
 * {@code load} (MODE_LOAD only: take the representatives after a decimation, mark every tile active, zero the
 * accumulators) and then {@code unroll} iterations, each three kernels:
 * <ul>
 * <li>{@code closest}: closestSphereKernel (Alg. 9), one work-item per cloud point: the nearest representative of
 * its tile within R1, then fixed-point atomic adds into SpherePointCount and CordSums;</li>
 * <li>{@code shift}: shiftSphereKernel (Alg. 10), one work-item per representative: the centroid and the move test,
 * per-tile changed flags;</li>
 * <li>{@code activate}: a tile stays active while one of its representatives moved; the accumulators are zeroed
 * for the next iteration.</li>
 * </ul>
 * Once no tile is active (or the iteration cap is reached) the remaining iterations of the execution do nothing, so
 * the result and the iteration count are the JVM's; the host downloads one small array per execution
 * ({@code flags}: live, iterations done, moved, heartbeats) instead of one per iteration. Heartbeats (the load
 * task writes the execution's number, every copy of the other tasks counts itself) detect a kernel that failed to
 * launch.
 *
 * <p>Public, so that other TornadoVM programs can embed the graph: {@link #graph(String, RidgeBuffers)} and
 * {@link #grid(String, RidgeBuffers)}.
 */
public final class RidgeTaskGraphs {

    /** Copy {@code repsIn} to the resident representatives, activate all tiles, then iterate. */
    public static final int MODE_LOAD = 1;
    /** Go on iterating on the resident representatives. */
    public static final int MODE_ITERATE = 2;

    private RidgeTaskGraphs() {
    }

    /**
     * Heartbeat slots: load writes the execution's number, then each closest, shift and activate task counts its
     * runs in its slot (so every copy of a task is the same kernel, compiled once).
     */
    public static int beats(int unroll) {
        return 4;
    }

    public static void load(int[] params, double[] repsIn, double[] s, int[] active, int[] changed, int[] count,
            LongArray sums, int[] flags, int items, int d) {
        for (@Parallel int k = 0; k < items; k++) {
            if (params[MODE] == MODE_LOAD) {
                if (k < params[NS]) {
                    count[k] = 0;
                    for (int c = 0; c < d; c++) {
                        s[k * d + c] = repsIn[k * d + c];
                        sums.set(k * d + c, 0L);
                    }
                }
                if (k < params[TILES]) {
                    active[k] = 1;
                    changed[k] = 0;
                }
                if (k == 0) {
                    flags[LIVE] = 1;
                    flags[DONE] = 0;
                }
            }
            if (k == 0) {
                flags[BEAT] = params[SEQ];
                flags[BEAT + 1] = 0;
                flags[BEAT + 2] = 0;
                flags[BEAT + 3] = 0;
            }
        }
    }

    public static void loadF(int[] params, float[] repsIn, float[] s, int[] active, int[] changed, int[] count,
            LongArray sums, int[] flags, int items, int d) {
        for (@Parallel int k = 0; k < items; k++) {
            if (params[MODE] == MODE_LOAD) {
                if (k < params[NS]) {
                    count[k] = 0;
                    for (int c = 0; c < d; c++) {
                        s[k * d + c] = repsIn[k * d + c];
                        sums.set(k * d + c, 0L);
                    }
                }
                if (k < params[TILES]) {
                    active[k] = 1;
                    changed[k] = 0;
                }
                if (k == 0) {
                    flags[LIVE] = 1;
                    flags[DONE] = 0;
                }
            }
            if (k == 0) {
                flags[BEAT] = params[SEQ];
                flags[BEAT + 1] = 0;
                flags[BEAT + 2] = 0;
                flags[BEAT + 3] = 0;
            }
        }
    }

    /** closestSphereKernel (Alg. 9), double; work-item 0 also counts the iteration if it is live. */
    public static void closest(KernelContext ctx, int[] params, double[] fparams, double[] p, int[] pointTile,
            double[] s, int[] tileStart, int[] active, int[] count, LongArray sums, int[] flags, int n, int d) {
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
                countIteration(flags);
            }
        }
    }

    /** closestSphereKernel (Alg. 9), float. */
    public static void closestF(KernelContext ctx, int[] params, float[] fparams, float[] p, int[] pointTile,
            float[] s, int[] tileStart, int[] active, int[] count, LongArray sums, int[] flags, int n, int d) {
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
                countIteration(flags);
            }
        }
    }

    private static void countIteration(int[] flags) {
        if (flags[LIVE] == 1) {
            flags[DONE] = flags[DONE] + 1;
        }
        flags[MOVED] = 0;
        flags[BEAT + 1] = flags[BEAT + 1] + 1;
    }

    /** shiftSphereKernel (Alg. 10), double. */
    public static void shift(int[] params, double[] fparams, double[] s, int[] repTile, int[] active, int[] count,
            LongArray sums, int[] changed, int[] flags, int items, int d) {
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
                                flags[MOVED] = 1;
                            }
                            s[k * d + c] = mc;
                        }
                    }
                }
            }
            if (k == 0) {
                flags[BEAT + 2] = flags[BEAT + 2] + 1;
            }
        }
    }

    /** shiftSphereKernel (Alg. 10), float. */
    public static void shiftF(int[] params, float[] fparams, float[] s, int[] repTile, int[] active, int[] count,
            LongArray sums, int[] changed, int[] flags, int items, int d) {
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
                                flags[MOVED] = 1;
                            }
                            s[k * d + c] = mc;
                        }
                    }
                }
            }
            if (k == 0) {
                flags[BEAT + 2] = flags[BEAT + 2] + 1;
            }
        }
    }

    /**
     * The next iteration's active tiles (those whose representatives moved, none once the cap is reached) and
     * zeroed accumulators; work-item 0 decides whether the next iteration is live.
     */
    public static void activate(int[] params, int[] active, int[] changed, int[] count, LongArray sums, int[] flags,
            int items, int d) {
        for (@Parallel int k = 0; k < items; k++) {
            int capped = 0;
            if (flags[DONE] >= params[LIMIT]) {
                capped = 1;
            }
            if (k < params[TILES]) {
                int next = changed[k];
                if (capped == 1) {
                    next = 0;
                }
                active[k] = next;
                changed[k] = 0;
            }
            if (k < params[NS]) {
                count[k] = 0;
                for (int c = 0; c < d; c++) {
                    sums.set(k * d + c, 0L);
                }
            }
            if (k == 0) {
                int live = flags[MOVED];
                if (capped == 1) {
                    live = 0;
                }
                flags[LIVE] = live;
                flags[BEAT + 3] = flags[BEAT + 3] + 1;
            }
        }
    }

    /**
     * The evolution TaskGraph over {@code b}: the cloud, its tiles and the constants go to the device once; per
     * execution the parameters, the tile ranges and (used in MODE_LOAD only) the new representatives; {@code flags}
     * comes back on demand after each execution, the representatives when the evolution has converged.
     */
    public static TaskGraph graph(String name, RidgeBuffers b) {
        KernelContext ctx = new KernelContext();
        int items = b.repItems();
        boolean f = b.precision == Precision.FLOAT;
        TaskGraph g = new TaskGraph(name);
        if (f) {
            g.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.pf, b.pointTile, b.fparamsF, b.sf, b.count, b.sums,
                    b.active, b.changed, b.flags)
                    .transferToDevice(DataTransferMode.EVERY_EXECUTION, b.params, b.repsInF, b.tileStart, b.repTile)
                    .task("load", RidgeTaskGraphs::loadF, b.params, b.repsInF, b.sf, b.active, b.changed, b.count,
                            b.sums, b.flags, items, b.d);
        } else {
            g.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.p, b.pointTile, b.fparams, b.s, b.count, b.sums,
                    b.active, b.changed, b.flags)
                    .transferToDevice(DataTransferMode.EVERY_EXECUTION, b.params, b.repsIn, b.tileStart, b.repTile)
                    .task("load", RidgeTaskGraphs::load, b.params, b.repsIn, b.s, b.active, b.changed, b.count, b.sums,
                            b.flags, items, b.d);
        }
        for (int j = 0; j < b.unroll; j++) {
            if (f) {
                g.task("closest" + j, RidgeTaskGraphs::closestF, ctx, b.params, b.fparamsF, b.pf, b.pointTile, b.sf,
                        b.tileStart, b.active, b.count, b.sums, b.flags, b.n, b.d)
                        .task("shift" + j, RidgeTaskGraphs::shiftF, b.params, b.fparamsF, b.sf, b.repTile, b.active,
                                b.count, b.sums, b.changed, b.flags, items, b.d);
            } else {
                g.task("closest" + j, RidgeTaskGraphs::closest, ctx, b.params, b.fparams, b.p, b.pointTile, b.s,
                        b.tileStart, b.active, b.count, b.sums, b.flags, b.n, b.d)
                        .task("shift" + j, RidgeTaskGraphs::shift, b.params, b.fparams, b.s, b.repTile, b.active, b.count,
                                b.sums, b.changed, b.flags, items, b.d);
            }
            g.task("activate" + j, RidgeTaskGraphs::activate, b.params, b.active, b.changed, b.count, b.sums, b.flags,
                    items, b.d);
        }
        return g.transferToHost(DataTransferMode.UNDER_DEMAND, b.flags, f ? b.sf : b.s);
    }

    /**
     * One 1D grid per task, of exactly its loop's size, work-group size left to the driver (TornadoVM's default
     * work-group size failed to launch large kernels on an H200 with CL_OUT_OF_RESOURCES).
     */
    public static GridScheduler grid(String name, RidgeBuffers b) {
        GridScheduler gs = new GridScheduler();
        add(gs, name + ".load", b.repItems());
        for (int j = 0; j < b.unroll; j++) {
            add(gs, name + ".closest" + j, b.n);
            add(gs, name + ".shift" + j, b.repItems());
            add(gs, name + ".activate" + j, b.repItems());
        }
        return gs;
    }

    private static void add(GridScheduler gs, String task, int global) {
        WorkerGrid w = new WorkerGrid1D(global);
        w.setLocalWorkToNull();
        gs.addWorkerGrid(task, w);
    }
}
