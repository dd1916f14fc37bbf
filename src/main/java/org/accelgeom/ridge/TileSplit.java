package org.accelgeom.ridge;

import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.Tuning;

/**
 * The evolution step (Alg. 2) of the tiled version (§4) split across several devices by tiles: one backend per part,
 * each part a contiguous range of the extended tiles, evolved on a thread of its own in parallel with the others.
 *
 * <p>Exact: within an evolve call each tile evolves alone (a point looks only at its own tile's representatives,
 * a tile stops when none of its representatives moves), so a part evolves its tiles as the whole layout would; the
 * sums are integers in fixed point with the whole layout's exponent ({@link Parameters#fixedPointExponent}, given to
 * every part); the iterations of a call are the slowest tile's, so the call's count is the largest part's. The
 * decimation between calls stays on the host over all representatives ({@link Ridge}), the barrier of every outer
 * round.
 *
 * <p>{@link #load} cuts the tiles into at most {@code workers} ranges balanced by their points (the layout holds the
 * tiles one after another, so a range of tiles is a range of points and of representatives) and makes each part's
 * layout (its points' coordinates, column-major, its tiles numbered from 0) and backend on the part's thread. A part
 * loads its backend at the first {@link #evolve}, with its representatives of that call as the capacity (a tile's
 * count only shrinks). A part without representatives in a call is not run.
 */
public final class TileSplit implements RidgeBackend {

    private final int workers;
    private final IntFunction<RidgeBackend> backends;
    private final IntFunction<String> names;
    private final int startMode;
    private Part[] parts;
    private int d;

    /**
     * A split over at most {@code workers} parts; part k's backend is {@code backends.apply(k)} (made on the part's
     * thread, e.g. in the session of device k) and its phases are shown as {@code names.apply(k) + ": " + phase}.
     */
    public TileSplit(int workers, IntFunction<RidgeBackend> backends, IntFunction<String> names) {
        this(workers, backends, names, START_MODE);
    }

    /** {@link #TileSplit(int, IntFunction, IntFunction)} with the parts' start mode given (0, 1, 2: {@link #START_MODE}). */
    TileSplit(int workers, IntFunction<RidgeBackend> backends, IntFunction<String> names, int startMode) {
        this.startMode = startMode;
        if (workers < 1) {
            throw new IllegalArgumentException("a tile split needs at least one worker, got " + workers);
        }
        this.workers = workers;
        this.backends = backends;
        this.names = names;
    }

    /** One part: tiles [firstTile, endTile) of the layout, points [firstPoint, endPoint). */
    private static final class Part {
        final int firstTile;
        final int endTile;
        final String name;
        final ExecutorService thread;
        EvolutionLayout layout;
        RidgeBackend backend;
        boolean loaded;
        PhaseTimings timings;

        Part(int k, int firstTile, int endTile, String name) {
            this.firstTile = firstTile;
            this.endTile = endTile;
            this.name = name;
            this.thread = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "accelgeom-ridge-part-" + k);
                t.setDaemon(true);
                return t;
            });
        }
    }

    @Override
    public void load(EvolutionLayout layout, int capacity, PhaseTimings timings) {
        d = layout.d();
        int[] firstPoint = tilePoints(layout);
        int[] bounds = cut(firstPoint, workers);
        int k = bounds.length - 1;
        parts = new Part[k];
        for (int j = 0; j < k; j++) {
            parts[j] = new Part(j, bounds[j], bounds[j + 1], names.apply(j));
        }
        inParallel(timings, "start " + k + (k == 1 ? " part" : " parts") + " (tiles split, in parallel)", Kind.HOST,
                j -> {
                    Part p = parts[j];
                    int from = firstPoint[p.firstTile];
                    int to = firstPoint[p.endTile];
                    String what = String.format(java.util.Locale.ROOT, "layout of its tiles (%d-%d, %d points)",
                            p.firstTile, p.endTile - 1, to - from);
                    p.layout = p.timings.time(what, Kind.HOST, () -> slice(layout, p.firstTile, p.endTile, from, to));
                    p.backend = p.timings.time("start backend", Kind.HOST, () -> backends.apply(j));
                    return 0;
                });
    }

    @Override
    public int evolve(double[] reps, int ns, int[] tileStart, PhaseTimings timings) {
        int[] its = inParallel(timings, "evolve, tiles split over " + parts.length + " parts (in parallel)", Kind.KERNEL,
                j -> {
                    Part p = parts[j];
                    int r0 = tileStart[p.firstTile];
                    int r1 = tileStart[p.endTile];
                    int m = r1 - r0;
                    if (m == 0) {
                        return 0; // no representative left in its tiles: nothing moves
                    }
                    if (!p.loaded) {
                        start(p, m);
                    }
                    double[] s = Arrays.copyOfRange(reps, r0 * d, r1 * d);
                    int[] starts = new int[p.endTile - p.firstTile + 1];
                    for (int t = 0; t < starts.length; t++) {
                        starts[t] = tileStart[p.firstTile + t] - r0;
                    }
                    int it = p.backend.evolve(s, m, starts, p.timings);
                    System.arraycopy(s, 0, reps, r0 * d, m * d);
                    return it;
                });
        int max = 0;
        for (int it : its) {
            max = Math.max(max, it);
        }
        return max;
    }

    /**
     * How the parts start ({@link Tuning#RIDGE_SPLIT_START}): 0 at once, 1 (the default) plans one at a time, 2 also the
     * JIT. Building a plan sketches its kernels in TornadoVM (Graal graphs of the task methods, cached per method and
     * shared by later plans: the second part's build takes milliseconds where the first takes 0.3 s); a cold first run
     * on 4 GPUs with the parts built at once ended once in a ConcurrentModificationException outside the executions
     * (not reproduced in 8 later runs; docs/benchmarks.md, session 16).
     */
    private static final int START_MODE = Tuning.RIDGE_SPLIT_START.intValue();

    /** The lock of the parts' starts that run one at a time (across splits: TornadoVM's JIT is one per process). */
    private static final Object STARTING = new Object();

    /**
     * Loads part p's backend for {@code m} representatives; with {@link #START_MODE} 1 one part at a time, with 2 also
     * an evolve call on no representatives (its first execution: TornadoVM compiles the kernels; nothing moves, so
     * it changes no representative and the call that follows starts afresh).
     */
    private void start(Part p, int m) {
        if (startMode == 0) {
            p.backend.load(p.layout, m, p.timings);
        } else {
            synchronized (STARTING) {
                p.backend.load(p.layout, m, p.timings);
                if (startMode == 2) {
                    p.timings.time("first execution, one part at a time (no representatives)", Kind.HOST,
                            () -> p.backend.evolve(new double[0], 0, new int[p.endTile - p.firstTile + 1], p.timings));
                }
            }
        }
        p.loaded = true;
        p.layout = null; // the backend holds what it needs
    }

    @Override
    public void close() {
        if (parts == null) {
            return;
        }
        RuntimeException first = null;
        for (Part p : parts) {
            if (p.backend != null) {
                try {
                    p.thread.submit(() -> p.backend.close()).get(); // on the thread that used it
                } catch (ExecutionException e) {
                    first = first != null ? first : unwrap(e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            p.thread.shutdown();
        }
        parts = null;
        if (first != null) {
            throw first;
        }
    }

    /** The number of parts {@link #load} made (0 before). */
    public int parts() {
        return parts == null ? 0 : parts.length;
    }

    @FunctionalInterface
    private interface PartWork {
        int run(int part) throws Exception;
    }

    /**
     * Runs {@code work} for every part on the part's thread and waits for all; the parts' phases go into
     * {@code timings} as parts of the enclosing phase {@code region} (they ran in parallel: its time is the wall).
     * The first part's failure (in part order) is rethrown after all ended.
     */
    private int[] inParallel(PhaseTimings timings, String region, Kind kind, PartWork work) {
        int k = parts.length;
        int[] out = new int[k];
        @SuppressWarnings("unchecked")
        Future<Integer>[] f = new Future[k];
        try (PhaseTimings.Region r = timings.enclose(region, kind)) {
            for (int j = 0; j < k; j++) {
                final int jj = j;
                parts[j].timings = new PhaseTimings(timings.level());
                f[j] = parts[j].thread.submit(() -> work.run(jj));
            }
            RuntimeException first = null;
            for (int j = 0; j < k; j++) {
                try {
                    out[j] = f[j].get();
                } catch (ExecutionException e) {
                    first = first != null ? first : unwrap(e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    first = first != null ? first : new AccelGeomException("interrupted while the parts evolve");
                }
                timings.addAll(parts[j].timings, parts[j].name + ": ");
            }
            if (first != null) {
                throw first;
            }
        }
        return out;
    }

    private static RuntimeException unwrap(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new AccelGeomException(String.valueOf(t.getMessage()), t);
    }

    /**
     * The first layout point of every tile ({@code numTiles + 1} entries, the last n); the tiles must lie one after
     * another, as {@link TileTree#layout} lays them out.
     */
    static int[] tilePoints(EvolutionLayout layout) {
        int[] pt = layout.pointTile();
        int tiles = layout.numTiles();
        int[] first = new int[tiles + 1];
        for (int i = 0; i < pt.length; i++) {
            if (pt[i] < 0 || pt[i] >= tiles || i > 0 && pt[i] < pt[i - 1]) {
                throw new IllegalArgumentException("the tiles of an evolution layout must lie one after another: point "
                        + i + " is in tile " + pt[i] + (i > 0 ? " after tile " + pt[i - 1] : ""));
            }
            first[pt[i] + 1]++;
        }
        for (int t = 0; t < tiles; t++) {
            first[t + 1] += first[t];
        }
        return first;
    }

    /**
     * Tile bounds of at most {@code workers} contiguous, non-empty ranges of tiles, balanced by their points: bound j
     * is the tile boundary nearest to j/K of the points (K = min(workers, tiles)), each range at least one tile.
     */
    static int[] cut(int[] firstPoint, int workers) {
        int tiles = firstPoint.length - 1;
        int k = Math.max(1, Math.min(workers, tiles));
        long total = firstPoint[tiles];
        int[] b = new int[k + 1];
        b[k] = tiles;
        for (int j = 1; j < k; j++) {
            long target = total * j / k;
            int t = b[j - 1] + 1;
            int last = tiles - (k - j); // leave a tile for each later range
            while (t < last && firstPoint[t] < target) {
                t++;
            }
            if (t - 1 > b[j - 1] && target - firstPoint[t - 1] < firstPoint[t] - target) {
                t--;
            }
            b[j] = t;
        }
        return b;
    }

    /** Tiles [t0, t1) of the layout, points [from, to): their coordinates column-major, their tiles from 0. */
    static EvolutionLayout slice(EvolutionLayout layout, int t0, int t1, int from, int to) {
        int d = layout.d();
        int n = layout.n();
        int m = to - from;
        double[] coords = new double[d * m];
        for (int c = 0; c < d; c++) {
            System.arraycopy(layout.coords(), c * n + from, coords, c * m, m);
        }
        int[] pointTile = new int[m];
        for (int i = 0; i < m; i++) {
            pointTile[i] = layout.pointTile()[from + i] - t0;
        }
        return new EvolutionLayout(d, m, coords, pointTile, t1 - t0);
    }
}
