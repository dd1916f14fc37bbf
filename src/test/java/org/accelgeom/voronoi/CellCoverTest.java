package org.accelgeom.voronoi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import org.accelgeom.engine.Backend;
import org.junit.jupiter.api.Test;

/**
 * The host searches over a ball's cell cut to its possible face neighbours ({@link CellCover}) give what the unpruned
 * searches gave (every ball within the cell's reach, every quadruple, every pair): on protein-like sets whose small
 * "hydrogens" sit mostly inside their heavy atom, so that many cells have no vertex (sealed by a closed edge, as the
 * 168 of 16,090 balls of APBS' achbp.pqr). And the filter keeps every face neighbour of every ball.
 */
class CellCoverTest {

    /** n heavy balls (r 1.5-1.9) at least 2.6 apart in a cube, each with a small ball (r 1.0) 1.0 from its centre. */
    static Balls withHydrogens(Random rnd, int n, double side) {
        List<double[]> heavy = new ArrayList<>();
        while (heavy.size() < n) {
            double[] p = {rnd.nextDouble() * side, rnd.nextDouble() * side, rnd.nextDouble() * side};
            boolean ok = true;
            for (double[] q : heavy) {
                double dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2];
                ok &= dx * dx + dy * dy + dz * dz >= 2.6 * 2.6;
            }
            if (ok) {
                heavy.add(p);
            }
        }
        double[] x = new double[2 * n], y = new double[2 * n], z = new double[2 * n], r = new double[2 * n];
        for (int i = 0; i < n; i++) {
            double[] p = heavy.get(i);
            x[i] = p[0];
            y[i] = p[1];
            z[i] = p[2];
            r[i] = 1.5 + 0.4 * rnd.nextDouble();
            double ux = rnd.nextGaussian(), uy = rnd.nextGaussian(), uz = rnd.nextGaussian();
            double l = Math.sqrt(ux * ux + uy * uy + uz * uz);
            x[n + i] = p[0] + ux / l;
            y[n + i] = p[1] + uy / l;
            z[n + i] = p[2] + uz / l;
            r[n + i] = 1.0;
        }
        return new Balls(x, y, z, r);
    }

    /** The face neighbours of every ball: the other balls of its vertices, edges and closed edges. */
    static List<Set<Integer>> faces(Balls b, VoronoiResult res) {
        List<Set<Integer>> f = new ArrayList<>();
        for (int i = 0; i < b.size(); i++) {
            f.add(new HashSet<>());
        }
        addGroups(f, res.quads(), 4);
        addGroups(f, res.triples(), 3);
        addGroups(f, res.closedTriples(), 3);
        return f;
    }

    private static void addGroups(List<Set<Integer>> f, int[] a, int k) {
        for (int g = 0; g < a.length; g += k) {
            for (int i = 0; i < k; i++) {
                for (int j = 0; j < k; j++) {
                    if (i != j) {
                        f.get(a[g + i]).add(a[g + j]);
                    }
                }
            }
        }
    }

    @Test
    void prunedSearchesEqualTheUnprunedOnesAndKeepEveryFaceNeighbour() {
        Random rnd = new Random(14);
        int sets = 0, vertexFree = 0, closed = 0, cut = 0, all = 0;
        for (int t = 0; t < 8; t++) {
            Balls b = withHydrogens(rnd, 60, 11);
            VoronoiResult res = Voronoi.compute(b, VoronoiOptions.of(Backend.JVM));
            VoronoiChecks.assertEmptyAndTangent(b, res);
            BallGrid g = BallGrid.build(b, Voronoi.PER_CELL, null);
            boolean[] hidden = b.hidden(g);
            g = BallGrid.build(b, Voronoi.PER_CELL, hidden);
            List<Set<Integer>> faces = faces(b, res);
            boolean[] inVertex = new boolean[b.size()];
            for (int q : res.quads()) {
                inVertex[q] = true;
            }
            for (int c = 0; c < b.size(); c++) {
                if (hidden[c]) {
                    continue;
                }
                double[] bound = EllipticEdges.cover(b, hidden, g, c);
                int[] near = EllipticEdges.near(b, hidden, g, c, EllipticEdges.reach(b, bound, c));
                int[] nb = CellCover.neighbours(b, c, bound, near);
                Set<Integer> kept = new HashSet<>();
                for (int x : nb) {
                    kept.add(x);
                }
                assertTrue(kept.containsAll(faces.get(c)), "ball " + c + ": face neighbours " + faces.get(c) + ", kept " + kept);
                assertTrue(isSubsequence(nb, near), "the filter keeps the order");
                cut += near.length - nb.length;
                all += near.length;
                if (inVertex[c]) {
                    continue;
                }
                // a ball in no vertex: the pruned searches against the unpruned ones
                vertexFree++;
                int[] q = new int[4], root = new int[1];
                double[] s = new double[4];
                CellVertex.Found f = CellVertex.find(b, hidden, g, c, Voronoi.TOLERANCE, q, root, s);
                assertEquals(3, f.how(), "ball " + c + " has no vertex");
                assertEquals(false, unprunedHasVertex(b, hidden, g, c), "ball " + c + ": the unpruned search agrees");
                ConcurrentHashMap<Long, Boolean> found = new ConcurrentHashMap<>();
                EllipticEdges.around(b, hidden, g, c, b.maxRadius(), new double[EllipticEdges.SCRATCH], found);
                TreeSet<String> want = unprunedClosed(b, hidden, g, c);
                TreeSet<String> got = new TreeSet<>();
                for (long key : found.keySet()) {
                    got.add((key >>> 42) + " " + ((key >>> 21) & ((1 << 21) - 1)) + " " + (key & ((1 << 21) - 1)));
                }
                assertEquals(want, got, "closed edges of ball " + c);
                closed += got.size();
            }
            sets++;
        }
        System.out.printf("cell cover: %d sets, %d balls in no vertex, %d closed edges at them; the filter kept %d of %d"
                + " candidates%n", sets, vertexFree, closed, all - cut, all);
        assertTrue(vertexFree >= 20 && closed >= 20, "the sets are rich in vertex-free cells: " + vertexFree + ", " + closed);
    }

    private static boolean isSubsequence(int[] a, int[] of) {
        int j = 0;
        for (int v : of) {
            if (j < a.length && a[j] == v) {
                j++;
            }
        }
        return j == a.length;
    }

    /** The former complete search: every quadruple of the balls within the reach, every sphere tested on all balls. */
    private static boolean unprunedHasVertex(Balls b, boolean[] hidden, BallGrid g, int c) {
        double reach = EllipticEdges.cellReach(b, hidden, g, c);
        int[] cand = EllipticEdges.near(b, hidden, g, c, reach);
        double[] out = new double[8];
        for (int i = 0; i < cand.length; i++) {
            for (int j = i + 1; j < cand.length; j++) {
                for (int l = j + 1; l < cand.length; l++) {
                    int m = TangentSpheres.solve(b.x, b.y, b.z, b.r, c, cand[i], cand[j], cand[l], out);
                    for (int s = 0; s < m; s++) {
                        double[] sp = Arrays.copyOfRange(out, 4 * s, 4 * s + 4);
                        if (sp[3] <= reach + Voronoi.TOLERANCE
                                && InitialVertex.empty(b, hidden, new int[] {c, cand[i], cand[j], cand[l]}, sp,
                                        Voronoi.TOLERANCE)) {
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }

    /** The former closed-edge search at c: every pair of the balls within the reach. */
    private static TreeSet<String> unprunedClosed(Balls b, boolean[] hidden, BallGrid g, int c) {
        int[] cand = EllipticEdges.near(b, hidden, g, c, EllipticEdges.cellReach(b, hidden, g, c));
        TreeSet<String> out = new TreeSet<>();
        double[] f = new double[EllipticEdges.SCRATCH];
        for (int i = 0; i < cand.length; i++) {
            for (int j = i + 1; j < cand.length; j++) {
                if (EllipticEdges.closed(b, hidden, g, c, cand[i], cand[j], b.maxRadius(), f, null)) {
                    int[] t = {c, cand[i], cand[j]};
                    Arrays.sort(t);
                    out.add(t[0] + " " + t[1] + " " + t[2]);
                }
            }
        }
        return out;
    }

    /**
     * 60 balls of achbp.pqr with hydrogens around the ball once left undecided (src/test/resources/voronoi/README.md):
     * Voronota's vertex set, every Voronota contact between two balls is a face of ours (a pair in one of our vertices,
     * edges or closed edges), and the vertex-free ball (24, which Voronota ignores: no vertex, no contact) is decided,
     * with its one closed edge. Voronota reports no edges and nothing for balls without vertex; the faces it cannot
     * show are checked by the brute-force tests.
     */
    @Test
    void aCutOfAchbpHasVoronotasVerticesAndContacts() throws Exception {
        Balls b = VoronoiChecks.resourceBalls("achbp-cut60.xyzr");
        List<String> theirs = new ArrayList<>();
        for (String l : VoronoiChecks.resourceLines("achbp-cut60.voronota-quadruples.txt")) {
            String[] t = l.split(" ");
            theirs.add(t[0] + " " + t[1] + " " + t[2] + " " + t[3] + " " + Math.round(Double.parseDouble(t[4]) * 1e4));
        }
        theirs.sort(null);
        Set<Integer> inContact = new HashSet<>();
        List<int[]> contacts = new ArrayList<>();
        for (String l : VoronoiChecks.resourceLines("achbp-cut60.voronota-contacts.txt")) {
            String[] t = l.split(" ");
            int p = Integer.parseInt(t[0]), q = Integer.parseInt(t[1]);
            if (p != q) {
                contacts.add(new int[] {p, q});
                inContact.add(p);
                inContact.add(q);
            }
        }
        assertTrue(!inContact.contains(24), "Voronota gives the vertex-free ball no contact");
        for (Backend be : new Backend[] {Backend.JVM, Backend.JVM_PARALLEL}) {
            VoronoiResult r = Voronoi.compute(b, VoronoiOptions.of(be));
            List<String> ours = new ArrayList<>();
            for (int v = 0; v < r.vertexCount(); v++) {
                ours.add(r.quads()[4 * v] + " " + r.quads()[4 * v + 1] + " " + r.quads()[4 * v + 2] + " "
                        + r.quads()[4 * v + 3] + " " + Math.round(r.spheres()[4 * v + 3] * 1e4));
            }
            ours.sort(null);
            assertEquals(theirs, ours, be + ": Voronota's vertices (radius to 1e-4)");
            List<Set<Integer>> faces = faces(b, r);
            for (int[] c : contacts) {
                assertTrue(faces.get(c[0]).contains(c[1]), be + ": Voronota's contact " + c[0] + "|" + c[1] + " is a face");
            }
            assertEquals(0, r.stats().undecidedBalls(), be.toString());
            assertEquals(1, r.stats().vertexFreeBalls(), be.toString());
            assertArrayEquals(new int[] {18, 24, 41}, r.closedTriples(), be + ": the closed edge sealing ball 24");
        }
    }
}
