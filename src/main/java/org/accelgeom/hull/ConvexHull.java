package org.accelgeom.hull;

/**
 * The former name of {@link Hull}, kept for one release so that programs calling {@code ConvexHull.…} still compile
 * (its static members resolve through the subclass). Use {@link Hull}.
 */
@Deprecated(forRemoval = true)
public final class ConvexHull extends Hull {

    private ConvexHull() {
    }
}
