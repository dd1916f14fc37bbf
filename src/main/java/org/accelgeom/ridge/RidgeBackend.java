package org.accelgeom.ridge;

import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.PhaseTimings;

/**
 * The data-parallel part of the ridge detection, Alg. 2 (evolve), as a backend implements it. The host loop of
 * Alg. 1 ({@link Ridge}) calls {@link #load} once per run and {@link #evolve} once per outer iteration.
 * The {@code tornado} implementation keeps the points on the device between calls.
 */
public interface RidgeBackend extends AutoCloseable {

    /**
     * Makes the {@code tornado} evolution in a session (its plan stays there for a next run over the same points);
     * implemented in {@code ridge.tornado} and found as a service ({@link org.accelgeom.engine.TornadoSupport#factory}).
     */
    interface Factory {
        RidgeBackend create(DeviceSession session, Parameters prm);
    }

    /**
     * Takes the points to evolve over (they may stay on a device until {@link #close()}); {@code capacity} bounds
     * the number of representatives of every later {@link #evolve} call (|S| after choose: it only shrinks).
     */
    void load(EvolutionLayout layout, int capacity, PhaseTimings timings);

    /**
     * Evolves the representatives until none of a tile moves, tile by tile (Alg. 2): each representative moves to
     * the centroid of the points of its tile within R1 whose nearest representative (of the same tile) it is; a
     * representative with no such point stays. {@code reps} is row-major (ns × d), grouped by tile: tile t owns
     * {@code [tileStart[t], tileStart[t + 1])}. Overwritten with the result.
     *
     * @return the number of iterations (closestSphere + shiftSphere pairs) run
     */
    int evolve(double[] reps, int ns, int[] tileStart, PhaseTimings timings);

    @Override
    void close();

    /**
     * A backend that can take its points as some tiles of a larger layout, without a gathered copy of them (a split's
     * part whose points go elsewhere anyway, e.g. to a worker process's file).
     */
    interface OfTiles extends RidgeBackend {
        /**
         * What {@code load(TileSplit.gather(whole, tiles, firstPoint), capacity, timings)} does, read from
         * {@code whole} in place: {@code tiles} increasing, {@code firstPoint} the first layout point of every tile of
         * {@code whole} and its n ({@link TileSplit#tilePoints}).
         */
        void loadTiles(EvolutionLayout whole, int[] tiles, int[] firstPoint, int capacity, PhaseTimings timings);
    }

    /**
     * A layout whose coordinates are filled in as they are needed (a worker process's file, read tile by tile): its
     * d, n, {@code pointTile} and tiles are set, its coordinates only where {@link #fill} has filled them.
     */
    interface Arriving {
        EvolutionLayout layout();

        /**
         * Fills the coordinates (every dimension) of points [from, to); several threads may fill ranges at once, and
         * a range filled again gets the same values.
         */
        void fill(int from, int to);

        /** The cores this load may count on: the host's, over the processes that load at the same time. */
        int cores();

        /** Fills every point, in parallel blocks. */
        default void fillAll() {
            int n = layout().n();
            int block = 1 << 18;
            java.util.stream.IntStream.range(0, (n + block - 1) / block).parallel()
                    .forEach(k -> fill(k * block, Math.min(n, k * block + block)));
        }
    }

    /** A backend that can load an {@link Arriving} layout, filling it as it goes (reading beside its own work). */
    interface Streamed extends RidgeBackend {
        /** What {@code load(source.layout(), capacity, timings)} does once every point is filled. */
        void load(Arriving source, int capacity, PhaseTimings timings);
    }

    /**
     * What the evolution computes with: dimension, R1, scalar type, fixed-point exponent k of the sums
     * ({@link RidgeKernels#fixedPointExponent}), and a safety cap on the iterations of one evolve call.
     */
    record Parameters(int d, double r1, Precision precision, int fixedPointExponent, int maxIterations) {

        public double scale() {
            return Math.scalb(1.0, fixedPointExponent);
        }

        public double inverseScale() {
            return Math.scalb(1.0, -fixedPointExponent);
        }
    }
}
