package org.accelgeom.engine;

/**
 * What to run on: a value, copied freely. Every family's options can produce one ({@code options.execution()}) and
 * take one ({@code options.withExecution(e)}); a {@link DeviceSession} is opened on one and keeps it.
 *
 * <p>Every result carries the {@link PhaseTimings} of the call that made it; {@link #timings()} says what they
 * record: nothing, the host phases, or also the device's split of each tornado execution (TornadoVM's profiler, set
 * per plan at each execution). Timings never change a result.
 *
 * @param backend  where the data-parallel steps run
 * @param threads  threads for the host loops of {@code jvm-parallel} (and the host steps of {@code tornado});
 *                 0: one per core (the common fork/join pool)
 * @param device   TornadoVM device index of the default backend for {@code tornado}; -1: TornadoVM's default
 * @param resident keep the input and the compiled kernels on the device after a call, so that a next call with
 *                 the same, unmodified arrays in the same session skips the upload (the arrays must not change)
 * @param progress where progress of long runs goes
 * @param timings  what the result's {@link PhaseTimings} record ({@link Timings#PHASES} by default)
 */
public record Execution(Backend backend, int threads, int device, boolean resident, Progress progress,
        Timings timings) {

    public Execution {
        if (backend == null) {
            throw new IllegalArgumentException("backend must not be null");
        }
        if (threads < 0) {
            throw new IllegalArgumentException("threads must be >= 0, got " + threads);
        }
        if (device < -1) {
            throw new IllegalArgumentException("device must be >= -1, got " + device);
        }
        progress = progress == null ? Progress.NONE : progress;
        timings = timings == null ? Timings.PHASES : timings;
    }

    /** The execution with the default timings ({@link Timings#PHASES}). */
    public Execution(Backend backend, int threads, int device, boolean resident, Progress progress) {
        this(backend, threads, device, resident, progress, Timings.PHASES);
    }

    /** The defaults on {@code backend}: every core, the default device, not resident, no progress, host phases. */
    public static Execution of(Backend backend) {
        return new Execution(backend, 0, -1, false, Progress.NONE, Timings.PHASES);
    }

    /** The one-thread reference. */
    public static Execution jvm() {
        return of(Backend.JVM);
    }

    /** The host loops over {@code threads} threads (0: one per core). */
    public static Execution parallel(int threads) {
        return of(Backend.JVM_PARALLEL).withThreads(threads);
    }

    /** TornadoVM on device {@code device} of the default backend (-1: TornadoVM's default device). */
    public static Execution tornado(int device) {
        return of(Backend.TORNADO).withDevice(device);
    }

    public Execution withBackend(Backend b) {
        return new Execution(b, threads, device, resident, progress, timings);
    }

    public Execution withThreads(int t) {
        return new Execution(backend, t, device, resident, progress, timings);
    }

    public Execution withDevice(int d) {
        return new Execution(backend, threads, d, resident, progress, timings);
    }

    public Execution withResident(boolean r) {
        return new Execution(backend, threads, device, r, progress, timings);
    }

    public Execution withProgress(Progress p) {
        return new Execution(backend, threads, device, resident, p, timings);
    }

    public Execution withTimings(Timings t) {
        return new Execution(backend, threads, device, resident, progress, t);
    }

    /** Fresh phase timings for one call on this execution (recording what {@link #timings()} says). */
    public PhaseTimings newTimings() {
        return new PhaseTimings(timings);
    }
}
