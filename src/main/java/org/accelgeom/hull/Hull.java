package org.accelgeom.hull;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.Progress;
import org.accelgeom.io.PointCloud;

/**
 * The 3D convex hull by parallel QuickHull (Shao &amp; Zhang 2019, after Barber et al. 1996), exact, on any
 * backend.
 *
 * <p>Contract: for any finite 3D points the result is the unique convex hull, the same on every backend:
 * its vertices are exactly the extreme points (points inside a facet or on an edge are not vertices), its
 * facets are convex polygons, no two adjacent facets coplanar, forming a closed 2-manifold when the dimension
 * is 3. Degenerate inputs are answered (see {@link HullResult}): no points, one point, duplicates, all
 * collinear (a segment), all coplanar (a flat polygon). Points with a NaN or infinite coordinate are
 * rejected with the index of the first one.
 *
 * <p>Steps: the extreme points along the axes and along {@code cullDirections} directions (the paper's
 * {@code Init_tetr}); the initial tetrahedron (step 1: the extremes along x, the point farthest from their
 * line, the point farthest from their plane; along y or z if the x extent is zero); interior culling against
 * the polytope of the extreme points (beyond the paper); then the QuickHull rounds ({@link QuickHull}) and the
 * facet merge ({@link FacetMerger}). Robustness: every orientation decision is exact — floating-point
 * filters on every backend, exact arithmetic on the host when a filter cannot decide — for every finite input,
 * at any magnitude: inputs outside the range where the floating-point steps are sound are scaled by a power of
 * two, or, when their range is too wide for that, have every test decided on the host ({@link HullRange}).
 */
public class Hull {

    Hull() {
    }

    /** The hull of a 3D point cloud, in a session of its own (opened and closed by this call). */
    public static HullResult compute(PointCloud points, HullOptions options) {
        try (DeviceSession session = DeviceSession.open(options.execution())) {
            return compute(points, options, session);
        }
    }

    /**
     * The hull of a 3D point cloud in {@code session}: it runs on the session's {@link Execution} (which replaces
     * the options' backend, threads, device, residency and progress) and reuses the session's plans and threads.
     */
    public static HullResult compute(PointCloud points, HullOptions options, DeviceSession session) {
        if (points.dimension() != 3) {
            throw new AccelGeomException("the convex hull needs 3D points; these have dimension " + points.dimension());
        }
        return compute(points.x(), points.y(), points.z(), options, session);
    }

    /** The hull of the points (x[i], y[i], z[i]), in a session of its own. */
    public static HullResult compute(double[] x, double[] y, double[] z, HullOptions options) {
        try (DeviceSession session = DeviceSession.open(options.execution())) {
            return compute(x, y, z, options, session);
        }
    }

    /** The hull of the points (x[i], y[i], z[i]) in {@code session} (see {@link #compute(PointCloud, HullOptions, DeviceSession)}). */
    public static HullResult compute(double[] x, double[] y, double[] z, HullOptions given, DeviceSession session) {
        // a resident session's own arrays, on the device from its last hull, were checked then (10-16 ms at 10^7 points)
        return compute(x, y, z, given, session, null);
    }

    /**
     * What a part of a split hull needs of its hull: where the points are 3D, the points of its live faces (every
     * vertex, and points inside a facet or an edge where some lie exactly there: the coplanar facets are not merged)
     * as {@code result.vertices()} with no facets, and its {@link HullHistory}; otherwise (null history) the full
     * result of {@link #compute(double[], double[], double[], HullOptions, DeviceSession)}.
     */
    public record Traced(HullResult result, HullHistory history) {
    }

    /** {@link Traced}: the hull of the points (x[i], y[i], z[i]) in {@code session}, its facets not merged. */
    public static Traced trace(double[] x, double[] y, double[] z, HullOptions given, DeviceSession session) {
        HullHistory[] history = new HullHistory[1];
        HullResult r = compute(x, y, z, given, session, history);
        return new Traced(r, history[0]);
    }

    private static HullResult compute(double[] x, double[] y, double[] z, HullOptions given, DeviceSession session,
            HullHistory[] trace) {
        // a resident session's own arrays, on the device from its last hull, were checked then (10-16 ms at 10^7 points)
        boolean held = session.execution().resident() && session.execution().backend() == Backend.TORNADO
                && session.tornado(HullBackend.Factory.class).holds(session, x, y, z);
        return compute(x, y, z, given.withExecution(session.execution()), () -> backend(session), held, trace);
    }

    /**
     * The hull of the points (x[i], y[i], z[i]) on a backend that {@code backend} makes (closed by this call): for a
     * backend driven from outside a session, such as {@code TornadoHullBackend.onDevice} over points a TornadoVM
     * program made on the device. {@code options}' execution is only reported.
     */
    public static HullResult compute(double[] x, double[] y, double[] z, HullOptions options,
            java.util.function.Supplier<? extends HullBackend> backend) {
        return compute(x, y, z, options, backend, false, null);
    }

    /** {@link #compute(double[], double[], double[], HullOptions, java.util.function.Supplier)}; {@code checked}: the
     * arrays are known finite and in the direct range (a resident session's held arrays), not checked again;
     * {@code trace} (null: none) gets the history of a 3D hull, whose facets are then not merged ({@link Traced}). */
    private static HullResult compute(double[] x, double[] y, double[] z, HullOptions options,
            java.util.function.Supplier<? extends HullBackend> backend, boolean checked, HullHistory[] trace) {
        int n = x.length;
        if (y.length != n || z.length != n) {
            throw new IllegalArgumentException("coordinate arrays of different lengths");
        }
        PhaseTimings timings = options.execution().newTimings();
        HullRange range = checked ? new HullRange(HullRange.Mode.DIRECT, 0)
                : timings.time("check coordinates", Kind.HOST, () -> checkFinite(x, y, z, options.backend()));
        long fallbacks0 = Predicates.exactEvaluations();
        if (n == 0) {
            return new HullResult(-1, new int[0], new int[] {0}, new int[0], new HullResult.Stats(0, 0, 0, 0, 0), timings,
                    options.backend());
        }
        return inRange(range, x, y, z, timings, (ex, ey, ez, px, py, pz, exactOnly) -> hull(ex, ey, ez, px, py, pz,
                exactOnly, options, backend, timings, fallbacks0, trace));
    }

    /** A hull over exact coordinates x, y, z whose floating-point steps run on px, py, pz (see {@link #hull}). */
    interface RangeBody {
        HullResult hull(double[] x, double[] y, double[] z, double[] px, double[] py, double[] pz, boolean exactOnly);
    }

    /**
     * {@code body} over the input as its range needs ({@link HullRange}): the arrays themselves (direct), scaled copies
     * for everything (scaled), or the exact arrays with rounded copies for the kernels, every kernel test left to the host
     * (wide).
     */
    static HullResult inRange(HullRange range, double[] x, double[] y, double[] z, PhaseTimings timings, RangeBody body) {
        return switch (range.mode()) {
            case DIRECT -> body.hull(x, y, z, x, y, z, false);
            case SCALED -> {
                double[][] s = timings.time("scale by 2^" + range.shift() + " (exact)", Kind.HOST,
                        () -> new double[][] {range.scale(x), range.scale(y), range.scale(z)});
                yield body.hull(s[0], s[1], s[2], s[0], s[1], s[2], false);
            }
            case WIDE -> {
                double[][] s = timings.time("rounded copy for the kernels (wide range: exact tests on the host)",
                        Kind.HOST, () -> new double[][] {range.scale(x), range.scale(y), range.scale(z)});
                yield body.hull(x, y, z, s[0], s[1], s[2], true);
            }
        };
    }

    /**
     * The hull of exact coordinates x, y, z, whose floating-point steps (backend, planes, farthest points) run on
     * px, py, pz: the same arrays, or with {@code exactOnly} rounded ones whose every kernel test is left to the
     * host (see {@link HullRange}). A backend whose face tables fill up where larger ones can be had
     * ({@link HullBackend.MoreFaces}) gets them, and the hull starts again (the same hull: it is unique).
     */
    private static HullResult hull(double[] x, double[] y, double[] z, double[] px, double[] py, double[] pz,
            boolean exactOnly, HullOptions options, java.util.function.Supplier<? extends HullBackend> make,
            PhaseTimings timings, long fallbacks0, HullHistory[] trace) {
        int faces = 16;
        long exact0 = fallbacks0;
        while (true) {
            try {
                return attempt(x, y, z, px, py, pz, exactOnly, options, make, timings, exact0, faces, trace);
            } catch (HullBackend.MoreFaces e) {
                if (e.faces() <= faces) {
                    throw new AccelGeomException("the backend's face tables cannot grow beyond " + faces + " faces");
                }
                faces = e.faces();
                exact0 = Predicates.exactEvaluations();
            }
        }
    }

    /** One try of {@link #hull} on a backend whose face tables hold at least {@code faces} faces. */
    private static HullResult attempt(double[] x, double[] y, double[] z, double[] px, double[] py, double[] pz,
            boolean exactOnly, HullOptions options, java.util.function.Supplier<? extends HullBackend> make,
            PhaseTimings timings, long fallbacks0, int faces, HullHistory[] trace) {
        int n = x.length;
        try (HullBackend backend = timings.time("start backend", Kind.HOST, make::get)) {
            backend.load(px, py, pz, faces, timings);
            int cullDirections = exactOnly ? 0 : options.cullDirections();
            double[] dirs = Directions.axesAndSphere(cullDirections > 0 ? cullDirections : 0);
            int nDirs = dirs.length / 3;
            int[] ext = backend.extremes(dirs, nDirs);
            int a = ext[0];
            int b = ext[1];
            for (int axis = 0; axis < 3 && same(x, y, z, a, b); axis++) {
                a = ext[2 * axis];
                b = ext[2 * axis + 1];
            }
            if (same(x, y, z, a, b)) {
                // the extremes are exact on window inputs; rounded coordinates may hide a difference
                final int first = a;
                int other = exactOnly ? timings.time("exact degeneracy scan", Kind.HOST, () -> firstDifferent(x, y, z, first)) : -1;
                if (other < 0) {
                    return flat(0, new int[] {Math.min(a, b)}, new int[] {0}, new int[0], n, timings, fallbacks0, options);
                }
                b = other;
            }
            // step 1: the point farthest from line ab
            double[] geom = {px[a], py[a], pz[a], px[b] - px[a], py[b] - py[a], pz[b] - pz[a]};
            int c = backend.farthest(geom, 0);
            if (c < 0 || Predicates.collinear3d(x[a], y[a], z[a], x[b], y[b], z[b], x[c], y[c], z[c])) {
                final int la = a;
                final int lb = b;
                c = timings.time("exact degeneracy scan", Kind.HOST, () -> firstNotCollinear(x, y, z, la, lb));
            }
            if (c < 0) {
                int[] ends = segmentEnds(x, y, z, a, b);
                return flat(1, ends, new int[] {0}, new int[0], n, timings, fallbacks0, options);
            }
            // step 1: the point farthest from plane abc
            double ux = geom[3];
            double uy = geom[4];
            double uz = geom[5];
            double vx = px[c] - px[a];
            double vy = py[c] - py[a];
            double vz = pz[c] - pz[a];
            double[] plane = {px[a], py[a], pz[a], uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx};
            int d = backend.farthest(plane, 1);
            final int fa = a;
            final int fb = b;
            final int fc = c;
            if (d < 0 || orient(x, y, z, a, b, c, d) == 0) {
                d = timings.time("exact degeneracy scan", Kind.HOST, () -> firstOffPlane(x, y, z, fa, fb, fc));
            }
            if (d < 0) {
                double[] normal = exactSigns(x, y, z, a, b, c, plane[3], plane[4], plane[5]);
                int[] poly = timings.time("2D hull (coplanar input)", Kind.HOST,
                        () -> Hull2D.polygon(x, y, z, range(n), normal[0], normal[1], normal[2]));
                int[] sorted = poly.clone();
                java.util.Arrays.sort(sorted);
                return flat(2, sorted, new int[] {0, poly.length}, poly, n, timings, fallbacks0, options);
            }
            // beyond the paper: the polytope of the extreme points, for interior culling
            double[] inner = null;
            int nInner = 0;
            if (cullDirections > 0 && n > 4 * nDirs) {
                double[][] innerOut = new double[1][];
                nInner = timings.time("inner polytope (host)", Kind.HOST, () -> innerPolytope(x, y, z, ext, innerOut));
                inner = innerOut[0];
            }
            QuickHull qh = new QuickHull(new HullTopology(x, y, z, px, py, pz, exactOnly, 1024), backend, timings,
                    options.progress(), options.maxFacesPerRound());
            QuickHull.Result r = qh.run(a, b, c, d, inner, nInner);
            if (trace != null) {
                trace[0] = r.topology().history();
                return new HullResult(3, trace[0].livePoints(), new int[] {0}, new int[0], stats(n, r, fallbacks0),
                        timings, options.backend());
            }
            FacetMerger.Facets facets = timings.time("merge coplanar facets", Kind.HOST,
                    () -> FacetMerger.merge(r.topology(), r.live(), options.backend() != Backend.JVM));
            return new HullResult(3, facets.vertices(), facets.start(), facets.index(), stats(n, r, fallbacks0), timings,
                    options.backend());
        }
    }

    /** The counts of a 3D hull of n points, its exact evaluations since {@code fallbacks0}. */
    static HullResult.Stats stats(int n, QuickHull.Result r, long fallbacks0) {
        return new HullResult.Stats(n, r.culled(), r.rounds(), r.insertions(), Predicates.exactEvaluations() - fallbacks0);
    }

    /**
     * The normal (nx, ny, nz) of the triangle (a, b, c) computed in double, with each component's sign replaced
     * by the exact one (the orient2d of the triangle's projection that drops that axis), so that the projection
     * {@link Hull2D} chooses is never degenerate and its orientation is right even where the double normal is
     * not. On usual inputs the signs agree and nothing changes.
     */
    private static double[] exactSigns(double[] x, double[] y, double[] z, int a, int b, int c,
            double nx, double ny, double nz) {
        int sx = Predicates.orient2d(y[a], z[a], y[b], z[b], y[c], z[c]);
        int sy = Predicates.orient2d(z[a], x[a], z[b], x[b], z[c], x[c]);
        int sz = Predicates.orient2d(x[a], y[a], x[b], y[b], x[c], y[c]);
        return new double[] {withSign(nx, sx), withSign(ny, sy), withSign(nz, sz)};
    }

    private static double withSign(double v, int sign) {
        double m = Math.max(Math.abs(v), Double.MIN_VALUE);
        return sign == 0 ? 0.0 : sign > 0 ? m : -m;
    }

    private static int firstDifferent(double[] x, double[] y, double[] z, int a) {
        for (int i = 0; i < x.length; i++) {
            if (!same(x, y, z, a, i)) {
                return i;
            }
        }
        return -1;
    }

    /** The session's backend; its thread pool and plans belong to the session, not to the backend. */
    static HullBackend backend(DeviceSession session) {
        return switch (session.execution().backend()) {
            case JVM -> new JvmHullBackend(null);
            case JVM_PARALLEL -> new JvmHullBackend(session.loops());
            case TORNADO -> session.tornado(HullBackend.Factory.class).create(session);
        };
    }

    private static HullResult flat(int dim, int[] vertices, int[] start, int[] index, int n, PhaseTimings timings,
            long fallbacks0, HullOptions options) {
        return new HullResult(dim, vertices, start, index,
                new HullResult.Stats(n, 0, 0, 0, Predicates.exactEvaluations() - fallbacks0), timings, options.backend());
    }

    /**
     * Rejects the first non-finite point (by index) and measures the input's binary range ({@link HullRange});
     * split over cores except on the one-thread reference.
     */
    static HullRange checkFinite(double[] x, double[] y, double[] z, Backend backend) {
        int n = x.length;
        int chunk = 1 << 16;
        int chunks = (n + chunk - 1) / chunk;
        int[] firstBad = new int[chunks];
        double[] max = new double[chunks];
        double[] min = new double[chunks];
        java.util.stream.IntStream range = java.util.stream.IntStream.range(0, chunks);
        (backend == Backend.JVM ? range : range.parallel()).forEach(c -> {
            firstBad[c] = -1;
            double hi = 0.0;
            double lo = Double.MAX_VALUE;
            for (int i = c * chunk, end = Math.min(n, i + chunk); i < end; i++) {
                double ax = Math.abs(x[i]);
                double ay = Math.abs(y[i]);
                double az = Math.abs(z[i]);
                // false for NaN and infinity
                if (!(ax <= Double.MAX_VALUE && ay <= Double.MAX_VALUE && az <= Double.MAX_VALUE)) {
                    firstBad[c] = i;
                    return;
                }
                hi = Math.max(hi, Math.max(ax, Math.max(ay, az)));
                lo = Math.min(lo, Math.min(ax == 0.0 ? lo : ax, Math.min(ay == 0.0 ? lo : ay, az == 0.0 ? lo : az)));
            }
            max[c] = hi;
            min[c] = lo;
        });
        for (int i : firstBad) {
            if (i >= 0) {
                throw new AccelGeomException("point " + i + " has a non-finite coordinate (" + x[i] + ", " + y[i] + ", "
                        + z[i] + "): the convex hull needs finite coordinates");
            }
        }
        double hi = 0.0;
        double lo = Double.MAX_VALUE;
        for (int c = 0; c < chunks; c++) {
            hi = Math.max(hi, max[c]);
            lo = Math.min(lo, min[c]);
        }
        return HullRange.of(hi, lo);
    }

    private static boolean same(double[] x, double[] y, double[] z, int a, int b) {
        return x[a] == x[b] && y[a] == y[b] && z[a] == z[b];
    }

    private static int orient(double[] x, double[] y, double[] z, int a, int b, int c, int d) {
        return Predicates.side(x[a], y[a], z[a], x[b], y[b], z[b], x[c], y[c], z[c], x[d], y[d], z[d]);
    }

    private static int firstNotCollinear(double[] x, double[] y, double[] z, int a, int b) {
        for (int i = 0; i < x.length; i++) {
            if (!Predicates.collinear3d(x[a], y[a], z[a], x[b], y[b], z[b], x[i], y[i], z[i])) {
                return i;
            }
        }
        return -1;
    }

    private static int firstOffPlane(double[] x, double[] y, double[] z, int a, int b, int c) {
        for (int i = 0; i < x.length; i++) {
            if (orient(x, y, z, a, b, c, i) != 0) {
                return i;
            }
        }
        return -1;
    }

    /** The two extreme points of collinear input, along its longest axis. */
    private static int[] segmentEnds(double[] x, double[] y, double[] z, int a, int b) {
        double dx = Math.abs(x[b] - x[a]);
        double dy = Math.abs(y[b] - y[a]);
        double dz = Math.abs(z[b] - z[a]);
        double[] t = dx >= dy && dx >= dz ? x : dy >= dz ? y : z;
        int lo = 0;
        int hi = 0;
        for (int i = 1; i < t.length; i++) {
            if (t[i] < t[lo]) {
                lo = i;
            }
            if (t[i] > t[hi]) {
                hi = i;
            }
        }
        return lo < hi ? new int[] {lo, hi} : new int[] {hi, lo};
    }

    private static int[] range(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }

    /**
     * Hull of the distinct extreme points (serial, exact), as planes for {@link HullKernels#cullInterior};
     * returns the number of planes (0 when the extreme points are degenerate).
     */
    private static int innerPolytope(double[] x, double[] y, double[] z, int[] ext, double[][] out) {
        int[] ids = java.util.Arrays.stream(ext).distinct().toArray();
        if (ids.length < 4) {
            return 0;
        }
        double[] sx = new double[ids.length];
        double[] sy = new double[ids.length];
        double[] sz = new double[ids.length];
        for (int i = 0; i < ids.length; i++) {
            sx[i] = x[ids[i]];
            sy[i] = y[ids[i]];
            sz[i] = z[ids[i]];
        }
        HullResult h = compute(sx, sy, sz, HullOptions.of(Backend.JVM).withCullDirections(0));
        if (h.dimension() != 3) {
            return 0;
        }
        int[] tri = h.toMeshInFacetOrder(org.accelgeom.io.PointCloud.of(sx, sy, sz)).triangles();
        double[] mx = new double[h.vertices().length];
        double[] my = new double[mx.length];
        double[] mz = new double[mx.length];
        for (int i = 0; i < mx.length; i++) {
            mx[i] = sx[h.vertices()[i]];
            my[i] = sy[h.vertices()[i]];
            mz[i] = sz[h.vertices()[i]];
        }
        int nt = tri.length / 3;
        double[] planes = new double[HullKernels.PLANE_STRIDE * nt];
        for (int t = 0; t < nt; t++) {
            FacePlanes.compute(mx, my, mz, tri[3 * t], tri[3 * t + 1], tri[3 * t + 2], planes, t);
        }
        out[0] = planes;
        return nt;
    }
}
