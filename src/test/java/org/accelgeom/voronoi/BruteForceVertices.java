package org.accelgeom.voronoi;

import java.util.ArrayList;
import java.util.List;

/** The test oracle: every quadruple's tangent spheres, kept when empty (O(n^5), small inputs only). */
final class BruteForceVertices {

    /** One vertex: sorted quadruple and sphere. */
    record Vertex(int a, int b, int c, int d, double x, double y, double z, double r) {
    }

    private BruteForceVertices() {
    }

    static List<Vertex> of(Balls b, double tol) {
        int n = b.size();
        boolean[] hidden = b.hidden(BallGrid.build(b, 0, null));
        double[] out = new double[8];
        List<Vertex> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                for (int k = j + 1; k < n; k++) {
                    for (int l = k + 1; l < n; l++) {
                        if (hidden[i] || hidden[j] || hidden[k] || hidden[l]) {
                            continue;
                        }
                        int m = TangentSpheres.solve(b.x(), b.y(), b.z(), b.r(), i, j, k, l, out);
                        for (int s = 0; s < m; s++) {
                            double[] sp = {out[4 * s], out[4 * s + 1], out[4 * s + 2], out[4 * s + 3]};
                            if (InitialVertex.empty(b, hidden, new int[] {i, j, k, l}, sp, tol)) {
                                list.add(new Vertex(i, j, k, l, sp[0], sp[1], sp[2], sp[3]));
                            }
                        }
                    }
                }
            }
        }
        return list;
    }
}
