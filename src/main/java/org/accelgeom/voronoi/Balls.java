package org.accelgeom.voronoi;

import org.accelgeom.engine.AccelGeomException;

/**
 * Balls (generators) as structure of arrays: centres {@code x y z} and radii {@code r}, all finite, radii
 * &gt;= 0. The arrays are shared, not copied.
 */
public final class Balls {
    final double[] x, y, z, r;

    /** Balls (x[i], y[i], z[i], r[i]); a non-finite value or a negative radius is an error naming the ball. */
    public Balls(double[] x, double[] y, double[] z, double[] r) {
        int n = x.length;
        if (y.length != n || z.length != n || r.length != n) {
            throw new IllegalArgumentException("ball arrays of different lengths");
        }
        for (int i = 0; i < n; i++) {
            if (!Double.isFinite(x[i]) || !Double.isFinite(y[i]) || !Double.isFinite(z[i]) || !Double.isFinite(r[i])) {
                throw new AccelGeomException("ball " + i + " has a non-finite coordinate or radius (" + x[i] + ", " + y[i]
                        + ", " + z[i] + ", r " + r[i] + "): the Voronoi diagram needs finite balls");
            }
            if (r[i] < 0) {
                throw new AccelGeomException("ball " + i + " has a negative radius " + r[i]);
            }
        }
        this.x = x;
        this.y = y;
        this.z = z;
        this.r = r;
    }

    /**
     * N random atom-like balls (seeded): uniform in a cube at 0.05 balls per cubic Å, radii uniform in [1.5, 1.9] —
     * the density and radii of a protein's heavy atoms, used by the CLI's --random and the benchmarks.
     */
    public static Balls randomAtoms(int n, long seed) {
        java.util.Random rnd = new java.util.Random(seed);
        double side = Math.cbrt(n / 0.05);
        double[] x = new double[n], y = new double[n], z = new double[n], r = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = rnd.nextDouble() * side;
            y[i] = rnd.nextDouble() * side;
            z[i] = rnd.nextDouble() * side;
            r[i] = 1.5 + 0.4 * rnd.nextDouble();
        }
        return new Balls(x, y, z, r);
    }

    public int size() {
        return x.length;
    }

    public double[] x() {
        return x;
    }

    public double[] y() {
        return y;
    }

    public double[] z() {
        return z;
    }

    public double[] r() {
        return r;
    }

    /** The largest radius (0 for no balls). */
    double maxRadius() {
        double m = 0;
        for (double v : r) {
            m = Math.max(m, v);
        }
        return m;
    }

    /**
     * Which balls are hidden: contained in another ball (|c_i - c_j| + r_i &lt;= r_j), whose Voronoi cells are
     * empty (the thesis assumes there are none; we drop them). Of identical balls the first is kept.
     */
    boolean[] hidden(BallGrid grid) {
        return hidden(grid, null);
    }

    /** As {@link #hidden(BallGrid)}, of identical balls keeping the one of least rank (null: of least index). */
    boolean[] hidden(BallGrid grid, int[] rank) {
        int n = size();
        boolean[] h = new boolean[n];
        double rmax = maxRadius();
        for (int i = 0; i < n; i++) {
            final int fi = i;
            grid.forEachNear(x[i], y[i], z[i], rmax, j -> {
                if (j == fi || h[fi]) {
                    return;
                }
                double dx = x[fi] - x[j], dy = y[fi] - y[j], dz = z[fi] - z[j];
                double d = Math.sqrt(dx * dx + dy * dy + dz * dz);
                if (d + r[fi] < r[j] || (d + r[fi] == r[j] && (r[fi] < r[j] || (rank == null ? j < fi : rank[j] < rank[fi])))) {
                    h[fi] = true;
                }
            });
        }
        return h;
    }
}
