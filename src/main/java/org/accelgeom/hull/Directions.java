package org.accelgeom.hull;

/** Direction sets for the extreme-point passes. */
final class Directions {

    private Directions() {
    }

    /**
     * The six axis directions (−x, +x, −y, +y, −z, +z) followed by {@code k} directions spread evenly over the
     * unit sphere (a Fibonacci lattice), as {@code 3 * (6 + k)} doubles.
     */
    static double[] axesAndSphere(int k) {
        double[] d = new double[3 * (6 + k)];
        for (int a = 0; a < 3; a++) {
            d[3 * (2 * a) + a] = -1;
            d[3 * (2 * a + 1) + a] = 1;
        }
        double golden = Math.PI * (3 - Math.sqrt(5));
        for (int i = 0; i < k; i++) {
            double zz = 1 - (2 * i + 1) / (double) k;
            double r = Math.sqrt(Math.max(0, 1 - zz * zz));
            double phi = golden * i;
            int o = 3 * (6 + i);
            d[o] = r * Math.cos(phi);
            d[o + 1] = r * Math.sin(phi);
            d[o + 2] = zz;
        }
        return d;
    }
}
