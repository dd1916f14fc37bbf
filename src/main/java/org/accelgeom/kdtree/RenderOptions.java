package org.accelgeom.kdtree;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.Execution;

/**
 * How to render.
 *
 * @param backend where the rays are traced
 * @param shadows trace a shadow ray to the light from every lit hit
 * @param threads threads for {@code jvm-parallel} (0: one per core)
 * @param device  TornadoVM device (-1: TornadoVM's default)
 */
public record RenderOptions(Backend backend, boolean shadows, int threads, int device) {

    public static RenderOptions of(Backend backend) {
        return new RenderOptions(backend, true, 0, -1);
    }

    public RenderOptions withShadows(boolean s) {
        return new RenderOptions(backend, s, threads, device);
    }

    public RenderOptions withThreads(int t) {
        return new RenderOptions(backend, shadows, t, device);
    }

    public RenderOptions withDevice(int d) {
        return new RenderOptions(backend, shadows, threads, d);
    }

    /** Where these options run: backend, threads and device. */
    public Execution execution() {
        return Execution.of(backend).withThreads(threads).withDevice(device);
    }
}
