package org.accelgeom.engine;

/**
 * A measurement of TornadoVM's launch floor (issue 19): one execution plan of a synthetic task graph shaped like one
 * that an algorithm executes over and over ({@code uploads} small arrays sent every execution, {@code tasks} kernels
 * of {@code work} work-items each, {@code downloads} small arrays read back after it), executed by {@link #execute}.
 * Implemented in {@code engine.tornado}; created with {@link #create} through its {@link Factory} service. Used by the JMH benchmark
 * {@code LaunchBenchmark}.
 */
public interface LaunchProbe extends AutoCloseable {

    /** Makes probes: implemented in {@code engine.tornado} and found as a service, so that nothing here needs TornadoVM. */
    interface Factory {
        LaunchProbe create(int tasks, int work, int uploads, int downloads, boolean profiler);
    }

    /**
     * One execution: the uploads, the kernels, then the downloads (each a blocking read, as the algorithms' flag and
     * count reads are). Returns a value read back, so that nothing can be optimised away.
     */
    int execute();

    @Override
    void close();

    /**
     * A probe on TornadoVM's default device.
     *
     * @param tasks     kernels per execution (at least 1)
     * @param work      work-items per kernel (0: the empty kernel, one work-item that does nothing)
     * @param uploads   int[4] arrays uploaded every execution (as the algorithms' parameter arrays)
     * @param downloads int[4] flag arrays (one per kernel, at most tasks) downloaded after every execution, as the
     *                  algorithms read their flags and counts
     * @param profiler  TornadoVM's profiler on (silent) or off for this plan (TornadoVM 5.2 applies a plan's mode at each of its
     *                  executions, through a process-wide flag)
     */
    static LaunchProbe create(int tasks, int work, int uploads, int downloads, boolean profiler) {
        return TornadoSupport.factory(Factory.class).create(tasks, work, uploads, downloads, profiler);
    }
}
