package org.accelgeom.engine;

/**
 * Runs every release of a close, even when one fails, and then rethrows the first failure: one plan or session
 * that cannot be freed must not leak the others. Used by {@link DeviceSession#close()} and {@link DevicePool#close()}.
 */
final class Releases {
    private RuntimeException first;

    /** Runs one release; a failure is kept (the first one) and the next release still runs. */
    void run(Runnable release) {
        try {
            release.run();
        } catch (RuntimeException e) {
            first = first == null ? e : first;
        }
    }

    /** Throws the first failure of {@link #run}, if any. */
    void rethrowFirst() {
        if (first != null) {
            throw first;
        }
    }
}
