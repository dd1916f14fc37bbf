package org.accelgeom.engine;

/**
 * What a call records of its own time, in the {@link PhaseTimings} its result carries ({@link Execution#timings()}).
 * Timings never change a result: only what is measured and how the device is asked about it.
 */
public enum Timings {
    /** Nothing: the result's timings have no phases, and no phase reads the clock. */
    OFF,
    /**
     * Wall time per phase on the host; a tornado execution is one "(device, wall)" phase. TornadoVM's profiler stays
     * off (it costs every execution a blocking wait per operation: docs/benchmarks.md, "Launch floor").
     */
    PHASES,
    /**
     * The phases, and each tornado execution split into kernels, uploads, TornadoVM's JIT and launch overhead by
     * TornadoVM's profiler, which is switched on for the plans of this call (TornadoVM reads a plan's profiler mode at
     * each execution). The kernel times come from the OpenCL driver's event timers, a per-process switch that
     * TornadoVM reads once at its start ({@link TornadoSupport#DRIVER_TIMERS_PROPERTY}: on in TornadoVM, off in
     * accelgeom's launcher, which the CLI turns on for {@code --timings}); without them the kernel times are 0.
     * The same as {@link #PHASES} on the JVM backends.
     */
    DEVICE
}
