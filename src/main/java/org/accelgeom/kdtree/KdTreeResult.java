package org.accelgeom.kdtree;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.PhaseTimings;

/**
 * A built tree with its statistics and where the time went.
 *
 * @param tree     the tree
 * @param stats    its quality, with the options' K_T and K_I
 * @param timings  time per phase
 * @param backend  where the per-node work ran
 * @param builder  which builder ran: "jvm O(N log^2 N)", "jvm O(N log N)", "jvm-parallel", "tornado"
 */
public record KdTreeResult(KdTree tree, KdTreeStats stats, PhaseTimings timings, Backend backend, String builder) {

    /** The time of the statistics pass (a traversal of the whole tree for its SAH cost), which is not construction. */
    public long statisticsNanos() {
        return timings.phases().stream().filter(p -> p.name().equals("statistics")).mapToLong(p -> p.nanos()).sum();
    }
}
