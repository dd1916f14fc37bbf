package org.accelgeom.hull;

import java.util.Arrays;

import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.Progress;

/**
 * Host orchestration of the parallel QuickHull (the paper's §2.3 steps 1–8, run in rounds as in its §3.2 flow):
 * the topology lives here, every pass over the points runs on the {@link HullBackend}.
 *
 * <p>Each round inserts, for every pending face (one with a non-empty outside set), its farthest point — unless
 * an earlier insertion of the same round already deleted that face. Inserting a point is steps 4–7 (visible
 * set, horizon, cone); then the backend reassigns the outside sets of the deleted faces to the new faces
 * (step 8) and finds the farthest point of each new face (step 3). This batching is what lets one pass over
 * the points serve many insertions; the hull is the same as one-at-a-time QuickHull's because the convex
 * hull is unique and every decision is exact.
 */
final class QuickHull {

    /** Result of the 3D phase: the topology, its live faces, and the statistics. */
    record Result(HullTopology topology, int[] live, int culled, int rounds, int insertions) {
    }

    /** The surface, empty until the tetrahedron of {@link #run}. */
    private final HullTopology topo;
    private final HullBackend backend;
    private final PhaseTimings timings;
    private final Progress progress;
    private final int maxFacesPerRound;
    /** The rounds' insertions on the backend's host threads; null: one after another (serial). */
    private final ParallelInsertion parallel;

    /**
     * Over {@code topo}, a topology of no faces yet over the exact coordinates and the backend's (see
     * {@link HullTopology#HullTopology(double[], double[], double[], double[], double[], double[], boolean, int)}).
     */
    QuickHull(HullTopology topo, HullBackend backend, PhaseTimings timings, Progress progress, int maxFacesPerRound) {
        this.topo = topo;
        this.backend = backend;
        this.timings = timings;
        this.progress = progress;
        this.maxFacesPerRound = maxFacesPerRound;
        org.accelgeom.engine.ParallelLoops loops = org.accelgeom.engine.Tuning.HULL_PARALLEL_INSERT.booleanValue()
                ? backend.hostLoops() : null;
        this.parallel = loops == null ? null : new ParallelInsertion(topo, loops);
    }

    /**
     * Runs steps 2–8 from the tetrahedron (a, b, c, d), after optionally culling against the inner polytope
     * {@code inner} (planes, {@code nInner} faces; 0 for none).
     */
    Result run(int a, int b, int c, int d, double[] inner, int nInner) {
        int culled = 0;
        if (nInner > 0) {
            culled = backend.cull(inner, nInner);
        }
        backend.kill(new int[] {a, b, c, d});
        RoundDelta delta = new RoundDelta();
        delta.clear(1);
        topo.initTetrahedron(a, b, c, d, delta);
        return rounds(delta, culled, 4);
    }

    /**
     * Runs steps 2–8 from the history {@code h} of the hull of some of the points (named by their indices here): every
     * other point is walked from the root through the history's deletions to the live face it is above, or found
     * inside, and the rounds go on from there (see {@link HullHistory}).
     */
    Result resume(HullHistory h, boolean parallel) {
        RoundDelta delta = new RoundDelta();
        timings.time("the seed hull's faces and planes", Kind.HOST, () -> topo.seed(h, delta, parallel));
        return rounds(delta, 0, 0);
    }

    /** The rounds from the topology changes {@code delta} (the first round's); {@code inserted0}: insertions so far. */
    private Result rounds(RoundDelta delta, int culled, int inserted0) {
        int[] cand = new int[topo.coneCount.length];
        int[] pending = new int[64];
        int pendingCount = 0;
        int rounds = 0;
        int insertions = 0;
        HullBackend.UncertainResolver resolver = (p, f, out) -> topo.resolve(p, f, out);
        progress.begin("quickhull rounds", 0);
        while (true) {
            int[] newCand = backend.round(delta, resolver);
            rounds++;
            if (cand.length < topo.faceCount) {
                cand = Arrays.copyOf(cand, Math.max(topo.faceCount, cand.length * 2));
            }
            // queue the new faces that have an outside set, after the leftovers of earlier rounds
            int[] next = new int[Math.max(64, pendingCount + delta.newCount)];
            int nextCount = 0;
            for (int i = 0; i < pendingCount; i++) {
                if (topo.alive(pending[i])) {
                    next[nextCount++] = pending[i];
                }
            }
            for (int j = 0; j < delta.newCount; j++) {
                int f = delta.newBase + j;
                cand[f] = newCand[j];
                if (newCand[j] >= 0 && topo.alive(f)) {
                    next[nextCount++] = f;
                }
            }
            pending = next;
            pendingCount = nextCount;
            if (pendingCount == 0) {
                break;
            }
            backend.compact();
            // steps 3–7 for each pending face, on the host
            final int[] queue = pending;
            final int queued = pendingCount;
            final int[] candidates = cand;
            int inserted = timings.time("insert (host topology)", Kind.HOST, () -> {
                delta.clear(topo.faceCount);
                if (parallel != null) {
                    return parallel.round(queue, queued, candidates, maxFacesPerRound, delta);
                }
                int done = 0;
                for (int i = 0; i < queued; i++) {
                    int f = queue[i];
                    if (!topo.alive(f)) {
                        continue;
                    }
                    int made = topo.insert(candidates[f], f, maxFacesPerRound - delta.newCount, delta);
                    if (made < 0) {
                        break;
                    }
                    done++;
                }
                return done;
            });
            if (inserted == 0) {
                // one insertion alone exceeds the round budget: allow it anyway
                int f = firstAlive(topo, queue, queued);
                topo.insert(cand[f], f, Integer.MAX_VALUE, delta);
                inserted = 1;
            }
            insertions += inserted;
            progress.update(rounds, insertions + " points inserted"); // the rounds the result reports
        }
        progress.end();
        return new Result(topo, topo.liveFaces(), culled, rounds, insertions + inserted0);
    }

    private static int firstAlive(HullTopology topo, int[] queue, int n) {
        for (int i = 0; i < n; i++) {
            if (topo.alive(queue[i])) {
                return queue[i];
            }
        }
        throw new IllegalStateException("no live pending face");
    }
}
