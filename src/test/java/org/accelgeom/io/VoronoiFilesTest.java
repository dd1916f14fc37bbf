package org.accelgeom.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The vertex file's fast fixed-point numbers equal {@code String.format("%.15f")} character for character. */
class VoronoiFilesTest {

    @TempDir
    Path dir;

    private static void same(double d, int prec) {
        String expected = String.format(Locale.ROOT, "%." + prec + "f", d);
        assertEquals(expected, VoronoiFiles.appendFixed(new StringBuilder(), d, prec).toString(), "value " + d + " (bits "
                + Long.toHexString(Double.doubleToRawLongBits(d)) + ")");
    }

    @Test
    void fixedEqualsFormatterOnEdgeValues() {
        double[] edge = {0.0, -0.0, 1.0, -1.0, 0.5, 9.5, 0.1, 1e-3, 9.999e-4, 1e-15, 5e-16, 4.9999e-16, 5.000000000000001e-16,
            -5e-16, -4e-16, 1e-16, 1e-300, Double.MIN_VALUE, -Double.MIN_VALUE, 9.9999999999999995, 0.9999999999999995,
            99.99999999999999, 999999.9999999999, 1e7, 1.2345678912345678e7, 1e22, 1e300, Double.MAX_VALUE, -Double.MAX_VALUE,
            123.4567890123455, 0.0000000000000015, 0.0000000000000025, 2.5e-15, 1.0000000000000005, Double.NaN,
            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (double d : edge) {
            for (int prec : new int[] {0, 1, 6, 15, 17}) {
                same(d, prec);
            }
        }
    }

    @Test
    void fixedEqualsFormatterOnRandomValues() {
        Random rnd = new Random(7);
        for (int i = 0; i < 200_000; i++) {
            double d = switch (i % 4) {
                case 0 -> (rnd.nextDouble() - 0.5) * 200; // coordinates of atoms
                case 1 -> Double.longBitsToDouble(rnd.nextLong()); // any double
                case 2 -> Math.round(rnd.nextGaussian() * 1e6) / 1e3 + rnd.nextInt(3) * 5e-16; // short decimals, ties
                default -> rnd.nextDouble() * Math.pow(10, rnd.nextInt(40) - 20);
            };
            same(d, 15);
            if (i % 8 == 0) {
                same(d, 1 + rnd.nextInt(20));
            }
        }
    }

    @Test
    void verticesFileIsTheFormattedOne() throws Exception {
        Random rnd = new Random(3);
        int n = 5000; // several blocks of the parallel formatting
        int[] q = new int[4 * n];
        double[] s = new double[4 * n];
        StringBuilder expected = new StringBuilder();
        for (int v = 0; v < n; v++) {
            for (int k = 0; k < 4; k++) {
                q[4 * v + k] = rnd.nextInt(5000);
                s[4 * v + k] = (rnd.nextDouble() - 0.5) * Math.pow(10, rnd.nextInt(8) - 2);
            }
            expected.append(String.format(Locale.ROOT, "%d %d %d %d %.15f %.15f %.15f %.15f%n", q[4 * v], q[4 * v + 1],
                    q[4 * v + 2], q[4 * v + 3], s[4 * v], s[4 * v + 1], s[4 * v + 2], s[4 * v + 3]));
        }
        Path f = dir.resolve("v.vertices");
        VoronoiFiles.writeVertices(f, n, q, s);
        assertEquals(expected.toString(), Files.readString(f));
    }
}
