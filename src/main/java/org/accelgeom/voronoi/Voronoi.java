package org.accelgeom.voronoi;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.Execution;

/**
 * The additively weighted (Apollonius) Voronoi diagram of balls by edge tracing (Kim, Cho &amp; Kim 2005, as
 * the thesis of Majdi&scaron;ov&aacute; 2014 computes it), on any backend.
 *
 * <p>Contract: for balls in general position the result is the diagram's whole edge graph (every connected
 * component: {@link Completion} starts a further tracing for each piece the first one does not reach; balls it
 * leaves undecided are counted in {@link VoronoiResult.Stats#undecidedBalls}): every vertex is the centre of a
 * sphere tangent to its four balls that no other ball comes closer to (empty), every edge joins two vertices or a
 * vertex and infinity, and the topology (set of quadruples with their roots, set of edges) is the same on every backend and precision except {@code float}. Degenerate
 * inputs: fewer than 4 (visible) balls, or balls with no vertex at all, give an empty diagram; hidden balls
 * (contained in another ball, including coincident duplicates) are reported and left out; non-finite
 * values are rejected naming the ball. Input in exactly degenerate position (five balls on one sphere) is
 * answered, but which of the tied quadruples appears is not specified.
 *
 * <p>Steps: hidden balls; the uniform grid; the initial vertex (Alg. 2.2, {@link InitialVertex}); the
 * tracing ({@link EdgeTracer}, Alg. 5.1) with the end-vertex search on the backend
 * ({@link VoronoiKernels#searchEdge}); the untraced pieces ({@link Completion}); the closed edges ({@link EllipticEdges}).
 */
public class Voronoi {


    /** Emptiness tolerance of the initial vertex check, in length units. */
    static final double TOLERANCE = 1e-7;

    Voronoi() {
    }

    /** What a diagram prepares before tracing: hidden balls, grid, float copies, kernel parameters. */
    record Prepared(Balls pb, int[] perm, boolean[] hidden, int[] hiddenIdx, int visible, BallGrid grid,
            float[] fx, float[] fy,
            float[] fz, float[] fr, double[] p, int[] ip, double sx, double sy, double sz, int capacity) {
    }

    /**
     * The resident state a session keeps: the last prepared balls and their search backend (see
     * {@link VoronoiOptions#resident()}).
     */
    private record Resident(Balls balls, VoronoiOptions options, boolean alone, Prepared prepared, VoronoiBackend search) {
    }

    private static final String FAMILY = "voronoi";
    private static final String RESIDENT = "resident searches";

    /**
     * The resident states of a session, one per diagram computed at once (a batch with several inputs in flight):
     * a diagram takes one (the same balls first, then one of the same options) and gives it back when done.
     */
    private static final class ResidentPool {
        /** More idle states than this are released (a batch holds as many as it has inputs in flight). */
        private static final int MOST = 64;
        private final java.util.ArrayDeque<Resident> idle = new java.util.ArrayDeque<>();
        /** The tornado device search of the session: diagrams in flight at once use it one after another. */
        private HybridSearch.Device device;
        /** The host loops of the diagrams computed alone ({@link #computeAlone}): one thread, each on its caller. */
        private ParallelLoops callerLoops;

        synchronized ParallelLoops callerLoops() {
            if (callerLoops == null) {
                callerLoops = new ParallelLoops(1);
            }
            return callerLoops;
        }

        synchronized HybridSearch.Device device(DeviceSession session) {
            if (device == null) {
                device = new HybridSearch.Device(() -> session.tornado(VoronoiBackend.Factory.class).create(session));
            }
            return device;
        }
        private boolean closed;

        synchronized Resident take(Balls balls, VoronoiOptions options, boolean alone) {
            Resident pick = null;
            for (Resident r : idle) {
                if (r.alone() != alone) {
                    continue; // its search runs on the other loops
                }
                if (r.balls() == balls && options.equals(r.options())) {
                    pick = r;
                    break;
                }
                if (pick == null || !options.equals(pick.options()) && options.equals(r.options())) {
                    pick = r;
                }
            }
            if (pick != null) {
                idle.remove(pick);
            }
            return pick;
        }

        synchronized void give(Resident r) {
            if (closed) {
                close(r);
                return;
            }
            idle.addFirst(r);
            if (idle.size() > MOST) {
                close(idle.removeLast());
            }
        }

        synchronized void close() {
            closed = true;
            while (!idle.isEmpty()) {
                close(idle.removeFirst());
            }
            if (device != null) {
                device.close();
            }
            if (callerLoops != null) {
                callerLoops.close();
            }
        }

        private static void close(Resident r) {
            if (r.search() != null) {
                r.search().close();
            }
        }
    }

    /** The session's pool of resident states (made on first use; released with the session or {@link #release}). */
    private static ResidentPool pool(DeviceSession session) {
        synchronized (session) { // take and keep at once: no other diagram sees the session without its pool
            ResidentPool p = session.take(FAMILY, RESIDENT, ResidentPool.class, x -> true);
            if (p == null) {
                p = new ResidentPool();
            }
            session.keep(FAMILY, RESIDENT, p, ResidentPool::close);
            return p;
        }
    }

    /** The diagram of balls (x[i], y[i], z[i], r[i]), in a session of its own (opened and closed by this call). */
    public static VoronoiResult compute(Balls balls, VoronoiOptions options) {
        try (DeviceSession session = DeviceSession.open(options.execution())) {
            return compute(balls, options, session);
        }
    }

    /**
     * The diagram of balls in {@code session}: it runs on the session's {@link Execution} (which replaces the
     * options' backend, threads, device and residency); with residency the prepared balls and the search (tornado:
     * its plan) stay in the session for the next diagram (the same balls again, or a trajectory's next frame).
     */
    public static VoronoiResult compute(Balls balls, VoronoiOptions given, DeviceSession session) {
        return compute(balls, given, session, null, false);
    }

    /**
     * {@link #compute(Balls, VoronoiOptions, DeviceSession)} alone on the calling thread: the host steps' loops run on
     * the caller (one thread) instead of the session's pool, for many diagrams computed at once in one session, each on
     * a thread of its own (a trajectory's frames in flight). On tornado its device steps take turns with the other
     * diagrams' on the session's one device search. The result is the same as {@code compute}'s (every parallel step
     * writes per index).
     */
    public static VoronoiResult computeAlone(Balls balls, VoronoiOptions given, DeviceSession session) {
        return compute(balls, given, session, null, true);
    }

    /**
     * Whether the {@code tornado} search would keep every tracing level of {@code balls} balls on the host cores by its
     * size rule ({@code accelgeom.voronoi.hostBelow}): a level holds about 0.6-1.2 times the visible balls, so such an
     * input builds no plan and uploads nothing (an estimate: a level that reaches the rule still goes to the device).
     */
    public static boolean staysOnHost(int balls) {
        return HybridSearch.staysOnHost(balls);
    }

    /** {@link #compute(Balls, VoronoiOptions, DeviceSession)} with the search {@code make} gives (null: the backend's). */
    static VoronoiResult compute(Balls balls, VoronoiOptions given, DeviceSession session,
            java.util.function.Supplier<VoronoiBackend> make) {
        return compute(balls, given, session, make, false);
    }

    /** The diagram, its host loops on the caller when {@code alone} (see {@link #computeAlone}). */
    private static VoronoiResult compute(Balls balls, VoronoiOptions given, DeviceSession session,
            java.util.function.Supplier<VoronoiBackend> make, boolean alone) {
        VoronoiOptions options = given.withExecution(session.execution());
        ParallelLoops hostLoops = options.backend() == Backend.JVM ? null : alone ? pool(session).callerLoops() : session.loops();
        VoronoiRange.check(balls);
        PhaseTimings timings = options.execution().newTimings();
        VoronoiOptions.Precision precision = options.effectivePrecision();
        int n = balls.size();
        Prepared prep;
        VoronoiBackend search = null;
        VoronoiBackend reload = null; // a resident backend to load with other balls (a trajectory's next frame)
        // a diagram that is not resident leaves the resident state alone
        Resident held = options.resident() ? pool(session).take(balls, options, alone) : null;
        if (held != null && held.balls() == balls && options.equals(held.options())) {
            prep = held.prepared();
            search = held.search(); // in use; put back when done
        } else {
            if (held != null) {
                if (options.equals(held.options())) {
                    reload = held.search();
                } else if (held.search() != null) {
                    held.search().close();
                }
            }
            long t0 = System.nanoTime();
            prep = prepare(balls, options);
            timings.add("grid and hidden balls", Kind.HOST, System.nanoTime() - t0);
        }
        int[] q = new int[4];
        double[] s = new double[4];
        long t1 = System.nanoTime();
        Balls pb = prep.pb; // the balls in grid-cell order (memory locality); results are mapped back
        boolean found;
        try {
            found = prep.visible >= 4 && InitialVertex.find(pb, prep.hidden, 64, TOLERANCE, q, s);
        } catch (RuntimeException e) {
            if (reload != null) {
                reload.close();
            }
            throw e;
        }
        timings.add("initial vertex", Kind.HOST, System.nanoTime() - t1);
        if (prep.visible < 4) {
            if (reload != null) {
                reload.close();
            }
            keep(session, balls, options, alone, prep, search);
            int[] closed = prep.visible >= 3 ? closedEdges(prep, new int[0], hostLoops, timings) : new int[0];
            return new VoronoiResult(n, prep.hiddenIdx, new int[0], new double[0],
                    new int[0], new int[0], closed, new VoronoiResult.Stats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), timings,
                    options.backend(), precision);
        }
        boolean ok = false;
        try {
            if (search == null) {
                long t2 = System.nanoTime();
                search = reload != null ? reload : make != null ? make.get() : backend(options, session, hostLoops);
                reload = null;
                search.load(pb.x, pb.y, pb.z, pb.r, prep.fx, prep.fy, prep.fz, prep.fr, prep.grid.cellStart,
                        prep.grid.cellBalls, prep.p, prep.ip, prep.capacity);
                timings.add("start backend", Kind.UPLOAD, System.nanoTime() - t2);
            }
            // the batches of the prepared capacity, whatever the backend holds (a resident plan may hold more): the
            // same levels, so the same output, as a diagram computed alone
            EdgeTracer tracer = new EdgeTracer(pb, search, prep.capacity, prep.sx, prep.sy, prep.sz,
                    hostLoops);
            tracer.recheck = new HostRecheck(pb, prep.grid, prep.fx, prep.fy, prep.fz, prep.fr, prep.p, prep.ip);
            tracer.floatCheck = precision == VoronoiOptions.Precision.FLOAT;
            int maxVertices = 64 * prep.visible + 1024;
            if (found) {
                double[] s0 = new double[4];
                int root = CellVertex.rootOf(pb, q, s, s0);
                tracer.trace(q, Math.max(0, root), root < 0 ? s : s0, maxVertices, timings);
            }
            // the pieces the first tracing did not reach (a disconnected vertex graph); when Alg. 2.2 found no first
            // vertex in its tries, every ball is searched here
            Completion.Counts cc = Completion.run(pb, prep.hidden, searchGrid(prep), tracer, found ? 1 : 0, TOLERANCE,
                    maxVertices, timings, hostLoops);
            int[][] edges = tracer.edges();
            int[] closed = closedEdges(prep, tracer.quads(), hostLoops, timings);
            VoronoiResult r = new VoronoiResult(n, prep.hiddenIdx, mapSorted(tracer.quads(), 4, prep.perm),
                    tracer.spheres(), mapSorted(edges[0], 3, prep.perm), edges[1], closed,
                    new VoronoiResult.Stats(tracer.searches, tracer.swaps, tracer.doubleEvals, tracer.passes,
                            tracer.infinite, tracer.unresolved, tracer.inconsistent, tracer.batches, tracer.tieRechecks,
                            cc.components(), cc.vertexFree(), cc.undecided()),
                    timings, options.backend(), precision);
            ok = true;
            return r;
        } finally {
            if (reload != null) {
                reload.close(); // the load failed before it was taken
            }
            if (ok) {
                keep(session, balls, options, alone, prep, search);
            } else if (search != null) {
                search.close();
            }
        }
    }

    /** The closed vertex-free elliptic edges ({@link EllipticEdges}), as sorted triples of input indices. */
    private static int[] closedEdges(Prepared prep, int[] quads, ParallelLoops hostLoops, PhaseTimings timings) {
        long t0 = System.nanoTime();
        int[] t = EllipticEdges.find(prep.pb, prep.hidden, searchGrid(prep), quads,
                hostLoops);
        int[] m = mapSorted(t, 3, prep.perm);
        // in the order of the input indices
        Integer[] order = new Integer[m.length / 3];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> {
            for (int k = 0; k < 3; k++) {
                int c = Integer.compare(m[3 * a + k], m[3 * b + k]);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        });
        int[] out = new int[m.length];
        for (int i = 0; i < order.length; i++) {
            System.arraycopy(m, 3 * order[i], out, 3 * i, 3);
        }
        timings.add("elliptic edges", Kind.HOST, System.nanoTime() - t0);
        return out;
    }

    /** The grid of the host's searches over balls (the prepared one, or one built when the search runs unpruned). */
    private static BallGrid searchGrid(Prepared prep) {
        return prep.grid.cellBalls.length > 0 ? prep.grid : BallGrid.build(prep.pb, PER_CELL, prep.hidden);
    }

    /** Keeps the prepared state in the session for the next diagram when resident, else releases the backend. */
    private static void keep(DeviceSession session, Balls balls, VoronoiOptions options, boolean alone, Prepared prep,
            VoronoiBackend search) {
        if (options.resident()) {
            pool(session).give(new Resident(balls, options, alone, prep, search));
        } else if (search != null) {
            search.close();
        }
    }

    /**
     * Releases the resident state of {@code session} (see {@link VoronoiOptions#resident()}): the last prepared balls
     * and their backend, with its device memory on tornado. The next diagram prepares and starts anew.
     */
    public static void release(DeviceSession session) {
        session.drop(FAMILY, RESIDENT);
    }

    /** Each group of k indices mapped through perm and sorted. */
    private static int[] mapSorted(int[] a, int k, int[] perm) {
        int[] m = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            m[i] = perm[a[i]];
        }
        for (int g = 0; g < a.length; g += k) {
            java.util.Arrays.sort(m, g, g + k);
        }
        return m;
    }

    static Prepared prepare(Balls original, VoronoiOptions options) {
        int n = original.size();
        // grid-cell order: balls near in space are near in memory (the device's gathers and the CPU caches)
        int[] perm = BallGrid.build(original, PER_CELL, null).cellBalls;
        double[] px = new double[n], py = new double[n], pz = new double[n], pr = new double[n];
        for (int i = 0; i < n; i++) {
            px[i] = original.x[perm[i]];
            py[i] = original.y[perm[i]];
            pz[i] = original.z[perm[i]];
            pr[i] = original.r[perm[i]];
        }
        Balls balls = new Balls(px, py, pz, pr);
        BallGrid all = BallGrid.build(balls, 8, null);
        boolean[] hidden = balls.hidden(all, perm);
        int visible = 0;
        for (boolean h : hidden) {
            visible += h ? 0 : 1;
        }
        int[] hiddenIdx = new int[n - visible];
        for (int i = 0, k = 0; i < n; i++) {
            if (hidden[i]) {
                hiddenIdx[k++] = perm[i];
            }
        }
        java.util.Arrays.sort(hiddenIdx);
        BallGrid grid = BallGrid.build(balls, options.grid() ? PER_CELL : 0, hidden);
        // float copies about the grid's centre (phase 1 of the two-phase search)
        double sx = grid.x0 + 0.5 * grid.nx * grid.cell, sy = grid.y0 + 0.5 * grid.ny * grid.cell,
                sz = grid.z0 + 0.5 * grid.nz * grid.cell;
        float[] fx = new float[n], fy = new float[n], fz = new float[n], fr = new float[n];
        for (int i = 0; i < n; i++) {
            fx[i] = (float) (balls.x[i] - sx);
            fy[i] = (float) (balls.y[i] - sy);
            fz[i] = (float) (balls.z[i] - sz);
            fr[i] = (float) balls.r[i];
        }
        double[] p = new double[VoronoiKernels.PN];
        p[VoronoiKernels.P_EPS] = 1e-10;
        p[VoronoiKernels.P_THRES] = options.threshold();
        p[VoronoiKernels.P_RMAX] = balls.maxRadius();
        p[VoronoiKernels.P_GX] = grid.x0;
        p[VoronoiKernels.P_GX + 1] = grid.y0;
        p[VoronoiKernels.P_GX + 2] = grid.z0;
        p[VoronoiKernels.P_CELL] = grid.cell;
        p[VoronoiKernels.P_GROW] = GROW;
        p[VoronoiKernels.P_COVER] = grid.coverRadius();
        p[VoronoiKernels.P_SHIFT] = sx;
        p[VoronoiKernels.P_SHIFT + 1] = sy;
        p[VoronoiKernels.P_SHIFT + 2] = sz;
        int[] ip = new int[VoronoiKernels.IN];
        ip[VoronoiKernels.I_NX] = grid.nx;
        ip[VoronoiKernels.I_NX + 1] = grid.ny;
        ip[VoronoiKernels.I_NX + 2] = grid.nz;
        ip[VoronoiKernels.I_N] = n;
        ip[VoronoiKernels.I_MODE] = options.effectivePrecision().mode();
        ip[VoronoiKernels.I_GRID] = options.grid() ? 1 : 0;
        ip[VoronoiKernels.I_LANES] = options.effectiveLanes();
        // a tracing level holds up to about 0.6-1.2 x the visible balls (random balls, 4HHB, 4JSV: 0.6-0.8; 1UBQ: 1.2);
        // a larger level is split, a smaller capacity uploads less per launch on tornado
        int capacity = options.batch() > 0 ? options.batch() : Math.max(1024, Math.min(1 << 16, 3 * visible / 2));
        return new Prepared(balls, perm, hidden, hiddenIdx, visible, grid, fx, fy, fz, fr, p, ip, sx, sy, sz, capacity);
    }

    /** Balls per grid cell on average (the cell size). */
    static final double PER_CELL = 6;
    /** The first search radius: this many times the start vertex's sphere, grown until proven (needRadius). */
    static final double GROW = 1.5;

    /** The search of the options' backend; {@code hostLoops}: the diagram's host loops (null on jvm). */
    private static VoronoiBackend backend(VoronoiOptions o, DeviceSession session, ParallelLoops hostLoops) {
        return switch (o.backend()) {
            case JVM -> new JvmVoronoiBackend(null, o.lanes());
            case JVM_PARALLEL -> new JvmVoronoiBackend(hostLoops, o.lanes());
            case TORNADO -> new HybridSearch(hostLoops, pool(session).device(session));
        };
    }

}
