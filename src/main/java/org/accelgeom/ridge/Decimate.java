package org.accelgeom.ridge;

/**
 * decimate (rule 2.1; Alg. 3, the thesis's conservative GPU version v1 of Alg. 11): scan S in order and remove
 * p at once if
 *
 * <pre>  #{q ∈ S : ‖p − q‖ ≤ R2} ≥ 4   or   #{q ∈ S : ‖p − q‖ ≤ 2·R2} ≤ 2</pre>
 *
 * counting p itself; a removal affects the tests that follow. Passes repeat until one removes nothing. The
 * floor: a set of 3 or fewer points is never decimated (the thesis has "|S| &lt; 3", "|S| &gt; 3" and Rupniewski's
 * code "&gt; 2" in three places; we stop as soon as |S| = 3). Sequential and exact, on the host for every
 * backend: |S| is small (hundreds to thousands) next to the cloud.
 */
final class Decimate {

    /** The smallest |S| that decimation leaves. */
    static final int FLOOR = 3;

    private Decimate() {
    }

    /**
     * Decimates the ns row-major representatives {@code s} in place (order kept) and returns the new count.
     * {@code keep}, if not null, receives for each original representative whether it survived.
     */
    static int decimate(double[] s, int ns, int d, double r2, boolean[] keep) {
        boolean[] alive = new boolean[ns];
        java.util.Arrays.fill(alive, true);
        int count = ns;
        double r2sq = r2 * r2;
        double r4sq = 4 * r2sq; // (2·R2)²
        boolean removed = true;
        while (removed && count > FLOOR) {
            removed = false;
            for (int i = 0; i < ns && count > FLOOR; i++) {
                if (alive[i] && remove(s, ns, d, i, alive, r2sq, r4sq)) {
                    alive[i] = false;
                    count--;
                    removed = true;
                }
            }
        }
        int m = 0;
        for (int i = 0; i < ns; i++) {
            if (alive[i]) {
                if (m != i) {
                    System.arraycopy(s, i * d, s, m * d, d);
                }
                m++;
            }
            if (keep != null) {
                keep[i] = alive[i];
            }
        }
        return m;
    }

    /** Rule 2.1 for representative i, with the early exits of Alg. 11 (4 within R2; 3 within 2·R2). */
    private static boolean remove(double[] s, int ns, int d, int i, boolean[] alive, double r2sq, double r4sq) {
        int near = 0;
        int far = 0;
        for (int j = 0; j < ns; j++) {
            if (!alive[j]) {
                continue;
            }
            double d2 = 0;
            for (int c = 0; c < d; c++) {
                double dx = s[i * d + c] - s[j * d + c];
                d2 += dx * dx;
            }
            if (d2 <= r2sq && ++near >= 4) {
                return true;
            }
            if (d2 <= r4sq) {
                far++;
            }
        }
        return far <= 2;
    }
}
