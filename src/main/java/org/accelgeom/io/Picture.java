package org.accelgeom.io;

import org.accelgeom.engine.AccelGeomException;

/**
 * What the pictures of {@code io} ({@link MeshPicture}, {@link Plot2D}) share: a size checked once, a caption and its
 * setter, which returns the picture itself ({@code P}) so that the configuration methods chain.
 */
abstract class Picture<P extends Picture<P>> {

    final int width;
    final int height;
    /** The caption, or null. */
    String title;

    /** A picture of at least {@code least} pixels a side, else one error: {@code need}, then the size given. */
    Picture(int width, int height, int least, String need) {
        if (width < least || height < least) {
            throw new AccelGeomException(need + ", got " + width + " x " + height);
        }
        this.width = width;
        this.height = height;
    }

    /** A caption drawn at the top left, or null. */
    public P title(String t) {
        title = t;
        return self();
    }

    /** This picture as its own type, for chaining. */
    abstract P self();

    /** (dx, dy, dz) scaled to unit length; {@code what} names it in the error when it is zero (or not finite). */
    static double[] unit(String what, double dx, double dy, double dz) {
        double n = Math.sqrt(dx * dx + dy * dy + dz * dz);
        if (!(n > 0)) {
            throw new IllegalArgumentException(what + " must be non-zero");
        }
        return new double[] {dx / n, dy / n, dz / n};
    }
}
