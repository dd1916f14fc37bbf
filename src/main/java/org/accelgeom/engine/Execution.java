package org.accelgeom.engine;

/**
 * What to run on: a value, copied freely. Every family's options can produce one ({@code options.execution()}) and
 * take one ({@code options.withExecution(e)}); a {@link DeviceSession} is opened on one and keeps it.
 *
 * <p>The timings of a call are not part of the execution: every result carries its own
 * {@link PhaseTimings}, filled by the call that made it.
 *
 * @param backend  where the data-parallel steps run
 * @param threads  threads for the host loops of {@code jvm-parallel} (and the host steps of {@code tornado});
 *                 0: one per core (the common fork/join pool)
 * @param device   TornadoVM device index of the default backend for {@code tornado}; -1: TornadoVM's default
 * @param resident keep the input and the compiled kernels on the device after a call, so that a next call with
 *                 the same, unmodified arrays in the same session skips the upload (the arrays must not change)
 * @param progress where progress of long runs goes
 */
public record Execution(Backend backend, int threads, int device, boolean resident, Progress progress) {

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
    }

    /** The defaults on {@code backend}: every core, the default device, not resident, no progress. */
    public static Execution of(Backend backend) {
        return new Execution(backend, 0, -1, false, Progress.NONE);
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
        return new Execution(b, threads, device, resident, progress);
    }

    public Execution withThreads(int t) {
        return new Execution(backend, t, device, resident, progress);
    }

    public Execution withDevice(int d) {
        return new Execution(backend, threads, d, resident, progress);
    }

    public Execution withResident(boolean r) {
        return new Execution(backend, threads, device, r, progress);
    }

    public Execution withProgress(Progress p) {
        return new Execution(backend, threads, device, resident, p);
    }
}
