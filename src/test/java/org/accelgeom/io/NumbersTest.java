package org.accelgeom.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class NumbersTest {

    private static double parse(String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        return Numbers.parseDouble(b, 0, b.length);
    }

    private static double finite(double v) {
        return Double.isFinite(v) ? v : 1.0;
    }

    @Test
    void agreesWithTheJdkBitForBit() {
        Random r = new Random(5);
        for (int k = 0; k < 200_000; k++) {
            String s = switch (k % 4) {
                case 0 -> String.format(java.util.Locale.ROOT, "%." + r.nextInt(12) + "f", r.nextGaussian() * Math.pow(10, r.nextInt(12)));
                case 1 -> Double.toString(finite(Double.longBitsToDouble(r.nextLong())));
                case 2 -> (r.nextInt(2000000) - 1000000) + "e" + (r.nextInt(60) - 30);
                default -> "0." + Long.toString(Math.abs(r.nextLong()) % 1_000_000_000_000_000L);
            };
            assertEquals(Double.doubleToRawLongBits(Double.parseDouble(s)), Double.doubleToRawLongBits(parse(s)), s);
        }
    }

    @Test
    void cSpellingsAndRejects() {
        byte[] nan = "nan".getBytes(StandardCharsets.US_ASCII);
        byte[] inf = "-inf".getBytes(StandardCharsets.US_ASCII);
        assertEquals(Double.NaN, Numbers.parseDoubleOrNonFinite(nan, 0, 3));
        assertEquals(Double.NEGATIVE_INFINITY, Numbers.parseDoubleOrNonFinite(inf, 0, 4));
        assertEquals(Double.POSITIVE_INFINITY, parse("1e400"), "overflow is infinite; the readers reject it");
        assertEquals(-0.0, parse("-0"));
        assertEquals(1.5, parse("+1.5"));
        assertEquals(100.0, parse("1E2"));
        assertEquals(0.5, parse(".5"));
        for (String bad : new String[] {"", "-", "1.2.3", "abc", "1e", "1,5", "2d", "0x", "nan", "NaN", "inf",
            "Infinity", "-Infinity", "1.5f", " 1", "1 ", "e5", ".", "+", "1e+", "0x1p3d"}) {
            assertThrows(NumberFormatException.class, () -> parse(bad), bad);
        }
    }

    /**
     * Short tokens of number-like bytes: accepted exactly when they match the decimal grammar, then as the JDK reads
     * them (the tokens that start and end with a digit or '.' skip the grammar check: this tests that shortcut).
     */
    @Test
    void acceptsExactlyTheDecimalGrammar() {
        java.util.regex.Pattern grammar = java.util.regex.Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
        String alphabet = "0123456789..eE+-dDfF \r";
        Random r = new Random(11);
        for (int k = 0; k < 300_000; k++) {
            StringBuilder sb = new StringBuilder();
            for (int n = 1 + r.nextInt(6); n > 0; n--) {
                sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
            }
            String s = sb.toString();
            if (grammar.matcher(s).matches()) {
                assertEquals(Double.doubleToRawLongBits(Double.parseDouble(s)), Double.doubleToRawLongBits(parse(s)), s);
            } else {
                assertThrows(NumberFormatException.class, () -> parse(s), "'" + s + "'");
            }
        }
    }

    /** Plain decimals below 0.1 with up to 17 significant digits after the zeros (more than 19 digits in all). */
    @Test
    void smallPlainFractionsAgreeWithTheJdk() {
        Random r = new Random(13);
        for (int k = 0; k < 100_000; k++) {
            double v = r.nextDouble() * Math.pow(10, -1 - r.nextInt(12));
            String s = (r.nextBoolean() ? "-" : r.nextBoolean() ? "+" : "")
                    + new java.math.BigDecimal(Double.toString(v)).toPlainString();
            assertEquals(Double.doubleToRawLongBits(Double.parseDouble(s)), Double.doubleToRawLongBits(parse(s)), s);
        }
        assertEquals(0.0013112271028085333, parse("0.0013112271028085333"));
        assertEquals(-0.0, parse("-0.000000000000000000000"));
        assertEquals(1e-30, parse("0.000000000000000000000000000001"));
        for (String bad : new String[] {"0.00131122710280853x3", "0.0013112271028085.33", "0.00-13112271028085333",
            "0.0013112271028085333e"}) {
            assertThrows(NumberFormatException.class, () -> parse(bad), bad);
        }
    }

    @Test
    void ints() {
        byte[] b = "-2147483648 2147483648".getBytes(StandardCharsets.US_ASCII);
        assertEquals(Integer.MIN_VALUE, Numbers.parseInt(b, 0, 11));
        assertThrows(NumberFormatException.class, () -> Numbers.parseInt(b, 12, b.length));
    }

    @Test
    void lzfLiteralRunsAndOverlappingBackReferences() {
        // "abc" as a literal run, then a back-reference of 6 bytes at distance 3 (overlapping itself)
        byte[] packed = {2, 'a', 'b', 'c', (byte) (4 << 5), 2};
        byte[] out = new byte[9];
        assertEquals(9, Lzf.decompress(packed, out));
        assertArrayEquals("abcabcabc".getBytes(StandardCharsets.US_ASCII), out);
        assertEquals(-1, Lzf.decompress(new byte[] {(byte) (1 << 5), 10}, new byte[8]), "reference before the start");
    }
}
