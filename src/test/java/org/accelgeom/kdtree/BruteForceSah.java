package org.accelgeom.kdtree;

import java.util.ArrayList;
import java.util.List;

/**
 * An independent, slow SAH kd-tree builder for tiny inputs, the oracle of the builders: at every node it tries
 * every candidate position (every face of every reference box) on every axis, counts N_L, N_P, N_R by classifying
 * every reference directly, and keeps the cheapest by the cost formula written out here once more. It shares only
 * the clipping of straddlers ({@link Clipper}) with the builders.
 */
final class BruteForceSah {

    private final float[] v;
    private final double kT;
    private final double kI;
    private final double lambda;
    private final int depthLimit;
    final TreeWriter w = new TreeWriter();

    BruteForceSah(Triangles t, KdTreeOptions o) {
        v = t.v();
        kT = o.kT();
        kI = o.kI();
        lambda = o.lambda();
        depthLimit = o.depthLimit(t.count());
    }

    static KdTree build(Triangles t, KdTreeOptions o) {
        BruteForceSah b = new BruteForceSah(t, o);
        BuildNode root = SahBuilder.root(t);
        List<float[]> boxes = new ArrayList<>();
        List<Integer> tris = new ArrayList<>();
        for (int i = 0; i < root.n; i++) {
            tris.add(i);
            boxes.add(java.util.Arrays.copyOfRange(root.box, 6 * i, 6 * i + 6));
        }
        b.node(tris, boxes, t.bounds(), 0);
        return new KdTree(java.util.Arrays.copyOf(b.w.split, b.w.nodes), java.util.Arrays.copyOf(b.w.info, b.w.nodes),
                java.util.Arrays.copyOf(b.w.leafTris, b.w.leafSize), t.bounds(), t);
    }

    private static double area(double dx, double dy, double dz) {
        return 2 * (dx * dy + dy * dz + dz * dx);
    }

    private void node(List<Integer> tris, List<float[]> boxes, float[] vox, int depth) {
        int idx = w.reserve();
        int n = tris.size();
        int[] ids = tris.stream().mapToInt(Integer::intValue).toArray();
        if (n == 0 || depth >= depthLimit) {
            w.leaf(idx, ids, n);
            return;
        }
        double best = Double.POSITIVE_INFINITY;
        int bestK = -1;
        float bestX = 0;
        boolean bestLeft = false;
        double sa = area((double) vox[3] - vox[0], (double) vox[4] - vox[1], (double) vox[5] - vox[2]);
        for (int k = 0; k < 3; k++) {
            for (float[] cand : boxes) {
                for (float x : new float[] {cand[k], cand[3 + k]}) {
                    int nl = 0;
                    int np = 0;
                    int nr = 0;
                    for (float[] b : boxes) {
                        if (b[k] == x && b[3 + k] == x) {
                            np++;
                        } else {
                            nl += b[k] < x ? 1 : 0;
                            nr += b[3 + k] > x ? 1 : 0;
                        }
                    }
                    double[] d = {(double) vox[3] - vox[0], (double) vox[4] - vox[1], (double) vox[5] - vox[2]};
                    double[] dl = d.clone();
                    double[] dr = d.clone();
                    dl[k] = (double) x - vox[k];
                    dr[k] = (double) vox[3 + k] - x;
                    double pl = area(dl[0], dl[1], dl[2]) / sa;
                    double pr = area(dr[0], dr[1], dr[2]) / sa;
                    for (int side = 0; side < 2; side++) {
                        int l = side == 0 ? nl + np : nl;
                        int r = side == 0 ? nr : nr + np;
                        boolean empty = (l == 0 && dl[k] > 0) || (r == 0 && dr[k] > 0);
                        double c = (empty ? lambda : 1) * (kT + kI * (pl * l + pr * r));
                        if (!(sa > 0)) {
                            c = Double.POSITIVE_INFINITY;
                        }
                        // order: cost, then position, then axis; planar side: left only when strictly cheaper
                        boolean better = c < best || (c == best && (x < bestX || (x == bestX && k < bestK)));
                        boolean sameCandidate = bestK == k && bestX == x;
                        if (side == 0 ? better : (better || (sameCandidate && c <= best))) {
                            best = c;
                            bestK = k;
                            bestX = x;
                            bestLeft = side == 0;
                        }
                    }
                }
            }
        }
        if (bestK < 0 || best > kI * n) {
            w.leaf(idx, ids, n);
            return;
        }
        float[] vl = vox.clone();
        vl[3 + bestK] = bestX;
        float[] vr = vox.clone();
        vr[bestK] = bestX;
        List<Integer> lt = new ArrayList<>();
        List<float[]> lb = new ArrayList<>();
        List<Integer> rt = new ArrayList<>();
        List<float[]> rb = new ArrayList<>();
        Clipper clipper = new Clipper();
        for (int i = 0; i < n; i++) {
            float[] b = boxes.get(i);
            boolean planar = b[bestK] == bestX && b[3 + bestK] == bestX;
            boolean toLeft = planar ? bestLeft : b[bestK] < bestX;
            boolean toRight = planar ? !bestLeft : b[3 + bestK] > bestX;
            boolean both = toLeft && toRight;
            if (toLeft) {
                lt.add(tris.get(i));
                float[] c = b.clone();
                if (both) {
                    clipper.clip(v, tris.get(i), vl, b, 0, c, 0);
                }
                lb.add(c);
            }
            if (toRight) {
                rt.add(tris.get(i));
                float[] c = b.clone();
                if (both) {
                    clipper.clip(v, tris.get(i), vr, b, 0, c, 0);
                }
                rb.add(c);
            }
        }
        node(lt, lb, vl, depth + 1);
        w.inner(idx, bestK, bestX, w.nodes);
        node(rt, rb, vr, depth + 1);
    }
}
