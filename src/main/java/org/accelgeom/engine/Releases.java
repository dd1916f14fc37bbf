package org.accelgeom.engine;

import java.util.function.Consumer;

/**
 * The release loop of a close: every item released even when one fails, then the first failure rethrown, so that
 * one plan or session that cannot be freed does not leak the others. Serves {@link DeviceSession#close()} and
 * {@link DevicePool#close()}.
 */
final class Releases {

    private Releases() {
    }

    /** {@code release} on every item of {@code items} (nulls skipped); then the first failure, if any, is thrown. */
    static <T> void each(Iterable<T> items, Consumer<T> release) {
        RuntimeException first = null;
        for (T item : items) {
            if (item == null) {
                continue;
            }
            try {
                release.accept(item);
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /**
     * A close's whole release: {@link #each} over {@code items}, then {@code after} (clear the tables, shut a pool)
     * whether or not a release failed; the first failure is thrown after both.
     */
    static <T> void each(Iterable<T> items, Consumer<T> release, Runnable after) {
        try {
            each(items, release);
        } finally {
            after.run();
        }
    }
}
