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
 */
public final class ClosestSphere {

    private ClosestSphere() {
    }

    /**
     * closestSphereKernel (Alg. 9), double, iteration of parity q: active tiles are those of {@code prev}; clears
     * {@code cur} and this iteration's moved flag. On the JVM (a test) with a KernelContext whose atomicAdd runs on
     * the JVM, it is the step {@link RidgeTaskGraphs} launches.
     */
    public static void closest(KernelContext ctx, int[] params, double[] fparams, double[] p, int[] pointTile,
            double[] s, int[] tileStart, int[] prev, int[] cur, int[] count, LongArray sums, int[] flags, int[] beat, int n,
            int d, int q, int slot) {
        for (@Parallel int i = 0; i < n; i++) {
            int t = pointTile[i];
            int live = prev[t];
            if (flags[DONE + 1 - q] >= params[LIMIT]) {
                live = 0;
            }
            if (live == 1) {
                int o = SphereSteps.nearest(p, n, d, i, s, tileStart[t], tileStart[t + 1], fparams[R1SQ]);
                if (o >= 0) {
                    ctx.atomicAdd(count, o, 1); // a count per representative (a histogram), not one @Reduce value
                    for (int c = 0; c < d; c++) {
                        ctx.atomicAdd(sums, o * d + c, RidgeKernels.offset(p[c * n + i], s[o * d + c], fparams[SCALE]));
                    }
                }
            }
            if (i < params[TILES]) {
                cur[i] = 0;
            }
            if (i == 0) {
                flags[MOVED + q] = 0;
                beat[slot] = params[SEQ];
            }
        }
    }
}
