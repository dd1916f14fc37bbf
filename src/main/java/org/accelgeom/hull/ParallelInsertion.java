package org.accelgeom.hull;

import java.util.Arrays;

import org.accelgeom.engine.ParallelLoops;

/**
 * One QuickHull round's insertions on several threads, by deterministic reservations: the same hull as the serial
 * insertions ({@link HullTopology#insert} one after another), and the same topology, face ids included, whatever the
 * number of threads.
 *
 * <p>The round's pending faces form a queue; candidate i is the farthest point of the i-th. Sub-steps repeat until
 * every candidate is inserted or its start face is deleted, or the round's face budget is reached:
 * <ol>
 * <li>each remaining candidate i searches its visible region R_i and horizon on the topology as it is (read only,
 * in parallel); its ring H_i is the faces across its horizon;</li>
 * <li>reservations, one pass in queue order: i wins if no face of R_i is in an earlier winner's region or ring, and
 * no face of H_i is in an earlier winner's region. Two winners' regions are then disjoint, and neither region holds a
 * face of the other's ring, so each keeps its region and horizon whatever the other does (p's region after the
 * other's insertion could reach the other's cone only through a face of the other's ring that p sees). The first
 * candidate always wins;</li>
 * <li>the winners, in queue order, take the new face ids by a prefix sum of their horizons' lengths, up to the first
 * that would pass the round's budget (which ends the round, as in the serial loop); their cones are built in
 * parallel and appended to the round's {@link RoundDelta} in queue order.</li>
 * </ol>
 * A sub-step takes at most {@link #WINDOW} candidates from the front of the queue. Losers whose start face is alive
 * search again in the next sub-step. Before the searches, a candidate whose start face borders the start face of an
 * earlier one of the sub-step waits for the next sub-step unsearched (it would lose, or its face be deleted, if that
 * one won): a third fewer searches. A sub-step of few candidates runs on the calling thread, through the same code (so
 * the same result).
 *
 * <p>Off by default ({@code accelgeom.hull.parallelInsert}): on a 16-core host it was slower than the serial loop
 * (docs/benchmarks.md, session 15): every candidate is searched about twice, and a round's 5 sub-steps of small
 * parallel loops cost more in hand-offs between threads than their work.
 */
final class ParallelInsertion {

    /** Candidates per task of a parallel loop: a search is one or two microseconds. */
    private static final int GRAIN = 64;
    /**
     * Candidates a sub-step takes from the front of the queue: their regions are still in cache when their cones are
     * built (the whole queue at once made the cones cost as much as serial insertions: 10^7 points, one thread), and the
     * candidates behind them whose faces the winners delete are never searched.
     */
    private static final int WINDOW = 256;

    private final HullTopology topo;
    private final ParallelLoops loops;
    /** Each thread's search and cone arrays (the marks are as long as the face tables). */
    private final ThreadLocal<HullTopology.Scratch> scratch = ThreadLocal.withInitial(HullTopology.Scratch::new);

    /** The round's remaining candidates, by slot (queue order): start face, apex. */
    private int[] face = new int[0];
    private int[] apex = new int[0];
    /** The sub-step's candidates, slots ascending ({@link #select}); the arrays below are indexed as this one. */
    private int[] sel = new int[0];
    /** Per face: {@link #stamp} where the start face of a candidate of this sub-step. */
    private int[] taken = new int[0];
    /** Each candidate's visible region and horizon half-edges (the search's output, for the reservations and the cone). */
    private int[][] region = new int[0][];
    private int[] regionCount = new int[0];
    private int[][] horizon = new int[0][];
    private int[] horizonCount = new int[0];
    private boolean[] wins = new boolean[0];
    /** Per face: {@link #stamp} where this sub-step's winners' regions or rings hold it; where their regions do. */
    private int[] claimed = new int[0];
    private int[] inRegion = new int[0];
    private int stamp;

    /** Over {@code topo}, on {@code loops}' threads. */
    ParallelInsertion(HullTopology topo, ParallelLoops loops) {
        this.topo = topo;
        this.loops = loops;
    }

    /**
     * Inserts the farthest points {@code cand[f]} of the pending faces {@code queue[0 .. queued-1]} (those still alive),
     * at most {@code maxFaces} new faces in all (counting those already in {@code delta}), appending the changes to
     * {@code delta}. Returns the number of points inserted; 0 when the first alive candidate alone passes the budget.
     */
    int round(int[] queue, int queued, int[] cand, int maxFaces, RoundDelta delta) {
        ensureSlots(queued);
        int m = 0;
        for (int i = 0; i < queued; i++) {
            int f = queue[i];
            if (topo.alive(f)) {
                face[m] = f;
                apex[m] = cand[f];
                m++;
            }
        }
        int done = 0;
        while (m > 0) {
            int n = select(Math.min(m, WINDOW));
            search(n);
            reserve(n);
            int won = insertWinners(n, maxFaces, delta);
            if (won < 0) {
                return done - won - 1;
            }
            done += won;
            m = keepLosers(m, n);
        }
        return done;
    }

    /**
     * The sub-step's candidates, {@code sel[0 .. n-1]} (slots, in queue order): those whose start face has no edge in
     * common with the start face of an earlier one taken. A candidate whose start face borders an earlier winner's
     * start face would lose or find its face deleted (the winner sees that face or has it in its ring), so it waits for
     * the next sub-step without a search; the first candidate is always taken. Returns n.
     */
    private int select(int m) {
        int faces = topo.faceCount;
        if (taken.length < faces) {
            taken = Arrays.copyOf(taken, Math.max(faces, 2 * taken.length));
        }
        stamp++;
        int[] twin = topo.twin;
        int n = 0;
        for (int k = 0; k < m; k++) {
            int f = face[k];
            if (taken[twin[3 * f] / 3] != stamp && taken[twin[3 * f + 1] / 3] != stamp
                    && taken[twin[3 * f + 2] / 3] != stamp) {
                taken[f] = stamp;
                sel[n++] = k;
            }
        }
        return n;
    }

    /** Step 1: every slot's region and horizon, on the topology as it is. */
    private void search(int m) {
        loops.forRange(m, GRAIN, (from, to) -> {
            HullTopology.Scratch s = scratch.get();
            for (int k = from; k < to; k++) {
                topo.region(apex[sel[k]], face[sel[k]], s);
                // candidate k keeps the search's arrays, the scratch takes its old ones
                int[] r = region[k];
                region[k] = s.visible;
                s.visible = r != null ? r : new int[64];
                regionCount[k] = s.visibleCount;
                int[] h = horizon[k];
                horizon[k] = s.horizon;
                s.horizon = h != null ? h : new int[64];
                horizonCount[k] = s.horizonCount;
            }
        });
    }

    /**
     * Steps 2–3, in one pass in queue order: candidate k wins if no face of its region is in an earlier winner's region or
     * ring, and no face of its ring is in an earlier winner's region; a winner then claims its region and ring. A pass
     * over a few faces per candidate (cheaper than the searches), and it keeps every candidate that fits beside the
     * earlier winners: the queue lists each cone's faces one after another, so neighbours follow each other, and a
     * rule where any earlier candidate (a loser too) blocks the next would let one candidate of such a chain win per
     * sub-step.
     */
    private void reserve(int m) {
        int faces = topo.faceCount;
        if (claimed.length < faces) {
            int cap = Math.max(faces, 2 * claimed.length);
            claimed = Arrays.copyOf(claimed, cap);
            inRegion = Arrays.copyOf(inRegion, cap);
        }
        stamp++;
        int[] twin = topo.twin;
        for (int k = 0; k < m; k++) {
            wins[k] = wins(k, twin);
            if (wins[k]) {
                int[] r = region[k];
                for (int j = 0; j < regionCount[k]; j++) {
                    claimed[r[j]] = stamp;
                    inRegion[r[j]] = stamp;
                }
                int[] h = horizon[k];
                for (int j = 0; j < horizonCount[k]; j++) {
                    claimed[twin[h[j]] / 3] = stamp;
                }
            }
        }
    }

    /** No face of candidate k's region is claimed by an earlier winner, and no face of its ring is in a winner's region. */
    private boolean wins(int k, int[] twin) {
        int[] r = region[k];
        for (int j = 0; j < regionCount[k]; j++) {
            if (claimed[r[j]] == stamp) {
                return false;
            }
        }
        int[] h = horizon[k];
        for (int j = 0; j < horizonCount[k]; j++) {
            if (inRegion[twin[h[j]] / 3] == stamp) {
                return false;
            }
        }
        return true;
    }

    /**
     * Step 4: the winners' cones, in queue order up to the budget. Returns the number inserted, or {@code -1 - count}
     * when a winner passed the budget (the round ends there); a winner inserted is marked not to search again.
     */
    private int insertWinners(int m, int maxFaces, RoundDelta delta) {
        int[] first = new int[m];
        int next = topo.faceCount;
        int made = delta.newCount;
        int last = 0;
        boolean over = false;
        int count = 0;
        for (int k = 0; k < m; k++) {
            if (!wins[k]) {
                continue;
            }
            if (horizonCount[k] > maxFaces - made) {
                over = true;
                break;
            }
            first[k] = next;
            next += horizonCount[k];
            made += horizonCount[k];
            last = k + 1;
            count++;
        }
        int base = topo.faceCount;
        topo.ensureFaces(next);
        int end = last;
        loops.forRange(end, GRAIN, (from, to) -> {
            HullTopology.Scratch s = scratch.get();
            for (int k = from; k < to; k++) {
                if (wins[k]) {
                    topo.cone(apex[sel[k]], horizon[k], horizonCount[k], first[k], s);
                    topo.retire(region[k], regionCount[k], first[k], horizonCount[k]);
                }
            }
        });
        topo.faceCount = next;
        for (int k = 0; k < end; k++) {
            if (wins[k]) {
                for (int j = 0; j < regionCount[k]; j++) {
                    delta.addDeleted(region[k][j], first[k], horizonCount[k]);
                }
            }
        }
        delta.addFaces(topo.plane, base, next - base);
        for (int k = 0; k < end; k++) {
            if (wins[k]) {
                delta.addApex(apex[sel[k]]);
            }
        }
        return over ? -1 - count : count;
    }

    /**
     * The candidates not inserted (losers, and those not selected) whose start face is alive, moved to the first slots
     * in queue order; returns their number.
     */
    private int keepLosers(int m, int n) {
        int kept = 0;
        int i = 0;
        for (int k = 0; k < m; k++) {
            boolean won = false;
            if (i < n && sel[i] == k) {
                won = wins[i++];
            }
            if (!won && topo.alive(face[k])) {
                face[kept] = face[k];
                apex[kept] = apex[k];
                kept++;
            }
        }
        return kept;
    }

    private void ensureSlots(int n) {
        if (face.length >= n) {
            return;
        }
        int cap = Math.max(n, 2 * face.length);
        face = new int[cap];
        apex = new int[cap];
        region = Arrays.copyOf(region, cap);
        regionCount = new int[cap];
        horizon = Arrays.copyOf(horizon, cap);
        horizonCount = new int[cap];
        wins = new boolean[cap];
        sel = new int[cap];
    }
}
