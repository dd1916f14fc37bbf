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
     * A hull of points on a sphere (every point a vertex: many insertions, the exact predicates; on jvm-parallel) and one
     * of a grid (coplanar triangles: the facet merge's polygons) on the one-thread backend, then the coordinate check over 2^17
     * points, and the sphere's mesh written as a PLY file into nothing; returns the two hulls' facet count (-1 if the
     * check's range were not the direct one).
     */
    public static int run() {
        PointCloud sphere = RandomPoints.sphere(3000, 1);
        // jvm-parallel: the facet merge's parallel sort, as the tornado backend's merge runs it (cold, a one-shot's merge
        // took 80 instead of 5 ms on an H100 host)
        HullResult h = Hull.compute(sphere, HullOptions.of(Backend.JVM_PARALLEL));
        int facets = h.facetCount();
        try { // the result's mesh as --output writes it (a PLY file), into nothing
            org.accelgeom.io.PlyWriter.writeMesh(java.io.OutputStream.nullOutputStream(), h.toMesh(sphere), true, null, null);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        int k = 9;
        double[] x = new double[k * k * k];
        double[] y = new double[x.length];
        double[] z = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            x[i] = i % k;
            y[i] = (i / k) % k;
            z[i] = i / (k * k);
        }
        facets += Hull.compute(PointCloud.of(x, y, z), HullOptions.of(Backend.JVM)).facetCount();
        // the coordinate check's loop over chunks of 65536 points (cold, it took 38 ms of a 10^7 hull on an H100 host)
        PointCloud c = RandomPoints.cube(1 << 17, 2);
        return Hull.checkFinite(c.x(), c.y(), c.z(), Backend.JVM_PARALLEL).mode() == HullRange.Mode.DIRECT ? facets : -1;
    }
}
