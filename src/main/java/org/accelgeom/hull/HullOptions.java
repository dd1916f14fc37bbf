package org.accelgeom.hull;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.Execution;
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
 */
public record HullOptions(Backend backend, int cullDirections, int threads, int device, int maxFacesPerRound,
        Progress progress, boolean resident) {

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

    /** Defaults on the given backend. */
    public static HullOptions of(Backend backend) {
        return new HullOptions(backend, DEFAULT_CULL_DIRECTIONS, 0, -1, 1 << 16, Progress.NONE, false);
    }

    public HullOptions withCullDirections(int k) {
        return new HullOptions(backend, k, threads, device, maxFacesPerRound, progress, resident);
    }

    public HullOptions withThreads(int t) {
        return new HullOptions(backend, cullDirections, t, device, maxFacesPerRound, progress, resident);
    }

    public HullOptions withDevice(int d) {
        return new HullOptions(backend, cullDirections, threads, d, maxFacesPerRound, progress, resident);
    }

    public HullOptions withProgress(Progress p) {
        return new HullOptions(backend, cullDirections, threads, device, maxFacesPerRound, p, resident);
    }

    public HullOptions withMaxFacesPerRound(int m) {
        return new HullOptions(backend, cullDirections, threads, device, m, progress, resident);
    }

    public HullOptions withResident(boolean r) {
        return new HullOptions(backend, cullDirections, threads, device, maxFacesPerRound, progress, r);
    }

    /** Where these options run: backend, threads, device, residency and progress. */
    public Execution execution() {
        return new Execution(backend, threads, device, resident, progress);
    }

    /** These options on {@code e} (its backend, threads, device, residency and progress). */
    public HullOptions withExecution(Execution e) {
        return new HullOptions(e.backend(), cullDirections, e.threads(), e.device(), maxFacesPerRound, e.progress(),
                e.resident());
    }
}
