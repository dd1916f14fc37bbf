package org.accelgeom.cbt;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.Execution;

/**
 * How to run the data-parallel passes of a {@link Cbt} ({@link CbtBackends#create(CbtOptions)}).
 *
 * @param execution    backend, threads (jvm-parallel: 0 is one per core) and device (tornado: -1 is TornadoVM's default)
 * @param listCapacity tornado: the most leaves {@link CbtBackend#decodeAll(int[])} can list (0: decode-all only counts)
 * @param syncable     tornado: keep a device copy of the heap so that {@link CbtBackend#sync()} can download it
 * @param cyclesPerLaunch tornado: the usage cycles one execution of the one-launch cycle runs at most
 *                     ({@link CbtBackend#cycles}; 1 by default: single cycles and reductions then launch one kernel,
 *                     K &gt; 1 launches K kernels per execution, the unused ones idle)
 */
public record CbtOptions(Execution execution, int listCapacity, boolean syncable, int cyclesPerLaunch) {

    public CbtOptions {
        if (execution == null) {
            throw new IllegalArgumentException("no execution");
        }
        if (listCapacity < 0) {
            throw new IllegalArgumentException("list capacity " + listCapacity + " is negative");
        }
        if (cyclesPerLaunch < 1) {
            throw new IllegalArgumentException("cycles per launch " + cyclesPerLaunch + " < 1");
        }
    }

    /** Defaults: no leaf list, no heap copy; one worker per core on jvm-parallel, the default device on tornado. */
    public static CbtOptions of(Backend backend) {
        return new CbtOptions(Execution.of(backend), 0, false, 1);
    }

    public CbtOptions withExecution(Execution v) {
        return new CbtOptions(v, listCapacity, syncable, cyclesPerLaunch);
    }

    public CbtOptions withThreads(int v) {
        return new CbtOptions(execution.withThreads(v), listCapacity, syncable, cyclesPerLaunch);
    }

    public CbtOptions withDevice(int v) {
        return new CbtOptions(execution.withDevice(v), listCapacity, syncable, cyclesPerLaunch);
    }

    public CbtOptions withListCapacity(int v) {
        return new CbtOptions(execution, v, syncable, cyclesPerLaunch);
    }

    public CbtOptions withSyncable(boolean v) {
        return new CbtOptions(execution, listCapacity, v, cyclesPerLaunch);
    }

    public CbtOptions withCyclesPerLaunch(int v) {
        return new CbtOptions(execution, listCapacity, syncable, v);
    }
}
