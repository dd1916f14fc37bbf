package org.accelgeom.voronoi;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.PhaseTimings;

/**
 * The additively weighted Voronoi diagram's edge graph. Ball indices are those of the input.
 *
 * <p>Vertex v: generator quadruple {@code quads[4v .. 4v+3]} (sorted ascending) and tangent sphere
 * {@code spheres[4v .. 4v+3]} = x, y, z, R (R &lt; 0 when the vertex lies inside overlapping balls). A quadruple
 * may appear twice (two vertices; the quasi-triangulation's multiplicity anomaly). Each vertex is also a
 * tetrahedron of the dual quasi-triangulation (the same quadruple).
 *
 * <p>Edge k: generator triple {@code triples[3k .. 3k+2]} (sorted) between vertices {@code ends[2k]} and
 * {@code ends[2k+1]}; {@code ends[2k+1] == -1} when the edge goes to infinity (it meets b_inf). Every component of the
 * edge graph is traced ({@link Completion}).
 *
 * <p>Closed edge c: an elliptic edge without any vertex (a closed trisector no fourth ball touches, e.g. a small ball
 * between two large ones; the quasi-triangulation's degenerate triangle), generator triple
 * {@code closedTriples[3c .. 3c+2]} (sorted; see {@link EllipticEdges} for which are searched).
 *
 * @param ballCount number of input balls
 * @param hidden    indices of hidden balls (contained in another ball; empty cells), excluded from the diagram
 */
public record VoronoiResult(int ballCount, int[] hidden, int[] quads, double[] spheres, int[] triples, int[] ends,
        int[] closedTriples, Stats stats, PhaseTimings timings, Backend backend, VoronoiOptions.Precision precision) {

    /**
     * Counters of one run.
     *
     * @param searches       end-vertex searches (the thesis' number of v_e, Table 8.2)
     * @param swaps          searches whose float phase-1 winner was replaced by the double result (Table 8.2;
     *                       0 in precision double; in precision float the float errors: searches whose float answer the host's
     *                       double search of every edge contradicted)
     * @param doubleEvals    candidates recomputed in double in phase 2
     * @param passes         pruning passes summed over searches (1 per search when the first radius was enough)
     * @param infiniteEdges  edges that go to infinity
     * @param unresolved     searches whose end vertex could not be computed (degenerate input), left open
     * @param inconsistent   end vertices whose reverse edge was already linked elsewhere (degenerate input)
     * @param batches        calls to the backend (device launches on tornado)
     * @param tieRechecks    searches the backend flagged as a near tie of two candidates, decided again on the host
     *                       in Java double (the device's arithmetic may order near ties otherwise), or that the device flagged as
     *                       borderline ({@link RobustTheta}), or whose device end ball the host finds invalid
     * @param components     tracings started: the connected components of the vertex graph ({@link Completion}; 1 when
     *                       the first tracing reached every vertex)
     * @param vertexFreeBalls visible balls whose cell has no vertex (proven by {@link CellVertex})
     * @param undecidedBalls visible balls in no vertex whose complete search exceeded {@link CellVertex#MAX_QUADRUPLES}
     *                       (an unbounded cell over very many balls): a piece of the diagram could be missing there
     */
    public record Stats(long searches, long swaps, long doubleEvals, long passes, int infiniteEdges, int unresolved,
            int inconsistent, int batches, long tieRechecks, int components, int vertexFreeBalls, int undecidedBalls) {
    }

    public int vertexCount() {
        return quads.length / 4;
    }

    public int edgeCount() {
        return triples.length / 3;
    }

    /** Neighbour of a tetrahedron across a face whose edge goes to infinity (the face is on the hull, b_inf). */
    public static final int INFINITY = -1;
    /** Neighbour of a tetrahedron across a face whose edge was not traced. */
    public static final int UNKNOWN = -2;

    /**
     * The dual quasi-triangulation: tetrahedron v (the generator quadruple of vertex v) has four neighbours,
     * {@code n[4v + i]} across the face opposite {@code quads[4v + i]}: the vertex at the other end of the edge of
     * the three other generators ({@link #INFINITY} when that edge goes to infinity, {@link #UNKNOWN} when no
     * traced edge of v has that triple). Mutual: if n[4a + i] = b then one of b's neighbours is a.
     */
    public int[] tetrahedronNeighbours() {
        int nv = vertexCount();
        int[] n = new int[4 * nv];
        java.util.Arrays.fill(n, UNKNOWN);
        for (int k = 0; k < edgeCount(); k++) {
            int a = ends[2 * k];
            int b = ends[2 * k + 1];
            link(n, a, k, b < 0 ? INFINITY : b);
            if (b >= 0) {
                link(n, b, k, a);
            }
        }
        return n;
    }

    /** At vertex v, the slot of the generator not in edge k's triple gets {@code other}. */
    private void link(int[] n, int v, int k, int other) {
        for (int i = 0; i < 4; i++) {
            int g = quads[4 * v + i];
            if (g != triples[3 * k] && g != triples[3 * k + 1] && g != triples[3 * k + 2]) {
                n[4 * v + i] = other;
                return;
            }
        }
    }

    /** Closed elliptic edges without vertices. */
    public int closedEdgeCount() {
        return closedTriples.length / 3;
    }
}
