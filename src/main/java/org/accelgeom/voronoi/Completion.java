package org.accelgeom.voronoi;

import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;

/**
 * Completes the tracing when the diagram's vertex graph is disconnected: the tracing (Alg. 5.1) reaches only the
 * vertices connected to its start, and balls sealed in a pocket (behind a closed elliptic edge, a face with a hole, or
 * a component of a cell's boundary), or pieces joined only at infinity, are never met. After the tracing, each visible ball in no traced
 * vertex gets a vertex of its cell ({@link CellVertex}: Alg. 2.2 started at that ball, else the complete search over
 * its cell's reach); a vertex not yet in VIDIC starts a further tracing with the same {@link EdgeTracer} (same VIDIC,
 * same search backend). Balls that a later tracing reaches are skipped; a ball whose cell has no vertex is proven so by
 * the complete search (or left undecided beyond its limit, {@link CellVertex#MAX_QUADRUPLES}: counted and reported).
 * At the end every visible ball is in a traced vertex, has none, or is counted undecided.
 *
 * <p><b>Why that finds every piece.</b> The vertex graph (vertices and edges; closed edges and infinity left out) can
 * be disconnected, and a ball can have vertices in two components (a ball whose face surrounds a pocket has vertices
 * outside and on the pocket's rim), so "balls in no traced vertex" needs a proof. Claim: when the loop ends (every
 * visible ball is in a traced vertex or has no vertex), every component C is traced.
 *
 * <p>(1) Cells are strictly star-shaped about their centres (chamber lemma of {@link EllipticEdges}): the open
 * segment from c_a to a point of VR_a is interior to VR_a, a ray from c_a leaves VR_a at most once, c_a is interior.
 *
 * <p>(2) Separating surfaces. (a) For a face a|x whose boundary has several components (a face with a hole) and one
 * boundary component beta (a closed edge, a ring of edges and vertices, or a chain of edges infinite at both ends,
 * e.g. the two sides of a strip-shaped unbounded face: pieces joined only at infinity): the cones from c_a and from
 * c_x over beta are discs (half-planes for a chain) by (1), with the common boundary beta and their other points
 * interior to VR_a and VR_x; their union Sigma is a sphere (a plane for a chain), which separates space. At a point of beta the cells a, x, y of its edge are met in the order: cone from c_a, face a|x,
 * cone from c_x, face x|y, cell y, face y|a; call P the side of Sigma of the y's, Q the other. (b) For a component
 * sigma of the boundary of a cell VR_a that is not all of it (a large ball's cell around a cluster of small ones):
 * Sigma = sigma, Q the side of VR_a. (a) is the chamber lemma of {@link EllipticEdges} for a closed edge, generalised.
 * Two components of the graph are separated by such a Sigma: they are joined in the union of the cell boundaries
 * (connected) only through faces with several boundary components or across a cell's boundary components. The
 * surfaces do not cross (two meet at most in a centre c_a).
 *
 * <p>(3) Separation lemma. Let Sigma be as in (2), a and x its balls. Every other ball y has int VR_y connected and
 * disjoint from Sigma, so in P (a P-ball) or in Q (a Q-ball), and all of y's vertices in the closure of its side. A
 * vertex off Sigma touches the interiors of its four cells, so a vertex in P has only P-balls besides a and x (at least
 * two), one in Q at least two Q-balls; the only vertices on Sigma are those of beta (case a: a, x and two P-balls) or
 * of sigma (case b: a and three P-balls). An edge's end vertices share three balls, so no edge joins a vertex with a
 * P-ball to one with none: each component lies in the closure of P or in Q. Hence: if a component C is on one side
 * and no traced vertex is on that side, every vertex of C has at least two balls in no traced vertex (the P-balls of
 * C have all their vertices in P's closure; the Q-balls of C have none on Sigma).
 *
 * <p>(4) The claim. Suppose C untraced when the loop ends; its balls have vertices (C's), so none is vertex-free, so
 * each is in a traced vertex. The surfaces of (2) do not cross and cut space into regions joined as a tree (each
 * surface joins two), distinct components lying in distinct regions. If C's region is bounded by one surface
 * (C in a pocket, or the traced vertices in pockets around C), (3) gives C a ball in no traced vertex: a
 * contradiction. If it is bounded by several, the traced components lie beyond them; a ball of a vertex of C whose
 * cell interior lies in C's region has all its vertices in that region's closure, hence none traced, so every ball
 * of C would have to be one of the two balls a, x of a bounding surface, whose cells are the only ones the surfaces
 * cut: for one surface (3) excludes it (two balls per vertex on C's side); for several we have no proof, only the
 * brute-force evidence. The tests check the claim's consequence: on random sets of large and small balls whose tracing
 * from one vertex misses pieces, the completed diagram equals the brute force's vertex set ({@code CompletionTest}).
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
