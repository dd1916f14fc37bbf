package org.accelgeom.ridge;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.PhaseTimings;

/**
 * The reconstructed curve.
 *
 * @param dimension       d
 * @param representatives the final set S, row-major ({@code count × d})
 * @param curves          the edges and polylines of order (Alg. 4); null if order was not run
 * @param stats           what the run did
 * @param timings         time per phase (choose, evolve, decimate, order, tile tree; device upload/kernels)
 * @param backend         where the evolution ran
 * @param precision       its scalar type
 */
public record RidgeResult(int dimension, double[] representatives, Order.Curves curves, Stats stats,
        PhaseTimings timings, Backend backend, Precision precision) {

    /** |S|. */
    public int count() {
        return representatives.length / dimension;
    }

    /** Coordinate c of representative k. */
    public double coordinate(int k, int c) {
        return representatives[k * dimension + c];
    }

    /**
     * @param points            cloud points
     * @param tiles             leaf tiles (1 for brute force)
     * @param evolutionPoints   points the evolution runs over (tiled: core plus margin copies)
     * @param chosen            |S| after choose
     * @param outerIterations   evolve + decimate rounds of Alg. 1
     * @param evolveIterations  closestSphere + shiftSphere iterations, all rounds together
     * @param capped            an evolve call stopped at the iteration cap
     */
    public record Stats(int points, int tiles, int evolutionPoints, int chosen, int outerIterations,
            int evolveIterations, boolean capped) {
    }
}
