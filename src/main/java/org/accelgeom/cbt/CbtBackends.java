package org.accelgeom.cbt;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.TornadoSupport;

/** Creates the CBT backend for a {@link Backend}. */
public final class CbtBackends {

    static final String TORNADO_CLASS = "org.accelgeom.cbt.tornado.TornadoCbtBackend";

    private CbtBackends() {
    }

    /**
     * @param threads      jvm-parallel: workers (0: one per core); ignored otherwise
     * @param device       tornado: device index (-1: default)
     * @param listCapacity tornado: most leaves decodeAll can list
     * @param syncable     tornado: keep a device copy of the heap so that sync() can download it
     */
    public static CbtBackend create(Backend backend, int threads, int device, int listCapacity, boolean syncable) {
        switch (backend) {
            case JVM:
                return new JvmCbtBackend(0);
            case JVM_PARALLEL:
                return new JvmCbtBackend(threads > 0 ? threads : Runtime.getRuntime().availableProcessors());
            case TORNADO:
                return TornadoSupport.instantiate(TORNADO_CLASS, CbtBackend.class, device, listCapacity, syncable);
            default:
                throw new IllegalArgumentException(backend.toString());
        }
    }
}
