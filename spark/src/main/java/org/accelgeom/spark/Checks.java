package org.accelgeom.spark;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.io.Molecule;
import org.accelgeom.io.PointCloud;

/** The CLI's input checks (cli.Check, which the library jar leaves out), with its messages. */
final class Checks {
    private Checks() {
    }

    static void finitePoints(String source, PointCloud p) {
        double[][] c = p.coords();
        for (int i = 0; i < p.size(); i++) {
            for (double[] col : c) {
                if (!Double.isFinite(col[i])) {
                    StringBuilder xs = new StringBuilder();
                    for (double[] d : c) {
                        xs.append(xs.length() > 0 ? ", " : "").append(d[i]);
                    }
                    throw new AccelGeomException(source + ": point " + (i + 1) + " of " + p.size() + " (" + xs
                            + ") has a non-finite coordinate: the convex hull needs finite coordinates");
                }
            }
        }
    }

    static void finiteAtoms(String source, Molecule m, boolean fileRadii) {
        for (int i = 0; i < m.size(); i++) {
            boolean centre = Double.isFinite(m.x()[i]) && Double.isFinite(m.y()[i]) && Double.isFinite(m.z()[i]);
            double r = m.radius()[i];
            if (!centre || (fileRadii && !(Double.isFinite(r) && r >= 0))) {
                throw new AccelGeomException(source + ": atom " + (i + 1) + " of " + m.size() + " (serial " + m.serial()[i]
                        + ") has " + (!centre ? "a non-finite centre (" + m.x()[i] + ", " + m.y()[i] + ", " + m.z()[i] + ")"
                        : "the radius " + r) + ": the Voronoi diagram needs finite balls of radius >= 0");
            }
        }
    }
}
