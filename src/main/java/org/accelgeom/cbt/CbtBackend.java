package org.accelgeom.cbt;

import org.accelgeom.engine.Execution;
import org.accelgeom.engine.PhaseTimings;

/**
 * The data-parallel passes of the CBT usage cycle (§2.9, Fig. 10) as one backend runs them, over the heap of one
 * {@link Cbt}. A device backend keeps the heap in device memory between calls; {@link #sync()} brings it back.
 */
public interface CbtBackend extends AutoCloseable {

    /**
     * Makes the {@code tornado} backend on the execution's device (the backend owns its plan until it is closed);
     * implemented in {@code cbt.tornado} and found as a service ({@link org.accelgeom.engine.TornadoSupport#factory}).
     */
    interface Factory {
        default CbtBackend create(Execution execution, int listCapacity, boolean syncable) {
            return create(execution, listCapacity, syncable, 1);
        }

        /** As above, running at most {@code cyclesPerLaunch} usage cycles per execution ({@link #cycles}). */
        CbtBackend create(Execution execution, int listCapacity, boolean syncable, int cyclesPerLaunch);
    }

    /** Takes the tree (a device backend uploads its heap); every later call works on it. */
    void load(Cbt tree, PhaseTimings timings);

    /** Re-initialises the loaded heap at depth d (§2.9 step 1) and reduces it; returns L = 2^d. */
    int init(int d);

    /** The sum reduction, level by level (§2.5); returns L, the new leaf count. */
    int reduce();

    /** One usage cycle (Fig. 10): decode-and-update with the random rule, then the reduction; returns the new L. */
    default int cycle(int seed, int splitBelow, int mergeBelow, int minDepth) {
        update(seed, splitBelow, mergeBelow, minDepth);
        return reduce();
    }

    /**
     * {@code seeds.length} usage cycles, cycle i with the random rule of seed {@code seeds[i]}: the same tree as that
     * many calls of {@link #cycle}, one after another; returns L after the last. The tornado backend runs up to
     * {@link CbtOptions#cyclesPerLaunch} of them per execution and downloads its results (L, the heartbeat) once per
     * call, after the last (the update rule needs nothing from the host between cycles).
     */
    default int cycles(int[] seeds, int splitBelow, int mergeBelow, int minDepth) {
        if (seeds.length == 0) {
            throw new IllegalArgumentException("no cycle to run");
        }
        int L = 0;
        for (int seed : seeds) {
            L = cycle(seed, splitBelow, mergeBelow, minDepth);
        }
        return L;
    }

    /**
     * Device time of the kernels of the last pass in nanoseconds (TornadoVM's profiler), or -1 where the wall time
     * is all there is (the JVM backends, or the profiler off).
     */
    default long lastKernelNanos() {
        return -1;
    }

    /** Runs an empty pass (every kernel launched with one idle work-item): its wall time is the launch overhead. */
    default void idle() {
    }

    /**
     * A timing diagnostic of the benchmark only ({@code accelgeom.cbt.chunkStop}, see docs/tuning.md): from now on the
     * one-launch cycle runs its phases up to {@code phase} only, leaving the heap unchanged below the last phase, so
     * that results are wrong on purpose. Returns false where the backend has no such phases (it then runs as before).
     * Never called by the production path.
     */
    default boolean stopAfterPhase(int phase) {
        return false;
    }

    /**
     * Decodes every leaf l ∈ [0, L) with one work-item per leaf (Fig. 8). With {@code nodes} non-null the heap
     * index of leaf l goes to {@code nodes[l]}; always returns the number of leaves whose traversal did not end on a
     * count of exactly 1 (0 for a consistent heap), so that no pass can be optimised away.
     */
    int decodeAll(int[] nodes);

    /**
     * One decode-and-update pass (§2.6, §2.9 step 3): every leaf decodes itself and applies
     * {@link CbtKernels#randomRule}. Needs an up-to-date reduction; leaves the sums stale.
     */
    void update(int seed, int splitBelow, int mergeBelow, int minDepth);

    /** The paper's sequential bitfield scan on one thread of this backend (§2.4): {leaf count, sum of leaf indices}. */
    long[] scan();

    /** Makes the loaded tree's heap current (a device backend downloads it). */
    void sync();

    /** A name for reports: backend, threads or device. */
    String describe();

    @Override
    void close();
}
