package org.accelgeom.engine;

import java.util.Locale;

/**
 * Where the data-parallel steps of an algorithm run. Every algorithm is written once as element kernels;
 * the backend decides how their loops are executed.
 */
public enum Backend {
    /** A plain loop on one thread: the reference every other backend is checked against. */
    JVM("jvm"),
    /** The same loops split over the cores of the machine (fork/join). */
    JVM_PARALLEL("jvm-parallel"),
    /** TornadoVM TaskGraphs, JIT-compiled to OpenCL or PTX for a GPU (needs the TornadoVM runtime). */
    TORNADO("tornado");

    private final String id;

    Backend(String id) {
        this.id = id;
    }

    /** The name users type: {@code jvm}, {@code jvm-parallel} or {@code tornado}. */
    public String id() {
        return id;
    }

    @Override
    public String toString() {
        return id;
    }

    /** Parses a user-supplied name (case-insensitive; {@code _} and {@code -} are the same). */
    public static Backend parse(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (Backend b : values()) {
            if (b.id.equals(n)) {
                return b;
            }
        }
        throw new AccelGeomException("unknown backend '" + name + "': expected one of jvm, jvm-parallel, tornado");
    }
}
