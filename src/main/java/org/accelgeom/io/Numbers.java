package org.accelgeom.io;

/**
 * Number parsing straight from ASCII bytes, without creating a String per token.
 *
 * <p>{@link #parseDouble} is exact: decimals with at most 15 significant digits and a small power of ten
 * are converted by one exact multiplication or division (both operands are exactly representable, so the
 * IEEE result is the correctly rounded value); every other spelling (17 digits, large exponents, NaN,
 * Infinity, hex) goes to {@link Double#parseDouble}. Whatever is not a number throws
 * {@link NumberFormatException}.
 */
final class Numbers {
    private Numbers() {
    }

    private static final double[] POW10 = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22
    };

    /** The double spelled by {@code b[s..e)}. */
    static double parseDouble(byte[] b, int s, int e) {
        int i = s;
        boolean negative = false;
        if (i < e && (b[i] == '-' || b[i] == '+')) {
            negative = b[i] == '-';
            i++;
        }
        long mantissa = 0;
        int digits = 0;       // significant digits taken into the mantissa
        int scale = 0;        // power of ten applied to the mantissa
        boolean any = false;
        while (i < e && b[i] >= '0' && b[i] <= '9') {
            if (mantissa != 0 || b[i] != '0') {
                digits++;
            }
            mantissa = mantissa * 10 + (b[i] - '0');
            any = true;
            i++;
        }
        if (i < e && b[i] == '.') {
            i++;
            while (i < e && b[i] >= '0' && b[i] <= '9') {
                if (mantissa != 0 || b[i] != '0') {
                    digits++;
                }
                mantissa = mantissa * 10 + (b[i] - '0');
                scale--;
                any = true;
                i++;
            }
        }
        if (any && i < e && (b[i] == 'e' || b[i] == 'E')) {
            int j = i + 1;
            boolean expNegative = false;
            if (j < e && (b[j] == '-' || b[j] == '+')) {
                expNegative = b[j] == '-';
                j++;
            }
            int exp = 0;
            int expDigits = 0;
            while (j < e && b[j] >= '0' && b[j] <= '9' && expDigits < 6) {
                exp = exp * 10 + (b[j] - '0');
                expDigits++;
                j++;
            }
            if (expDigits > 0) {
                scale += expNegative ? -exp : exp;
                i = j;
            }
        }
        if (i == e && any && digits <= 15 && scale >= -22 && scale <= 22) {
            double m = mantissa;
            double v = scale >= 0 ? m * POW10[scale] : m / POW10[-scale];
            return negative ? -v : v;
        }
        return slowDouble(new String(b, s, e - s, java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    /** {@link Double#parseDouble}, plus the spellings C programs print: nan, inf, -inf, infinity. */
    private static double slowDouble(String t) {
        switch (t.toLowerCase(java.util.Locale.ROOT)) {
            case "nan", "+nan", "-nan":
                return Double.NaN;
            case "inf", "+inf", "infinity", "+infinity":
                return Double.POSITIVE_INFINITY;
            case "-inf", "-infinity":
                return Double.NEGATIVE_INFINITY;
            default:
                break;
        }
        char last = t.isEmpty() ? ' ' : t.charAt(t.length() - 1);
        if (last == 'd' || last == 'D' || last == 'f' || last == 'F') {
            throw new NumberFormatException(t); // Java literal suffixes are not numbers in data files
        }
        return Double.parseDouble(t);
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
            return Integer.parseInt(new String(b, s, e - s, java.nio.charset.StandardCharsets.ISO_8859_1));
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
