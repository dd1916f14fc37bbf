package org.accelgeom.hull;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;

/**
 * The hull of points of which the hull of some is known as a QuickHull history ({@link HullHistory}, its points named
 * by their indices here): the QuickHull goes on from that history instead of starting from a tetrahedron. Every other
 * point starts at the root and the first round walks it through the history's deletions to the live face it is above,
 * or finds it inside; then the rounds go on as in {@link Hull}. The hull is unique, so the result equals
 * {@link Hull#compute}'s of the same points (the same vertices and facets; the facets may come in another order, as
 * after any other insertion order); only the insertions already made are saved. On the host backends (jvm,
 * jvm-parallel): the merge of a split hull, whose first part's history saves inserting that part's vertices again.
 */
public final class SeededHull {

    private SeededHull() {
    }

    /** The hull of the points (x[i], y[i], z[i]), continued from {@code seed}; on {@code options}' host backend. */
    public static HullResult compute(double[] x, double[] y, double[] z, HullHistory seed, HullOptions options) {
        int n = x.length;
        if (y.length != n || z.length != n) {
            throw new IllegalArgumentException("coordinate arrays of different lengths");
        }
        if (options.backend() == Backend.TORNADO) {
            throw new IllegalArgumentException("a seeded hull runs on the host backends (jvm, jvm-parallel)");
        }
        try (DeviceSession session = DeviceSession.open(options.execution())) {
            PhaseTimings timings = options.execution().newTimings();
            HullRange range = timings.time("check coordinates", Kind.HOST, () -> Hull.checkFinite(x, y, z, options.backend()));
            long fallbacks0 = Predicates.exactEvaluations();
            return Hull.inRange(range, x, y, z, timings, (ex, ey, ez, px, py, pz, exactOnly) -> hull(ex, ey, ez, px, py,
                    pz, exactOnly, seed, options, session, timings, fallbacks0));
        }
    }

    /** As {@code Hull}'s attempt, from the seed instead of the tetrahedron (exact x, y, z; planes on px, py, pz). */
    private static HullResult hull(double[] x, double[] y, double[] z, double[] px, double[] py, double[] pz,
            boolean exactOnly, HullHistory seed, HullOptions options, DeviceSession session, PhaseTimings timings,
            long fallbacks0) {
        try (HullBackend backend = timings.time("start backend", Kind.HOST, () -> Hull.backend(session))) {
            backend.load(px, py, pz, 2 * seed.faces(), timings);
            HullTopology topo = timings.time("face tables", Kind.HOST,
                    () -> new HullTopology(x, y, z, px, py, pz, exactOnly, 2 * seed.faces()));
            QuickHull qh = new QuickHull(topo, backend, timings, options.progress(), options.maxFacesPerRound());
            QuickHull.Result r;
            try {
                r = qh.resume(seed, options.backend() != Backend.JVM);
            } catch (IllegalStateException e) {
                throw new AccelGeomException("the seed is not the QuickHull history of a hull of these points: "
                        + e.getMessage(), e);
            }
            FacetMerger.Facets facets = timings.time("merge coplanar facets", Kind.HOST,
                    () -> FacetMerger.merge(r.topology(), r.live(), options.backend() != Backend.JVM));
            return new HullResult(3, facets.vertices(), facets.start(), facets.index(), Hull.stats(x.length, r, fallbacks0),
                    timings, options.backend());
        }
    }
}
