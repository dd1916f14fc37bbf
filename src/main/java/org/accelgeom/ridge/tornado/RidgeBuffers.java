package org.accelgeom.ridge.tornado;

import org.accelgeom.ridge.EvolutionLayout;
import org.accelgeom.ridge.Precision;

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
    /**
     * flags slots, double-buffered by the parity q of the iteration: MOVED + q (a representative moved in the
     * iteration), DONE + q (iterations done after it); then the heartbeats.
     */
    public static final int MOVED = 0;
    public static final int DONE = 2;
    public static final int BEAT = 4;
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
    public final int[] pointTile;
    public final int[] tileStart;
    public final int[] repTile;
    public final int[] active;
    /** Per tile: a representative moved, double-buffered by iteration parity (the previous one is the active set). */
    public final int[] changed0;
    public final int[] changed1;
    public final int[] count;
    public final LongArray sums;
    public final int[] params = new int[8];
    /** Iterations per execution (the graph holds this many copies of closest, shift, activate). */
    public final int unroll;
    /** {@link #MOVED}, {@link #DONE} (both buffers), then the heartbeats: the one array downloaded per execution. */
    public final int[] flags;

    public RidgeBuffers(EvolutionLayout layout, Precision precision, int cap, int unroll) {
        if (unroll < 2 || unroll % 2 != 0) {
            throw new IllegalArgumentException("unroll must be even and at least 2, got " + unroll);
        }
        this.precision = precision;
        this.unroll = unroll;
        this.flags = new int[BEAT + RidgeTaskGraphs.BEATS];
        this.n = layout.n();
        this.d = layout.d();
        this.cap = cap;
        this.tiles = layout.numTiles();
        boolean f = precision == Precision.FLOAT;
        this.p = f ? new double[1] : layout.coords();
        this.s = new double[f ? 1 : cap * d];
        this.repsIn = new double[f ? 1 : cap * d];
        this.pf = f ? layout.floatCoords() : new float[1];
        this.sf = new float[f ? cap * d : 1];
        this.repsInF = new float[f ? cap * d : 1];
        this.pointTile = layout.pointTile();
        this.tileStart = new int[tiles + 1];
        this.repTile = new int[cap];
        this.active = new int[tiles];
        this.changed0 = new int[tiles];
        this.changed1 = new int[tiles];
        this.count = new int[cap];
        this.sums = new LongArray(cap * d);
        params[N] = n;
        params[D] = d;
        params[TILES] = tiles;
    }

    /** Work-items of the per-representative and per-tile tasks. */
    public int repItems() {
        return Math.max(cap, tiles);
    }

    /** Device memory in bytes, about. */
    public static long bytes(EvolutionLayout layout, Precision precision, int cap) {
        long scalar = precision == Precision.FLOAT ? 4 : 8;
        return scalar * layout.n() * layout.d() + 4L * layout.n() + (2 * scalar + 8) * cap * layout.d() + 8L * cap;
    }
}
