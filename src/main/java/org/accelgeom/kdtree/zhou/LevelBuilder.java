package org.accelgeom.kdtree.zhou;

/**
 * The former name of {@link ZhouBuilder}, kept for one release so that programs calling {@code LevelBuilder.…} still compile
 * (its static members resolve through the subclass). Use {@link ZhouBuilder}.
 */
@Deprecated(forRemoval = true)
public final class LevelBuilder extends ZhouBuilder {

    private LevelBuilder() {
    }
}
