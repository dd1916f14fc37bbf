package org.accelgeom.kdtree;

import org.accelgeom.engine.AccelGeomException;

/**
 * A pinhole camera: the eye, the point it looks at, the up direction and the vertical field of view; and a point
 * light for shadow rays.
 */
public record Camera(double[] eye, double[] target, double[] up, double fovDegrees, double[] light) {

    public Camera {
        if (!(fovDegrees > 0 && fovDegrees < 180)) {
            throw new AccelGeomException("field of view must be in (0, 180) degrees, got " + fovDegrees);
        }
        double[] f = sub(target, eye);
        if (norm(f) == 0) {
            throw new AccelGeomException("the camera's eye and target are the same point");
        }
        if (norm(cross(f, up)) == 0) {
            throw new AccelGeomException("the camera's up direction is parallel to its viewing direction");
        }
    }

    /**
     * A view of the box {@code bounds} (min x y z, max x y z): from the direction (0.55, 0.35, 1) of its centre,
     * y up, far enough for its bounding sphere to fill the 40° view; the light above and to the right of the eye.
     */
    public static Camera framing(float[] bounds) {
        double[] c = new double[3];
        double r = 0;
        for (int k = 0; k < 3; k++) {
            c[k] = 0.5 * ((double) bounds[k] + bounds[3 + k]);
            r += Math.pow((double) bounds[3 + k] - bounds[k], 2);
        }
        r = Math.max(1e-6, 0.5 * Math.sqrt(r));
        double fov = 40;
        double dist = r / Math.sin(Math.toRadians(fov / 2));
        double[] dir = normalize(new double[] {0.55, 0.35, 1});
        double[] eye = {c[0] + dist * dir[0], c[1] + dist * dir[1], c[2] + dist * dir[2]};
        double[] light = {eye[0] + dist, eye[1] + dist, eye[2] + 0.2 * dist};
        return new Camera(eye, c, new double[] {0, 1, 0}, fov, light);
    }

    /** The kernels' camera array ({@link RayKernels#EYE} ...) for an image of width × height; eps scales shadow-ray offsets. */
    public float[] toArray(int width, int height, double eps) {
        double[] f = normalize(sub(target, eye));
        double[] right = normalize(cross(f, up));
        double[] u = cross(right, f);
        double ty = Math.tan(Math.toRadians(fovDegrees / 2));
        double tx = ty * width / height;
        float[] a = new float[RayKernels.CAMERA_FLOATS];
        for (int k = 0; k < 3; k++) {
            a[RayKernels.EYE + k] = (float) eye[k];
            a[RayKernels.FORWARD + k] = (float) f[k];
            a[RayKernels.RIGHT + k] = (float) (tx * right[k]);
            a[RayKernels.UP + k] = (float) (ty * u[k]);
            a[RayKernels.LIGHT + k] = (float) light[k];
        }
        a[RayKernels.SHADOW_EPS] = (float) eps;
        a[RayKernels.FAR] = Float.POSITIVE_INFINITY;
        return a;
    }

    static double[] sub(double[] a, double[] b) {
        return new double[] {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    }

    static double[] cross(double[] a, double[] b) {
        return new double[] {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    }

    static double norm(double[] a) {
        return Math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    }

    static double[] normalize(double[] a) {
        double n = norm(a);
        return new double[] {a[0] / n, a[1] / n, a[2] / n};
    }
}
