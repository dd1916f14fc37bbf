package org.accelgeom.ridge;

import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;

/**
 * The thesis's quality measures (§3.5, Figs. 3.15, 4.14, 4.15) of a result S against the noise-free curve γ:
 * min, max, mean and median of the distances from S to γ, and the Hausdorff distance, one-sided each way and
 * symmetric. The segment's distance is analytic; a spiral is measured against a polyline of
 * {@value #CURVE_SAMPLES} samples of γ (chord error below 10^-3 for our spirals), which also gives the points of γ
 * for the distance from γ to S.
 *
 * @param min            min over s ∈ S of dist(s, γ)
 * @param max            max over s ∈ S of dist(s, γ): the one-sided Hausdorff distance from S to γ
 * @param mean           mean of dist(s, γ)
 * @param median         median of dist(s, γ)
 * @param curveToResult  max over x ∈ γ of dist(x, S): the one-sided Hausdorff distance from γ to S
 * @param hausdorff      the symmetric Hausdorff distance, max(max, curveToResult)
 */
public record Quality(double min, double max, double mean, double median, double curveToResult, double hausdorff) {

    static final int CURVE_SAMPLES = 60_000;

    /** The measures of the ns row-major representatives {@code s} (dimension d) against {@code curve}. */
    public static Quality of(double[] s, int ns, int d, Curve curve) {
        int m = CURVE_SAMPLES;
        double[] g = new double[m * d]; // samples of γ, row-major
        double[] x = new double[d];
        for (int j = 0; j < m; j++) {
            curve.point(curve.parameterEnd() * j / (m - 1), x);
            System.arraycopy(x, 0, g, j * d, d);
        }
        DescriptiveStatistics toCurve = new DescriptiveStatistics();
        for (int k = 0; k < ns; k++) {
            toCurve.addValue(curve == Curve.SEGMENT ? segmentDistance(s, k, d) : polylineDistance(s, k, d, g, m));
        }
        double back = 0;
        for (int j = 0; j < m; j++) {
            double best = Double.POSITIVE_INFINITY;
            for (int k = 0; k < ns; k++) {
                double d2 = 0;
                for (int c = 0; c < d; c++) {
                    double dx = g[j * d + c] - s[k * d + c];
                    d2 += dx * dx;
                }
                best = Math.min(best, d2);
            }
            back = Math.max(back, best);
        }
        back = Math.sqrt(back);
        return new Quality(toCurve.getMin(), toCurve.getMax(), toCurve.getMean(), toCurve.getPercentile(50), back,
                Math.max(toCurve.getMax(), back));
    }

    private static double segmentDistance(double[] s, int k, int d) {
        double t = Math.max(0, Math.min(Curve.SEGMENT_LENGTH, s[k * d]));
        double d2 = (s[k * d] - t) * (s[k * d] - t);
        for (int c = 1; c < d; c++) {
            d2 += s[k * d + c] * s[k * d + c];
        }
        return Math.sqrt(d2);
    }

    private static double polylineDistance(double[] s, int k, int d, double[] g, int m) {
        double best = Double.POSITIVE_INFINITY;
        for (int j = 0; j + 1 < m; j++) {
            double uu = 0;
            double uv = 0;
            for (int c = 0; c < d; c++) {
                double u = g[(j + 1) * d + c] - g[j * d + c];
                uu += u * u;
                uv += u * (s[k * d + c] - g[j * d + c]);
            }
            double t = uu > 0 ? Math.max(0, Math.min(1, uv / uu)) : 0;
            double d2 = 0;
            for (int c = 0; c < d; c++) {
                double e = s[k * d + c] - (g[j * d + c] + t * (g[(j + 1) * d + c] - g[j * d + c]));
                d2 += e * e;
            }
            best = Math.min(best, d2);
        }
        return Math.sqrt(best);
    }
}
