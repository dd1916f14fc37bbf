package org.accelgeom.render;

import org.accelgeom.engine.AccelGeomException;

/**
 * A pinhole camera in world coordinates, the one camera type of the ray caster and the terrain: the eye (x, y, z),
 * the unit view direction (dx, dy, dz), the up direction (not necessarily unit or orthogonal to the view: the
 * image's vertical is its part orthogonal to the view), the vertical field of view and the image's resolution in
 * pixels.
 *
 * <p>Contract: the view direction is normalised here (it may be given at any non-zero length); the up direction may
 * not be parallel to it; 0 &lt; fov &lt; 180 degrees; the image has 1 to 2^27 pixels. A violation is an
 * {@link AccelGeomException} with one line that says which.
 */
public record Camera(double x, double y, double z, double dx, double dy, double dz, double upX, double upY, double upZ,
        double fovDegrees, int width, int height) {

    public Camera {
        if (!(fovDegrees > 0 && fovDegrees < 180)) {
            throw new AccelGeomException("field of view must be in (0, 180) degrees, got " + fovDegrees);
        }
        if (width < 1 || height < 1 || (long) width * height > (1 << 27)) {
            throw new AccelGeomException("image size must be between 1x1 and 2^27 pixels, got " + width + "x" + height);
        }
        double n = Math.sqrt(dx * dx + dy * dy + dz * dz);
        if (!(n > 0) || Double.isInfinite(n)) {
            throw new AccelGeomException("the camera's view direction is zero or not finite (eye and target the same point?)");
        }
        dx /= n;
        dy /= n;
        dz /= n;
        if (norm(cross(new double[] {dx, dy, dz}, new double[] {upX, upY, upZ})) == 0) {
            throw new AccelGeomException("the camera's up direction is parallel to its viewing direction, or zero");
        }
    }

    /**
     * A camera with z up (the terrain's convention: heights along z); when the view is along z, y is up instead (the
     * top of the image points north).
     */
    public Camera(double x, double y, double z, double dx, double dy, double dz, double fovDegrees, int width, int height) {
        this(x, y, z, dx, dy, dz, 0, dx == 0 && dy == 0 ? 1 : 0, dx == 0 && dy == 0 ? 0 : 1, fovDegrees, width, height);
    }

    /** A camera at {@code eye} looking at {@code target}, z up (see the 9-argument constructor). */
    public static Camera lookAt(double ex, double ey, double ez, double tx, double ty, double tz, double fovDegrees, int width,
            int height) {
        return new Camera(ex, ey, ez, tx - ex, ty - ey, tz - ez, fovDegrees, width, height);
    }

    /** A camera at {@code eye} looking at {@code target} with the given up direction. */
    public static Camera lookAt(double[] eye, double[] target, double[] up, double fovDegrees, int width, int height) {
        return new Camera(eye[0], eye[1], eye[2], target[0] - eye[0], target[1] - eye[1], target[2] - eye[2], up[0], up[1],
                up[2], fovDegrees, width, height);
    }

    /**
     * A view of the box {@code bounds} (min x y z, max x y z): from the direction (0.55, 0.35, 1) of its centre,
     * y up, far enough for its bounding sphere to fill the 40° view.
     */
    public static Camera framing(float[] bounds, int width, int height) {
        return lookAt(framingEye(bounds), centre(bounds), new double[] {0, 1, 0}, FRAMING_FOV, width, height);
    }

    /** The point light of {@link #framing}: above and to the right of its eye (the ray caster's default light). */
    public static double[] framingLight(float[] bounds) {
        double[] eye = framingEye(bounds);
        double dist = framingDistance(bounds);
        return new double[] {eye[0] + dist, eye[1] + dist, eye[2] + 0.2 * dist};
    }

    /** The centre of the box {@code bounds} (min x y z, max x y z). */
    public static double[] centre(float[] bounds) {
        double[] c = new double[3];
        for (int k = 0; k < 3; k++) {
            c[k] = 0.5 * ((double) bounds[k] + bounds[3 + k]);
        }
        return c;
    }

    private static final double FRAMING_FOV = 40;

    private static double framingDistance(float[] bounds) {
        double r = 0;
        for (int k = 0; k < 3; k++) {
            r += Math.pow((double) bounds[3 + k] - bounds[k], 2);
        }
        r = Math.max(1e-6, 0.5 * Math.sqrt(r));
        return r / Math.sin(Math.toRadians(FRAMING_FOV / 2));
    }

    private static double[] framingEye(float[] bounds) {
        double[] c = centre(bounds);
        double dist = framingDistance(bounds);
        double[] dir = normalize(new double[] {0.55, 0.35, 1});
        return new double[] {c[0] + dist * dir[0], c[1] + dist * dir[1], c[2] + dist * dir[2]};
    }

    /** The eye as an array (x, y, z). */
    public double[] eye() {
        return new double[] {x, y, z};
    }

    /** Pixels per unit of size over distance: height / (2 tan(fov/2)). */
    public double pixelScale() {
        return height / (2 * Math.tan(Math.toRadians(fovDegrees) / 2));
    }

    /**
     * The ray caster's camera array ({@link RenderKernels#EYE} ...): the eye, the view direction, the image plane's
     * right and up half-extents at unit distance; the point light and the shadow rays' offset eps.
     */
    public float[] toArray(double[] light, double eps) {
        double[] f = {dx, dy, dz};
        double[] right = normalize(cross(f, new double[] {upX, upY, upZ}));
        double[] u = cross(right, f);
        double ty = Math.tan(Math.toRadians(fovDegrees / 2));
        double tx = ty * width / height;
        float[] a = new float[RenderKernels.CAMERA_FLOATS];
        for (int k = 0; k < 3; k++) {
            a[RenderKernels.EYE + k] = (float) eye()[k];
            a[RenderKernels.FORWARD + k] = (float) f[k];
            a[RenderKernels.RIGHT + k] = (float) (tx * right[k]);
            a[RenderKernels.UP + k] = (float) (ty * u[k]);
            a[RenderKernels.LIGHT + k] = (float) light[k];
        }
        a[RenderKernels.SHADOW_EPS] = (float) eps;
        a[RenderKernels.FAR] = Float.POSITIVE_INFINITY;
        return a;
    }

    private static double[] cross(double[] a, double[] b) {
        return new double[] {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    }

    private static double norm(double[] a) {
        return Math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    }

    private static double[] normalize(double[] a) {
        double n = norm(a);
        return new double[] {a[0] / n, a[1] / n, a[2] / n};
    }
}
