package org.accelgeom.ridge;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.accelgeom.engine.IntList;

/**
 * order (Alg. 4): the representatives become polylines. First every pair within R2 is an edge; then, while two
 * points that each belong to at most one edge lie within 2·R2, they are joined. The thesis leaves the order of
 * the joins open: we join the closest such pair first (ties by indices), which links chain ends across the
 * small gaps decimation leaves. The edges then split into polylines, one per chain or loop, so a cloud of
 * several curves gives several polylines.
 */
public final class Order {

    private Order() {
    }

    /** A polyline: indices into the representatives; closed if its last point joins its first. */
    public record Polyline(int[] points, boolean closed) {
    }

    /** The result of order: the edges (pairs of representative indices) and the polylines they form. */
    public record Curves(int[][] edges, List<Polyline> polylines) {
    }

    /** Alg. 4 on ns row-major representatives of dimension d. */
    public static Curves order(double[] s, int ns, int d, double r2) {
        List<int[]> edges = new ArrayList<>();
        int[] degree = new int[ns];
        List<double[]> joins = new ArrayList<>(); // {d², i, j} for 2·R2 candidates
        double r2sq = r2 * r2;
        double r4sq = 4 * r2sq;
        for (int i = 0; i < ns; i++) {
            for (int j = i + 1; j < ns; j++) {
                double d2 = 0;
                for (int c = 0; c < d; c++) {
                    double dx = s[i * d + c] - s[j * d + c];
                    d2 += dx * dx;
                }
                if (d2 <= r2sq) {
                    edges.add(new int[] {i, j});
                    degree[i]++;
                    degree[j]++;
                } else if (d2 <= r4sq) {
                    joins.add(new double[] {d2, i, j});
                }
            }
        }
        joins.sort((a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0])
                : a[1] != b[1] ? Double.compare(a[1], b[1]) : Double.compare(a[2], b[2]));
        for (double[] j : joins) {
            int a = (int) j[1];
            int b = (int) j[2];
            if (degree[a] <= 1 && degree[b] <= 1) {
                edges.add(new int[] {a, b});
                degree[a]++;
                degree[b]++;
            }
        }
        int[][] e = edges.toArray(new int[0][]);
        return new Curves(e, polylines(ns, e, degree));
    }

    /** Splits the graph into maximal paths between nodes of degree ≠ 2, then the remaining loops. */
    static List<Polyline> polylines(int ns, int[][] edges, int[] degree) {
        int[] start = new int[ns + 1];
        for (int[] e : edges) {
            start[e[0] + 1]++;
            start[e[1] + 1]++;
        }
        for (int i = 0; i < ns; i++) {
            start[i + 1] += start[i];
        }
        int[] adjacent = new int[2 * edges.length];
        int[] edgeOf = new int[2 * edges.length];
        int[] fill = Arrays.copyOf(start, ns);
        for (int k = 0; k < edges.length; k++) {
            int a = edges[k][0];
            int b = edges[k][1];
            adjacent[fill[a]] = b;
            edgeOf[fill[a]++] = k;
            adjacent[fill[b]] = a;
            edgeOf[fill[b]++] = k;
        }
        boolean[] used = new boolean[edges.length];
        List<Polyline> out = new ArrayList<>();
        for (int v = 0; v < ns; v++) {
            if (degree[v] == 0) {
                out.add(new Polyline(new int[] {v}, false));
            } else if (degree[v] != 2) {
                for (int a = start[v]; a < start[v + 1]; a++) {
                    if (!used[edgeOf[a]]) {
                        out.add(walk(v, a, start, adjacent, edgeOf, used, degree));
                    }
                }
            }
        }
        for (int v = 0; v < ns; v++) { // what is left are loops of degree-2 nodes
            for (int a = start[v]; a < start[v + 1]; a++) {
                if (!used[edgeOf[a]]) {
                    out.add(walk(v, a, start, adjacent, edgeOf, used, degree));
                }
            }
        }
        return out;
    }

    private static Polyline walk(int v0, int a0, int[] start, int[] adjacent, int[] edgeOf, boolean[] used,
            int[] degree) {
        IntList path = new IntList();
        path.add(v0);
        int v = v0;
        int a = a0;
        while (true) {
            used[edgeOf[a]] = true;
            v = adjacent[a];
            if (v == v0) {
                return new Polyline(path.toArray(), true);
            }
            path.add(v);
            if (degree[v] != 2) {
                return new Polyline(path.toArray(), false);
            }
            int nextArc = -1;
            for (int b = start[v]; b < start[v + 1]; b++) {
                if (!used[edgeOf[b]]) {
                    nextArc = b;
                }
            }
            if (nextArc < 0) {
                return new Polyline(path.toArray(), false);
            }
            a = nextArc;
        }
    }
}
