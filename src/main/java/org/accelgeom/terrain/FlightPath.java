package org.accelgeom.terrain;

import org.accelgeom.render.Camera;

/**
 * A flight over the terrain: frames along a circle of radius 0.35·size around the centre, at {@code altitude}
 * metres above the highest point, looking ahead along the circle and down by {@code pitch} degrees. Frame f of n
 * is at angle 2π·f/n·{@code turns}.
 */
public record FlightPath(double size, double highest, double altitude, double pitchDegrees, double fovDegrees, int width, int height,
        double turns) {

    /** The camera of frame f of n. */
    public Camera frame(int f, int n) {
        double a = 2 * Math.PI * turns * f / Math.max(1, n);
        double r = 0.35 * size;
        double cx = size / 2 + r * Math.cos(a);
        double cy = size / 2 + r * Math.sin(a);
        double cz = highest + altitude;
        double hx = -Math.sin(a); // tangent: counter-clockwise flight
        double hy = Math.cos(a);
        double p = Math.toRadians(pitchDegrees);
        return new Camera(cx, cy, cz, hx * Math.cos(p), hy * Math.cos(p), -Math.sin(p), fovDegrees, width, height);
    }
}
