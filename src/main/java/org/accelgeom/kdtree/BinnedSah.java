package org.accelgeom.kdtree;

/**
 * Binned SAH for large nodes (the approximation GPU builders use for their upper levels; the reading of
 * Zhou, Hou, Wang &amp; Guo, "Real-time kd-tree construction on graphics hardware", 2008, whose large-node stage
 * splits at spatial medians and cuts off empty space): instead of every event position, only the
 * {@link #BINS} − 1 inner bin boundaries of each axis and the two planes that cut off the empty space around the
 * node's references are tried. Counts come from per-bin histograms of the references' clipped boxes (a box
 * counts left of boundary j when its minimum lies in a bin below j, right when its maximum lies in bin j or
 * above), so they are exact up to boxes that end inside the boundary's bins. The node is then split exactly
 * ({@link NodeSplitter}); small nodes keep the exact event SAH.
 */
final class BinnedSah {

    /** Bins per axis. */
    static final int BINS = 32;

    private BinnedSah() {
    }

    static Split find(BuildNode node, float[] voxel, double[] c) {
        Split best = Split.NONE;
        int n = node.n;
        int[] starts = new int[BINS];
        int[] ends = new int[BINS];
        for (int k = 0; k < 3; k++) {
            float lo = voxel[k];
            float hi = voxel[3 + k];
            if (!(hi > lo)) {
                continue;
            }
            java.util.Arrays.fill(starts, 0);
            java.util.Arrays.fill(ends, 0);
            double scale = BINS / ((double) hi - lo);
            float min = Float.POSITIVE_INFINITY;
            float max = Float.NEGATIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                float a = node.box[6 * i + k];
                float b = node.box[6 * i + 3 + k];
                starts[bin(a, lo, scale)]++;
                ends[bin(b, lo, scale)]++;
                min = Math.min(min, a);
                max = Math.max(max, b);
            }
            int left = 0;
            int right = n;
            for (int j = 1; j < BINS; j++) {
                left += starts[j - 1];
                right -= ends[j - 1];
                float xi = (float) (lo + j / scale);
                if (xi > lo && xi < hi) {
                    best = consider(best, voxel, k, xi, left, right, c);
                }
            }
            // empty-space cutting at the references' tight bounds
            if (min > lo) {
                best = consider(best, voxel, k, min, 0, n, c);
            }
            if (max < hi) {
                best = consider(best, voxel, k, max, n, 0, c);
            }
        }
        return best;
    }

    private static Split consider(Split best, float[] voxel, int k, float xi, int nl, int nr, double[] c) {
        double cost = KdTreeKernels.sah(voxel, k, xi, nl, 0, nr, c, false);
        return best.orBetter(k, xi, KdTreeKernels.RIGHT, cost);
    }

    private static int bin(float x, float lo, double scale) {
        int b = (int) ((x - (double) lo) * scale);
        return Math.max(0, Math.min(BINS - 1, b));
    }
}
