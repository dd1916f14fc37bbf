package org.accelgeom.hull;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Independent checks of a 3D hull result: the properties of the contract, with exact predicates. */
public final class HullChecks {

    private HullChecks() {
    }

    static int side(double[] x, double[] y, double[] z, int a, int b, int c, int p) {
        return Predicates.side(x[a], y[a], z[a], x[b], y[b], z[b], x[c], y[c], z[c], x[p], y[p], z[p]);
    }

    /** Closed 2-manifold, Euler, convex coplanar facets, no coplanar neighbours, containment, vertex set. */
    public static void checkPolytope(double[] x, double[] y, double[] z, HullResult h) {
        assertEquals(3, h.dimension());
        int nf = h.facetCount();
        Map<Long, Integer> edgeFacet = new HashMap<>();
        Set<Integer> corners = new TreeSet<>();
        for (int f = 0; f < nf; f++) {
            int s = h.facetStart()[f];
            int len = h.facetStart()[f + 1] - s;
            assertTrue(len >= 3, "facet with fewer than 3 corners");
            int a = h.facetIndex()[s];
            int b = h.facetIndex()[s + 1];
            int c = h.facetIndex()[s + 2];
            for (int k = 0; k < len; k++) {
                int u = h.facetIndex()[s + k];
                int v = h.facetIndex()[s + (k + 1) % len];
                int w = h.facetIndex()[s + (k + 2) % len];
                corners.add(u);
                // coplanar with the facet's first three corners
                assertEquals(0, side(x, y, z, a, b, c, u), "facet corner off the facet plane");
                // strictly convex turn u -> v -> w, seen from outside: w is left of u->v in the facet plane,
                // i.e. the triangle (u, v, w) has the facet's orientation
                assertTrue(sameOrientation(x, y, z, a, b, c, u, v, w), "facet not strictly convex at corner " + v);
                Integer prev = edgeFacet.put(edgeKey(u, v), f);
                if (prev != null) {
                    fail("directed edge " + u + "->" + v + " in two facets");
                }
            }
        }
        // every directed edge has its reverse: closed, consistently oriented 2-manifold
        for (Map.Entry<Long, Integer> e : edgeFacet.entrySet()) {
            long k = e.getKey();
            int u = (int) (k >>> 32);
            int v = (int) k;
            Integer g = edgeFacet.get(edgeKey(v, u));
            assertTrue(g != null, "edge " + u + "->" + v + " has no twin");
            // neighbours are not coplanar
            int f = e.getValue();
            int s = h.facetStart()[f];
            int gs = h.facetStart()[g];
            int glen = h.facetStart()[g + 1] - gs;
            boolean someOff = false;
            for (int j = 0; j < glen; j++) {
                int q = h.facetIndex()[gs + j];
                if (side(x, y, z, h.facetIndex()[s], h.facetIndex()[s + 1], h.facetIndex()[s + 2], q) != 0) {
                    someOff = true;
                }
            }
            assertTrue(someOff, "adjacent facets " + f + " and " + g + " are coplanar");
        }
        int edges = edgeFacet.size() / 2;
        assertEquals(2, corners.size() - edges + nf, "Euler characteristic");
        assertEquals(corners, toSet(h.vertices()), "vertices are not the facets' corners");
        // containment: every point inside or on every facet
        for (int f = 0; f < nf; f++) {
            int s = h.facetStart()[f];
            int a = h.facetIndex()[s];
            int b = h.facetIndex()[s + 1];
            int c = h.facetIndex()[s + 2];
            for (int p = 0; p < x.length; p++) {
                if (side(x, y, z, a, b, c, p) > 0) {
                    fail("point " + p + " is outside facet " + f);
                }
            }
        }
    }

    private static boolean sameOrientation(double[] x, double[] y, double[] z, int a, int b, int c, int u, int v, int w) {
        // normal of (a,b,c) compared with normal of (u,v,w): both coplanar, so compare via a point off the plane:
        // take d = a + n where n is approximately the facet normal; exact signs of side(...) with d agree iff same
        double ux = x[b] - x[a];
        double uy = y[b] - y[a];
        double uz = z[b] - z[a];
        double vx = x[c] - x[a];
        double vy = y[c] - y[a];
        double vz = z[c] - z[a];
        double nx = uy * vz - uz * vy;
        double ny = uz * vx - ux * vz;
        double nz = ux * vy - uy * vx;
        double[] px = {x[a] + nx, x[u], x[v], x[w], x[a], x[b], x[c]};
        double[] py = {y[a] + ny, y[u], y[v], y[w], y[a], y[b], y[c]};
        double[] pz = {z[a] + nz, z[u], z[v], z[w], z[a], z[b], z[c]};
        int s1 = Predicates.side(px[1], py[1], pz[1], px[2], py[2], pz[2], px[3], py[3], pz[3], px[0], py[0], pz[0]);
        int s2 = Predicates.side(px[4], py[4], pz[4], px[5], py[5], pz[5], px[6], py[6], pz[6], px[0], py[0], pz[0]);
        return s1 != 0 && s1 == s2;
    }

    static long edgeKey(int u, int v) {
        return ((long) u << 32) | (v & 0xffffffffL);
    }

    public static Set<Integer> toSet(int[] a) {
        Set<Integer> s = new TreeSet<>();
        for (int v : a) {
            s.add(v);
        }
        return s;
    }

    /** Facets as a canonical set: each polygon rotated to start at its smallest index. */
    public static Set<List<Integer>> canonicalFacets(HullResult h) {
        Set<List<Integer>> out = new HashSet<>();
        for (int f = 0; f < h.facetCount(); f++) {
            int s = h.facetStart()[f];
            int len = h.facetStart()[f + 1] - s;
            int min = 0;
            for (int k = 1; k < len; k++) {
                if (h.facetIndex()[s + k] < h.facetIndex()[s + min]) {
                    min = k;
                }
            }
            List<Integer> l = new ArrayList<>();
            for (int k = 0; k < len; k++) {
                l.add(h.facetIndex()[s + (min + k) % len]);
            }
            out.add(l);
        }
        return out;
    }

    /**
     * Brute-force extreme points for small inputs: a point is a hull vertex iff it is a corner of the 2D hull of
     * the points on some supporting plane through three non-collinear input points.
     */
    static Set<Integer> bruteForceVertices(double[] x, double[] y, double[] z) {
        int n = x.length;
        Set<Integer> out = new TreeSet<>();
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                for (int c = b + 1; c < n; c++) {
                    if (Predicates.collinear3d(x[a], y[a], z[a], x[b], y[b], z[b], x[c], y[c], z[c])) {
                        continue;
                    }
                    int pos = 0;
                    int neg = 0;
                    List<Integer> on = new ArrayList<>();
                    for (int p = 0; p < n; p++) {
                        int s = side(x, y, z, a, b, c, p);
                        if (s > 0) {
                            pos++;
                        } else if (s < 0) {
                            neg++;
                        } else {
                            on.add(p);
                        }
                    }
                    if (pos > 0 && neg > 0) {
                        continue;
                    }
                    double ux = x[b] - x[a];
                    double uy = y[b] - y[a];
                    double uz = z[b] - z[a];
                    double vx = x[c] - x[a];
                    double vy = y[c] - y[a];
                    double vz = z[c] - z[a];
                    int[] idx = on.stream().mapToInt(Integer::intValue).toArray();
                    for (int v : Hull2D.polygon(x, y, z, idx, uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx)) {
                        out.add(v);
                    }
                }
            }
        }
        return out;
    }

    static String describe(int[] a) {
        return Arrays.toString(a);
    }
}
