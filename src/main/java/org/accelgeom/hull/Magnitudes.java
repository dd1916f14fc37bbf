package org.accelgeom.hull;

/**
 * Binary magnitudes of doubles: the exponent of the highest and of the lowest set bit of a finite non-zero
 * double, so that v is an integer multiple of 2<sup>lowestBit(v)</sup> and 2<sup>highestBit(v)</sup> ≤ |v| &lt;
 * 2<sup>highestBit(v)+1</sup>. What decides whether floating-point arithmetic on a set of coordinates can overflow
 * or underflow (see {@link Predicates} and {@link HullRange}).
 */
final class Magnitudes {

    private static final long MANTISSA = (1L << 52) - 1;

    private Magnitudes() {
    }

    /** The exponent of the highest set bit of a finite non-zero v (Math.getExponent, subnormals included). */
    static int highestBit(double v) {
        long bits = Double.doubleToRawLongBits(v);
        int biased = (int) ((bits >>> 52) & 0x7ff);
        if (biased != 0) {
            return biased - 1023;
        }
        return -1074 + 63 - Long.numberOfLeadingZeros(bits & MANTISSA);
    }

    /** The exponent of the lowest set bit of a finite non-zero v: v is an odd multiple of 2 to that power. */
    static int lowestBit(double v) {
        long bits = Double.doubleToRawLongBits(v);
        int biased = (int) ((bits >>> 52) & 0x7ff);
        long mantissa = bits & MANTISSA;
        if (biased == 0) {
            return -1074 + Long.numberOfTrailingZeros(mantissa);
        }
        return biased - 1075 + Long.numberOfTrailingZeros(mantissa | (1L << 52));
    }
}
