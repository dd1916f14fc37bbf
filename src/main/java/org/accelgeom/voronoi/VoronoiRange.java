package org.accelgeom.voronoi;

import java.util.Arrays;

import org.accelgeom.engine.AccelGeomException;

/**
 * The range of input the diagram supports, checked where {@link Voronoi#compute} starts (issue 16).
 *
 * <p>The diagram is computed in floating point with tolerances of fixed size (the emptiness check, the tie
 * bands of the end-vertex search) and with float copies of the balls on the backends: it is not exact, and a ball
 * far from the others (a tangent sphere of radius 10<sup>10</sup> next to balls of radius 1) loses its vertices
 * without notice. Measured (random balls of radius 1–2 in a box of 20, the diagram's topology compared with
 * the untranslated one): the same diagram for every scaling by 2<sup>k</sup>, |k| ≤ 500, and for translations up
 * to 10<sup>10</sup>; a single ball at distance 10<sup>6</sup> gets its vertices, one at 10<sup>10</sup> none.
 * So we accept balls whose coordinates and radii are at most {@value #MAX_RATIO} times the <em>reference
 * length</em>: the median radius, or for mostly radius-zero input the mean spacing (bounding-box extent /
 * n<sup>1/3</sup>). Anything beyond is rejected in one line that names the ball, never answered wrongly.
 */
final class VoronoiRange {

    /** The largest supported ratio of a coordinate's or radius's magnitude to the reference length. */
    static final double MAX_RATIO = 1e6;

    private VoronoiRange() {
    }

    /** Throws {@link AccelGeomException} for the first ball beyond the supported range. */
    static void check(Balls b) {
        int n = b.size();
        if (n == 0) {
            return;
        }
        double ref = reference(b);
        if (ref == 0) {
            return; // one point, or coincident points of radius zero: no diagram to get wrong
        }
        double limit = MAX_RATIO * ref;
        for (int i = 0; i < n; i++) {
            double m = Math.max(Math.max(Math.abs(b.x[i]), Math.abs(b.y[i])), Math.max(Math.abs(b.z[i]), b.r[i]));
            if (m > limit) {
                throw new AccelGeomException("ball " + i + " (" + b.x[i] + ", " + b.y[i] + ", " + b.z[i] + ", r " + b.r[i]
                        + ") is outside the supported range: coordinates and radii must be at most " + (float) MAX_RATIO
                        + " times the reference length " + (float) ref
                        + " (the median radius, or the mean spacing for radius-zero balls); see docs/voronoi.md");
            }
        }
    }

    /** The median radius if positive, else the bounding box's extent over the cube root of n (0 for one point). */
    static double reference(Balls b) {
        int n = b.size();
        double[] r = Arrays.copyOf(b.r, n);
        Arrays.sort(r);
        double median = r[n / 2];
        if (median > 0) {
            return median;
        }
        double extent = 0;
        for (double[] c : new double[][] {b.x, b.y, b.z}) {
            double lo = Double.POSITIVE_INFINITY;
            double hi = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                lo = Math.min(lo, c[i]);
                hi = Math.max(hi, c[i]);
            }
            extent = Math.max(extent, hi - lo);
        }
        return extent / Math.cbrt(n);
    }
}
