package org.accelgeom.cbt;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.TornadoSupport;

/** Creates the CBT backend for a {@link Backend}. */
public final class CbtBackends {

    private CbtBackends() {
    }

    /**
     * @param threads      jvm-parallel: workers (0: one per core); ignored otherwise
     * @param device       tornado: device index (-1: default)
     * @param listCapacity tornado: most leaves decodeAll can list
     * @param syncable     tornado: keep a device copy of the heap so that sync() can download it
     */
    public static CbtBackend create(Backend backend, int threads, int device, int listCapacity, boolean syncable) {
        return create(CbtOptions.of(backend).withThreads(threads).withDevice(device).withListCapacity(listCapacity)
                .withSyncable(syncable));
    }

    /**
     * The backend of {@code o}: its own pool of threads on jvm-parallel, its own plan on the device on tornado, both
     * released by {@link CbtBackend#close()}.
     */
    public static CbtBackend create(CbtOptions o) {
        if (o.execution().backend() == Backend.TORNADO) {
            return TornadoSupport.factory(CbtBackend.Factory.class).create(o.execution(), o.listCapacity(), o.syncable(),
                    o.cyclesPerLaunch());
        }
        return create(o.execution(), o.listCapacity(), o.syncable());
    }

    /**
     * The backend of {@code e}: its own pool of {@link Execution#threads()} workers on jvm-parallel, its own plan on
     * e's device on tornado, both released by {@link CbtBackend#close()}.
     *
     * @param listCapacity tornado: most leaves decodeAll can list
     * @param syncable     tornado: keep a device copy of the heap so that sync() can download it
     */
    public static CbtBackend create(Execution e, int listCapacity, boolean syncable) {
        Backend backend = e.backend();
        int threads = e.threads();
        switch (backend) {
            case JVM:
                return new JvmCbtBackend(0);
            case JVM_PARALLEL:
                return new JvmCbtBackend(threads > 0 ? threads : Runtime.getRuntime().availableProcessors());
            case TORNADO:
                return TornadoSupport.factory(CbtBackend.Factory.class).create(e, listCapacity, syncable);
            default:
                throw new IllegalArgumentException(backend.toString());
        }
    }
}
