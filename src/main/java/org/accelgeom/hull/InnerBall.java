package org.accelgeom.hull;

/**
 * Ball pre-tests of the host backends (jvm, jvm-parallel), and of the tornado backend's interior culling: a point well inside a ball around a centre c skips a
 * per-point test whose answer the ball already proves, so that most points of a full-dimensional cloud cost one squared
 * distance instead of 64 dot products (extreme points) or a test against every plane of the inner polytope (interior
 * culling). The ball only ever skips work whose outcome it has proved, so every decision, and with it every output
 * byte, is the full tests'. On the device the same margins hold (its evaluations, fused or not, err by a few ε).
 *
 * <p>A ball is {@code {cx, cy, cz, t}}: a point p passes when its computed {@code (px-cx)² + (py-cy)² + (pz-cz)²} is
 * below t (t = -1: no point passes). With t = ρ²(1 - 10⁻⁹) for a radius ρ, a computed value below t (relative error
 * under 6ε, ε = 2⁻⁵³; finite coordinates, ρ above 10⁻¹⁰⁰ so that underflow cannot matter) means |p - c| &lt; ρ.
 *
 * <p>Radii are derived from the exact-arithmetic bound of the full test over the ball, with every rounding error of
 * the kernel's evaluation bounded by γ = 10⁻¹² times the magnitudes involved (a rounding error of a sum of four
 * products is below 5ε ≈ 5.6·10⁻¹⁶ of them) and the radius then shrunk by 10⁻⁹, which covers the rounding of this
 * host computation itself: the margins are a thousand times what the analysis needs, and cost a point in 10⁹ of the
 * ball.
 */
public final class InnerBall {

    /** Relative rounding allowance of one evaluation (far above the 5ε of a four-term sum). */
    private static final double GAMMA = 1e-12;
    /** Absolute allowance for products that underflow (none do in {@link HullRange}'s window). */
    private static final double TINY = 1e-290;

    private InnerBall() {
    }

    /**
     * The ball of the extreme-point search: a point p inside it has, for every direction k, a computed dot product
     * {@code dirs[3k]*px + dirs[3k+1]*py + dirs[3k+2]*pz} strictly below {@code low[k]}, the computed dot product of
     * some point, so p is never the arg-max of any direction (ties go to the lowest index, and p's value is not even
     * tied). {@code centre}: any point (the mean of the sample's extremes).
     */
    static double[] ofDirections(double[] dirs, int nDirs, double[] low, double cx, double cy, double cz) {
        double cn = Math.sqrt(cx * cx + cy * cy + cz * cz);
        double rho = Double.POSITIVE_INFINITY;
        for (int k = 0; k < nDirs; k++) {
            double dx = dirs[3 * k];
            double dy = dirs[3 * k + 1];
            double dz = dirs[3 * k + 2];
            double dn = Math.sqrt(dx * dx + dy * dy + dz * dz);
            // v(p) <= d.c + |d| |p - c| + γ|d|(|c| + |p - c|) + TINY; the slack L - d.c is computed with error γ(|L| + |d||c|)
            double slack = low[k] - (dx * cx + dy * cy + dz * cz);
            double margin = 2 * GAMMA * (Math.abs(low[k]) + 2 * dn * cn) + TINY;
            rho = Math.min(rho, (slack - margin) / (dn * (1 + 2 * GAMMA)));
        }
        return ball(cx, cy, cz, rho);
    }

    /**
     * The ball of interior culling: a point p inside it with a label of at least 0 is culled by
     * {@link HullKernels#cullInterior} (its computed signed distance s is below minus its computed bound b for every
     * one of the {@code nInner} planes), so it may be culled without the planes. {@code c} should be inside the inner
     * polytope (the mean of its vertices); elsewhere the ball is empty.
     */
    public static double[] ofPlanes(double[] inner, int nInner, double cx, double cy, double cz) {
        if (nInner == 0) {
            return none();
        }
        double cn = Math.sqrt(cx * cx + cy * cy + cz * cz);
        double sqrt3 = 1.7320508075688772 * (1 + GAMMA);
        double rho = Double.POSITIVE_INFINITY;
        for (int k = 0; k < nInner; k++) {
            int o = HullKernels.PLANE_STRIDE * k;
            double nx = inner[o];
            double ny = inner[o + 1];
            double nz = inner[o + 2];
            double off = inner[o + 3];
            double beta = inner[o + 4] * (1 + 2 * GAMMA);
            double a1 = inner[o + 5];
            double nn = Math.sqrt(nx * nx + ny * ny + nz * nz);
            // s + b <= -(off - n.c) + |n|ρ + γ(|n|(|c| + ρ) + |off|) + β(√3(|c| + ρ) + a1) must stay below 0
            double depth = off - (nx * cx + ny * cy + nz * cz);
            double fixed = 2 * GAMMA * (nn * cn + Math.abs(off)) + beta * (sqrt3 * cn + a1) + TINY;
            rho = Math.min(rho, (depth - fixed) / (nn * (1 + 2 * GAMMA) + sqrt3 * beta));
        }
        return ball(cx, cy, cz, rho);
    }

    /**
     * {@link #ofPlanes} around the mean of the distinct points {@code ids} (the inner polytope's vertices, the extreme
     * points: their mean is inside it; negative ids are skipped), none without any.
     */
    public static double[] ofPlanes(double[] inner, int nInner, double[] x, double[] y, double[] z, int[] ids) {
        int[] distinct = java.util.Arrays.stream(ids).filter(p -> p >= 0).distinct().toArray();
        if (distinct.length == 0) {
            return none();
        }
        double cx = 0;
        double cy = 0;
        double cz = 0;
        for (int p : distinct) {
            cx += x[p];
            cy += y[p];
            cz += z[p];
        }
        return ofPlanes(inner, nInner, cx / distinct.length, cy / distinct.length, cz / distinct.length);
    }

    private static double[] ball(double cx, double cy, double cz, double rho) {
        double r = rho * (1 - 1e-9);
        if (!(r > 1e-100) || !Double.isFinite(r) || !Double.isFinite(cx + cy + cz)) {
            return none(); // NaN (an infinite bound), a non-positive or a useless radius
        }
        return new double[] {cx, cy, cz, r * r * (1 - 1e-9)};
    }

    /** No ball: no point passes. */
    public static double[] none() {
        return new double[] {0, 0, 0, -1};
    }

    /** True when point p is inside the ball (see the class comment). */
    static boolean inside(double[] ball, double px, double py, double pz) {
        double dx = px - ball[0];
        double dy = py - ball[1];
        double dz = pz - ball[2];
        return dx * dx + dy * dy + dz * dz < ball[3];
    }
}
