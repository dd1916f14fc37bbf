package org.accelgeom.hull;

import java.math.BigDecimal;

/**
 * The exact stage of {@link Predicates} for inputs outside the range of its expansion arithmetic (coordinates
 * beyond about 10<sup>101</sup>, or with bits below 2<sup>-358</sup>, where a product of three coordinates would
 * overflow or lose bits to underflow): the determinant in {@link BigDecimal}, whose products and sums of doubles
 * are exact at any magnitude. Slow (microseconds), and only reached when the floating-point filter cannot
 * decide, which for such inputs is as rare as for any other.
 */
final class WideRange {

    private WideRange() {
    }

    /** The sign of (bx − ax)(cy − ay) − (by − ay)(cx − ax), exactly. */
    static int orient2d(double ax, double ay, double bx, double by, double cx, double cy) {
        // | b−a, 0 ; c−a, 0 ; 0, 0, 1 |: the 3D determinant with a third row (0, 0, 1) is the 2D one
        return orient3d(bx, by, 0, cx, cy, 0, ax, ay, 1, ax, ay, 0);
    }

    /** The sign of the determinant | a−d ; b−d ; c−d |, exactly (Shewchuk's orient3d). */
    static int orient3d(double ax, double ay, double az, double bx, double by, double bz,
                        double cx, double cy, double cz, double dx, double dy, double dz) {
        BigDecimal dX = exact(dx);
        BigDecimal dY = exact(dy);
        BigDecimal dZ = exact(dz);
        BigDecimal adx = exact(ax).subtract(dX);
        BigDecimal ady = exact(ay).subtract(dY);
        BigDecimal adz = exact(az).subtract(dZ);
        BigDecimal bdx = exact(bx).subtract(dX);
        BigDecimal bdy = exact(by).subtract(dY);
        BigDecimal bdz = exact(bz).subtract(dZ);
        BigDecimal cdx = exact(cx).subtract(dX);
        BigDecimal cdy = exact(cy).subtract(dY);
        BigDecimal cdz = exact(cz).subtract(dZ);
        BigDecimal det = adz.multiply(bdx.multiply(cdy).subtract(cdx.multiply(bdy)))
                .add(bdz.multiply(cdx.multiply(ady).subtract(adx.multiply(cdy))))
                .add(cdz.multiply(adx.multiply(bdy).subtract(bdx.multiply(ady))));
        return det.signum();
    }

    private static BigDecimal exact(double v) {
        return v == 0.0 ? BigDecimal.ZERO : new BigDecimal(v);
    }
}
