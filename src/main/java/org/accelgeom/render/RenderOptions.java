package org.accelgeom.render;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.Execution;

/**
 * How to render.
 *
 * @param execution where the rays are traced: backend, threads for {@code jvm-parallel} (0: one per core),
 *                  TornadoVM device (-1: TornadoVM's default)
 * @param shadows   trace a shadow ray to the light from every lit hit
 * @param light     the point light (x, y, z); null: {@link Camera#framingLight} of the tree's bounds
 */
public record RenderOptions(Execution execution, boolean shadows, double[] light) {

    public RenderOptions {
        if (light != null && light.length != 3) {
            throw new IllegalArgumentException("a light is a point (x, y, z)");
        }
    }

    public static RenderOptions of(Backend backend) {
        return new RenderOptions(Execution.of(backend), true, null);
    }

    public RenderOptions withShadows(boolean s) {
        return new RenderOptions(execution, s, light);
    }

    /** Threads and device are the {@link Execution}'s: these two set them there. */
    public RenderOptions withThreads(int t) {
        return withExecution(execution.withThreads(t));
    }

    public RenderOptions withDevice(int d) {
        return withExecution(execution.withDevice(d));
    }

    public RenderOptions withExecution(Execution e) {
        return new RenderOptions(e, shadows, light);
    }

    public RenderOptions withLight(double[] l) {
        return new RenderOptions(execution, shadows, l == null ? null : l.clone());
    }

    public Backend backend() {
        return execution.backend();
    }

    public int threads() {
        return execution.threads();
    }

    public int device() {
        return execution.device();
    }
}
