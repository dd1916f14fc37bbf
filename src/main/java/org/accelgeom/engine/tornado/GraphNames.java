package org.accelgeom.engine.tornado;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Names of task graphs: TornadoVM keeps per-graph state by name for the whole process, so no two plans (of any
 * session) may share a graph name. The one counter of the process lives here, not in the algorithm packages.
 */
public final class GraphNames {

    private static final AtomicLong NEXT = new AtomicLong();

    private GraphNames() {
    }

    /** {@code prefix} followed by a number no other plan of this process has. */
    public static String unique(String prefix) {
        return prefix + NEXT.incrementAndGet();
    }
}
