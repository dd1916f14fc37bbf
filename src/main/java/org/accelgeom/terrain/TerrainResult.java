package org.accelgeom.terrain;

/** What one frame produced: its triangle count, the depth of its deepest leaf, its wall time. */
public record TerrainResult(int triangles, int deepest, double millis) {
}
