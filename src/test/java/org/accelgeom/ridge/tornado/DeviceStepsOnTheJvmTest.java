package org.accelgeom.ridge.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.tornado.JvmWorkGroups;
import org.accelgeom.ridge.Curve;
import org.accelgeom.ridge.EvolutionLayout;
import org.accelgeom.ridge.JvmRidgeBackend;
import org.accelgeom.ridge.Precision;
import org.accelgeom.ridge.RidgeBackend;
import org.accelgeom.ridge.RidgeKernels;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import uk.ac.manchester.tornado.api.KernelContext;

/**
 * The device's task methods ({@link RidgeTaskGraphs#load}, {@link ClosestSphere#closest} and its generated float twin
 * {@code ClosestSphereF}, {@link RidgeTaskGraphs#shift}) run on the JVM in the order the graph launches them, over the
 * same {@link RidgeBuffers}, with {@link JvmWorkGroups#atomics()} for their atomic adds, give the jvm backend's
 * representatives and iteration count bit for bit, in both precisions, for one tile and for two, with and without the
 * iteration cap (issue 15 item 3: the device step and the JVM step cannot drift). Tagged tornado because it needs
 * tornado-api on the class path (KernelContext, LongArray); it needs no device.
 */
// own-jvm: JvmWorkGroups subclasses KernelContext (see WorkGroupFormsTest), so .ci/run runs it in a JVM of its own
@Tag("tornado")
@Tag("own-jvm")
class DeviceStepsOnTheJvmTest {

    @ParameterizedTest
    @CsvSource({"spiral2d, 2, double, 1, 10000", "spiral3d, 3, float, 1, 10000", "spiral2d, 2, float, 2, 10000",
        "segment, 4, double, 2, 10000", "spiral3d, 3, double, 1, 5"})
    void theDeviceStepsGiveTheJvmBackendsRepresentatives(String curve, int dim, String precision, int tiles, int cap) {
        double r1 = 8.34;
        double[][] cloud = Curve.parse(curve).sample(2000, dim, 4.17, 23);
        EvolutionLayout brute = EvolutionLayout.bruteForce(cloud);
        int n = brute.n();
        int d = brute.d();
        int[] pointTile = new int[n];
        for (int i = 0; i < n; i++) {
            pointTile[i] = i * tiles / n; // tiles of consecutive points: enough for the steps' per-tile logic
        }
        EvolutionLayout layout = new EvolutionLayout(d, n, brute.coords(), pointTile, tiles);
        int ns = 60;
        double[] reps = new double[ns * d];
        int[] tileStart = new int[tiles + 1];
        for (int k = 0; k < ns; k++) {
            int i = (int) ((long) k * n / ns);
            for (int c = 0; c < d; c++) {
                reps[k * d + c] = layout.coords()[c * n + i];
            }
            tileStart[pointTile[i] + 1] = k + 1;
        }
        Precision pr = Precision.parse(precision);
        var prm = new RidgeBackend.Parameters(d, r1, pr, RidgeKernels.fixedPointExponent(n, r1), cap);

        double[] ref = reps.clone();
        int refIterations;
        try (JvmRidgeBackend jvm = new JvmRidgeBackend(prm, null)) {
            jvm.load(layout, ns, new PhaseTimings());
            refIterations = jvm.evolve(ref, ns, tileStart, new PhaseTimings());
        }
        double[] dev = reps.clone();
        int devIterations = evolveWithTheDeviceSteps(layout, prm, dev, ns, tileStart, RidgeBuffers.chunkFor(n), null,
                true, 1);
        assertTrue(refIterations > 2, "several executions of 2 iterations: " + refIterations);
        assertEquals(refIterations, devIterations);
        assertArrayEquals(ref, dev, 0.0);
        double[] all = reps.clone(); // every execution over all tiles: the embedding protocol without narrow()
        assertEquals(refIterations, evolveWithTheDeviceSteps(layout, prm, all, ns, tileStart, RidgeBuffers.chunkFor(n),
                null, false, 1));
        assertArrayEquals(ref, all, 0.0);
        double[] striped = reps.clone(); // 16 copies of the accumulators: the same integer totals
        assertEquals(refIterations, evolveWithTheDeviceSteps(layout, prm, striped, ns, tileStart,
                RidgeBuffers.chunkFor(n), null, true, 16));
        assertArrayEquals(ref, striped, 0.0);
    }

    /**
     * The closest kernel by runs ({@link ClosestSphere}): chunks of 1, 3, 64 and 1000 points, in the layout's order
     * and in {@link TileOrder}'s, over tiles of 1, 2, 63, 64, 65 and 130 points (not multiples of the chunk, chunks
     * across tile boundaries, tiny tiles, more tiles than chunks), d = 1, 2, 3 and 7, with 1 to 64 copies of the
     * accumulators ({@link RidgeBuffers#stripes}), give the jvm backend's
     * representatives and iterations bit for bit.
     */
    @ParameterizedTest
    @CsvSource({"segment, 1, double, 64, true, 1", "segment, 1, float, 3, false, 4", "spiral2d, 2, double, 1, true, 16",
        "spiral2d, 2, float, 64, true, 1", "spiral3d, 3, double, 64, true, 3", "spiral3d, 3, float, 1000, true, 1",
        "spiral3d, 3, double, 3, false, 64", "segment, 7, double, 64, true, 16", "segment, 7, float, 64, true, 5"})
    void theRunsGiveTheJvmBackendsRepresentatives(String curve, int dim, String precision, int chunk, boolean order,
            int stripes) {
        Setup u = irregularTiles(curve, dim, precision);
        double[] ref = u.reps().clone();
        int refIterations = u.jvm(ref);
        double[] dev = u.reps().clone();
        int devIterations = evolveWithTheDeviceSteps(u.layout(), u.prm(), dev, u.ns(), u.tileStart(), chunk,
                order ? TileOrder.of(u.layout(), u.prm().r1() / 16) : null, true, stripes);
        assertTrue(refIterations > 2, "several executions of 2 iterations: " + refIterations);
        assertEquals(refIterations, devIterations);
        assertArrayEquals(ref, dev, 0.0);
    }

    /**
     * closest's work list ({@link RidgeBuffers#narrow()}): the tiles flagged in changed1, in increasing order, each
     * after the chunks of those before it (a tile of m points has ceil(m / chunk)); every tile after start.
     */
    @ParameterizedTest
    @CsvSource({"1", "3", "64"})
    void theWorkListHoldsTheActiveTilesChunks(int chunk) {
        Setup u = irregularTiles("spiral2d", 2, "double");
        RidgeBuffers b = new RidgeBuffers(u.layout(), Precision.DOUBLE, u.ns(), 2, chunk, null);
        int tiles = b.tiles;
        int[] size = new int[tiles];
        for (int t : u.layout().pointTile()) {
            size[t]++;
        }
        b.start(u.reps(), u.ns(), u.tileStart(), 10);
        for (int pass = 0; pass < 2; pass++) {
            boolean all = pass == 0;
            if (!all) {
                for (int t = 0; t < tiles; t++) {
                    b.changed1[t] = t % 3 == 1 || t == tiles - 1 ? 1 : 0;
                }
                b.narrow();
            }
            int listed = 0;
            int chunks = 0;
            for (int t = 0; t < tiles; t++) {
                if (all || b.changed1[t] == 1) {
                    assertEquals(chunks, b.work[listed], "chunks before tile " + t);
                    assertEquals(t, b.work[tiles + 1 + listed], "listed tile " + listed);
                    assertEquals(b.tileFirst[t + 1] - b.tileFirst[t], size[t], "tile " + t + "'s points");
                    chunks += (size[t] + chunk - 1) / chunk;
                    listed++;
                }
            }
            assertEquals(listed, b.params[RidgeBuffers.WORK]);
            assertEquals(chunks, b.work[listed]);
            assertTrue(chunks <= b.closestItems(), chunks + " chunks, " + b.closestItems() + " work-items");
        }
    }

    /** The copies of the accumulators shrink where they would pass 2^26 longs, never below one. */
    @org.junit.jupiter.api.Test
    void theStripesAreBounded() {
        assertEquals(16, RidgeBuffers.stripesFor(16, 1000, 3));
        assertEquals(1, RidgeBuffers.stripesFor(16, 40_000_000, 3));
        assertEquals(2, RidgeBuffers.stripesFor(16, 10_000_000, 3)); // 2^26 / 3e7 = 2.2
        assertEquals(1, RidgeBuffers.stripesFor(0, 10, 1));
    }

    /** A layout whose tiles do not lie one after another cannot be launched by chunks of tiles: refused. */
    @org.junit.jupiter.api.Test
    void aLayoutWithInterleavedTilesIsRefused() {
        int[] pointTile = {0, 0, 1, 0, 1};
        var layout = new EvolutionLayout(1, 5, new double[5], pointTile, 2);
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new RidgeBuffers(layout, Precision.DOUBLE, 2, 2, 1, null));
    }

    /** An evolve call's input: the layout, the representatives grouped by tile, and the parameters. */
    record Setup(EvolutionLayout layout, double[] reps, int[] tileStart, int ns, RidgeBackend.Parameters prm) {

        /** The jvm backend's evolve call on {@code reps} (a copy of {@link #reps()}): its iterations. */
        int jvm(double[] reps) {
            try (JvmRidgeBackend jvm = new JvmRidgeBackend(prm, null)) {
                jvm.load(layout, ns, new PhaseTimings());
                return jvm.evolve(reps, ns, tileStart, new PhaseTimings());
            }
        }
    }

    /**
     * 1500 samples of the curve in tiles of 1, 2, 63, 64, 65, 1, 130, 2 points and the rest (no multiples of a chunk,
     * tiny tiles), 40 representatives: 2 per tile of 3 or more points, the rest in the last tile.
     */
    static Setup irregularTiles(String curve, int dim, String precision) {
        double r1 = 8.34;
        double[][] cloud = Curve.parse(curve).sample(1500, dim, 4.17, 29);
        EvolutionLayout brute = EvolutionLayout.bruteForce(cloud);
        int n = brute.n();
        int d = brute.d();
        int[] sizes = {1, 2, 63, 64, 65, 1, 130, 2};
        int[] pointTile = new int[n];
        int tiles = 0;
        for (int i = 0, left = 0; i < n; i++, left--) {
            if (left == 0) {
                left = tiles < sizes.length ? sizes[tiles] : n; // the last tile: the rest
                tiles++;
            }
            pointTile[i] = tiles - 1;
        }
        EvolutionLayout layout = new EvolutionLayout(d, n, brute.coords(), pointTile, tiles);
        int ns = 40;
        double[] reps = new double[ns * d];
        int[] tileStart = new int[tiles + 1];
        int[] first = new int[tiles + 1];
        for (int i = n - 1; i >= 0; i--) {
            first[pointTile[i]] = i;
        }
        first[tiles] = n;
        int k = 0;
        for (int t = 0; t < tiles; t++) {
            int m = first[t + 1] - first[t];
            int take = t == tiles - 1 ? ns - k : m >= 3 ? 2 : 0;
            for (int j = 0; j < take; j++, k++) {
                int i = first[t] + (int) ((long) j * m / take);
                for (int c = 0; c < d; c++) {
                    reps[k * d + c] = layout.coords()[c * n + i];
                }
            }
            tileStart[t + 1] = k;
        }
        var prm = new RidgeBackend.Parameters(d, r1, Precision.parse(precision), RidgeKernels.fixedPointExponent(n, r1),
                10000);
        return new Setup(layout, reps, tileStart, ns, prm);
    }

    @ParameterizedTest
    @CsvSource({"1", "1000", "262143", "262144", "1373198", "37991438", "2000000000"})
    void theChunkBySizeLeavesEnoughWorkItems(int n) {
        int chunk = RidgeBuffers.chunkFor(n);
        assertTrue(chunk >= 1 && chunk <= RidgeBuffers.MAX_CHUNK && Integer.bitCount(chunk) == 1, "chunk " + chunk);
        assertTrue(chunk == 1 || n / chunk >= RidgeBuffers.MIN_ITEMS, n + " points, chunk " + chunk);
        assertTrue(chunk == RidgeBuffers.MAX_CHUNK || n / (2L * chunk) < RidgeBuffers.MIN_ITEMS,
                "the largest: " + chunk);
    }

    /**
     * The protocol of RidgeTaskGraphs with the graph's tasks called in its order, two iterations per execution;
     * {@code narrow}: closest's work list cut to the active tiles after each execution, as the backend does;
     * {@code stripes} copies of the accumulators.
     */
    private static int evolveWithTheDeviceSteps(EvolutionLayout layout, RidgeBackend.Parameters prm, double[] reps,
            int ns, int[] tileStart, int chunk, int[] order, boolean narrow, int stripes) {
        RidgeBuffers b = new RidgeBuffers(layout, prm.precision(), ns, 2, chunk, order, stripes);
        assertEquals(stripes, b.stripes);
        b.setParameters(prm);
        b.start(reps, ns, tileStart, prm.maxIterations());
        KernelContext ctx = JvmWorkGroups.atomics();
        int items = b.repItems();
        int[] beat = b.check.beat;
        while (true) {
            RidgeTaskGraphs.load(b.params, b.repsIn, b.s, b.repsInF, b.sf, b.changed1, b.count, b.sums, b.flags, beat,
                    items, b.d);
            for (int j = 0; j < b.unroll; j++) {
                int q = j & 1;
                int[] prev = q == 0 ? b.changed1 : b.changed0;
                int[] cur = q == 0 ? b.changed0 : b.changed1;
                if (prm.precision() == Precision.FLOAT) {
                    ClosestSphereF.closest(ctx, b.params, b.fparamsF, b.pf, b.tileFirst, b.work, b.sf, b.tileStart, prev, cur,
                            b.count, b.sums, b.flags, beat, b.n, b.d, q, RidgeTaskGraphs.slotClosest(j),
                            b.chunk,
                            b.closestItems());
                } else {
                    ClosestSphere.closest(ctx, b.params, b.fparams, b.p, b.tileFirst, b.work, b.s, b.tileStart, prev, cur,
                            b.count, b.sums, b.flags, beat, b.n, b.d, q, RidgeTaskGraphs.slotClosest(j),
                            b.chunk,
                            b.closestItems());
                }
                RidgeTaskGraphs.shift(b.params, b.fparams, b.s, b.sf, b.repTile, prev, cur, b.count, b.sums, b.flags,
                        beat, items, b.d, q, RidgeTaskGraphs.slotShift(j));
            }
            if (!b.live()) {
                break;
            }
            if (narrow) {
                b.narrow();
            }
        }
        b.verify("the JVM");
        b.result(reps, ns);
        return b.iterations();
    }
}
