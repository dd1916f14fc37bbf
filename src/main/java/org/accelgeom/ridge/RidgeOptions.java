package org.accelgeom.ridge;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.Timings;
import org.accelgeom.engine.Progress;

/**
 * How to run the ridge detection.
 *
 * @param backend         where the evolution step runs
 * @param r1              R1: the choose radius, the evolution ball, the tiles' margin (&gt; 0)
 * @param r2              R2: the decimation radius (the second one is 2·R2) and the order radius; NaN: 2·R1, the
 *                        thesis's and Rupniewski's default
 * @param precision       scalar type of the evolution
 * @param tiled           the tiled version of §4 (extended tiles, hybrid detection) instead of brute force
 * @param initTileCnt     tiled: initial tiles per dimension (null: 3 in every dimension, as Fig. 4.11)
 * @param maxTileCapacity tiled: a tile with more points is halved (Fig. 4.11: 200 000)
 * @param threads         jvm-parallel: threads (0: one per core)
 * @param device          tornado: device index (-1: TornadoVM's default)
 * @param order           run order (Alg. 4) to produce polylines (the thesis's timings exclude it)
 * @param maxIterations   safety cap on the iterations of one evolve call (the thesis has none)
 * @param progress        where progress goes
 * @param timings         what the result's phase timings record ({@link Execution#timings()})
 */
public record RidgeOptions(Backend backend, double r1, double r2, Precision precision, boolean tiled, int[] initTileCnt,
        int maxTileCapacity, int threads, int device, boolean order, int maxIterations, Progress progress, Timings timings) {

    /** These options with the default timings ({@link Timings#PHASES}). */
    public RidgeOptions(Backend backend, double r1, double r2, Precision precision, boolean tiled, int[] initTileCnt,
            int maxTileCapacity, int threads, int device, boolean order, int maxIterations, Progress progress) {
        this(backend, r1, r2, precision, tiled, initTileCnt, maxTileCapacity, threads, device, order, maxIterations, progress, Timings.PHASES);
    }

    /** Defaults: brute force, double, R2 = 2·R1, order on, at most 10 000 iterations per evolve call. */
    public static RidgeOptions of(Backend backend, double r1) {
        return new RidgeOptions(backend, r1, Double.NaN, Precision.DOUBLE, false, null, 200_000, 0, -1, true, 10_000,
                Progress.NONE, Timings.PHASES);
    }

    /** R2 as given, or 2·R1. */
    public double effectiveR2() {
        return Double.isNaN(r2) ? 2 * r1 : r2;
    }

    public RidgeOptions withR2(double v) {
        return new RidgeOptions(backend, r1, v, precision, tiled, initTileCnt, maxTileCapacity, threads, device, order,
                maxIterations, progress, timings);
    }

    public RidgeOptions withPrecision(Precision v) {
        return new RidgeOptions(backend, r1, r2, v, tiled, initTileCnt, maxTileCapacity, threads, device, order,
                maxIterations, progress, timings);
    }

    /** The tiled version with these tile parameters ({@code initTileCnt} null: 3 per dimension). */
    public RidgeOptions withTiles(int[] cnt, int capacity) {
        return new RidgeOptions(backend, r1, r2, precision, true, cnt, capacity, threads, device, order, maxIterations,
                progress, timings);
    }

    public RidgeOptions withBackend(Backend v) {
        return new RidgeOptions(v, r1, r2, precision, tiled, initTileCnt, maxTileCapacity, threads, device, order,
                maxIterations, progress, timings);
    }

    public RidgeOptions withThreads(int v) {
        return new RidgeOptions(backend, r1, r2, precision, tiled, initTileCnt, maxTileCapacity, v, device, order,
                maxIterations, progress, timings);
    }

    public RidgeOptions withDevice(int v) {
        return new RidgeOptions(backend, r1, r2, precision, tiled, initTileCnt, maxTileCapacity, threads, v, order,
                maxIterations, progress, timings);
    }

    public RidgeOptions withOrder(boolean v) {
        return new RidgeOptions(backend, r1, r2, precision, tiled, initTileCnt, maxTileCapacity, threads, device, v,
                maxIterations, progress, timings);
    }

    public RidgeOptions withMaxIterations(int v) {
        return new RidgeOptions(backend, r1, r2, precision, tiled, initTileCnt, maxTileCapacity, threads, device, order,
                v, progress, timings);
    }

    public RidgeOptions withProgress(Progress v) {
        return new RidgeOptions(backend, r1, r2, precision, tiled, initTileCnt, maxTileCapacity, threads, device, order,
                maxIterations, v, timings);
    }

    /** Where these options run: backend, threads, device, progress and timings (ridge keeps its plan by content). */
    public Execution execution() {
        return new Execution(backend, threads, device, false, progress, timings);
    }

    /** These options on {@code e} (its backend, threads, device, progress and timings). */
    public RidgeOptions withExecution(Execution e) {
        return new RidgeOptions(e.backend(), r1, r2, precision, tiled, initTileCnt, maxTileCapacity, e.threads(),
                e.device(), order, maxIterations, e.progress(), e.timings());
    }
}
