package org.accelgeom.ridge.tornado;

import java.util.Arrays;

import org.accelgeom.engine.tornado.LaunchCheck;
import org.accelgeom.ridge.EvolutionLayout;
import org.accelgeom.ridge.Precision;
import org.accelgeom.ridge.RidgeBackend;

import uk.ac.manchester.tornado.api.types.arrays.LongArray;

/**
 * The arrays of one ridge-detection TaskGraph: the cloud (resident on the device for the whole run), the
 * representatives (resident; replaced from {@link #repsIn} in {@code MODE_LOAD}) and the per-iteration
 * accumulators. Either the double arrays ({@code p}, {@code s}, {@code repsIn}) or the float ones are used.
 */
public final class RidgeBuffers {

    /** params slots: the mode, |S|, the tiles, the execution's sequence number, n, d. */
    public static final int MODE = 0;
    public static final int NS = 1;
    public static final int TILES = 2;
    public static final int SEQ = 3;
    public static final int N = 4;
    public static final int D = 5;
    /** params[LIMIT]: the iteration cap of the current evolve call. */
    public static final int LIMIT = 6;
    /** params[PRECISION]: {@link #FLOAT} or 0 (double), for the steps that serve both precisions. */
    public static final int PRECISION = 7;
    public static final int FLOAT = 1;
    /** params[WORK]: the tiles in the work list of closest ({@link #narrow()}). */
    public static final int WORK = 8;
    /** params[STRIPES]: the copies of the accumulators ({@link #stripes}); params[CAP]: the capacity. */
    public static final int STRIPES = 9;
    public static final int CAP = 10;
    /**
     * flags slots, double-buffered by the parity q of the iteration: MOVED + q (a representative moved in the
     * iteration), DONE + q (iterations done after it).
     */
    public static final int MOVED = 0;
    public static final int DONE = 2;
    /** fparams slots: R1², 2^k, 2^-k, ε. */
    public static final int R1SQ = 0;
    public static final int SCALE = 1;
    public static final int INV_SCALE = 2;
    public static final int EPS = 3;

    public final Precision precision;
    public final int n;
    public final int d;
    public final int cap;
    public final int tiles;
    public final double[] p;
    public final double[] s;
    public final double[] repsIn;
    public final double[] fparams = new double[4];
    public final float[] pf;
    public final float[] sf;
    public final float[] repsInF;
    public final float[] fparamsF = new float[4];
    /** The tile of every layout point (the host's; the device reads {@link #tileFirst}). */
    public final int[] pointTile;
    /** The first point of every tile, and n: the tiles lie one after another in the layout. */
    public final int[] tileFirst;
    /**
     * The work list of closest, set per execution ({@link #narrow()}): {@code work[j]} for j &lt;= params[WORK] the
     * chunks of the listed tiles before the j-th, {@code work[tiles + 1 + j]} the j-th listed tile.
     */
    public final int[] work;
    public final int[] tileStart;
    public final int[] repTile;
    public final int[] active;
    /** Per tile: a representative moved, double-buffered by iteration parity (the previous one is the active set). */
    public final int[] changed0;
    public final int[] changed1;
    /**
     * SpherePointCount and CordSums, {@link #stripes} copies: copy r of representative k is {@code count[r·cap + k]}
     * and {@code sums[(r·cap + k)·d + c]}. Work-item w of closest adds to copy w mod stripes, shift adds the copies:
     * integer sums, so the same totals, with 1/stripes of the atomic adds on one address.
     */
    public final int[] count;
    public final LongArray sums;
    /** Copies of the accumulators (at least 1). */
    public final int stripes;
    public final int[] params = new int[11];
    /** Iterations per execution (the graph holds this many copies of closest, shift, activate). */
    public final int unroll;
    /** {@link #MOVED}, {@link #DONE} (both buffers): the one array downloaded per execution. */
    public final int[] flags = new int[4];
    /** The heartbeats of every task ({@link RidgeTaskGraphs#launchCheck}). */
    public final LaunchCheck check;
    /** Points per work-item of {@link ClosestSphere#closest} (its runs of atomic adds). */
    public final int chunk;
    /** The device's order of the layout's points ({@link TileOrder}; null: the layout's own order). */
    public final int[] order;

    /** The largest chunk {@link #chunkFor} gives. */
    public static final int MAX_CHUNK = 64;
    /** The fewest work-items of closest that {@link #chunkFor} keeps while it can. */
    public static final int MIN_ITEMS = 1 << 16;

    /**
     * The chunk of closest for a layout of n points: the largest power of two up to {@link #MAX_CHUNK} that leaves at
     * least {@link #MIN_ITEMS} work-items (at least 1). Larger chunks make fewer atomic adds but fewer work-items, each
     * running its chunk serially: measured on an H200 (docs/benchmarks.md, session 16).
     */
    public static int chunkFor(int n) {
        int chunk = 1;
        while (chunk < MAX_CHUNK && n / (2L * chunk) >= MIN_ITEMS) {
            chunk *= 2;
        }
        return chunk;
    }

    /** Over the layout in its own order, {@link #chunkFor} points per work-item of closest. */
    public RidgeBuffers(EvolutionLayout layout, Precision precision, int cap, int unroll) {
        this(layout, precision, cap, unroll, chunkFor(layout.n()), null);
    }

    /**
     * @param chunk points per work-item of closest (at least 1)
     * @param order null, or a permutation of each tile's range ({@link TileOrder#of}): the cloud the device holds is
     *              the layout's points in this order ({@code pointTile} is the same); in double precision the layout's
     *              own coordinates are put in this order in place ({@link TileOrder#permute}), not copied
     */
    public RidgeBuffers(EvolutionLayout layout, Precision precision, int cap, int unroll, int chunk, int[] order) {
        this(layout, precision, cap, unroll, chunk, order, 1);
    }

    /**
     * As {@link #RidgeBuffers(EvolutionLayout, Precision, int, int, int, int[])} with {@code stripes} copies of the
     * accumulators ({@link #count}; fewer if they would be too large).
     */
    public RidgeBuffers(EvolutionLayout layout, Precision precision, int cap, int unroll, int chunk, int[] order,
            int stripes) {
        if (unroll < 2 || unroll % 2 != 0) {
            throw new IllegalArgumentException("unroll must be even and at least 2, got " + unroll);
        }
        if (chunk < 1) {
            throw new IllegalArgumentException("chunk must be at least 1, got " + chunk);
        }
        this.precision = precision;
        this.unroll = unroll;
        this.chunk = chunk;
        this.order = order;
        this.check = RidgeTaskGraphs.launchCheck(unroll);
        this.n = layout.n();
        this.d = layout.d();
        this.cap = cap;
        this.tiles = layout.numTiles();
        boolean f = precision == Precision.FLOAT;
        this.p = f ? new double[1] : order == null ? layout.coords() : TileOrder.permute(layout, order);
        this.s = new double[f ? 1 : cap * d];
        this.repsIn = new double[f ? 1 : cap * d];
        this.pf = !f ? new float[1] : order == null ? layout.floatCoords() : TileOrder.floatCoords(layout, order);
        this.sf = new float[f ? cap * d : 1];
        this.repsInF = new float[f ? cap * d : 1];
        this.pointTile = layout.pointTile();
        this.tileFirst = tileFirst(pointTile, tiles);
        this.work = new int[2 * tiles + 1];
        this.tileStart = new int[tiles + 1];
        this.repTile = new int[cap];
        this.active = new int[tiles];
        this.changed0 = new int[tiles];
        this.changed1 = new int[tiles];
        this.stripes = stripesFor(stripes, cap, d);
        this.count = new int[this.stripes * cap];
        this.sums = new LongArray(this.stripes * cap * d);
        params[N] = n;
        params[D] = d;
        params[TILES] = tiles;
        params[PRECISION] = f ? FLOAT : 0;
        params[STRIPES] = this.stripes;
        params[CAP] = cap;
    }

    /** The most long accumulators the stripes may take (2^26: 512 MB). */
    private static final long MAX_SUMS = 1L << 26;

    /** {@code wanted} copies of the accumulators, fewer where cap·d·copies would pass {@link #MAX_SUMS}; at least 1. */
    static int stripesFor(int wanted, int cap, int d) {
        long one = Math.max(1L, (long) cap * d);
        return (int) Math.max(1, Math.min(wanted, MAX_SUMS / one));
    }

    /** The cloud the graph reads: {@code p} (the layout's own array, no copy) or its float copy {@code pf}. */
    public Object cloud() {
        return precision == Precision.FLOAT ? pf : p;
    }

    /** The resident representatives the graph evolves: {@code s} or {@code sf}. */
    public Object representatives() {
        return precision == Precision.FLOAT ? sf : s;
    }

    /** R1², the fixed-point scales and ε of {@code prm}, before the first execution (they travel once). */
    public void setParameters(RidgeBackend.Parameters prm) {
        fparams[R1SQ] = prm.r1() * prm.r1();
        fparams[SCALE] = prm.scale();
        fparams[INV_SCALE] = prm.inverseScale();
        fparams[EPS] = prm.precision().epsilon;
        for (int k = 0; k < 4; k++) {
            fparamsF[k] = (float) fparams[k];
        }
    }

    /**
     * Step 1 of an evolve call: {@code ns} representatives (row-major, grouped by tile: tile t owns
     * {@code [tileStart[t], tileStart[t + 1])}) to load, at most {@code limit} iterations; the next execution runs
     * MODE_LOAD (and, as every execution, a new sequence number for the heartbeats).
     */
    public void start(double[] reps, int ns, int[] tileStart, int limit) {
        if (ns > cap) {
            throw new IllegalArgumentException(ns + " representatives, capacity " + cap);
        }
        boolean f = precision == Precision.FLOAT;
        for (int k = 0; k < ns * d; k++) {
            if (f) {
                repsInF[k] = (float) reps[k];
            } else {
                repsIn[k] = reps[k];
            }
        }
        System.arraycopy(tileStart, 0, this.tileStart, 0, tileStart.length);
        for (int t = 0; t + 1 < tileStart.length; t++) {
            Arrays.fill(repTile, tileStart[t], tileStart[t + 1], t);
        }
        params[NS] = ns;
        params[LIMIT] = limit;
        list(null);
        params[MODE] = RidgeTaskGraphs.MODE_LOAD;
        params[SEQ]++;
    }

    /**
     * Step 2, after an execution and the download of {@link #flags}: whether the evolution goes on (its last
     * iteration moved a representative and the cap is not reached); the next execution then runs MODE_ITERATE.
     */
    public boolean live() {
        boolean live = flags[MOVED + 1] == 1 && flags[DONE + 1] < params[LIMIT];
        if (live) {
            params[MODE] = RidgeTaskGraphs.MODE_ITERATE;
            params[SEQ]++;
        }
        return live;
    }

    /**
     * Step 2b (optional: without it every execution launches over all tiles, with the same result), after
     * {@link #live()} and the download of {@link #changed1}: the next execution's closest works only on the tiles whose
     * representatives moved in the last iteration (parity 1), the only ones active in its first iteration. Tiles
     * that stop later in the execution are skipped by their flag.
     */
    public void narrow() {
        list(changed1);
    }

    /** The work list of the tiles with {@code active[t] == 1}, or of every tile ({@code active == null}). */
    private void list(int[] active) {
        int listed = 0;
        int chunks = 0;
        for (int t = 0; t < tiles; t++) {
            if (active == null || active[t] == 1) {
                work[listed] = chunks;
                work[tiles + 1 + listed] = t;
                chunks += (tileFirst[t + 1] - tileFirst[t] + chunk - 1) / chunk;
                listed++;
            }
        }
        work[listed] = chunks;
        params[WORK] = listed;
    }

    /**
     * The first point of each tile and n (one pass): the tiles must lie one after another in increasing order, as
     * every {@link EvolutionLayout} of the tiled version and brute force has them; any other layout is refused.
     */
    static int[] tileFirst(int[] pointTile, int tiles) {
        int n = pointTile.length;
        int[] first = new int[tiles + 1];
        int t = 0;
        for (int i = 0; i < n; i++) {
            int pt = pointTile[i];
            if (pt != t) {
                if (pt < t || pt >= tiles) {
                    throw new IllegalArgumentException("the tiles of an evolution layout must lie one after another "
                            + "in increasing order: point " + i + " is in tile " + pt + " after tile " + t);
                }
                while (t < pt) {
                    first[++t] = i;
                }
            }
        }
        while (t < tiles) {
            first[++t] = n;
        }
        return first;
    }

    /** The iterations the evolve call ran (the last iteration of an execution has parity 1). */
    public int iterations() {
        return flags[DONE + 1];
    }

    /** Step 3, after the download of the heartbeats: throws, naming the task, unless every task of the graph ran. */
    public void verify(String device) {
        check.verifyRange(params[SEQ], device, "evolve", 0, check.size());
    }

    /** Step 3, after the download of {@link #representatives()}: the first {@code ns * d} coordinates into reps. */
    public void result(double[] reps, int ns) {
        for (int k = 0; k < ns * d; k++) {
            reps[k] = precision == Precision.FLOAT ? sf[k] : s[k];
        }
    }

    /**
     * Work-items of closest: the chunks of all tiles (each tile's last chunk may be short: n / chunk + tiles at most),
     * and one per {@link #chunk} tiles (to clear their flags).
     */
    public int closestItems() {
        return Math.max((n + chunk - 1) / chunk + tiles, (tiles + chunk - 1) / chunk);
    }

    /** Work-items of the per-representative and per-tile tasks. */
    public int repItems() {
        return Math.max(cap, tiles);
    }

    /** Device memory in bytes, about. */
    public static long bytes(EvolutionLayout layout, Precision precision, int cap) {
        long scalar = precision == Precision.FLOAT ? 4 : 8;
        return scalar * layout.n() * layout.d() + 12L * layout.numTiles() + (2 * scalar) * cap * layout.d()
                + 8L * Math.min(MAX_SUMS, 64L * cap * layout.d()) + 4L * 64 * cap; // accumulators: at most 64 stripes
    }
}
