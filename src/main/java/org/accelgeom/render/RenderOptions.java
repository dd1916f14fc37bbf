package org.accelgeom.render;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.Execution;

/**
 * How to render.
 *
 * @param backend where the rays are traced
 * @param shadows trace a shadow ray to the light from every lit hit
 * @param threads threads for {@code jvm-parallel} (0: one per core)
 * @param device  TornadoVM device (-1: TornadoVM's default)
 * @param light   the point light (x, y, z); null: {@link Camera#framingLight} of the tree's bounds
 */
public record RenderOptions(Backend backend, boolean shadows, int threads, int device, double[] light) {

    public RenderOptions {
        if (light != null && light.length != 3) {
            throw new IllegalArgumentException("a light is a point (x, y, z)");
        }
    }

    public static RenderOptions of(Backend backend) {
        return new RenderOptions(backend, true, 0, -1, null);
    }

    public RenderOptions withShadows(boolean s) {
        return new RenderOptions(backend, s, threads, device, light);
    }

    public RenderOptions withThreads(int t) {
        return new RenderOptions(backend, shadows, t, device, light);
    }

    public RenderOptions withDevice(int d) {
        return new RenderOptions(backend, shadows, threads, d, light);
    }

    public RenderOptions withLight(double[] l) {
        return new RenderOptions(backend, shadows, threads, device, l == null ? null : l.clone());
    }

    /** Where these options run: backend, threads and device. */
    public Execution execution() {
        return Execution.of(backend).withThreads(threads).withDevice(device);
    }
}
