package org.accelgeom.render;

/**
 * The former name of {@link Render}, kept for one release so that programs calling {@code RayCaster.…} still compile
 * (its static members resolve through the subclass). Use {@link Render}.
 */
@Deprecated(forRemoval = true)
public final class RayCaster extends Render {

    private RayCaster() {
    }
}
