package org.accelgeom.terrain;

import org.accelgeom.engine.AccelGeomException;

/**
 * A pinhole camera in world coordinates (metres): position, unit view direction, vertical field of view and
 * the screen's resolution in pixels. The level-of-detail criterion needs the position, the direction (to skip
 * triangles behind the camera) and the pixel scale height / (2 tan(fov/2)).
 */
public record Camera(double x, double y, double z, double dx, double dy, double dz, double fovDegrees, int width, int height) {

    public Camera {
        double n = Math.sqrt(dx * dx + dy * dy + dz * dz);
        if (!(n > 0) || !(fovDegrees > 0 && fovDegrees < 180) || width < 1 || height < 1) {
            throw new AccelGeomException("bad camera: a non-zero view direction, 0 < fov < 180 degrees and a positive resolution are needed");
        }
        dx /= n;
        dy /= n;
        dz /= n;
    }

    /** A camera at {@code eye} looking at {@code target}. */
    public static Camera lookAt(double ex, double ey, double ez, double tx, double ty, double tz, double fovDegrees, int width, int height) {
        return new Camera(ex, ey, ez, tx - ex, ty - ey, tz - ez, fovDegrees, width, height);
    }

    /** Pixels per unit of size over distance. */
    public double pixelScale() {
        return height / (2 * Math.tan(Math.toRadians(fovDegrees) / 2));
    }

    /** The parameter array of {@link TerrainKernels}. */
    public float[] toKernel(double size, double zScale, double targetPixels) {
        float[] c = new float[TerrainKernels.CAMERA_FLOATS];
        c[TerrainKernels.CX] = (float) x;
        c[TerrainKernels.CY] = (float) y;
        c[TerrainKernels.CZ] = (float) z;
        c[TerrainKernels.DX] = (float) dx;
        c[TerrainKernels.DY] = (float) dy;
        c[TerrainKernels.DZ] = (float) dz;
        c[TerrainKernels.PIXEL_SCALE] = (float) pixelScale();
        c[TerrainKernels.TARGET] = (float) targetPixels;
        c[TerrainKernels.SIZE] = (float) size;
        c[TerrainKernels.Z_SCALE] = (float) zScale;
        return c;
    }
}
