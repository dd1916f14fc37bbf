package org.accelgeom.cli;

/**
 * A cold start's device work moved off the critical path (issue 14, "a short start"): while the main thread reads
 * the input, a background thread starts TornadoVM (its runtime and the OpenCL device) and runs the command's
 * algorithm once on a small generated input, which compiles every task of its task graphs. TornadoVM compiles again
 * for the real input's execution plan, but then finds the kernels' Graal sketches cached, Graal's own code compiled
 * by the JVM, and (on NVIDIA) the driver's binary in its on-disk cache; docs/benchmarks.md ("Cold start") has the
 * split. Off with {@code -Daccelgeom.prewarm=false}. A failure here is dropped: the real run reports its own.
 */
final class Prewarm {

    private final Thread thread;

    private Prewarm(Runnable work) {
        thread = new Thread(() -> {
            try {
                work.run();
            } catch (RuntimeException | LinkageError e) {
                // the real computation meets the same problem and reports it in one line
            }
        }, "accelgeom-prewarm");
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts {@code work} in the background when asked for, else returns null. */
    static Prewarm startIf(boolean wanted, Runnable work) {
        return wanted && !"false".equals(System.getProperty("accelgeom.prewarm")) ? new Prewarm(work) : null;
    }

    /** Waits for the background work (null: nothing to wait for). */
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
