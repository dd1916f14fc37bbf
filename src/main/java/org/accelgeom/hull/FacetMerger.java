package org.accelgeom.hull;

import java.util.Arrays;

import org.accelgeom.engine.IntList;

/**
 * Turns the QuickHull's triangulated surface into the convex polytope's true facets: adjacent triangles that
 * are exactly coplanar are merged (union–find over the half-edge adjacency), each facet's boundary loop is
 * walked, and loop vertices whose neighbours are collinear with them are dropped. What remains are convex
 * polygons, no two neighbours coplanar, whose corners are exactly the extreme points of the input (the
 * vertices that Qhull reports with {@code Fv}).
 *
 * <p>Why this is needed: QuickHull adds a point only when it is strictly above a face, but a later point can
 * make an earlier vertex lie inside a facet or on an edge (points on a grid, say). Such a vertex is not
 * extreme; its triangles are coplanar with their neighbours, and merging removes it.
 */
final class FacetMerger {

    /** Polygon facets (point indices, counter-clockwise from outside) and the sorted hull vertices. */
    record Facets(int[] start, int[] index, int[] vertices) {
    }

    /** The merge's state: the live faces, their facet (root) and the surface's vertices, numbered compactly. */
    private final HullTopology t;
    private final int[] live;
    private final int m;
    /** Position in {@code live} of each face id (-1 for dead faces). */
    private final int[] liveIndex;
    /** Each live face's facet: the smallest position among the coplanar triangles merged with it. */
    private final int[] root;
    /** Members of facet r (positions in {@code live}): {@code members[memberStart[r] .. memberStart[r + 1] - 1]}. */
    private final int[] memberStart;
    private final int[] members;
    /** The surface's vertices, sorted; {@code local[3f + k]} is corner k of face f as an index into it. */
    private final int[] surface;
    private final int[] local;
    /**
     * The surface vertices' coordinates, in the order of {@link #surface}: the tests below read these few thousand
     * points instead of reaching into the input's arrays (hundreds of MB at 10^7 points, a cache miss per corner).
     */
    private final double[] sx;
    private final double[] sy;
    private final double[] sz;
    private final boolean[] isVertex;
    private final IntList start = new IntList();
    private final IntList index = new IntList();

    private FacetMerger(HullTopology t, int[] live, boolean parallel) {
        this.t = t;
        this.live = live;
        this.m = live.length;
        this.liveIndex = new int[t.faceCount];
        Arrays.fill(liveIndex, -1);
        for (int i = 0; i < m; i++) {
            liveIndex[live[i]] = i;
        }
        this.local = new int[3 * t.faceCount];
        this.surface = numberSurface(parallel);
        this.sx = new double[surface.length];
        this.sy = new double[surface.length];
        this.sz = new double[surface.length];
        for (int v = 0; v < surface.length; v++) {
            sx[v] = t.x[surface[v]];
            sy[v] = t.y[surface[v]];
            sz[v] = t.z[surface[v]];
        }
        this.root = coplanarRoots();
        this.memberStart = new int[m + 1];
        this.members = new int[m];
        sortMembers();
        this.isVertex = new boolean[surface.length];
    }

    /** The facets of {@code t}'s live faces; {@code parallel}: its one sort on the common pool (not the jvm backend). */
    static Facets merge(HullTopology t, int[] live, boolean parallel) {
        return new FacetMerger(t, live, parallel).facets();
    }

    /** Union–find of exactly coplanar neighbours; returns each live face's root. */
    private int[] coplanarRoots() {
        double[] x = sx;
        double[] y = sy;
        double[] z = sz;
        int[] parent = new int[m];
        for (int i = 0; i < m; i++) {
            parent[i] = i;
        }
        for (int i = 0; i < m; i++) {
            int f = live[i];
            int a = local[3 * f];
            int b = local[3 * f + 1];
            int c = local[3 * f + 2];
            for (int k = 0; k < 3; k++) {
                int h = t.twin[3 * f + k];
                int g = h / 3;
                int j = liveIndex[g];
                if (j < i) {
                    continue; // each pair once
                }
                int opp = local[3 * g + (h % 3 + 2) % 3];
                if (Predicates.side(x[a], y[a], z[a], x[b], y[b], z[b], x[c], y[c], z[c], x[opp], y[opp], z[opp]) == 0) {
                    union(parent, i, j);
                }
            }
        }
        int[] r = new int[m];
        for (int i = 0; i < m; i++) {
            r[i] = find(parent, i);
        }
        return r;
    }

    /** The members of each facet, contiguous (counting sort by root). */
    private void sortMembers() {
        for (int i = 0; i < m; i++) {
            memberStart[root[i] + 1]++;
        }
        for (int i = 0; i < m; i++) {
            memberStart[i + 1] += memberStart[i];
        }
        int[] fill = Arrays.copyOf(memberStart, m);
        for (int i = 0; i < m; i++) {
            members[fill[root[i]]++] = i;
        }
    }

    /**
     * The surface's distinct vertices, sorted (per-vertex scratch sized by the hull, not by the input), and each live
     * corner's index into them in {@link #local}: one sort of the corners keyed by (vertex, half-edge), then one pass
     * (a binary search per corner took half of the merge's 20 ms at 10^7 points on an H100 host).
     */
    private int[] numberSurface(boolean parallel) {
        long[] corner = new long[3 * m];
        for (int i = 0; i < m; i++) {
            int f = live[i];
            for (int k = 0; k < 3; k++) {
                corner[3 * i + k] = (long) t.fv[3 * f + k] << 32 | (3 * f + k);
            }
        }
        if (parallel) {
            Arrays.parallelSort(corner);
        } else {
            Arrays.sort(corner);
        }
        int[] vertices = new int[corner.length];
        int distinct = 0;
        for (long c : corner) {
            int v = (int) (c >>> 32);
            if (distinct == 0 || vertices[distinct - 1] != v) {
                vertices[distinct++] = v;
            }
            local[(int) c] = distinct - 1;
        }
        return Arrays.copyOf(vertices, distinct);
    }

    /** Every facet in the order of its first live face: a lone triangle as it is, a merged one by its boundary. */
    private Facets facets() {
        int[] nextHalfEdge = new int[surface.length];
        int[] nextStamp = new int[surface.length];
        IntList loop = new IntList();
        boolean[] done = new boolean[m];
        for (int i = 0; i < m; i++) {
            int r = root[i];
            if (memberStart[r + 1] - memberStart[r] == 1) {
                triangle(live[i]);
            } else if (!done[r]) {
                done[r] = true;
                boundaryLoop(r, nextHalfEdge, nextStamp, loop);
                polygon(loop);
            }
        }
        start.add(index.size());
        IntList verts = new IntList();
        for (int p = 0; p < isVertex.length; p++) {
            if (isVertex[p]) {
                verts.add(surface[p]); // surface is sorted, so the vertices are too
            }
        }
        return new Facets(start.toArray(), index.toArray(), verts.toArray());
    }

    private void triangle(int f) {
        start.add(index.size());
        for (int k = 0; k < 3; k++) {
            index.add(t.fv[3 * f + k]);
            isVertex[local[3 * f + k]] = true;
        }
    }

    /**
     * The boundary of facet r as a loop of surface vertices (into {@code loop}): its boundary half-edges, keyed by
     * their start vertex (stamped with the facet's root, so the scratch arrays need no clearing), walked from the first.
     */
    private void boundaryLoop(int r, int[] nextHalfEdge, int[] nextStamp, IntList loop) {
        int stamp = r + 1;
        int first = -1;
        int count = 0;
        for (int q = memberStart[r]; q < memberStart[r + 1]; q++) {
            int f = live[members[q]];
            for (int k = 0; k < 3; k++) {
                int g = t.twin[3 * f + k] / 3;
                if (root[liveIndex[g]] != r) {
                    int u = local[3 * f + k];
                    nextHalfEdge[u] = 3 * f + k;
                    nextStamp[u] = stamp;
                    if (first < 0) {
                        first = 3 * f + k;
                    }
                    count++;
                }
            }
        }
        loop.clear();
        int h = first;
        for (int guard = 0; guard <= count; guard++) {
            int f = h / 3;
            loop.add(local[h]);
            int v = local[3 * f + (h % 3 + 1) % 3];
            if (nextStamp[v] != stamp) {
                throw new IllegalStateException("facet boundary is not a closed loop");
            }
            h = nextHalfEdge[v];
            if (h == first) {
                break;
            }
        }
    }

    /** A merged facet: its loop without the vertices whose neighbours are collinear with them. */
    private void polygon(IntList loop) {
        double[] x = sx;
        double[] y = sy;
        double[] z = sz;
        int len = loop.size();
        start.add(index.size());
        for (int k = 0; k < len; k++) {
            int lv = loop.get(k);
            int p = loop.get((k + len - 1) % len);
            int q = loop.get((k + 1) % len);
            if (!Predicates.collinear3d(x[p], y[p], z[p], x[lv], y[lv], z[lv], x[q], y[q], z[q])) {
                index.add(surface[lv]);
                isVertex[lv] = true;
            }
        }
    }

    private static int find(int[] parent, int i) {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }

    private static void union(int[] parent, int a, int b) {
        int ra = find(parent, a);
        int rb = find(parent, b);
        if (ra != rb) {
            parent[Math.max(ra, rb)] = Math.min(ra, rb);
        }
    }
}
