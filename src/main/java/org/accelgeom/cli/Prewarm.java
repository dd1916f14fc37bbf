package org.accelgeom.cli;

import org.accelgeom.engine.TornadoSupport;

/**
 * A cold start's device start moved off the critical path (issue 14, "a short start"): while the main thread reads
 * the input, a background thread starts TornadoVM (its runtime, the OpenCL platform and devices: 0.6-1.2 s on the
 * H100 machine), so that the backend finds it running. Only the start: compiling the kernels ahead on a small
 * generated input was measured and dropped, since TornadoVM 5.2 compiles every execution plan's kernels again
 * (its code cache is per plan) and the warm-up cost as much wall time as it saved (docs/benchmarks.md, "Cold
 * start"). On by default ({@code -Daccelgeom.prewarm=false} turns it off): it crashed the JVM on an NVIDIA H100 until
 * scripts/accelgeom preloaded libjsig.so (see {@link org.accelgeom.engine.Tuning#PREWARM}). A failure here is
 * dropped: the real run reports its own.
 */
final class Prewarm {

    private final Thread thread;

    private Prewarm() {
        thread = new Thread(() -> {
            try {
                TornadoSupport.devices().deviceCount();
            } catch (RuntimeException | LinkageError e) {
                // the backend meets the same problem and reports it in one line
            }
        }, "accelgeom-prewarm");
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts TornadoVM in the background when {@code wanted} (the tornado backend), else returns null. */
    static Prewarm startIf(boolean wanted) {
        return wanted && org.accelgeom.engine.Tuning.PREWARM.booleanValue() ? new Prewarm() : null;
    }

    /** Waits for the background start (null: nothing to wait for). */
    static void join(Prewarm p) {
        if (p == null) {
            return;
        }
        try {
            p.thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
