package org.accelgeom.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The XYZ reader's fast path over whole lines gives what the line-by-line path gives, points bit for bit or the same
 * error, on text made of every kind of line either path has to tell apart, in blocks of many sizes.
 */
class XyzFastLinesTest {
    @TempDir
    Path dir;

    @AfterEach
    void blocks() {
        System.clearProperty("accelgeom.io.block");
    }

    /** Pieces of a line: numbers, blanks, line ends, and what the fast path must leave to the other. */
    private static final String[] NUMBERS = {"1", "-0.5", "+2.25", "0.0013112271028085333", "-0.013112271028085333",
        "2.351446877097754E-4", "1e300", ".5", "5.", "0x1p3", "7"};
    private static final String[] ODD = {"1e999", "nan", "Infinity", "1d", "#c", "1#", "--1", "\u0001", "\u00e9", "\r",
        "\u007f", "1,2", ""};
    private static final String[] BLANKS = {" ", "\t", "\u000b", "\f", "  "};

    private static String text(Random r, int lines, double odd) {
        StringBuilder sb = new StringBuilder();
        for (int l = 0; l < lines; l++) {
            int kind = r.nextInt(40);
            if (kind == 0) {
                sb.append(r.nextBoolean() ? "" : BLANKS[r.nextInt(BLANKS.length)]);
            } else if (kind == 1) {
                sb.append("# a comment ").append(l);
            } else {
                int cols = r.nextDouble() < odd ? 2 + r.nextInt(3) : 3;
                if (r.nextBoolean()) {
                    sb.append(BLANKS[r.nextInt(BLANKS.length)]);
                }
                for (int k = 0; k < cols; k++) {
                    if (k > 0) {
                        sb.append(BLANKS[r.nextInt(BLANKS.length)]);
                    }
                    sb.append(r.nextDouble() < odd ? ODD[r.nextInt(ODD.length)] : NUMBERS[r.nextInt(NUMBERS.length)]);
                }
                if (r.nextInt(8) == 0) {
                    sb.append(BLANKS[r.nextInt(BLANKS.length)]);
                }
            }
            if (l < lines - 1 || r.nextBoolean()) {
                sb.append(r.nextInt(6) == 0 ? "\r\n" : "\n");
            }
        }
        return sb.toString();
    }

    /** The outcome of reading {@code data} from a stream (its blocks one after the other). */
    private static String streamed(byte[] data, boolean fast) throws Exception {
        try (Input in = Input.of("t.xyz", new ByteArrayInputStream(data))) {
            return describe(TextPointReader.read(in, fast));
        } catch (FormatException e) {
            return "error: " + e.getMessage().replace("t.xyz", "");
        }
    }

    private static String describe(PointCloud c) {
        StringBuilder sb = new StringBuilder(c.dimension() + "x" + c.size() + ":");
        for (double[] col : c.coords()) {
            for (double v : col) {
                sb.append(Double.doubleToRawLongBits(v)).append(',');
            }
        }
        return sb.toString();
    }

    private String mapped(byte[] data, boolean fast) throws Exception {
        Path p = dir.resolve("t.xyz");
        Files.write(p, data);
        try (Input in = Input.open(p.toString())) {
            return describe(TextPointReader.read(in, fast));
        } catch (FormatException e) {
            return "error: " + e.getMessage().replace(p.toString(), "");
        }
    }

    @Test
    void fastLinesEqualLineByLine() throws Exception {
        Random r = new Random(21);
        int errors = 0;
        int points = 0;
        for (int t = 0; t < 300; t++) {
            double odd = t % 3 == 0 ? 0.0 : t % 3 == 1 ? 0.002 : 0.05;
            byte[] data = text(r, 1 + r.nextInt(300), odd).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            System.setProperty("accelgeom.io.block", Integer.toString(1 + r.nextInt(t % 2 == 0 ? 64 : 4096)));
            String slow = mapped(data, false);
            assertEquals(slow, mapped(data, true), "case " + t + ": " + new String(data, 0, Math.min(200, data.length),
                    java.nio.charset.StandardCharsets.ISO_8859_1));
            assertEquals(streamed(data, false), streamed(data, true), "case " + t + ", as a stream");
            if (slow.startsWith("error")) {
                errors++;
            } else {
                points++;
            }
        }
        assertTrue(errors > 50 && points > 50, errors + " errors, " + points + " clouds: both kinds of outcome tested");
    }

    @Test
    void fastLinesReadASavedCloudBitForBit() throws Exception {
        Random r = new Random(3);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        double[][] expected = new double[3][5000];
        for (int i = 0; i < 5000; i++) {
            for (int k = 0; k < 3; k++) {
                expected[k][i] = (r.nextDouble() * 2 - 1) * Math.pow(10, r.nextInt(9) - 4);
                out.writeBytes((expected[k][i] + (k < 2 ? " " : "\n")).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            }
        }
        System.setProperty("accelgeom.io.block", "1000");
        Path p = dir.resolve("s.xyz");
        Files.write(p, out.toByteArray());
        try (Input in = Input.open(p.toString())) {
            assertArrayEquals(expected, TextPointReader.read(in, true).coords());
        }
    }
}
