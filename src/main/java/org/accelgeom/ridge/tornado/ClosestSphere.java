package org.accelgeom.ridge.tornado;

import static org.accelgeom.ridge.tornado.RidgeBuffers.CAP;
import static org.accelgeom.ridge.tornado.RidgeBuffers.DONE;
import static org.accelgeom.ridge.tornado.RidgeBuffers.LIMIT;
import static org.accelgeom.ridge.tornado.RidgeBuffers.MOVED;
import static org.accelgeom.ridge.tornado.RidgeBuffers.R1SQ;
import static org.accelgeom.ridge.tornado.RidgeBuffers.SCALE;
import static org.accelgeom.ridge.tornado.RidgeBuffers.SEQ;
import static org.accelgeom.ridge.tornado.RidgeBuffers.STRIPES;
import static org.accelgeom.ridge.tornado.RidgeBuffers.TILES;
import static org.accelgeom.ridge.tornado.RidgeBuffers.WORK;

import org.accelgeom.ridge.RidgeKernels;
import org.accelgeom.ridge.SphereSteps;

import uk.ac.manchester.tornado.api.KernelContext;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.types.arrays.LongArray;

/**
 * The device's closestSphereKernel (Alg. 9) of {@link RidgeTaskGraphs}, in double. Written once for both precisions:
 * the build generates {@code ClosestSphereF}, the float kernel, from this file as it generates
 * {@code SphereStepsF} from {@link SphereSteps} (pom.xml, execution {@code float-twins}; the same rules: the scalar
 * type only through the words {@code double} and {@code Double}).
 *
 * <p><b>Runs instead of one atomic add per point.</b> Each work-item takes {@code chunk} consecutive points of the
 * layout and adds them to SpherePointCount and CordSums by runs: a maximal sequence of consecutive points with the
 * same nearest representative costs 1 + d atomic adds (its count, then per coordinate the sum of its points'
 * fixed-point offsets, taken again over the run when it ends: no private array, so any d). With the device's
 * per-tile spatial order ({@link TileOrder}) neighbours in the array are neighbours in space and the runs are long:
 * the atomics onto a tile's few representatives drop by the mean run (a JVM model of the first iteration of the
 * 10^7-point spiral3d, chunk 64: 16 points a run; a chunk also ends a run). A variant that added each
 * representative's points of a chunk at once (two passes, a scratch array) made fewer atomic adds but ran slower on
 * an H200 (docs/benchmarks.md, session 16). The sums are integers, so the runs give exactly the per-point adds'
 * totals, in any order.
 *
 * <p><b>Only the active tiles' points.</b> A round of Alg. 2 ends with its slowest tile: in the 10^8-point spiral3d on
 * an H200, 860 of 1,141 executions had at most a tenth of the points in active tiles, and a launch over every point
 * (each work-item reading its points' tiles) still cost about 2 ms an iteration. The work-items now take chunks of
 * the tiles listed active at the execution's start ({@link RidgeBuffers#narrow()}), so an iteration costs what its
 * active tiles hold.
 */
public final class ClosestSphere {

    private ClosestSphere() {
    }

    /**
     * closestSphereKernel (Alg. 9), double, iteration of parity q, over the chunks of the work list: work-item w takes
     * chunk j of the list's tiles ({@link RidgeBuffers#narrow()}: {@code work[0..W]} the chunks before each listed
     * tile, {@code work[tiles + 1 + j]} the j-th tile, W = params[WORK]), i.e. up to {@code chunk} consecutive points
     * of one tile, and does nothing if that tile is not active in {@code prev} (tiles stop within an execution);
     * work-item w also clears the tiles {@code [w·chunk, (w + 1)·chunk)} of {@code cur}, so {@code items} must cover
     * both: {@link RidgeBuffers#closestItems()}; work-item 0 clears this iteration's moved flag. A chunk never crosses
     * a tile, so the tile is found once per work-item (a binary search over W), not read per point. On the JVM (a test)
     * with a KernelContext whose atomicAdd runs on the JVM, it is the step {@link RidgeTaskGraphs} launches.
     */
    public static void closest(KernelContext ctx, int[] params, double[] fparams, double[] p, int[] tileFirst,
            int[] work, double[] s, int[] tileStart, int[] prev, int[] cur, int[] count, LongArray sums, int[] flags,
            int[] beat, int n, int d, int q, int slot, int chunk, int items) {
        for (@Parallel int w = 0; w < items; w++) {
            int capped = 0;
            if (flags[DONE + 1 - q] >= params[LIMIT]) {
                capped = 1;
            }
            int listed = params[WORK];
            int t = 0;
            int from = 0;
            int to = 0;
            if (capped == 0 && w < work[listed]) {
                int lo = 0; // the last listed tile whose chunks start at or before w
                int hi = listed - 1;
                while (lo < hi) {
                    int mid = (lo + hi + 1) / 2;
                    if (work[mid] <= w) {
                        lo = mid;
                    } else {
                        hi = mid - 1;
                    }
                }
                t = work[params[TILES] + 1 + lo];
                if (prev[t] == 1) {
                    from = tileFirst[t] + (w - work[lo]) * chunk;
                    to = Math.min(from + chunk, tileFirst[t + 1]);
                }
            }
            int copy = (w % params[STRIPES]) * params[CAP]; // this work-item's copy of the accumulators
            int run = -1; // the nearest representative of the current run [runFrom, i), -1: none
            int runFrom = from;
            for (int i = from; i <= to; i++) { // i == to closes the last run
                int o = -1;
                if (i < to) {
                    o = SphereSteps.nearest(p, n, d, i, s, tileStart[t], tileStart[t + 1], fparams[R1SQ]);
                }
                if (o != run) {
                    if (run >= 0) { // a count per representative (a histogram), not one @Reduce value
                        ctx.atomicAdd(count, copy + run, i - runFrom);
                        for (int c = 0; c < d; c++) {
                            long sum = 0;
                            for (int j = runFrom; j < i; j++) {
                                sum += RidgeKernels.offset(p[c * n + j], s[run * d + c], fparams[SCALE]);
                            }
                            ctx.atomicAdd(sums, (copy + run) * d + c, sum);
                        }
                    }
                    run = o;
                    runFrom = i;
                }
            }
            if (w <= params[TILES] / chunk) {
                int tilesFrom = w * chunk;
                int tilesTo = Math.min(tilesFrom + chunk, params[TILES]);
                for (int k = tilesFrom; k < tilesTo; k++) {
                    cur[k] = 0;
                }
            }
            if (w == 0) {
                flags[MOVED + q] = 0;
                beat[slot] = params[SEQ];
            }
        }
    }
}
