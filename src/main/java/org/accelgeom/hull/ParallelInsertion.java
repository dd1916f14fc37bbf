package org.accelgeom.hull;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
 * <li>reservations (atomic minimum): {@code anyOwner[F]} = the least i with F in R_i or H_i, {@code regionOwner[F]}
 * = the least i with F in R_i;</li>
 * <li>i wins if it owns every face of R_i and no lower candidate's region holds a face of H_i. Two winners' regions
 * are then disjoint, and neither region holds a face of the other's ring, so each keeps its region and horizon
 * whatever the other does (p's region after the other's insertion could reach the other's cone only through a face
 * of the other's ring that p sees). In every conflict the higher index loses, so the lowest candidate wins;</li>
 * <li>the winners, in queue order, take the new face ids by a prefix sum of their horizons' lengths, up to the first
 * that would pass the round's budget (which ends the round, as in the serial loop); their cones are built in
 * parallel and appended to the round's {@link RoundDelta} in queue order.</li>
 * </ol>
 * Losers whose start face is alive search again in the next sub-step. A sub-step of few candidates runs on the
 * calling thread, through the same code (so the same result).
 */
final class ParallelInsertion {

    /** Candidates per task of a parallel loop: a search is a few microseconds. */
    private static final int GRAIN = 16;
    private static final int FREE = Integer.MAX_VALUE;
    private static final VarHandle OWNER = MethodHandles.arrayElementVarHandle(int[].class);

    private final HullTopology topo;
    private final ParallelLoops loops;
    /** Each thread's search and cone arrays (the marks are as long as the face tables). */
    private final ThreadLocal<HullTopology.Scratch> scratch = ThreadLocal.withInitial(HullTopology.Scratch::new);

    /** The sub-step's candidates, by slot k (queue order): start face, apex. */
    private int[] face = new int[0];
    private int[] apex = new int[0];
    /** Slot k's visible region and horizon half-edges (the search's output, kept for the reservations and the cone). */
    private int[][] region = new int[0][];
    private int[] regionCount = new int[0];
    private int[][] horizon = new int[0][];
    private int[] horizonCount = new int[0];
    private boolean[] wins = new boolean[0];
    /** Per face: the least slot whose region or ring holds it; the least slot whose region holds it (FREE: none). */
    private int[] anyOwner = new int[0];
    private int[] regionOwner = new int[0];

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
            search(m);
            reserve(m);
            int won = insertWinners(m, maxFaces, delta);
            if (won < 0) {
                return done - won - 1;
            }
            done += won;
            m = keepLosers(m);
        }
        return done;
    }

    /** Step 1: every slot's region and horizon, on the topology as it is. */
    private void search(int m) {
        loops.forRange(m, GRAIN, (from, to) -> {
            HullTopology.Scratch s = scratch.get();
            for (int k = from; k < to; k++) {
                topo.region(apex[k], face[k], s);
                region[k] = copy(region[k], s.visible, s.visibleCount);
                regionCount[k] = s.visibleCount;
                horizon[k] = copy(horizon[k], s.horizon, s.horizonCount);
                horizonCount[k] = s.horizonCount;
            }
        });
    }

    /** Steps 2–3: the reservations, then each slot's verdict; the owner tables are left free again. */
    private void reserve(int m) {
        int faces = topo.faceCount;
        if (anyOwner.length < faces) {
            int old = anyOwner.length;
            int cap = Math.max(faces, 2 * old);
            anyOwner = Arrays.copyOf(anyOwner, cap);
            regionOwner = Arrays.copyOf(regionOwner, cap);
            Arrays.fill(anyOwner, old, cap, FREE);
            Arrays.fill(regionOwner, old, cap, FREE);
        }
        int[] twin = topo.twin;
        loops.forRange(m, GRAIN, (from, to) -> {
            for (int k = from; k < to; k++) {
                int[] r = region[k];
                for (int j = 0; j < regionCount[k]; j++) {
                    claim(anyOwner, r[j], k);
                    claim(regionOwner, r[j], k);
                }
                int[] h = horizon[k];
                for (int j = 0; j < horizonCount[k]; j++) {
                    claim(anyOwner, twin[h[j]] / 3, k);
                }
            }
        });
        loops.forRange(m, GRAIN, (from, to) -> {
            for (int k = from; k < to; k++) {
                wins[k] = wins(k, twin);
            }
        });
        loops.forRange(m, GRAIN, (from, to) -> {
            for (int k = from; k < to; k++) {
                int[] r = region[k];
                for (int j = 0; j < regionCount[k]; j++) {
                    anyOwner[r[j]] = FREE;
                    regionOwner[r[j]] = FREE;
                }
                int[] h = horizon[k];
                for (int j = 0; j < horizonCount[k]; j++) {
                    anyOwner[twin[h[j]] / 3] = FREE;
                }
            }
        });
    }

    /** Slot k owns every face of its region, and no lower slot's region holds a face of its ring. */
    private boolean wins(int k, int[] twin) {
        int[] r = region[k];
        for (int j = 0; j < regionCount[k]; j++) {
            if ((int) OWNER.getVolatile(anyOwner, r[j]) != k) {
                return false;
            }
        }
        int[] h = horizon[k];
        for (int j = 0; j < horizonCount[k]; j++) {
            if ((int) OWNER.getVolatile(regionOwner, twin[h[j]] / 3) < k) {
                return false;
            }
        }
        return true;
    }

    /** {@code owner[f] = min(owner[f], k)}, atomically. */
    private static void claim(int[] owner, int f, int k) {
        int seen = (int) OWNER.getVolatile(owner, f);
        while (k < seen) {
            int was = (int) OWNER.compareAndExchange(owner, f, seen, k);
            if (was == seen) {
                return;
            }
            seen = was;
        }
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
                    topo.cone(apex[k], horizon[k], horizonCount[k], first[k], s);
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
                delta.addApex(apex[k]);
            }
        }
        return over ? -1 - count : count;
    }

    /** The losers whose start face is alive, moved to the first slots in queue order; returns their number. */
    private int keepLosers(int m) {
        int kept = 0;
        for (int k = 0; k < m; k++) {
            if (!wins[k] && topo.alive(face[k])) {
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
    }

    /** {@code src[0 .. n-1]} in {@code dst}, or in a larger array when it does not fit. */
    private static int[] copy(int[] dst, int[] src, int n) {
        int[] out = dst != null && dst.length >= n ? dst : new int[Math.max(n, 8)];
        System.arraycopy(src, 0, out, 0, n);
        return out;
    }
}
