package org.accelgeom.hull;

import java.util.Arrays;
import java.util.Iterator;
import java.util.stream.IntStream;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.DevicePool;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.io.PointCloud;

/**
 * One hull over several devices: the points cut into contiguous parts, one per worker of a {@link DevicePool}, the
 * hull of each part computed on its worker's device, and the hull of the union of the parts' vertices computed
 * last (on the host's cores when they are at most {@link #HOST_MERGE_MAX}, else on worker 0's device). Exact: every
 * extreme point of the whole set is an extreme point of the part that holds it (a point that is no convex combination of all the points is none of a subset), so the parts' vertices
 * contain every vertex of the hull, and the hull of those vertices is the hull of the points. The result equals
 * {@link Hull#compute}'s: the same dimension, vertices and facets (as polygons of points); the facets may come
 * in another order and start at another corner ({@link HullResult#toMesh} writes them in a canonical order, so the
 * mesh is the same), and where an extreme point occurs several times in the input the vertex may name another of
 * its copies.
 *
 * <p>Two ways in: {@link #compute} cuts the points into parts itself and computes them on the worker threads of a
 * {@link DevicePool} (one process); {@link #merge} takes parts whose hulls were computed elsewhere (the CLI's worker
 * processes, one per device, each making its own part) as {@link Part}s: the parts' vertices and counts.
 *
 * <p>What is split: the passes over the points (extremes, culling, the QuickHull rounds of each part). What is not:
 * the final hull of the parts' vertices (small: a few thousand points for random inputs, but all of the input
 * when every point is extreme, e.g. points on a sphere, where splitting cannot help) and the copies of the parts
 * (host memory bandwidth).
 */
public final class PartitionedHull {

    /** Fewer points than this per part are not split (one part). */
    public static final int MIN_POINTS_PER_PART = 1024;

    /** At most this many part vertices are merged on the host's cores (jvm-parallel) rather than on a device. */
    public static final int HOST_MERGE_MAX = 1 << 20;

    private PartitionedHull() {
    }

    /** The hull of a 3D point cloud over the pool's workers; see the class comment. */
    public static HullResult compute(PointCloud points, HullOptions options, DevicePool pool) {
        if (points.dimension() != 3) {
            throw new AccelGeomException("the convex hull needs 3D points; these have dimension " + points.dimension());
        }
        return compute(points.x(), points.y(), points.z(), options, pool);
    }

    /** The hull of the points (x[i], y[i], z[i]) over the pool's workers; see the class comment. */
    public static HullResult compute(double[] x, double[] y, double[] z, HullOptions options, DevicePool pool) {
        int n = x.length;
        if (y.length != n || z.length != n) {
            throw new IllegalArgumentException("coordinate arrays of different lengths");
        }
        Execution execution = options.execution();
        int parts = (int) Math.max(1, Math.min(pool.size(), n / MIN_POINTS_PER_PART));
        if (parts == 1) {
            return Hull.compute(x, y, z, options, pool.session(0, execution));
        }
        PhaseTimings timings = execution.newTimings();
        timings.time("check coordinates", Kind.HOST, () -> rejectNonFinite(x, y, z));
        long[] start = new long[parts + 1];
        for (int p = 0; p <= parts; p++) {
            start[p] = (long) n * p / parts;
        }
        Hull.Traced[] partHulls = new Hull.Traced[parts];
        Iterator<Integer> source = IntStream.range(0, parts).iterator();
        long t0 = System.nanoTime();
        pool.run(source, (worker, p) -> {
            int from = (int) start[p];
            int to = (int) start[p + 1];
            DeviceSession session = worker.session(execution);
            return hullOfPart(Arrays.copyOfRange(x, from, to), Arrays.copyOfRange(y, from, to),
                    Arrays.copyOfRange(z, from, to), options, session);
        }, (DevicePool.Outcome<Integer, Hull.Traced> o) -> {
            if (o.failure() instanceof RuntimeException r) {
                throw r;
            }
            if (o.failure() instanceof Error e) {
                throw e;
            }
            if (o.failed()) {
                throw new AccelGeomException(String.valueOf(o.failure()), o.failure());
            }
            partHulls[o.input()] = o.result();
        });
        timings.add("hulls of " + parts + " parts (one per device worker, in parallel)", Kind.HOST, System.nanoTime() - t0);
        java.util.List<Part> list = new java.util.ArrayList<>();
        for (int p = 0; p < parts; p++) {
            list.add(Part.of((int) (start[p + 1] - start[p]), partHulls[p], p == 0, x, y, z, (int) start[p]));
        }
        return merge(list, options, timings, () -> pool.session(0, execution)).result();
    }

    /**
     * The hull of one part ({@link Hull#trace}: its facets not merged; {@link #SEEDED}), or, without the seeded merge,
     * ({@link Hull#compute}). Either way every extreme point of the part is among the result's vertices.
     */
    public static Hull.Traced hullOfPart(double[] x, double[] y, double[] z, HullOptions options, DeviceSession session) {
        return SEEDED ? Hull.trace(x, y, z, options, session)
                : new Hull.Traced(Hull.compute(x, y, z, options, session), null);
    }

    /**
     * Whether the parts' hulls skip their facet merge and the merge continues the first part's QuickHull history
     * ({@link SeededHull}) instead of inserting that part's vertices again (accelgeom.hull.seededMerge).
     */
    public static final boolean SEEDED = org.accelgeom.engine.Tuning.HULL_SEEDED_MERGE.booleanValue();

    /**
     * The hull of one part: the part's point count, the candidates for the whole hull's vertices among its points
     * (indices in the part, ascending: its hull's vertices, or a superset of them) with their coordinates, its counts,
     * and, for the part whose history seeds the merge, that history over the candidates' indices in the part (null
     * otherwise). What a worker process of a split sends back to its parent.
     */
    public record Part(int count, int[] vertices, double[] x, double[] y, double[] z, HullResult.Stats stats,
            HullHistory history) {

        /** A part without a history. */
        public Part(int count, int[] vertices, double[] x, double[] y, double[] z, HullResult.Stats stats) {
            this(count, vertices, x, y, z, stats, null);
        }

        /** The part of {@code count} points whose hull is {@code h}, its points at {@code first..} of (x, y, z). */
        public static Part of(int count, HullResult h, double[] x, double[] y, double[] z, int first) {
            return of(count, new Hull.Traced(h, null), false, x, y, z, first);
        }

        /**
         * The part of {@code count} points whose (traced) hull is {@code t}, its points at {@code first..} of (x, y, z);
         * with {@code seed} and a history, the candidates are every point of the history (the merge continues it).
         */
        public static Part of(int count, Hull.Traced t, boolean seed, double[] x, double[] y, double[] z, int first) {
            HullHistory history = seed ? t.history() : null;
            HullResult h = t.result();
            int[] v = history != null ? history.points() : h.vertices();
            double[] vx = new double[v.length];
            double[] vy = new double[v.length];
            double[] vz = new double[v.length];
            for (int i = 0; i < v.length; i++) {
                vx[i] = x[first + v[i]];
                vy[i] = y[first + v[i]];
                vz[i] = z[first + v[i]];
            }
            return new Part(count, v.clone(), vx, vy, vz, h.stats(), history);
        }
    }

    /**
     * The hull of the parts' union.
     *
     * @param result     the hull of all the points, its indices those of the whole input (the parts one after the
     *                   other, in list order)
     * @param candidates the parts' vertices, in the order of their indices in the whole input
     * @param local      the same hull over {@code candidates} (its indices theirs): {@code local.toMesh(candidates)}
     *                   is {@code result.toMesh(points)}, without the points
     */
    public record Merged(HullResult result, PointCloud candidates, HullResult local) {
    }

    /**
     * The hull of the union of {@code parts}' vertices (the parts' points in list order make the input): on the
     * host's cores when they are at most {@link #HOST_MERGE_MAX}, else on {@code device}'s session (a tornado
     * execution only). The phases go to {@code timings}.
     */
    public static Merged merge(java.util.List<Part> parts, HullOptions options, PhaseTimings timings,
            java.util.function.Supplier<DeviceSession> device) {
        Execution execution = options.execution();
        int m = 0;
        long n = 0;
        for (Part h : parts) {
            m += h.vertices().length;
            n += h.count();
        }
        if (n > Integer.MAX_VALUE) {
            throw new AccelGeomException("the parts hold " + n + " points, more than an array's " + Integer.MAX_VALUE);
        }
        // the union of the parts' vertices, ascending (each part's are, and the parts are in input order)
        int[] candidate = new int[m];
        double[] sx = new double[m];
        double[] sy = new double[m];
        double[] sz = new double[m];
        int c = 0;
        int first = 0;
        for (Part h : parts) {
            System.arraycopy(h.x(), 0, sx, c, h.x().length);
            System.arraycopy(h.y(), 0, sy, c, h.y().length);
            System.arraycopy(h.z(), 0, sz, c, h.z().length);
            for (int v : h.vertices()) {
                candidate[c++] = first + v;
            }
            first += h.count();
        }
        // the merge: on the host's cores when small (a device would first compile plans for this new size: 0.4 s
        // of a 3 s hull of 10^8 points on an H100), else on the device; every backend gives the same hull
        HullResult merged;
        PhaseTimings.Region region = timings.enclose("hull of the parts' vertices", Kind.HOST);
        HullHistory seed = parts.get(0).history();
        if (m <= HOST_MERGE_MAX || execution.backend() != org.accelgeom.engine.Backend.TORNADO) {
            HullOptions host = options.withExecution(execution.withBackend(
                    execution.backend() == org.accelgeom.engine.Backend.JVM ? execution.backend()
                            : org.accelgeom.engine.Backend.JVM_PARALLEL));
            // part 0's candidates come first, in the order of their indices in the part: the history's points
            if (seed != null) {
                HullHistory renumbered = timings.time("merge: part 0's history renumbered", Kind.HOST,
                        () -> seed.renumbered(parts.get(0).vertices(), 0));
                merged = SeededHull.compute(sx, sy, sz, renumbered, host);
            } else {
                merged = Hull.compute(sx, sy, sz, host);
            }
        } else {
            merged = Hull.compute(sx, sy, sz, options, device.get());
        }
        for (PhaseTimings.Phase p : merged.timings().phases()) { // its own phases, shown as parts of the merge
            if (merged.timings().parent(p.name()) == null) {
                timings.add("merge: " + p.name() + (p.count() > 1 ? " (x" + p.count() + ")" : ""), p.kind(), p.nanos());
            }
        }
        region.close("hull of the parts' " + m + " vertices (" + merged.backend().id() + ")");
        int[] vertices = map(merged.vertices(), candidate);
        int[] facetIndex = map(merged.facetIndex(), candidate);
        int culled = 0;
        int rounds = 0;
        int insertions = 0;
        long fallbacks = merged.stats().exactFallbacks();
        for (Part h : parts) {
            culled += h.stats().culled();
            rounds = Math.max(rounds, h.stats().rounds());
            insertions += h.stats().insertions();
            fallbacks += h.stats().exactFallbacks();
        }
        HullResult.Stats stats = new HullResult.Stats((int) n, culled, rounds + merged.stats().rounds(), insertions,
                fallbacks);
        HullResult result = new HullResult(merged.dimension(), vertices, merged.facetStart().clone(), facetIndex, stats,
                timings, execution.backend());
        return new Merged(result, PointCloud.of(sx, sy, sz), merged);
    }

    /**
     * Runs the merge's code once on {@code p} cut in two parts (their hulls and the merge on {@code host}, a host
     * backend), so that a parent's JIT has compiled it when the parts' vertices come; returns the merged hull.
     */
    public static HullResult warmUp(PointCloud p, HullOptions host) {
        int n = p.size();
        java.util.List<Part> list = new java.util.ArrayList<>();
        try (DeviceSession session = DeviceSession.open(host.execution())) {
            for (int k = 0; k < 2; k++) {
                int from = n * k / 2;
                int to = n * (k + 1) / 2;
                Hull.Traced t = hullOfPart(Arrays.copyOfRange(p.x(), from, to), Arrays.copyOfRange(p.y(), from, to),
                        Arrays.copyOfRange(p.z(), from, to), host, session);
                list.add(Part.of(to - from, t, k == 0, p.x(), p.y(), p.z(), from));
            }
        }
        return merge(list, host, new PhaseTimings(), () -> null).result();
    }

    private static int[] map(int[] local, int[] candidate) {
        int[] out = new int[local.length];
        for (int i = 0; i < local.length; i++) {
            out[i] = candidate[local[i]];
        }
        return out;
    }

    /** The message {@link Hull} gives, with the index in the whole input (not in a part). */
    private static void rejectNonFinite(double[] x, double[] y, double[] z) {
        int bad = IntStream.range(0, x.length).parallel()
                .filter(i -> !(Math.abs(x[i]) <= Double.MAX_VALUE && Math.abs(y[i]) <= Double.MAX_VALUE
                        && Math.abs(z[i]) <= Double.MAX_VALUE))
                .findFirst().orElse(-1);
        if (bad >= 0) {
            throw new AccelGeomException("point " + bad + " has a non-finite coordinate (" + x[bad] + ", " + y[bad] + ", "
                    + z[bad] + "): the convex hull needs finite coordinates");
        }
    }
}
