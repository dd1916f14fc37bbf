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
import org.accelgeom.engine.TornadoSupport;
import org.accelgeom.engine.Tuning;

/**
 * The evolution step (Alg. 2) of the tiled version (§4) split across several devices by tiles: one backend per part,
 * each part a set of the extended tiles, evolved on a thread of its own in parallel with the others.
 *
 * <p>Exact: within an evolve call each tile evolves alone (a point looks only at its own tile's representatives,
 * a tile stops when none of its representatives moves), so a part evolves its tiles as the whole layout would; the
 * sums are integers in fixed point with the whole layout's exponent ({@link Parameters#fixedPointExponent}, given to
 * every part); the iterations of a call are the slowest tile's, so the call's count is the largest part's. The
 * decimation between calls stays on the host over all representatives ({@link Ridge}), the barrier of every outer
 * round.
 *
 * <p>{@link #load} deals the tiles to at most {@code workers} parts ({@link #deal}, {@link Tuning#RIDGE_SPLIT_DEAL}: by
 * default by work, at the first {@link #evolve}, which knows each tile's representatives; or contiguous ranges
 * balanced by points; or interleaved, each tile in turn to the part with the fewest points so far) and makes each part's
 * layout (its tiles' points, in tile order, coordinates column-major, its tiles numbered from 0) and backend on the
 * part's thread; a backend that takes its tiles from the whole layout in place ({@link RidgeBackend.OfTiles}: a worker
 * process's proxy, which writes them to the process's file) gets no gathered copy. Every evolve call gathers each part's representatives (tile by tile) and puts them back after. A part
 * loads its backend at the first {@link #evolve}, with its representatives of that call as the capacity (a tile's
 * count only shrinks). A part without representatives in a call is not run.
 */
public final class TileSplit implements RidgeBackend {

    private final int workers;
    private final IntFunction<RidgeBackend> backends;
    private final IntFunction<String> names;
    private final int startMode;
    private final Deal dealing;
    private Part[] parts;
    /** The layout whose tiles are dealt by work at the first {@link #evolve} (null once dealt or for other deals). */
    private EvolutionLayout toDeal;
    private int d;

    /**
     * A split over at most {@code workers} parts; part k's backend is {@code backends.apply(k)} (made on the part's
     * thread, e.g. in the session of device k) and its phases are shown as {@code names.apply(k) + ": " + phase}.
     */
    public TileSplit(int workers, IntFunction<RidgeBackend> backends, IntFunction<String> names) {
        this(workers, backends, names, START_MODE, DEAL);
    }

    /**
     * {@link #TileSplit(int, IntFunction, IntFunction)} with the parts' start mode given (0, 1, 2: {@link #START_MODE});
     * 0 for parts in processes of their own (nothing to serialise: each has its own TornadoVM).
     */
    public TileSplit(int workers, IntFunction<RidgeBackend> backends, IntFunction<String> names, int startMode) {
        this(workers, backends, names, startMode, DEAL);
    }

    /**
     * {@link #TileSplit(int, IntFunction, IntFunction)} with the parts' start mode (0, 1, 2: {@link #START_MODE}) and
     * the dealing ({@link #deal}) given.
     */
    TileSplit(int workers, IntFunction<RidgeBackend> backends, IntFunction<String> names, int startMode, Deal dealing) {
        this.startMode = startMode;
        this.dealing = dealing;
        if (workers < 1) {
            throw new IllegalArgumentException("a tile split needs at least one worker, got " + workers);
        }
        this.workers = workers;
        this.backends = backends;
        this.names = names;
    }

    /** One part: its tiles of the layout, in increasing order. */
    private static final class Part {
        final int[] tiles;
        final String name;
        final ExecutorService thread;
        EvolutionLayout layout;
        /** For a backend that loads its tiles from the whole layout ({@link RidgeBackend.OfTiles}): that layout. */
        EvolutionLayout whole;
        int[] firstPoint;
        RidgeBackend backend;
        boolean loaded;
        PhaseTimings timings;

        Part(int k, int[] tiles, String name) {
            this.tiles = tiles;
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
        if (dealing == Deal.WORK) {
            toDeal = layout; // dealt at the first evolve, by its representatives per tile
            return;
        }
        int[] firstPoint = tilePoints(layout);
        open(layout, firstPoint, deal(firstPoint, workers, dealing, null), timings);
    }

    /** Makes the parts of the tiles {@code dealt} and gathers their layouts and backends, on the parts' threads. */
    private void open(EvolutionLayout layout, int[] firstPoint, int[][] dealt, PhaseTimings timings) {
        int k = dealt.length;
        parts = new Part[k];
        for (int j = 0; j < k; j++) {
            parts[j] = new Part(j, dealt[j], names.apply(j));
        }
        inParallel(timings, "start " + k + (k == 1 ? " part" : " parts") + " (tiles split, in parallel)", Kind.HOST,
                j -> {
                    Part p = parts[j];
                    long points = 0;
                    for (int t : p.tiles) {
                        points += firstPoint[t + 1] - firstPoint[t];
                    }
                    String what = String.format(java.util.Locale.ROOT, "layout of its %d tiles (%s, %d points)",
                            p.tiles.length, describe(p.tiles), points);
                    p.backend = p.timings.time("start backend", Kind.HOST, () -> backends.apply(j));
                    if (p.backend instanceof RidgeBackend.OfTiles) { // it reads its tiles from the whole layout
                        p.whole = layout;
                        p.firstPoint = firstPoint;
                    } else {
                        p.layout = p.timings.time(what, Kind.HOST, () -> gather(layout, p.tiles, firstPoint));
                    }
                    return 0;
                });
    }

    @Override
    public int evolve(double[] reps, int ns, int[] tileStart, PhaseTimings timings) {
        if (toDeal != null) {
            int[] firstPoint = tilePoints(toDeal);
            open(toDeal, firstPoint, deal(firstPoint, workers, Deal.WORK, tileStart), timings);
            toDeal = null;
        }
        int[] its = inParallel(timings, "evolve, tiles split over " + parts.length + " parts (in parallel)", Kind.KERNEL,
                j -> {
                    Part p = parts[j];
                    int[] starts = new int[p.tiles.length + 1];
                    for (int i = 0; i < p.tiles.length; i++) {
                        int t = p.tiles[i];
                        starts[i + 1] = starts[i] + tileStart[t + 1] - tileStart[t];
                    }
                    int m = starts[p.tiles.length];
                    if (m == 0) {
                        return 0; // no representative left in its tiles: nothing moves
                    }
                    if (!p.loaded) {
                        start(p, m);
                    }
                    double[] s = new double[m * d]; // its tiles' representatives, tile by tile
                    for (int i = 0; i < p.tiles.length; i++) {
                        int t = p.tiles[i];
                        System.arraycopy(reps, tileStart[t] * d, s, starts[i] * d, (starts[i + 1] - starts[i]) * d);
                    }
                    int it = p.backend.evolve(s, m, starts, p.timings);
                    for (int i = 0; i < p.tiles.length; i++) {
                        int t = p.tiles[i];
                        System.arraycopy(s, starts[i] * d, reps, tileStart[t] * d, (starts[i + 1] - starts[i]) * d);
                    }
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

    /** How the tiles are dealt to the parts ({@link Tuning#RIDGE_SPLIT_DEAL}). */
    private static final Deal DEAL = Deal.parse(Tuning.RIDGE_SPLIT_DEAL.stringValue("work"));

    /** How {@link #deal} deals the tiles to the parts. */
    enum Deal {
        /** Contiguous ranges of tiles balanced by points ({@link #cut}). */
        POINTS,
        /** The tiles in order, each to the part with the fewest points so far. */
        INTERLEAVE,
        /** By estimated work, points × representatives, the largest first to the part with the least work so far. */
        WORK;

        /** points, interleave or work (any case); anything else: work, the default. */
        static Deal parse(String s) {
            for (Deal d : values()) {
                if (d.name().equalsIgnoreCase(s.strip())) {
                    return d;
                }
            }
            return WORK;
        }
    }

    /**
     * Loads part p's backend for {@code m} representatives; with {@link #START_MODE} 1 one part at a time, with 2 also
     * an evolve call on no representatives (its first execution: TornadoVM compiles the kernels; nothing moves, so
     * it changes no representative and the call that follows starts afresh).
     */
    private void start(Part p, int m) {
        if (startMode == 0) {
            load(p, m);
        } else {
            synchronized (TornadoSupport.PLAN_BUILDS) { // across splits: TornadoVM's JIT is one per process
                load(p, m);
                if (startMode == 2) {
                    p.timings.time("first execution, one part at a time (no representatives)", Kind.HOST,
                            () -> p.backend.evolve(new double[0], 0, new int[p.tiles.length + 1], p.timings));
                }
            }
        }
        p.loaded = true;
        p.layout = null; // the backend holds what it needs
        p.whole = null;
    }

    /** Part p's backend loaded with its tiles: from the whole layout in place, or from its gathered layout. */
    private static void load(Part p, int m) {
        if (p.whole != null) {
            ((RidgeBackend.OfTiles) p.backend).loadTiles(p.whole, p.tiles, p.firstPoint, m, p.timings);
        } else {
            p.backend.load(p.layout, m, p.timings);
        }
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
        toDeal = null;
        if (first != null) {
            throw first;
        }
    }

    /** The number of parts {@link #load} (or, dealing by work, the first {@link #evolve}) made (0 before). */
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
    public static int[] tilePoints(EvolutionLayout layout) {
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

    /**
     * The tiles of at most {@code workers} non-empty parts, each part's in increasing order. {@link Deal#POINTS}: the
     * contiguous ranges of {@link #cut}. {@link Deal#INTERLEAVE}: the tiles in order, each to the part with the fewest
     * points so far (the lowest index on a tie): parts balanced by points, and neighbouring tiles (which lie side by
     * side in space and converge alike: on 4 H200s the contiguous ranges' parts ran 116 to 1,840 executions of the
     * 10^8 spiral) in different parts; measured slower there (every part then runs as many executions as the slowest
     * tile, and the parts' launches share one process). {@link Deal#WORK}: each tile's estimated work, its points ×
     * its representatives ({@code tileStart}, the first evolve's; a tile's evolve costs its points' nearest-
     * representative searches, and its representatives' count is known only then), the tiles largest first (the lower
     * tile on a tie), each to the part with the least work so far (the lowest index on a tie): the greedy
     * longest-processing-time rule; parts left without a tile are dropped.
     */
    static int[][] deal(int[] firstPoint, int workers, Deal dealing, int[] tileStart) {
        int tiles = firstPoint.length - 1;
        if (dealing == Deal.POINTS) {
            int[] b = cut(firstPoint, workers);
            int[][] out = new int[b.length - 1][];
            for (int j = 0; j < out.length; j++) {
                out[j] = new int[b[j + 1] - b[j]];
                for (int i = 0; i < out[j].length; i++) {
                    out[j][i] = b[j] + i;
                }
            }
            return out;
        }
        int k = Math.max(1, Math.min(workers, tiles));
        long[] work = new long[tiles];
        Integer[] turn = new Integer[tiles];
        for (int t = 0; t < tiles; t++) {
            long points = firstPoint[t + 1] - firstPoint[t];
            work[t] = dealing == Deal.WORK ? points * (tileStart[t + 1] - tileStart[t]) : points;
            turn[t] = t;
        }
        if (dealing == Deal.WORK) {
            Arrays.sort(turn, (a, b) -> Long.compare(work[b], work[a])); // stable: the lower tile first on a tie
        }
        long[] load = new long[k];
        int[] owner = new int[tiles];
        int[] count = new int[k];
        for (int t : turn) {
            int best = 0;
            for (int j = 1; j < k; j++) {
                if (load[j] < load[best]) {
                    best = j;
                }
            }
            owner[t] = best;
            load[best] += work[t];
            count[best]++;
        }
        int[] index = new int[k]; // the non-empty parts, numbered in order
        int parts = 0;
        for (int j = 0; j < k; j++) {
            index[j] = count[j] > 0 ? parts++ : -1;
        }
        int[][] out = new int[parts][];
        for (int j = 0; j < k; j++) {
            if (count[j] > 0) {
                out[index[j]] = new int[count[j]];
            }
            count[j] = 0;
        }
        for (int t = 0; t < tiles; t++) { // each part's tiles in increasing order
            int j = owner[t];
            out[index[j]][count[j]++] = t;
        }
        return out;
    }

    /** The tiles, as ranges ("0-17" or "3, 7, 11, ..."). */
    private static String describe(int[] tiles) {
        if (tiles[tiles.length - 1] - tiles[0] == tiles.length - 1) {
            return tiles[0] + "-" + tiles[tiles.length - 1];
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(3, tiles.length); i++) {
            b.append(i > 0 ? ", " : "").append(tiles[i]);
        }
        return b.append(tiles.length > 3 ? ", ..." : "").toString();
    }

    /**
     * The given tiles of the layout (increasing), one after another: their points' coordinates column-major, their
     * tiles numbered from 0 in that order.
     */
    public static EvolutionLayout gather(EvolutionLayout layout, int[] tiles, int[] firstPoint) {
        int d = layout.d();
        int n = layout.n();
        int m = 0;
        for (int t : tiles) {
            m += firstPoint[t + 1] - firstPoint[t];
        }
        double[] coords = new double[Math.multiplyExact(d, m)];
        int[] pointTile = new int[m];
        int at = 0;
        for (int i = 0; i < tiles.length; i++) {
            int from = firstPoint[tiles[i]];
            int len = firstPoint[tiles[i] + 1] - from;
            for (int c = 0; c < d; c++) {
                System.arraycopy(layout.coords(), c * n + from, coords, c * m + at, len);
            }
            Arrays.fill(pointTile, at, at + len, i);
            at += len;
        }
        return new EvolutionLayout(d, m, coords, pointTile, tiles.length);
    }
}
