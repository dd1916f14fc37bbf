package org.accelgeom.kdtree;

import java.util.Arrays;

/**
 * Splits a node's references at a plane (Algorithm 1's SplitTriangles): a reference whose box ends at or before
 * ξ goes left, one that starts at or after ξ goes right, one flat at ξ goes to the plane's side, and one that
 * straddles ξ goes to both, clipped to each child's voxel (perfect splits). These are exactly the sets the sweep
 * counted as N_L, N_R and N_P. With events (the O(N log N) variant, W&amp;H §4.3), the children's sorted event
 * lists are the parent's filtered in order, merged with the straddlers' new events, which alone are sorted.
 */
final class NodeSplitter {

    static final byte LEFT_ONLY = 1;
    static final byte RIGHT_ONLY = 2;
    static final byte BOTH = 3;

    private final float[] v;
    private final Clipper clipper = new Clipper();

    NodeSplitter(float[] v) {
        this.v = v;
    }

    /** The side of a reference with extent [lo, hi] on the split axis. */
    static byte classify(float lo, float hi, float xi, int side) {
        if (lo == xi && hi == xi) {
            return side == KdTreeKernels.LEFT ? LEFT_ONLY : RIGHT_ONLY;
        }
        if (hi <= xi) {
            return LEFT_ONLY;
        }
        if (lo >= xi) {
            return RIGHT_ONLY;
        }
        return BOTH;
    }

    static float[] leftVoxel(float[] voxel, Split s) {
        float[] l = voxel.clone();
        l[3 + s.axis()] = s.pos();
        return l;
    }

    static float[] rightVoxel(float[] voxel, Split s) {
        float[] r = voxel.clone();
        r[s.axis()] = s.pos();
        return r;
    }

    /**
     * The two children of {@code node} split by {@code s}; {@code cls} is scratch indexed by triangle id (the
     * O(N log N) variant needs it to filter events).
     */
    BuildNode[] split(BuildNode node, float[] voxel, Split s, byte[] cls) {
        int k = s.axis();
        float xi = s.pos();
        byte[] c = new byte[node.n];
        int nl = 0;
        int nr = 0;
        for (int i = 0; i < node.n; i++) {
            c[i] = classify(node.box[6 * i + k], node.box[6 * i + 3 + k], xi, s.side());
            nl += (c[i] & LEFT_ONLY) != 0 ? 1 : 0;
            nr += (c[i] & RIGHT_ONLY) != 0 ? 1 : 0;
        }
        float[] vl = leftVoxel(voxel, s);
        float[] vr = rightVoxel(voxel, s);
        BuildNode left = child(node, c, LEFT_ONLY, nl, vl);
        BuildNode right = child(node, c, RIGHT_ONLY, nr, vr);
        if (node.events == null) {
            return new BuildNode[] {left, right};
        }
        for (int i = 0; i < node.n; i++) {
            cls[node.tri[i]] = c[i];
        }
        return new BuildNode[] {withEvents(node, left, c, LEFT_ONLY, cls), withEvents(node, right, c, RIGHT_ONLY, cls)};
    }

    private BuildNode child(BuildNode node, byte[] c, byte bit, int m, float[] childVoxel) {
        int[] tri = new int[m];
        float[] box = new float[6 * m];
        int j = 0;
        for (int i = 0; i < node.n; i++) {
            if (c[i] == bit) {
                tri[j] = node.tri[i];
                System.arraycopy(node.box, 6 * i, box, 6 * j, 6);
                j++;
            } else if (c[i] == BOTH) {
                tri[j] = node.tri[i];
                clipper.clip(v, node.tri[i], childVoxel, node.box, 6 * i, box, 6 * j);
                j++;
            }
        }
        return new BuildNode(m, tri, box, null);
    }

    /** The child's sorted events: the parent's events of one-sided triangles, in order, merged with the straddlers' new ones. */
    private static BuildNode withEvents(BuildNode node, BuildNode child, byte[] c, byte bit, byte[] cls) {
        int straddlers = 0;
        for (int i = 0; i < node.n; i++) {
            straddlers += c[i] == BOTH ? 1 : 0;
        }
        // the straddlers' positions in the child: in parent order among the child's references
        int[] at = new int[straddlers];
        int j = 0;
        int s = 0;
        for (int i = 0; i < node.n; i++) {
            if (c[i] == BOTH) {
                at[s++] = j;
            }
            if (c[i] == bit || c[i] == BOTH) {
                j++;
            }
        }
        long[][] e = new long[3][];
        for (int k = 0; k < 3; k++) {
            long[] parent = node.events[k];
            long[] kept = new long[parent.length];
            int m = 0;
            for (long key : parent) {
                if (cls[Events.tri(key)] == bit) {
                    kept[m++] = key;
                }
            }
            long[] fresh = new long[2 * straddlers];
            int f = 0;
            for (int q = 0; q < straddlers; q++) {
                f = Events.generate(child, at[q], at[q] + 1, k, fresh, f);
            }
            Arrays.sort(fresh, 0, f);
            e[k] = merge(kept, m, fresh, f);
        }
        return new BuildNode(child.n, child.tri, child.box, e);
    }

    private static long[] merge(long[] a, int na, long[] b, int nb) {
        long[] out = new long[na + nb];
        int i = 0;
        int j = 0;
        int o = 0;
        while (i < na && j < nb) {
            out[o++] = a[i] < b[j] ? a[i++] : b[j++];
        }
        while (i < na) {
            out[o++] = a[i++];
        }
        while (j < nb) {
            out[o++] = b[j++];
        }
        return out;
    }
}
