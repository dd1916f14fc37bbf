package org.accelgeom.hull;

import java.lang.management.ManagementFactory;
import java.util.Locale;

import org.accelgeom.engine.Tuning;

/**
 * The hull's start on tornado, piece by piece ({@code -Daccelgeom.prewarm.trace=true}, a diagnostic): one stderr line
 * when each piece ends, in ms since the JVM's start, with the thread that ran it, so that the pieces that overlap
 * (TornadoVM's start, the plan's host arrays, the read) can be told apart. Prints nothing and changes nothing else.
 */
public final class StartTrace {

    private StartTrace() {
    }

    /** Whether the trace is on. */
    public static boolean on() {
        return Tuning.PREWARM_TRACE.booleanValue();
    }

    /** One line: {@code what} ended now. */
    public static void mark(String what) {
        if (on()) {
            System.err.printf(Locale.ROOT, "[hull start] %8.1f ms  %-22s %s%n",
                    ManagementFactory.getRuntimeMXBean().getUptime() + 0.0, Thread.currentThread().getName(), what);
        }
    }

    /** One line: {@code what} ended now, after {@code nanos} of its own. */
    public static void mark(String what, long nanos) {
        if (on()) {
            mark(String.format(Locale.ROOT, "%s (%.1f ms)", what, nanos / 1e6));
        }
    }
}
