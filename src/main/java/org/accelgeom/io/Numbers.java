package org.accelgeom.io;

import ch.randelshofer.fastdoubleparser.JavaDoubleParser;
import java.nio.charset.StandardCharsets;

/**
 * Number parsing straight from ASCII bytes, without creating a String per token.
 *
 * <p>{@link #parseDouble} accepts the decimal spellings of data files, {@code [+-] digits [. digits]
 * [(e|E) [+-] digits]} with at least one digit before the exponent (and Java's hexadecimal floating-point
 * literals), and converts them with Werner Randelshofer's FastDoubleParser ({@code JavaDoubleParser}), whose
 * result is bit for bit that of {@link Double#parseDouble}. Everything else throws
 * {@link NumberFormatException}: NaN and infinity spellings, Java's {@code d}/{@code f} suffixes, blanks. A
 * decimal too large for a double gives an infinity, which {@link #isFinite} callers reject.
 * {@link #parseDoubleOrNonFinite} also accepts the spellings C programs print for non-finite values
 * ({@code nan}, {@code inf}, {@code -inf}, {@code infinity}), for the formats that keep NaN points (PCD).
 */
final class Numbers {
    private Numbers() {
    }

    /**
     * The double spelled by {@code b[s..e)} (decimal or hexadecimal; no NaN or infinity spelling). A token that starts
     * (after its sign) and ends with a digit or '.' goes to the parser at once: of the spellings the parser takes
     * beyond ours, none does (NaN, Infinity, the d/f suffixes and exponents without digits end otherwise; hexadecimal
     * is handled first), and what it rejects we reject, so only other tokens are checked first, in one pass less.
     */
    static double parseDouble(byte[] b, int s, int e) {
        int i = s;
        if (i < e && (b[i] == '-' || b[i] == '+')) {
            i++;
        }
        if (i + 1 < e && b[i] == '0' && (b[i + 1] == 'x' || b[i + 1] == 'X')) {
            return hex(b, s, e);
        }
        if (i < e && digitOrPoint(b[i]) && digitOrPoint(b[e - 1])) {
            if (e - i > 20 && b[i] == '0' && b[i + 1] == '.' && b[i + 2] == '0') {
                return smallFraction(b, s, e, i);
            }
            return JavaDoubleParser.parseDouble(b, s, e - s);
        }
        int digits = 0;
        while (i < e && b[i] >= '0' && b[i] <= '9') {
            i++;
            digits++;
        }
        if (i < e && b[i] == '.') {
            i++;
            while (i < e && b[i] >= '0' && b[i] <= '9') {
                i++;
                digits++;
            }
        }
        if (digits == 0) {
            throw new NumberFormatException();
        }
        if (i < e && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (i < e && (b[i] == '-' || b[i] == '+')) {
                i++;
            }
            int expDigits = 0;
            while (i < e && b[i] >= '0' && b[i] <= '9') {
                i++;
                expDigits++;
            }
            if (expDigits == 0) {
                throw new NumberFormatException();
            }
        }
        if (i != e) {
            throw new NumberFormatException();
        }
        return JavaDoubleParser.parseDouble(b, s, e - s);
    }

    /**
     * {@code [+-]0.0...0ddd} (no exponent) with more than 19 digits counting the zeros after the point: the parser counts
     * those zeros among its 19 digits and leaves longer literals to {@link Double#parseDouble} on a String (the
     * coordinates below 0.01 that shortest-decimal writers print with 17 significant digits: 0.35% of a file's numbers
     * took a fifth of its parsing). The same decimal value, written {@code [+-]ddd e-k}, goes to the parser instead:
     * both round correctly, so the double is the same. Anything else in that shape goes to the parser as it is.
     */
    private static double smallFraction(byte[] b, int s, int e, int i) {
        int z = i + 2;
        while (z < e && b[z] == '0') {
            z++;
        }
        int digits = e - z;
        if (digits == 0 || digits > 19) {
            return JavaDoubleParser.parseDouble(b, s, e - s);
        }
        byte[] t = new byte[1 + digits + 12];
        int n = 0;
        if (i > s) {
            t[n++] = b[s];
        }
        for (int k = z; k < e; k++) {
            if (b[k] < '0' || b[k] > '9') {
                return JavaDoubleParser.parseDouble(b, s, e - s); // not digits: the parser rejects it as it is
            }
            t[n++] = b[k];
        }
        t[n++] = 'e';
        t[n++] = '-';
        String exponent = Integer.toString(e - (i + 2));
        for (int k = 0; k < exponent.length(); k++) {
            t[n++] = (byte) exponent.charAt(k);
        }
        return JavaDoubleParser.parseDouble(t, 0, n);
    }

    private static boolean digitOrPoint(byte c) {
        return c >= '0' && c <= '9' || c == '.';
    }

    private static double hex(byte[] b, int s, int e) {
        byte last = b[e - 1];
        if (last == 'd' || last == 'D' || last == 'f' || last == 'F') {
            throw new NumberFormatException(); // Java literal suffixes are not numbers in data files
        }
        return Double.parseDouble(new String(b, s, e - s, StandardCharsets.ISO_8859_1));
    }

    /** {@link #parseDouble}, plus the spellings C programs print: nan, inf, -inf, infinity (any case). */
    static double parseDoubleOrNonFinite(byte[] b, int s, int e) {
        try {
            return parseDouble(b, s, e);
        } catch (NumberFormatException ex) {
            switch (new String(b, s, e - s, StandardCharsets.ISO_8859_1).toLowerCase(java.util.Locale.ROOT)) {
                case "nan", "+nan", "-nan":
                    return Double.NaN;
                case "inf", "+inf", "infinity", "+infinity":
                    return Double.POSITIVE_INFINITY;
                case "-inf", "-infinity":
                    return Double.NEGATIVE_INFINITY;
                default:
                    throw ex;
            }
        }
    }

    /** The int spelled by {@code b[s..e)} (optional sign, decimal digits). */
    static int parseInt(byte[] b, int s, int e) {
        int i = s;
        boolean negative = false;
        if (i < e && (b[i] == '-' || b[i] == '+')) {
            negative = b[i] == '-';
            i++;
        }
        if (i == e || e - i > 10) {
            return Integer.parseInt(new String(b, s, e - s, StandardCharsets.ISO_8859_1));
        }
        long v = 0;
        for (; i < e; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                throw new NumberFormatException();
            }
            v = v * 10 + d;
        }
        v = negative ? -v : v;
        if (v != (int) v) {
            throw new NumberFormatException();
        }
        return (int) v;
    }
}
