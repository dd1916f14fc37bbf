package org.accelgeom.voronoi;

/**
 * The former name of {@link Voronoi}, kept for one release so that programs calling {@code VoronoiDiagram.…} still compile
 * (its static members resolve through the subclass). Use {@link Voronoi}.
 */
@Deprecated(forRemoval = true)
public final class VoronoiDiagram extends Voronoi {

    private VoronoiDiagram() {
    }
}
