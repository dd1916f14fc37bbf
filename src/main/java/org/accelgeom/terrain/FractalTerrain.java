package org.accelgeom.terrain;

import java.util.SplittableRandom;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.io.Grid;

/**
 * A fractal heightmap by the diamond-square algorithm (Fournier, Fussell &amp; Carpenter 1982): a (2^m + 1)² grid
 * whose displacement halves its amplitude by 2^−H per level (roughness H in (0, 1]); heights in [0, 1] after
 * normalisation. Deterministic for a seed.
 */
public final class FractalTerrain {

    private FractalTerrain() {
    }

    public static Grid generate(int m, double roughness, long seed) {
        if (m < 1 || m > 13) {
            throw new AccelGeomException("fractal terrain size 2^" + m + "+1 out of range: expected 2^1+1 .. 2^13+1");
        }
        int n = (1 << m) + 1;
        float[] h = new float[n * n];
        SplittableRandom rnd = new SplittableRandom(seed);
        double amp = 1;
        double decay = Math.pow(2, -roughness);
        for (int step = n - 1; step > 1; step /= 2, amp *= decay) {
            int half = step / 2;
            for (int y = half; y < n; y += step) { // diamond: centres of squares
                for (int x = half; x < n; x += step) {
                    double avg = (h[(y - half) * n + x - half] + h[(y - half) * n + x + half] + h[(y + half) * n + x - half]
                            + h[(y + half) * n + x + half]) / 4;
                    h[y * n + x] = (float) (avg + amp * (rnd.nextDouble() - 0.5));
                }
            }
            for (int y = 0; y < n; y += half) { // square: edge midpoints
                for (int x = (y + half) % step; x < n; x += step) {
                    double s = 0;
                    int c = 0;
                    if (x >= half) { s += h[y * n + x - half]; c++; }
                    if (x + half < n) { s += h[y * n + x + half]; c++; }
                    if (y >= half) { s += h[(y - half) * n + x]; c++; }
                    if (y + half < n) { s += h[(y + half) * n + x]; c++; }
                    h[y * n + x] = (float) (s / c + amp * (rnd.nextDouble() - 0.5));
                }
            }
        }
        float lo = Float.MAX_VALUE;
        float hi = -Float.MAX_VALUE;
        for (float v : h) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        for (int i = 0; i < h.length; i++) {
            h[i] = hi > lo ? (h[i] - lo) / (hi - lo) : 0;
        }
        return new Grid(n, n, h);
    }
}
