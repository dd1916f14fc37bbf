package org.accelgeom.ridge.tornado;

import static org.accelgeom.ridge.tornado.RidgeBuffers.DONE;
import static org.accelgeom.ridge.tornado.RidgeBuffers.LIMIT;
import static org.accelgeom.ridge.tornado.RidgeBuffers.MOVED;
import static org.accelgeom.ridge.tornado.RidgeBuffers.R1SQ;
import static org.accelgeom.ridge.tornado.RidgeBuffers.SCALE;
import static org.accelgeom.ridge.tornado.RidgeBuffers.SEQ;
import static org.accelgeom.ridge.tornado.RidgeBuffers.TILES;

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
 */
public final class ClosestSphere {

    private ClosestSphere() {
    }

    /**
     * closestSphereKernel (Alg. 9), double, iteration of parity q: active tiles are those of {@code prev}; work-item w
     * takes the points {@code [w·chunk, (w + 1)·chunk)} (of n) and clears the same range of {@code cur} (of the
     * tiles), so {@code items} must cover both: {@link RidgeBuffers#closestItems()}; work-item 0 clears this
     * iteration's moved flag. On the JVM (a test) with a KernelContext whose atomicAdd runs on the JVM, it is the step
     * {@link RidgeTaskGraphs} launches.
     */
    public static void closest(KernelContext ctx, int[] params, double[] fparams, double[] p, int[] pointTile,
            double[] s, int[] tileStart, int[] prev, int[] cur, int[] count, LongArray sums, int[] flags, int[] beat, int n,
            int d, int q, int slot, int chunk, int items) {
        for (@Parallel int w = 0; w < items; w++) {
            int capped = 0;
            if (flags[DONE + 1 - q] >= params[LIMIT]) {
                capped = 1;
            }
            int from = w * chunk;
            int to = Math.min(from + chunk, n);
            int run = -1; // the nearest representative of the current run [runFrom, i), -1: none
            int runFrom = from;
            for (int i = from; i <= to; i++) { // i == to closes the last run
                int o = -1;
                if (i < to) {
                    int t = pointTile[i];
                    if (prev[t] == 1 && capped == 0) {
                        o = SphereSteps.nearest(p, n, d, i, s, tileStart[t], tileStart[t + 1], fparams[R1SQ]);
                    }
                }
                if (o != run) {
                    if (run >= 0) { // a count per representative (a histogram), not one @Reduce value
                        ctx.atomicAdd(count, run, i - runFrom);
                        for (int c = 0; c < d; c++) {
                            long sum = 0;
                            for (int j = runFrom; j < i; j++) {
                                sum += RidgeKernels.offset(p[c * n + j], s[run * d + c], fparams[SCALE]);
                            }
                            ctx.atomicAdd(sums, run * d + c, sum);
                        }
                    }
                    run = o;
                    runFrom = i;
                }
            }
            int tilesTo = Math.min(from + chunk, params[TILES]);
            for (int t = from; t < tilesTo; t++) {
                cur[t] = 0;
            }
            if (w == 0) {
                flags[MOVED + q] = 0;
                beat[slot] = params[SEQ];
            }
        }
    }
}
