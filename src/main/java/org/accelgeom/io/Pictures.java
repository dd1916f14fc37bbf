package org.accelgeom.io;

import org.accelgeom.engine.AccelGeomException;

/** What the pictures of {@code io} ({@link MeshPicture}, {@link Plot2D}) check alike. */
final class Pictures {

    private Pictures() {
    }

    /** A picture of at least {@code least} pixels a side, else one error: {@code need}, then the size given. */
    static void requireSize(int width, int height, int least, String need) {
        if (width < least || height < least) {
            throw new AccelGeomException(need + ", got " + width + " x " + height);
        }
    }

    /** (dx, dy, dz) scaled to unit length; {@code what} names it in the error when it is zero (or not finite). */
    static double[] unit(String what, double dx, double dy, double dz) {
        double n = Math.sqrt(dx * dx + dy * dy + dz * dz);
        if (!(n > 0)) {
            throw new IllegalArgumentException(what + " must be non-zero");
        }
        return new double[] {dx / n, dy / n, dz / n};
    }
}
