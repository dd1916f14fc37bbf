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
 * <p><b>Groups instead of one atomic add per point.</b> Each work-item takes {@code chunk} consecutive points of the
 * layout: pass 1 finds each point's nearest representative (into the scratch array {@code near}); pass 2 adds them
 * to SpherePointCount and CordSums by groups: the points of the chunk with the same representative cost 1 + d
 * atomic adds (per coordinate the sum of their fixed-point offsets, then their count; each sum a loop over the
 * chunk, so no private array and any d). With the device's per-tile spatial order ({@link TileOrder}) a chunk
 * holds few representatives' points, and the atomics onto a tile's few representatives drop by a factor near the
 * points a group. The sums are integers, so the groups give exactly the per-point adds' totals, in any order.
 */
public final class ClosestSphere {

    private ClosestSphere() {
    }

    /**
     * closestSphereKernel (Alg. 9), double, iteration of parity q: active tiles are those of {@code prev}; work-item w
     * takes the points {@code [w·chunk, (w + 1)·chunk)} (of n) and clears the same range of {@code cur} (of the
     * tiles), so {@code items} must cover both: {@link RidgeBuffers#closestItems()}; work-item 0 clears this iteration's
     * moved flag. {@code near} (n ints, the work-item's own range only) holds each point's nearest representative
     * between the two passes. On the JVM (a test) with a KernelContext whose atomicAdd runs on the JVM, it is the step
     * {@link RidgeTaskGraphs} launches.
     */
    public static void closest(KernelContext ctx, int[] params, double[] fparams, double[] p, int[] pointTile,
            double[] s, int[] tileStart, int[] prev, int[] cur, int[] count, LongArray sums, int[] flags, int[] beat,
            int[] near, int n, int d, int q, int slot, int chunk, int items) {
        for (@Parallel int w = 0; w < items; w++) {
            int capped = 0;
            if (flags[DONE + 1 - q] >= params[LIMIT]) {
                capped = 1;
            }
            int from = w * chunk;
            int to = Math.min(from + chunk, n);
            for (int i = from; i < to; i++) { // pass 1: the nearest representative of each point (-1: none)
                int t = pointTile[i];
                int o = -1;
                if (prev[t] == 1 && capped == 0) {
                    o = SphereSteps.nearest(p, n, d, i, s, tileStart[t], tileStart[t + 1], fparams[R1SQ]);
                }
                near[i] = o;
            }
            for (int i = from; i < to; i++) { // pass 2: a group per representative, at its first point
                int r = near[i];
                if (r >= 0) {
                    for (int c = 0; c < d; c++) {
                        long sum = 0;
                        for (int j = i; j < to; j++) {
                            if (near[j] == r) {
                                sum += RidgeKernels.offset(p[c * n + j], s[r * d + c], fparams[SCALE]);
                            }
                        }
                        ctx.atomicAdd(sums, r * d + c, sum);
                    }
                    int m = 0;
                    for (int j = i; j < to; j++) {
                        if (near[j] == r) {
                            m++;
                            near[j] = -1; // counted
                        }
                    }
                    ctx.atomicAdd(count, r, m); // a count per representative (a histogram), not one @Reduce value
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
