package org.accelgeom.hull;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.Timings;
import org.accelgeom.engine.Progress;

/**
 * How to compute a hull.
 *
 * @param backend          where the passes over the points run
 * @param cullDirections   directions for the interior-culling polytope (0: no culling)
 * @param threads          threads for {@code jvm-parallel} (0: one per core)
 * @param device           TornadoVM device index for {@code tornado} (-1: TornadoVM's default)
 * @param maxFacesPerRound at most this many new faces per round (bounds the per-round upload to the GPU)
 * @param progress         where progress goes
 * @param resident         tornado: keep the points and the compiled kernels on the device after the hull, so that
 *                         a next hull of the same, unmodified arrays skips the upload and TornadoVM's compilation
 *                         (repeated runs, benchmarks); the arrays must not change in between
 * @param timings          what the result's phase timings record ({@link Execution#timings()})
 */
public record HullOptions(Backend backend, int cullDirections, int threads, int device, int maxFacesPerRound,
        Progress progress, boolean resident, Timings timings) {

    /** The default number of culling directions: extreme points in 6 axis and this many sphere directions. */
    public static final int DEFAULT_CULL_DIRECTIONS = 58;

    public HullOptions {
        if (cullDirections < 0) {
            throw new IllegalArgumentException("cullDirections must be >= 0");
        }
        if (maxFacesPerRound < 64) {
            throw new IllegalArgumentException("maxFacesPerRound must be >= 64");
        }
    }

    /** These options with the default timings ({@link Timings#PHASES}). */
    public HullOptions(Backend backend, int cullDirections, int threads, int device, int maxFacesPerRound,
            Progress progress, boolean resident) {
        this(backend, cullDirections, threads, device, maxFacesPerRound, progress, resident, Timings.PHASES);
    }

    /** Defaults on the given backend. */
    public static HullOptions of(Backend backend) {
        return new HullOptions(backend, DEFAULT_CULL_DIRECTIONS, 0, -1, 1 << 16, Progress.NONE, false, Timings.PHASES);
    }

    public HullOptions withCullDirections(int k) {
        return new HullOptions(backend, k, threads, device, maxFacesPerRound, progress, resident, timings);
    }

    public HullOptions withThreads(int t) {
        return new HullOptions(backend, cullDirections, t, device, maxFacesPerRound, progress, resident, timings);
    }

    public HullOptions withDevice(int d) {
        return new HullOptions(backend, cullDirections, threads, d, maxFacesPerRound, progress, resident, timings);
    }

    public HullOptions withProgress(Progress p) {
        return new HullOptions(backend, cullDirections, threads, device, maxFacesPerRound, p, resident, timings);
    }

    public HullOptions withMaxFacesPerRound(int m) {
        return new HullOptions(backend, cullDirections, threads, device, m, progress, resident, timings);
    }

    public HullOptions withResident(boolean r) {
        return new HullOptions(backend, cullDirections, threads, device, maxFacesPerRound, progress, r, timings);
    }

    /** Where these options run: backend, threads, device, residency, progress and timings. */
    public Execution execution() {
        return new Execution(backend, threads, device, resident, progress, timings);
    }

    /** These options on {@code e} (its backend, threads, device, residency, progress and timings). */
    public HullOptions withExecution(Execution e) {
        return new HullOptions(e.backend(), cullDirections, e.threads(), e.device(), maxFacesPerRound, e.progress(),
                e.resident(), e.timings());
    }
}
