package org.accelgeom.ridge;

import java.util.List;

import org.accelgeom.engine.DoubleList;
import org.accelgeom.engine.IntList;
import org.accelgeom.engine.ParallelLoops;

/**
 * choose (Alg. 5, the conservative "wybrańcy" selection): scan the candidates in order and take a point unless a
 * point taken before lies within R1 of it (‖p − q‖ ≤ R1). Order-dependent, sequential, exact; the first
 * candidate is always taken. A hashed grid finds the earlier points near a candidate, so the result is the
 * brute force's in O(n) instead of O(n·|S|) (the thesis runs this scan as one GPU thread block; Table 3.1).
 */
public final class Choose {

    private Choose() {
    }

    /**
     * choose on a whole cloud, {@code coords[c][i]}, in input order: the chosen points, row-major (|S| × d). The
     * first step of {@link Ridge#detect}, public for benchmarks (the thesis's Table 3.1) and for callers that
     * want an even R1-cover of a cloud.
     */
    public static double[] choose(double[][] coords, double r1) {
        int d = coords.length;
        int n = coords[0].length;
        double[] p = EvolutionLayout.bruteForce(coords).coords();
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        DoubleList out = new DoubleList();
        choose(p, n, d, all, n, r1, out, null);
        return out.toArray();
    }

    /**
     * The result of choose tile by tile: the representatives (row-major, grouped by tile), the cloud point each was
     * chosen from, and tile t's range {@code [tileStart[t], tileStart[t + 1])}.
     */
    record Chosen(double[] reps, int[] origins, int[] tileStart) {
    }

    /**
     * choose in every tile (§4: each tile chooses among its own core points, seeing only what it chose itself), the
     * tiles over {@code loops} (null: one thread) and concatenated in tile order: the sequential result exactly.
     */
    static Chosen tiles(double[] p, int n, int d, List<int[]> candidates, double r1, ParallelLoops loops) {
        int tiles = candidates.size();
        DoubleList[] reps = new DoubleList[tiles];
        IntList[] origins = new IntList[tiles];
        ParallelLoops.RangeBody body = (from, to) -> {
            for (int t = from; t < to; t++) {
                int[] c = candidates.get(t);
                reps[t] = new DoubleList();
                origins[t] = new IntList();
                choose(p, n, d, c, c.length, r1, reps[t], origins[t]);
            }
        };
        ParallelLoops.forRange(loops, tiles, 1, body);
        int[] tileStart = new int[tiles + 1];
        for (int t = 0; t < tiles; t++) {
            tileStart[t + 1] = tileStart[t] + origins[t].size();
        }
        int ns = tileStart[tiles];
        double[] s = new double[ns * d];
        int[] origin = new int[ns];
        ParallelLoops.RangeBody join = (from, to) -> {
            for (int t = from; t < to; t++) {
                int m = origins[t].size();
                for (int k = 0; k < m; k++) {
                    origin[tileStart[t] + k] = origins[t].get(k);
                }
                for (int k = 0; k < m * d; k++) {
                    s[tileStart[t] * d + k] = reps[t].get(k);
                }
                reps[t] = null;
                origins[t] = null;
            }
        };
        ParallelLoops.forRange(loops, tiles, 1, join);
        return new Chosen(s, origin, tileStart);
    }

    /**
     * The chosen points among {@code candidates} (indices into the column-major cloud {@code p} of n points), as
     * row-major coordinates appended to {@code out}, their indices to {@code origins} (if not null); returns how many
     * were chosen.
     */
    static int choose(double[] p, int n, int d, int[] candidates, int count, double r1, DoubleList out, IntList origins) {
        double r1sq = r1 * r1;
        double maxAbs = 0;
        for (int j = 0; j < count; j++) {
            for (int c = 0; c < Math.min(d, 3); c++) {
                maxAbs = Math.max(maxAbs, Math.abs(p[c * n + candidates[j]]));
            }
        }
        int base = out.size();
        int chosen = 0;
        double[] q = new double[d];
        if (!CellGrid.usable(maxAbs, r1)) {
            for (int j = 0; j < count; j++) {
                int i = candidates[j];
                boolean near = false;
                for (int k = 0; k < chosen && !near; k++) {
                    near = dist2(p, n, d, i, out, base + k * d) <= r1sq;
                }
                if (!near) {
                    append(p, n, d, i, out);
                    if (origins != null) {
                        origins.add(i);
                    }
                    chosen++;
                }
            }
            return chosen;
        }
        CellGrid grid = new CellGrid(d, r1);
        for (int j = 0; j < count; j++) {
            int i = candidates[j];
            for (int c = 0; c < d; c++) {
                q[c] = p[c * n + i];
            }
            final int pi = i;
            boolean near = grid.anyNear(q[0], d > 1 ? q[1] : 0, d > 2 ? q[2] : 0,
                    k -> dist2(p, n, d, pi, out, base + k * d) <= r1sq);
            if (!near) {
                append(p, n, d, i, out);
                if (origins != null) {
                    origins.add(i);
                }
                grid.add(chosen, q[0], d > 1 ? q[1] : 0, d > 2 ? q[2] : 0);
                chosen++;
            }
        }
        return chosen;
    }

    private static void append(double[] p, int n, int d, int i, DoubleList out) {
        for (int c = 0; c < d; c++) {
            out.add(p[c * n + i]);
        }
    }

    private static double dist2(double[] p, int n, int d, int i, DoubleList s, int at) {
        double d2 = 0;
        for (int c = 0; c < d; c++) {
            double dx = p[c * n + i] - s.get(at + c);
            d2 += dx * dx;
        }
        return d2;
    }
}
