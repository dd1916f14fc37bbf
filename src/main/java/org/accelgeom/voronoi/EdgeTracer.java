package org.accelgeom.voronoi;

import static org.accelgeom.voronoi.VoronoiKernels.*;

import java.util.Arrays;

import org.accelgeom.engine.Tuning;
import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;

/**
 * The stack-based edge tracing (Alg. 5.1) with the vertex dictionary VIDIC (Sec. 2.5.4), on the host. Every
 * vertex has four edge slots, slot s being the edge of the triple without quadruple ball s; a slot holds the
 * vertex at the other end, -1 for infinity, or is open. The stack holds open slots; a batch of them (one edge
 * for Alg. 5.1 proper, or the whole stack: level by level) goes to the backend's end-vertex search, then each
 * result is resolved: the end vertex is computed from its sorted quadruple by {@link TangentSpheres} (so the
 * same vertex gets the same centre from every edge that finds it), the root matching the search's theta,
 * and looked up in VIDIC (key: sorted quadruple and root index, since a quadruple can define two vertices).
 * A new vertex pushes its three other edges; the edge back to the start vertex is linked at once, so an edge is
 * traced once unless both ends are in the same batch (then the second result is dropped).
 */
final class EdgeTracer {
    private final Balls b;
    private final VoronoiBackend search;
    private final int batchLimit;
    private final double shiftX, shiftY, shiftZ;

    // vertices
    private int[] quad = new int[64];
    private double[] sphere = new double[64];
    private int[] link = new int[64];
    private int nv;
    // VIDIC: open addressing over vertex numbers, keyed by the sorted quadruple and the root index
    private int[] table = filled(1024);
    private int[] rootOf = new int[64];
    private IntStack stack = new IntStack();

    // batch buffers
    private final double[] frames;
    private final float[] framesF;
    private final int[] gates;
    private final int[] out;
    private final int[] slotOf;
    private final boolean[] frameOk;
    // per batch edge: end ball, state (0 infinity, 1 vertex, 2 unresolved), sorted quadruple, root, sphere
    private final int[] endBall, endState, endQuad, endRoot;
    private final double[] endSphere;
    private final org.accelgeom.engine.ParallelLoops loops;

    /** The host's double search: near ties and borderline searches the device flagged, and every edge in precision float. */
    HostRecheck recheck;
    /** Precision float: every edge is searched again on the host. */
    boolean floatCheck;
    private int[] rechecked = new int[0];
    /** Batch indices of the edges {@link #flagTie} flagged. */
    private int[] slotTmp = new int[0];

    long searches, swaps, doubleEvals, passes, tieRechecks;
    int infinite, unresolved, inconsistent, batches;


    static final boolean DEBUG = Tuning.VORONOI_DEBUG.booleanValue();
    private static final boolean LEVELS = Tuning.VORONOI_LEVELS.booleanValue();
    static final int OPEN = -2, UNRESOLVED = -3;
    private static final double EPS = 1e-10;

    /** {@code loops}: the pool for the per-edge host steps, or null (one thread, the jvm reference). */
    EdgeTracer(Balls b, VoronoiBackend search, int capacity, double shiftX, double shiftY, double shiftZ,
            org.accelgeom.engine.ParallelLoops loops) {
        this.loops = loops;
        frameOk = new boolean[capacity];
        endBall = new int[capacity];
        endState = new int[capacity];
        endQuad = new int[4 * capacity];
        endRoot = new int[capacity];
        endSphere = new double[4 * capacity];
        this.b = b;
        this.search = search;
        this.batchLimit = capacity;
        this.shiftX = shiftX;
        this.shiftY = shiftY;
        this.shiftZ = shiftZ;
        frames = new double[capacity * FS];
        framesF = new float[capacity * FS];
        gates = new int[capacity * GS];
        out = new int[capacity * OS];
        slotOf = new int[capacity];
    }

    /**
     * Traces from the vertex (sorted quadruple q, root index of {@link TangentSpheres#solve} on it, sphere s), adding to
     * the vertices and VIDIC of earlier calls (a further component, {@link Completion}); vertex budget: a guard against
     * runaway input, over all calls.
     */
    void trace(int[] q, int root, double[] s, int maxVertices, PhaseTimings timings) {
        addVertex(q, 0, root, s, 0);
        while (stack.size > 0) {
            if (nv > maxVertices) {
                throw new AccelGeomException("the edge tracing found more than " + maxVertices
                        + " vertices: the input is too degenerate for the tracing (near-coincident balls?)");
            }
            long t0 = System.nanoTime();
            int count = 0;
            while (stack.size > 0 && count < batchLimit) {
                int slot = stack.pop();
                if (link[slot] == OPEN) {
                    slotOf[count++] = slot;
                }
            }
            final int n0 = count;
            forEach(n0, e -> frameOk[e] = buildFrame(e, slotOf[e]));
            count = 0;
            for (int e = 0; e < n0; e++) {
                if (!frameOk[e]) {
                    link[slotOf[e]] = UNRESOLVED;
                    unresolved++;
                    continue;
                }
                if (count != e) { // compact (degenerate frames are rare)
                    System.arraycopy(frames, e * FS, frames, count * FS, FS);
                    System.arraycopy(framesF, e * FS, framesF, count * FS, FS);
                    System.arraycopy(gates, e * GS, gates, count * GS, GS);
                    slotOf[count] = slotOf[e];
                }
                count++;
            }
            timings.add("frames", Kind.HOST, System.nanoTime() - t0);
            if (count == 0) {
                continue;
            }
            long tl = System.nanoTime();
            if (rechecked.length < count) {
                rechecked = new int[batchLimit];
                slotTmp = new int[batchLimit];
            }
            if (search instanceof HybridSearch h) {
                searchHybrid(h, count, timings);
            } else {
                long t1 = System.nanoTime();
                search.search(count, frames, framesF, gates, out);
                timings.add("end-vertex search", Kind.KERNEL, System.nanoTime() - t1);
                long t2 = System.nanoTime();
                endVertices(0, count);
                timings.add("end vertices (parallel)", Kind.HOST, System.nanoTime() - t2);
            }
            if (LEVELS) {
                System.err.printf("level %d: %d edges, search and end vertices %.3f ms%n", batches, count,
                        (System.nanoTime() - tl) / 1e6);
            }
            batches++;
            long t3 = System.nanoTime();
            for (int e = 0; e < count; e++) {
                resolve(e, slotOf[e]);
            }
            timings.add("links, VIDIC (sequential)", Kind.HOST, System.nanoTime() - t3);
        }
    }

    /**
     * A level on the tornado backend ({@link HybridSearch}): under its size rule, or while the device still starts in
     * the background, searched on the host cores; else the device searches the first edges while the host cores
     * search the rest and compute their end vertices, then the host computes the device's edges' end vertices.
     */
    private void searchHybrid(HybridSearch h, int count, PhaseTimings timings) {
        boolean early = h.deviceStarting() && h.deviceEdges(count) > 0;
        int m = early ? 0 : h.deviceEdges(count);
        if (m == 0) {
            long t1 = System.nanoTime();
            h.searchHost(0, count, frames, framesF, gates, out);
            timings.add("end-vertex search on the host (" + (early ? "while the device starts" : h.rule()) + ")",
                    Kind.HOST, System.nanoTime() - t1);
            long t2 = System.nanoTime();
            endVertices(0, count);
            timings.add("end vertices (parallel)", Kind.HOST, System.nanoTime() - t2);
            return;
        }
        if (!h.deviceReady()) {
            long t0 = System.nanoTime();
            h.searchDevice(0, frames, framesF, gates, out);
            timings.add("start the device search (first larger level)", Kind.UPLOAD, System.nanoTime() - t0);
        }
        long t1 = System.nanoTime();
        java.util.concurrent.ForkJoinTask<?> rest = m == count ? null : loops.pool().submit(() -> {
            h.searchHost(m, count, frames, framesF, gates, out);
            endVertices(m, count);
        });
        h.searchDevice(m, frames, framesF, gates, out);
        if (rest != null) {
            rest.join();
        }
        timings.add("end-vertex search on the device (the host's share meanwhile)", Kind.KERNEL, System.nanoTime() - t1);
        long t2 = System.nanoTime();
        endVertices(0, m);
        timings.add("end vertices (parallel)", Kind.HOST, System.nanoTime() - t2);
    }

    /**
     * The end vertices of batch edges {@code from .. to-1} (independent per edge; ranges may run at the same time):
     * precision float, every edge searched again in double; else the flagged ties searched again, then
     * {@link #endVertex}.
     */
    private void endVertices(int from, int to) {
        if (floatCheck) {
            forEach(from, to, 32, this::checkFloat);
            return;
        }
        forEach(from, to, 32, this::flagTie);
        // the host's re-searches, one edge per task: they are few (under 1 %) but each sweeps its whole
        // candidate list, and they cluster in the batch, so chunks of 32 edges left cores idle
        int flagged = from;
        for (int e = from; e < to; e++) {
            if (rechecked[e] == 1) {
                slotTmp[flagged++] = e;
            }
        }
        forEach(from, flagged, 1, i -> researchTie(slotTmp[i]));
        forEach(from, to, 32, this::endVertex);
    }

    /** Runs body for 0..n-1, on the pool when there is one (the host steps of jvm-parallel and tornado). */
    private void forEach(int n, java.util.function.IntConsumer body) {
        forEach(0, n, 32, body);
    }

    /** {@link #forEach} over {@code first .. end-1}, the pool's chunks at least {@code grain} indices (1: one per task). */
    private void forEach(int first, int end, int grain, java.util.function.IntConsumer body) {
        if (loops == null || end - first < 2 * grain) {
            for (int e = first; e < end; e++) {
                body.accept(e);
            }
        } else {
            loops.forRange(end - first, grain, (from, to) -> {
                for (int e = first + from; e < first + to; e++) {
                    body.accept(e);
                }
            });
        }
    }

    /** The frame of the edge in slot 'slot' (vertex slot >> 2, without quadruple ball slot & 3) at batch index e. */
    private boolean buildFrame(int e, int slot) {
        int v = slot >> 2, s2 = slot & 3;
        int[] t = new int[3];
        for (int k = 0, j = 0; k < 4; k++) {
            if (k != s2) {
                t[j++] = quad[4 * v + k];
            }
        }
        if (!EdgeFrames.build(b, t[0], t[1], t[2], quad[4 * v + s2], sphere[4 * v], sphere[4 * v + 1], sphere[4 * v + 2],
                frames, e * FS, gates, e * GS)) {
            return false;
        }
        EdgeFrames.toFloat(frames, e * FS, framesF, shiftX, shiftY, shiftZ);
        return true;
    }

    /**
     * The end vertex of batch edge e, before any topology change (independent per edge): Alg. 5.2's host side
     * (the start ball's second tangent sphere, in double, against the search's ball), the sorted quadruple, its
     * tangent spheres by {@link TangentSpheres} and the root that lies at the search's theta.
     */
    private void endVertex(int e) {
        int best = out[e * OS];
        int fo = e * FS;
        int sb = gates[e * GS + 3];
        double ts = thetaD(b.x, b.y, b.z, b.r, sb, frames, fo, 1, EPS);
        double tb = best < 0 ? NONE : thetaD(b.x, b.y, b.z, b.r, best, frames, fo, 0, EPS);
        if (ts < tb) {
            best = sb;
            tb = ts;
        }
        endBall[e] = best;
        if (best < 0) {
            endState[e] = 0;
            return;
        }
        int[] q = {gates[e * GS], gates[e * GS + 1], gates[e * GS + 2], best};
        Arrays.sort(q);
        double[] sol = new double[8];
        int k = TangentSpheres.solve(b.x, b.y, b.z, b.r, q[0], q[1], q[2], q[3], sol);
        if (k == 0) {
            endState[e] = 2;
            return;
        }
        int root = 0;
        if (k == 2) {
            double d0 = Math.abs(thetaOf(e, sol, 0) - tb), d1 = Math.abs(thetaOf(e, sol, 1) - tb);
            root = d1 < d0 ? 1 : 0;
        }
        System.arraycopy(q, 0, endQuad, 4 * e, 4);
        System.arraycopy(sol, 4 * root, endSphere, 4 * e, 4);
        endRoot[e] = root;
        endState[e] = 1;
    }

    /**
     * Precision float: edge e searched again in double ({@link FloatCheck}), its end vertex made from the double
     * answer; out[e*OS+1] keeps the float ball, so a float error counts as a swap.
     */
    private void checkFloat(int e) {
        int before = out[e * OS];
        rechecked[e] = 0;
        recheck.research(e, frames, framesF, gates, out);
        out[e * OS + 1] = before;
        endVertex(e);
    }

    /**
     * Whether edge e must be searched again on the host (rechecked[e] = 1): the backend flagged a near tie, or its
     * end ball has no valid tangent sphere by the host's double theta.
     */
    private void flagTie(int e) {
        rechecked[e] = 0;
        int best = out[e * OS];
        if (out[e * OS + 3] >= EndVertexScans.TIE
                || (best >= 0 && thetaD(b.x, b.y, b.z, b.r, best, frames, e * FS, 0, EPS) >= NONE)) {
            rechecked[e] = 1;
        }
    }

    /** Edge e, flagged by {@link #flagTie}, searched again on the host (without a host search: the flag dropped). */
    private void researchTie(int e) {
        if (DEBUG && recheck != null) {
            int[] copy = out.clone();
            recheck.research(e, frames, framesF, gates, copy);
            if (copy[e * OS] != out[e * OS]) {
                System.err.println("mismatch edge gates " + gates[e * GS] + " " + gates[e * GS + 1] + " " + gates[e * GS + 2]
                        + " start " + gates[e * GS + 3] + ": device " + out[e * OS] + ", host " + copy[e * OS]
                        + " passes dev " + out[e * OS + 3] + " host " + copy[e * OS + 3]);
            }
        }
        if (recheck != null) {
            recheck.research(e, frames, framesF, gates, out);
        } else if (out[e * OS + 3] >= EndVertexScans.TIE) {
            out[e * OS + 3] -= EndVertexScans.TIE;
        }
    }


    /** Links batch edge e to its end vertex (VIDIC lookup, new vertex, reverse edge): sequential. */
    private void resolve(int e, int slot) {
        searches++;
        passes += out[e * OS + 3];
        tieRechecks += rechecked[e];
        doubleEvals += out[e * OS + 2];
        if (out[e * OS + 1] != out[e * OS]) {
            swaps++;
        }
        if (link[slot] != OPEN) {
            return; // traced from the other end in the same batch
        }
        if (endState[e] == 0) {
            link[slot] = -1;
            infinite++;
            return;
        }
        if (endState[e] == 2) {
            link[slot] = UNRESOLVED;
            unresolved++;
            return;
        }
        int v = slot >> 2;
        int root = endRoot[e];
        int ui = find(endQuad, 4 * e, root);
        if (ui < 0) {
            ui = addVertex(endQuad, 4 * e, root, endSphere, 4 * e);
        }
        link[slot] = ui;
        int back = 4 * ui + indexOf(endQuad, 4 * e, endBall[e]);
        if (link[back] == OPEN) {
            link[back] = v;
        } else if (link[back] != v) {
            inconsistent++;
        }
    }

    private double thetaOf(int e, double[] sol, int root) {
        int fo = e * FS;
        double wx = sol[4 * root] - frames[fo + OX], wy = sol[4 * root + 1] - frames[fo + OX + 1],
                wz = sol[4 * root + 2] - frames[fo + OX + 2];
        return pseudo(frames[fo + E1X] * wx + frames[fo + E1X + 1] * wy + frames[fo + E1X + 2] * wz,
                frames[fo + E2X] * wx + frames[fo + E2X + 1] * wy + frames[fo + E2X + 2] * wz);
    }

    private static int indexOf(int[] q, int qo, int v) {
        for (int i = 0; i < 4; i++) {
            if (q[qo + i] == v) {
                return i;
            }
        }
        throw new IllegalStateException("ball " + v + " not in quadruple");
    }

    private static int[] filled(int n) {
        int[] t = new int[n];
        Arrays.fill(t, -1);
        return t;
    }

    private static int hash(int[] q, int qo, int root) {
        long h = root * 0x9E3779B97F4A7C15L;
        for (int i = 0; i < 4; i++) {
            h = (h ^ q[qo + i]) * 0xBF58476D1CE4E5B9L;
        }
        return (int) (h ^ (h >>> 31));
    }

    /** VIDIC lookup: the vertex of sorted quadruple q[qo ..] and root, or -1. */
    private int find(int[] q, int qo, int root) {
        int mask = table.length - 1;
        for (int i = hash(q, qo, root) & mask;; i = (i + 1) & mask) {
            int v = table[i];
            if (v < 0) {
                return -1;
            }
            if (rootOf[v] == root && quad[4 * v] == q[qo] && quad[4 * v + 1] == q[qo + 1] && quad[4 * v + 2] == q[qo + 2]
                    && quad[4 * v + 3] == q[qo + 3]) {
                return v;
            }
        }
    }

    private void insert(int v) {
        if (2 * nv > table.length) {
            int[] old = table;
            table = filled(old.length * 2);
            for (int w : old) {
                if (w >= 0 && w != v) {
                    place(w);
                }
            }
        }
        place(v);
    }

    private void place(int v) {
        int mask = table.length - 1;
        int i = hash(quad, 4 * v, rootOf[v]) & mask;
        while (table[i] >= 0) {
            i = (i + 1) & mask;
        }
        table[i] = v;
    }

    private int addVertex(int[] q, int qo, int root, double[] s, int so) {
        int v = nv++;
        if (4 * nv > quad.length) {
            quad = Arrays.copyOf(quad, quad.length * 2);
            sphere = Arrays.copyOf(sphere, sphere.length * 2);
            link = Arrays.copyOf(link, link.length * 2);
            rootOf = Arrays.copyOf(rootOf, rootOf.length * 2);
        }
        System.arraycopy(q, qo, quad, 4 * v, 4);
        System.arraycopy(s, so, sphere, 4 * v, 4);
        Arrays.fill(link, 4 * v, 4 * v + 4, OPEN);
        rootOf[v] = root;
        insert(v);
        for (int k = 3; k >= 0; k--) {
            stack.push(4 * v + k);
        }
        return v;
    }

    /** True if VIDIC holds the vertex of sorted quadruple q and root index. */
    boolean contains(int[] q, int root) {
        return find(q, 0, root) >= 0;
    }

    int vertexCount() {
        return nv;
    }

    int[] quads() {
        return Arrays.copyOf(quad, 4 * nv);
    }

    double[] spheres() {
        return Arrays.copyOf(sphere, 4 * nv);
    }

    /** Edges, each once: triples (sorted) and ends (start vertex, end vertex or -1). */
    int[][] edges() {
        IntStack tri = new IntStack();
        IntStack ends = new IntStack();
        for (int v = 0; v < nv; v++) {
            for (int s = 0; s < 4; s++) {
                int u = link[4 * v + s];
                if (u == OPEN || u == UNRESOLVED || (u >= 0 && u < v)) {
                    continue;
                }
                for (int k = 0; k < 4; k++) {
                    if (k != s) {
                        tri.push(quad[4 * v + k]);
                    }
                }
                ends.push(v);
                ends.push(u);
            }
        }
        return new int[][] {tri.toArray(), ends.toArray()};
    }

    /** A growable int stack. */
    static final class IntStack {
        int[] a = new int[64];
        int size;

        void push(int v) {
            if (size == a.length) {
                a = Arrays.copyOf(a, size * 2);
            }
            a[size++] = v;
        }

        int pop() {
            return a[--size];
        }

        int[] toArray() {
            return Arrays.copyOf(a, size);
        }
    }
}
