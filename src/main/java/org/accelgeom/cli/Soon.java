package org.accelgeom.cli;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

import org.accelgeom.engine.AccelGeomException;

/**
 * A piece of work started now on a daemon thread of its own and joined later ({@link #join}), its failure rethrown
 * as thrown: the batch's dealing order ({@link Dealing#orderSoon}) and the device check ({@link MultiDevice}) run
 * beside the workers' start this way.
 */
final class Soon<T> {

    private final FutureTask<T> task;

    private Soon(FutureTask<T> task) {
        this.task = task;
    }

    /** Starts {@code work} on a daemon thread named {@code name}. */
    static <T> Soon<T> start(String name, Callable<T> work) {
        Soon<T> s = new Soon<>(new FutureTask<>(work));
        Thread t = new Thread(s.task, name);
        t.setDaemon(true);
        t.start();
        return s;
    }

    /**
     * Waits for the work and returns its result; a {@link RuntimeException} or {@link Error} it threw is thrown
     * here as it was, a checked one wrapped in an {@link AccelGeomException}; {@code what} names the wait in the
     * message of an interrupt.
     */
    T join(String what) {
        try {
            return task.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error r) {
                throw r;
            }
            throw new AccelGeomException(String.valueOf(e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AccelGeomException("interrupted while " + what);
        }
    }
}
