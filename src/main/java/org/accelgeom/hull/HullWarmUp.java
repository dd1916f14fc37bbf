package org.accelgeom.hull;

import org.accelgeom.engine.Backend;
import org.accelgeom.io.PointCloud;

/**
 * The host's part of a hull run once on a small input, so that the JIT has compiled it before the real hull needs it:
 * a one-shot's hull of 10^7 points otherwise runs its topology, facet merge and predicates cold (on an H100 host, 47
 * and 74 ms of its 0.38 s in session 11). The CLI runs it while it waits for the device's plan anyway
 * ({@code accelgeom.prewarm.jit}). Its result is dropped; nothing of it stays.
 */
public final class HullWarmUp {

    private HullWarmUp() {
    }

    /**
     * A hull of points on a sphere (every point a vertex: many insertions, the exact predicates) and one of a grid
     * (coplanar triangles: the facet merge's polygons) on the one-thread backend; returns their facet count.
     */
    public static int run() {
        int facets = Hull.compute(RandomPoints.sphere(3000, 1), HullOptions.of(Backend.JVM)).facetCount();
        int k = 9;
        double[] x = new double[k * k * k];
        double[] y = new double[x.length];
        double[] z = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            x[i] = i % k;
            y[i] = (i / k) % k;
            z[i] = i / (k * k);
        }
        return facets + Hull.compute(PointCloud.of(x, y, z), HullOptions.of(Backend.JVM)).facetCount();
    }
}
