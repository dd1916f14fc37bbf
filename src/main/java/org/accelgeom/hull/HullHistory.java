package org.accelgeom.hull;

import java.util.Arrays;

/**
 * The QuickHull's face history of one hull: every face it ever made (ids 0 .. {@code faces - 1}, face 0 the virtual
 * root whose cone is the initial tetrahedron), with its corners ({@code fv}, point indices, 3 per face), its
 * neighbours ({@code twin}, half-edge ids, 3 per face; those of live faces are the surface's) and, for a deleted face,
 * the cone of new faces that replaced it ({@code coneFirst}, {@code coneCount}; 0 for a live face). The deletions form
 * a search structure: a point above a deleted face is above a face of its cone or inside the hull after that
 * insertion (the surface of conv(H ∪ q) strictly above a face of H visible from q is made of q's cone), so any point
 * can be walked from the root to the live face it is above, or found inside. {@link SeededHull} continues a hull from
 * here with more points, as if they had been there from the start: what the merge of a split hull does with its first
 * part's history instead of inserting that part's vertices again.
 */
public record HullHistory(int faces, int[] fv, int[] twin, int[] coneFirst, int[] coneCount) {

    public HullHistory {
        if (faces < 5 || fv.length != 3 * faces || twin.length != 3 * faces || coneFirst.length != faces
                || coneCount.length != faces) {
            throw new IllegalArgumentException("a hull history needs the root and a tetrahedron, and arrays of its size");
        }
    }

    /** The points the faces 1 .. faces - 1 name, ascending (every vertex the hull ever had: a superset of its vertices). */
    public int[] points() {
        return distinct(Arrays.copyOfRange(fv, 3, fv.length));
    }

    /** The distinct values of p, ascending (p is sorted in place, over cores: 6·10^5 values at 10^8 points). */
    private static int[] distinct(int[] p) {
        Arrays.parallelSort(p);
        int k = 0;
        for (int i = 0; i < p.length; i++) {
            if (i == 0 || p[i] != p[i - 1]) {
                p[k++] = p[i];
            }
        }
        return Arrays.copyOf(p, k);
    }

    /** The points of the live faces, ascending: every vertex of the hull, and points inside its facets or edges. */
    public int[] livePoints() {
        int live = 0;
        for (int f = 1; f < faces; f++) {
            if (coneCount[f] == 0) {
                live++;
            }
        }
        int[] p = new int[3 * live];
        int k = 0;
        for (int f = 1; f < faces; f++) {
            if (coneCount[f] == 0) {
                p[k++] = fv[3 * f];
                p[k++] = fv[3 * f + 1];
                p[k++] = fv[3 * f + 2];
            }
        }
        return distinct(p);
    }

    /**
     * The same history with every point named by its position in {@code sorted} (ascending, holding every point of
     * {@link #points()}) plus {@code offset}: the indices of those points in a larger input.
     */
    public HullHistory renumbered(int[] sorted, int offset) {
        int[] v = new int[fv.length];
        java.util.stream.IntStream.range(3, fv.length).parallel().forEach(i -> {
            int at = Arrays.binarySearch(sorted, fv[i]);
            if (at < 0) {
                throw new IllegalArgumentException("point " + fv[i] + " of the history is not among the given points");
            }
            v[i] = at + offset;
        });
        return new HullHistory(faces, v, twin, coneFirst, coneCount);
    }
}
