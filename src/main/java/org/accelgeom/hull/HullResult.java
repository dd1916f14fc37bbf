package org.accelgeom.hull;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.io.Mesh;
import org.accelgeom.io.PointCloud;

/**
 * The convex hull of a point set.
 *
 * <p>{@code dimension} says what it is: 3, a polytope whose {@code facets} are convex polygons,
 * counter-clockwise seen from outside, no two neighbours coplanar; 2, all points coplanar: one facet, the
 * convex polygon (counter-clockwise seen from the side its normal points to); 1, all points collinear: the two
 * end points, no facet; 0, all points equal: one vertex; -1, no points. Vertices and facets index the input.
 *
 * @param dimension  -1, 0, 1, 2 or 3, as above
 * @param vertices   the hull's vertices (extreme points), ascending point indices
 * @param facetStart facet f is {@code facetIndex[facetStart[f] .. facetStart[f+1]-1]}
 * @param facetIndex the facets' corners, as point indices
 * @param stats      counts of the run
 * @param timings    time per phase
 * @param backend    the backend that computed it
 */
public record HullResult(int dimension, int[] vertices, int[] facetStart, int[] facetIndex, Stats stats,
        PhaseTimings timings, Backend backend) {

    /**
     * @param points         input points
     * @param culled         points removed by the interior-culling pass
     * @param rounds         QuickHull rounds (passes of reassignment over the points)
     * @param insertions     points inserted as hull vertices (including ones later found non-extreme)
     * @param exactFallbacks orientation tests the floating-point filter could not decide (run exactly)
     */
    public record Stats(int points, int culled, int rounds, int insertions, long exactFallbacks) {
    }

    public int facetCount() {
        return facetStart.length - 1;
    }

    /** True when all input points are coplanar (the hull is a flat polygon). */
    public boolean isFlat() {
        return dimension == 2;
    }

    /** Number of triangles after fan-triangulating every facet. */
    public int triangleCount() {
        int t = 0;
        for (int f = 0; f < facetCount(); f++) {
            t += facetStart[f + 1] - facetStart[f] - 2;
        }
        return t;
    }

    /**
     * The hull as a mesh over its own vertices (ascending point indices) with its facets in a canonical order: each
     * facet starts at its corner of the smallest index (its orientation kept) and the facets are sorted by their
     * corners. So every run that finds the same vertices writes the same mesh, whatever order its algorithm left
     * the facets in (one device, or the hull of the parts' hulls of a split, {@link PartitionedHull}).
     */
    public Mesh toMesh(PointCloud points) {
        Mesh m = toMeshInFacetOrder(points);
        int[] start = m.faceStart();
        int[] idx = m.faceIndex();
        int faces = start.length - 1;
        int[][] rotated = new int[faces][];
        for (int f = 0; f < faces; f++) {
            int a = start[f];
            int len = start[f + 1] - a;
            int low = 0;
            for (int k = 1; k < len; k++) {
                if (idx[a + k] < idx[a + low]) {
                    low = k;
                }
            }
            int[] r = new int[len];
            for (int k = 0; k < len; k++) {
                r[k] = idx[a + (low + k) % len];
            }
            rotated[f] = r;
        }
        java.util.Arrays.sort(rotated, java.util.Arrays::compare);
        int[] outIdx = new int[idx.length];
        int[] outStart = new int[faces + 1];
        for (int f = 0, o = 0; f < faces; f++) {
            System.arraycopy(rotated[f], 0, outIdx, o, rotated[f].length);
            o += rotated[f].length;
            outStart[f + 1] = o;
        }
        return new Mesh(m.x(), m.y(), m.z(), outStart, outIdx);
    }

    /** The hull as a mesh over its own vertices, the facets in the order of {@link #facetStart}. */
    Mesh toMeshInFacetOrder(PointCloud points) {
        int[] map = new int[points.size()];
        double[] mx = new double[vertices.length];
        double[] my = new double[vertices.length];
        double[] mz = new double[vertices.length];
        for (int i = 0; i < vertices.length; i++) {
            int p = vertices[i];
            map[p] = i;
            mx[i] = points.x()[p];
            my[i] = points.y()[p];
            mz[i] = points.z()[p];
        }
        int[] idx = new int[facetIndex.length];
        for (int k = 0; k < idx.length; k++) {
            idx[k] = map[facetIndex[k]];
        }
        return new Mesh(mx, my, mz, facetStart.clone(), idx);
    }
}
