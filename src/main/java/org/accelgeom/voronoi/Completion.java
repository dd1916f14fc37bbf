package org.accelgeom.voronoi;

import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;

/**
 * Completes the tracing when the diagram's vertex graph is disconnected: the tracing (Alg. 5.1) reaches only the
 * vertices connected to its start, and balls sealed in a pocket (behind a closed elliptic edge, a face with a hole, or
 * a component of a cell's boundary) form pieces it never meets. After the tracing, each visible ball in no traced
 * vertex gets a vertex of its cell ({@link CellVertex}: Alg. 2.2 started at that ball, else the complete search over
 * its cell's reach); a vertex not yet in VIDIC starts a further tracing with the same {@link EdgeTracer} (same VIDIC,
 * same search backend). Balls that a later tracing reaches are skipped; a ball whose cell has no vertex is proven so by
 * the complete search. At the end every visible ball is in a traced vertex or has none.
 *
 * <p><b>Why that finds every piece.</b> Let C be a component of the vertex graph (vertices and edges, closed edges and
 * infinity left out) that no tracing reached, T the traced vertices. Claim: C has a vertex with a ball in no vertex of
 * T (so the loop above, which ends only when every such ball is in a traced vertex or vertex-free, leaves no C).
 *
 * <p>(1) Cells are strictly star-shaped about their centres (the chamber lemma of {@link EllipticEdges}): a ray from
 * c_a leaves VR_a at most once, the open segment from c_a to a point of VR_a is interior to VR_a, and c_a is interior
 * to VR_a for a visible ball.
 *
 * <p>(2) Separation lemma. Let Sigma be a closed surface splitting space into two open sides P and Q, lying in the
 * closed cells of at most two balls a, x, such that no other cell's interior meets it, and such that every vertex on
 * Sigma has, besides a and x, only balls whose cell interiors lie in P. Every other ball y has int VR_y connected and
 * disjoint from Sigma, so it lies in P (a P-ball) or in Q (a Q-ball), and all of y's vertices lie in its side's
 * closure. A vertex in P (open) has only P-balls (it touches the interior of each of its cells, and not a's or x's,
 * which would put it on Sigma... or in Q), at least two since at most a, x are not; a vertex in Q has at least two
 * Q-balls; a vertex on Sigma has P-balls besides a, x. No edge joins a vertex with a P-ball to one with none (the
 * edge's triple is shared and a vertex has at least two balls of its side), so each component lies in the closure of
 * P or in Q. If C is on P's side and T in Q: C's P-balls are in no vertex of T. If T is on P's side and C in Q: C's
 * Q-balls have vertices only in the closure of Q, whose vertices on Sigma have no Q-ball; so they are in no vertex of T.
 * Either way every vertex of C has two balls in no vertex of T.
 *
 * <p>(3) Such surfaces separate the pieces. The vertex graph plus the closed edges is what remains of the union of
 * the cell boundaries (a connected set) after removing the open faces; two of its components are only joined through
 * a face whose boundary has several components (a face with a hole: closed edges and rings of edges are its inner
 * boundaries), or are on different components of one cell's boundary (a ball whose cell surrounds a pocket, e.g. a
 * large ball enclosing a cluster of small ones). For an inner boundary beta of face a|x, Sigma = the cones from c_a
 * and from c_x over beta: two discs (by (1)) with the common boundary beta, their other points interior to VR_a and
 * VR_x, P the side of the third balls of beta's edges (at a point of beta the cells a, x, y are met in the order cone
 * K_a, face a|x, cone K_x, face x|y, cell y, face y|a); for a component sigma of the boundary of VR_a, Sigma = sigma,
 * P the side away from a's interior. This is the chamber lemma of {@link EllipticEdges} for a closed edge
 * generalised. The brute-force tests check the claim's consequence: on random sets of large and small balls whose
 * tracing from one vertex misses pieces, the completed diagram equals the brute force's vertex set.
 *
 * <p>Cost: on proteins every ball is in a vertex of the first tracing, so the step is one pass over the vertices.
 */
final class Completion {

    private Completion() {
    }

    /**
     * Counts: components traced (tracings started, the first included), balls in no vertex (vertex-free cells), balls
     * left undecided ({@link CellVertex#MAX_QUADRUPLES}), balls whose vertex the fast step found, and those the
     * complete search found.
     */
    record Counts(int components, int vertexFree, int undecided, int fast, int complete) {
    }

    /**
     * Runs the completion after the tracing; {@code traced}: tracings already run (0 or 1); the searches' time is
     * the phase "untraced pieces", the further tracing's in its usual phases.
     */
    static Counts run(Balls b, boolean[] hidden, BallGrid grid, EdgeTracer tracer, int traced, double tol,
            int maxVertices, PhaseTimings timings, ParallelLoops loops) {
        long t0 = System.nanoTime();
        long inTrace = 0;
        int n = b.size();
        boolean[] inVertex = new boolean[n];
        int seen = mark(tracer, inVertex, 0);
        int components = traced, free = 0, fast = 0, complete = 0, undecided = 0;
        // the lonely balls' searches are independent: all at once (on the pool), then traced in ball order, skipping
        // the balls an earlier tracing reached
        int[] lonely = java.util.stream.IntStream.range(0, n).filter(i -> !hidden[i] && !inVertex[i]).toArray();
        int m = lonely.length;
        int[] how = new int[m];
        int[] quad = new int[4 * m];
        int[] roots = new int[m];
        double[] sph = new double[4 * m];
        ParallelLoops.RangeBody body = (from, to) -> {
            int[] q = new int[4];
            int[] root = new int[1];
            double[] s = new double[4];
            for (int l = from; l < to; l++) {
                how[l] = CellVertex.find(b, hidden, grid, lonely[l], tol, q, root, s).how();
                System.arraycopy(q, 0, quad, 4 * l, 4);
                System.arraycopy(s, 0, sph, 4 * l, 4);
                roots[l] = root[0];
            }
        };
        if (loops == null || m < 2) {
            body.run(0, m);
        } else {
            loops.forRange(m, 1, body);
        }
        int[] q = new int[4];
        double[] s = new double[4];
        for (int l = 0; l < m; l++) {
            if (how[l] == 3) {
                free++;
                continue;
            }
            if (how[l] == 4) {
                undecided++;
                continue;
            }
            if (how[l] == 1) {
                fast++;
            } else {
                complete++;
            }
            System.arraycopy(quad, 4 * l, q, 0, 4);
            System.arraycopy(sph, 4 * l, s, 0, 4);
            if (inVertex[lonely[l]] || tracer.contains(q, roots[l])) {
                continue; // reached by an earlier tracing of this loop
            }
            long t1 = System.nanoTime();
            tracer.trace(q, roots[l], s, maxVertices, timings);
            inTrace += System.nanoTime() - t1;
            components++;
            seen = mark(tracer, inVertex, seen);
        }
        timings.add("untraced pieces", Kind.HOST, System.nanoTime() - t0 - inTrace);
        return new Counts(components, free, undecided, fast, complete);
    }

    /** Marks the balls of the vertices from number {@code from} on; returns the vertex count. */
    private static int mark(EdgeTracer tracer, boolean[] inVertex, int from) {
        int[] quads = tracer.quads();
        for (int i = 4 * from; i < quads.length; i++) {
            inVertex[quads[i]] = true;
        }
        return quads.length / 4;
    }
}
