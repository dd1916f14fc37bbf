package org.accelgeom.voronoi;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.Timings;
import org.accelgeom.engine.Progress;

import java.util.Locale;

/**
 * How to compute a diagram.
 *
 * @param backend   where the end-vertex searches run
 * @param precision of the end-vertex search; null: double on the JVM backends, two-phase on tornado
 * @param grid      prune candidates with the uniform grid (a proven search radius); false: every ball is a
 *                  candidate of every edge, as in the paper
 * @param threshold the suspect band of the two-phase search, in pseudo-angle units (about radians / 1.4)
 * @param batch     most edges searched in one call; 0: the whole stack (level by level: one call, one device
 *                  launch, for every frontier edge); 1: one edge at a time, the stack of Alg. 5.1
 * @param threads   worker threads of {@code jvm-parallel} (0: all cores)
 * @param device    TornadoVM device index
 * @param resident  keep the prepared balls and the backend (tornado: the compiled plan and the device buffers) for
 *                  the next diagram with the same options: of the same balls, everything is reused; of other balls
 *                  (a trajectory's next frame), the backend is loaded with them (tornado: as many balls whose grid
 *                  fits reuse the plan, no new JIT compilation); closing the {@link org.accelgeom.engine.DeviceSession} frees it
 * @param lanes     work-items per edge in the end-vertex search: tornado 0 = {@link EndVertexScans#LANES}, 1 = one
 *                  work-item per edge; jvm backends 0 = the serial sweep per edge, L &gt; 0 = the device's lane
 *                  layout run on the CPU (for checking it)
 * @param timings   what the result's phase timings record ({@link Execution#timings()})
 */
public record VoronoiOptions(Backend backend, Precision precision, boolean grid, double threshold, int batch, int threads,
        int device, boolean resident, int lanes, Timings timings) {

    /** Precision of the end-vertex search. */
    public enum Precision {
        /** Float theta for every candidate, the suspects in double, the final choice in double (Alg. 5.2). */
        TWO_PHASE("two-phase"),
        /** Double for every candidate. */
        DOUBLE("double"),
        /**
         * Float only, fragile candidates ignored (for error studies: it chooses wrong end vertices, and on proteins
         * the tracing then runs away and stops with an error).
         */
        FLOAT("float");

        private final String id;

        Precision(String id) {
            this.id = id;
        }

        @Override
        public String toString() {
            return id;
        }

        /** Parses {@code two-phase}, {@code double} or {@code float}. */
        public static Precision parse(String s) {
            String n = s.trim().toLowerCase(Locale.ROOT).replace('_', '-');
            for (Precision p : values()) {
                if (p.id.equals(n)) {
                    return p;
                }
            }
            throw new AccelGeomException("unknown precision '" + s + "': expected two-phase, double or float");
        }

        int mode() {
            return switch (this) {
                case DOUBLE -> VoronoiKernels.MODE_DOUBLE;
                case TWO_PHASE -> VoronoiKernels.MODE_TWO_PHASE;
                case FLOAT -> VoronoiKernels.MODE_FLOAT;
            };
        }
    }

    /** The default suspect band: 1e-3 pseudo-angle units. */
    public static final double DEFAULT_THRESHOLD = 1e-3;

    public VoronoiOptions {
        if (backend == null) {
            throw new IllegalArgumentException("backend is null");
        }
        if (!(threshold > 0 && threshold < 1)) {
            throw new AccelGeomException("the two-phase threshold must be in (0, 1), got " + threshold);
        }
        if (lanes < 0 || lanes > 1024) {
            throw new AccelGeomException("the lanes per edge must be in 0..1024, got " + lanes);
        }
        if (batch < 0) {
            throw new AccelGeomException("the batch size must be >= 0, got " + batch);
        }
    }

    /** These options with the default timings ({@link Timings#PHASES}). */
    public VoronoiOptions(Backend backend, Precision precision, boolean grid, double threshold, int batch, int threads,
            int device, boolean resident, int lanes) {
        this(backend, precision, grid, threshold, batch, threads, device, resident, lanes, Timings.PHASES);
    }

    /** Defaults for a backend: grid on, precision by backend, batch 1 on {@code jvm} and the whole stack otherwise. */
    public static VoronoiOptions of(Backend backend) {
        return new VoronoiOptions(backend, null, true, DEFAULT_THRESHOLD, backend == Backend.JVM ? 1 : 0, 0, -1, false, 0, Timings.PHASES);
    }

    public VoronoiOptions withPrecision(Precision p) {
        return new VoronoiOptions(backend, p, grid, threshold, batch, threads, device, resident, lanes, timings);
    }

    public VoronoiOptions withGrid(boolean g) {
        return new VoronoiOptions(backend, precision, g, threshold, batch, threads, device, resident, lanes, timings);
    }

    public VoronoiOptions withThreshold(double t) {
        return new VoronoiOptions(backend, precision, grid, t, batch, threads, device, resident, lanes, timings);
    }

    public VoronoiOptions withBatch(int b) {
        return new VoronoiOptions(backend, precision, grid, threshold, b, threads, device, resident, lanes, timings);
    }

    public VoronoiOptions withThreads(int t) {
        return new VoronoiOptions(backend, precision, grid, threshold, batch, t, device, resident, lanes, timings);
    }

    public VoronoiOptions withDevice(int d) {
        return new VoronoiOptions(backend, precision, grid, threshold, batch, threads, d, resident, lanes, timings);
    }

    public VoronoiOptions withResident(boolean r) {
        return new VoronoiOptions(backend, precision, grid, threshold, batch, threads, device, r, lanes, timings);
    }

    public VoronoiOptions withLanes(int l) {
        return new VoronoiOptions(backend, precision, grid, threshold, batch, threads, device, resident, l, timings);
    }

    /** The lanes per edge in effect (tornado). */
    public int effectiveLanes() {
        return lanes > 0 ? lanes : EndVertexScans.LANES;
    }

    /** The precision in effect. */
    public Precision effectivePrecision() {
        if (precision != null) {
            return precision;
        }
        return backend == Backend.TORNADO ? Precision.TWO_PHASE : Precision.DOUBLE;
    }

    /** Where these options run: backend, threads, device, residency and timings (a diagram reports no progress). */
    public Execution execution() {
        return new Execution(backend, threads, device, resident, Progress.NONE, timings);
    }

    /** These options on {@code e} (its backend, threads, device, residency and timings). */
    public VoronoiOptions withExecution(Execution e) {
        return new VoronoiOptions(e.backend(), precision, grid, threshold, batch, e.threads(), e.device(), e.resident(),
                lanes, e.timings());
    }
}
