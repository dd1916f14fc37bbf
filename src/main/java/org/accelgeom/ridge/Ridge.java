package org.accelgeom.ridge;

import java.util.List;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.DevicePool;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.io.PointCloud;

/**
 * Curve reconstruction from a noisy point cloud: Rupniewski's ridge detection (Alg. 1) as Rogowiec's thesis
 * parallelises it, brute force (§3) or tiled (§4, extended tiles with hybrid detection).
 *
 * <pre>
 * S ← choose(P, R1)
 * repeat  S ← evolve(S, P, R1); S ← decimate(S, R2)  until |S| is unchanged
 * E ← order(S, R2)
 * </pre>
 *
 * <p>evolve, the data-parallel step that takes nearly all the time, runs on the chosen backend; choose, decimate
 * and order are sequential by definition (each decision depends on the ones before) and run on the host, the
 * same code for every backend. In the tiled version each tile chooses on its own, so the tiles choose in
 * parallel, as the tile tree and the extended tiles are built, over the session's cores (one thread on
 * {@code jvm}), with the one-thread result. The result does not depend on the backend: {@code jvm},
 * {@code jvm-parallel} and {@code tornado} sum in fixed point ({@link RidgeKernels}), so they agree exactly, up to the rare point whose
 * two nearest representatives are equally far to the last bit (the GPU fuses multiply-adds).
 *
 * <p>Any dimension 1..16. Degenerate inputs: fewer than 3 points, R1 or R2 not positive and finite, a NaN or
 * infinite coordinate: an {@link AccelGeomException} saying what is wrong.
 */
public final class Ridge {

    /** The largest dimension supported. */
    public static final int MAX_DIMENSION = 16;
    /** The most initial tiles (the product of the counts per dimension) the tiled version accepts. */
    public static final int MAX_INITIAL_TILES = 1 << 22;

    private Ridge() {
    }

    /** Ridge detection on a cloud, in a session of its own (opened and closed by this call). */
    public static RidgeResult detect(PointCloud cloud, RidgeOptions options) {
        return detect(cloud.coords(), options);
    }

    /** Ridge detection on a cloud in {@code session} (see {@link #detect(double[][], RidgeOptions, DeviceSession)}). */
    public static RidgeResult detect(PointCloud cloud, RidgeOptions options, DeviceSession session) {
        return detect(cloud.coords(), options, session);
    }

    /** Ridge detection on {@code coords[c][i]}: coordinate c of point i, in a session of its own. */
    public static RidgeResult detect(double[][] coords, RidgeOptions options) {
        try (DeviceSession session = DeviceSession.open(options.execution())) {
            return detect(coords, options, session);
        }
    }

    /**
     * Ridge detection in {@code session}: it runs on the session's {@link Execution} (which replaces the options'
     * backend, threads, device and progress); on tornado the plan, with the cloud on the device, stays in the
     * session and is reused by a next run over the same points.
     */
    public static RidgeResult detect(double[][] coords, RidgeOptions given, DeviceSession session) {
        RidgeOptions options = given.withExecution(session.execution());
        // the host phases run over the session's cores, except on jvm (one thread); the same result either way
        ParallelLoops host = options.backend() == Backend.JVM ? null : session.loops();
        return detect(coords, options, host, prm -> backend(prm, session));
    }

    /**
     * Ridge detection with the tiled version's evolution split across the pool's devices by tiles ({@link TileSplit}:
     * one contiguous range of tiles per worker, evolved on a thread of its own in the worker's session, opened for the
     * options' execution on its device); the result is the one-device run's, bit for bit. One worker: {@link
     * #detect(double[][], RidgeOptions, DeviceSession)} in its session. Brute force (one tile) cannot be split: an
     * {@link AccelGeomException} when the pool has several workers.
     */
    public static RidgeResult detect(double[][] coords, RidgeOptions options, DevicePool pool) {
        Execution e = options.execution();
        if (pool.size() == 1) {
            return detect(coords, options, pool.session(0, e));
        }
        if (!options.tiled()) {
            throw new AccelGeomException(BRUTE_FORCE_UNSPLIT);
        }
        // the host phases over the execution's cores (the workers' sessions hold a share each), as in one session
        ParallelLoops host = options.backend() == Backend.JVM ? null : new ParallelLoops(e.threads());
        try {
            return detect(coords, options, host, prm -> new TileSplit(pool.size(), k -> backend(prm, pool.session(k, e)),
                    k -> "part " + k + " (device " + pool.device(k) + ")"));
        } finally {
            if (host != null) {
                host.close();
            }
        }
    }

    /**
     * Ridge detection with the tiled version's evolution split by tiles over {@code parts} part backends made by
     * {@code partBackends.apply(prm, k)} (e.g. proxies of worker processes, one per device), part k's phases shown as
     * {@code names.apply(k) + ": ..."}; the parts load in parallel ({@link TileSplit}'s start mode 0: each in a process
     * of its own, no plan build waits for another's). The result is the one-device run's, bit for bit. The host phases
     * run over the execution's cores (one thread on {@code jvm}). Brute force: an {@link AccelGeomException}.
     */
    public static RidgeResult detectSplit(double[][] coords, RidgeOptions options, int parts,
            java.util.function.BiFunction<RidgeBackend.Parameters, Integer, RidgeBackend> partBackends,
            java.util.function.IntFunction<String> names) {
        if (!options.tiled()) {
            throw new AccelGeomException(BRUTE_FORCE_UNSPLIT);
        }
        ParallelLoops host = options.backend() == Backend.JVM ? null : new ParallelLoops(options.execution().threads());
        try {
            return detect(coords, options, host, prm -> new TileSplit(parts, k -> partBackends.apply(prm, k), names, 0));
        } finally {
            if (host != null) {
                host.close();
            }
        }
    }

    /**
     * The evolution backend a one-device run makes in {@code session} (jvm, jvm-parallel over the session's cores, or
     * tornado on its device): what a worker process of a split evolves its part with.
     */
    public static RidgeBackend evolution(RidgeBackend.Parameters prm, DeviceSession session) {
        return backend(prm, session);
    }

    /** Why brute force runs on one device. */
    public static final String BRUTE_FORCE_UNSPLIT = "ridge detection splits across devices by tiles, and brute force "
            + "evolves one tile: use the tiled version (--tiled) or one device";

    /** The detection with the evolution on {@code backends.apply(prm)} (package-private for the split's tests). */
    static RidgeResult detect(double[][] coords, RidgeOptions options, ParallelLoops host,
            java.util.function.Function<RidgeBackend.Parameters, RidgeBackend> backends) {
        validate(coords, options);
        PhaseTimings timings = options.execution().newTimings();
        int d = coords.length;
        int n = coords[0].length;
        double r1 = options.r1();
        double r2 = options.effectiveR2();
        EvolutionLayout cloud = timings.time("cloud layout", Kind.HOST, () -> EvolutionLayout.bruteForce(coords, host));
        double[] p = cloud.coords();
        if (options.precision() == Precision.FLOAT) {
            cloud.roundToFloat(host);
        }
        // the evolution layout and choose's candidates: one tile, or the extended tiles
        EvolutionLayout layout;
        List<int[]> candidates;
        TileTree tree = null;
        if (options.tiled()) {
            int[] cnt = options.initTileCnt() != null ? options.initTileCnt() : filled(d, 3);
            tree = timings.time("tile tree", Kind.HOST,
                    () -> TileTree.build(p, n, d, cnt, options.maxTileCapacity(), r1, host));
            layout = null; // after choose, which needs only the tiles' cores: the layout's arrays are allocated meanwhile
            candidates = tree.leaves().stream().map(TileTree.Tile::core).toList();
        } else {
            layout = cloud;
            int[] all = new int[n];
            for (int i = 0; i < n; i++) {
                all[i] = i;
            }
            candidates = List.of(all);
        }
        // choose (Alg. 5), tile by tile
        Choose.Chosen chosen = timings.time("choose", Kind.HOST, () -> Choose.tiles(p, n, d, candidates, r1, host));
        if (tree != null) {
            TileTree t = tree;
            layout = timings.time("extended tiles", Kind.HOST, () -> t.layout(p, n, d, host));
        }
        int tiles = layout.numTiles();
        int[] tileStart = chosen.tileStart();
        double[] s = chosen.reps();
        int[] origin = chosen.origins();
        int ns = tileStart[tiles];
        int initial = ns;
        var prm = new RidgeBackend.Parameters(d, r1, options.precision(),
                RidgeKernels.fixedPointExponent(layout.n(), r1), options.maxIterations());
        int outer = 0;
        int iterations = 0;
        boolean capped = false;
        try (RidgeBackend backend = timings.time("start backend", Kind.HOST, () -> backends.apply(prm))) {
            backend.load(layout, Math.max(1, ns), timings);
            options.progress().begin("ridge detection: evolve + decimate rounds, |S|", 0);
            int last;
            do {
                last = ns;
                outer++;
                int it = backend.evolve(s, ns, tileStart, timings);
                iterations += it;
                capped |= it >= options.maxIterations();
                int before = ns;
                boolean[] keep = new boolean[before];
                final double[] fs = s;
                ns = timings.time("decimate", Kind.HOST, () -> decimateInInputOrder(fs, origin, before, d, r2, keep));
                recount(tileStart, keep);
                options.progress().update(ns);
            } while (ns != last);
            options.progress().end();
        }
        double[] reps = java.util.Arrays.copyOf(s, ns * d);
        final int fns = ns;
        Order.Curves curves = options.order()
                ? timings.time("order", Kind.HOST, () -> Order.order(reps, fns, d, r2)) : null;
        var stats = new RidgeResult.Stats(n, tiles, layout.n(), initial, outer, iterations, capped);
        return new RidgeResult(d, reps, curves, stats, timings, options.backend(), options.precision());
    }

    /**
     * Decimation (rule 2.1) over all representatives, scanned in the input order of the points they were chosen
     * from, as brute force scans them. The tiled version stores representatives tile by tile, i.e. sorted in space;
     * a sequential scan in that order would sweep the curve from one end and thin it unevenly (the first
     * representatives see all their neighbours ahead), so the scan order is the input order in both versions.
     * {@code s} and {@code origin} are compacted in place, tile grouping kept; returns the new count.
     */
    static int decimateInInputOrder(double[] s, int[] origin, int ns, int d, double r2, boolean[] keep) {
        long[] byOrigin = new long[ns];
        for (int k = 0; k < ns; k++) {
            byOrigin[k] = ((long) origin[k] << 32) | k;
        }
        java.util.Arrays.sort(byOrigin);
        double[] sorted = new double[ns * d];
        for (int j = 0; j < ns; j++) {
            System.arraycopy(s, (int) byOrigin[j] * d, sorted, j * d, d);
        }
        boolean[] kept = new boolean[ns];
        Decimate.decimate(sorted, ns, d, r2, kept);
        int m = 0;
        for (int j = 0; j < ns; j++) {
            keep[(int) byOrigin[j]] = kept[j];
        }
        for (int k = 0; k < ns; k++) {
            if (keep[k]) {
                System.arraycopy(s, k * d, s, m * d, d);
                origin[m++] = origin[k];
            }
        }
        return m;
    }

    /** After decimation: the new tile ranges of the kept representatives (order kept). */
    private static void recount(int[] tileStart, boolean[] keep) {
        int tiles = tileStart.length - 1;
        int[] kept = new int[tiles];
        for (int t = 0; t < tiles; t++) {
            for (int k = tileStart[t]; k < tileStart[t + 1]; k++) {
                if (keep[k]) {
                    kept[t]++;
                }
            }
        }
        for (int t = 0; t < tiles; t++) {
            tileStart[t + 1] = tileStart[t] + kept[t];
        }
    }

    private static RidgeBackend backend(RidgeBackend.Parameters prm, DeviceSession session) {
        return switch (session.execution().backend()) {
            case JVM -> new JvmRidgeBackend(prm, null);
            case JVM_PARALLEL -> new JvmRidgeBackend(prm, session.loops());
            case TORNADO -> session.tornado(RidgeBackend.Factory.class).create(session, prm);
        };
    }

    private static int[] filled(int d, int v) {
        int[] a = new int[d];
        java.util.Arrays.fill(a, v);
        return a;
    }

    private static void validate(double[][] coords, RidgeOptions o) {
        int d = coords.length;
        if (d < 1 || d > MAX_DIMENSION) {
            throw new AccelGeomException("ridge detection works in dimensions 1 to " + MAX_DIMENSION + ", not " + d);
        }
        int n = coords[0].length;
        if (n < Decimate.FLOOR) {
            throw new AccelGeomException("ridge detection needs at least " + Decimate.FLOOR + " points, got " + n);
        }
        if (!(o.r1() > 0) || !Double.isFinite(o.r1())) {
            throw new AccelGeomException("R1 must be a positive finite number, got " + o.r1());
        }
        double r2 = o.effectiveR2();
        if (!(r2 > 0) || !Double.isFinite(r2)) {
            throw new AccelGeomException("R2 must be a positive finite number, got " + r2);
        }
        boolean single = o.precision() == Precision.FLOAT;
        for (int c = 0; c < d; c++) {
            for (int i = 0; i < n; i++) {
                double v = coords[c][i];
                if (!Double.isFinite(v)) {
                    throw new AccelGeomException("point " + i + " has a non-finite coordinate " + c + " (" + v
                            + "); remove or fix it");
                }
                if (single && !Float.isFinite((float) v)) {
                    throw new AccelGeomException("point " + i + " coordinate " + c + " (" + v
                            + ") does not fit a float; use --precision double");
                }
            }
        }
        if (o.tiled()) {
            if (o.maxTileCapacity() < 2) {
                throw new AccelGeomException("maxTileCapacity must be at least 2, got " + o.maxTileCapacity());
            }
            if (o.initTileCnt() != null && o.initTileCnt().length != d) {
                throw new AccelGeomException("the initial tile counts name " + o.initTileCnt().length
                        + " dimensions, the cloud has " + d);
            }
            long product = 1;
            for (int c = 0; c < d; c++) {
                int k = o.initTileCnt() != null ? o.initTileCnt()[c] : 3;
                if (k < 1) {
                    throw new AccelGeomException("initial tile counts must be at least 1, got " + k);
                }
                product = Math.min(Long.MAX_VALUE / 4, product * k);
            }
            if (product > MAX_INITIAL_TILES) {
                throw new AccelGeomException(product + " initial tiles (" + (o.initTileCnt() == null ? "3" : "the given counts")
                        + " per dimension in " + d + "D) are more than " + MAX_INITIAL_TILES
                        + ": give 1 along most dimensions, e.g. --tiles 16,1 (Fig. 4.12 of the thesis)");
            }
        }
    }
}
