package org.accelgeom.render;

/**
 * The former name of {@link RenderKernels}, kept for one release so that programs calling {@code RayKernels.…} still compile
 * (its static members resolve through the subclass). Use {@link RenderKernels}.
 */
@Deprecated(forRemoval = true)
public final class RayKernels extends RenderKernels {

    private RayKernels() {
    }
}
