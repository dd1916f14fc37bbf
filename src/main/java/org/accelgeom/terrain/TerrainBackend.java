package org.accelgeom.terrain;

import org.accelgeom.cbt.Cbt;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.PhaseTimings;

/**
 * The per-frame cycle of the CBT terrain as one backend runs it, over one tree and one heightmap (a device backend
 * keeps both in device memory across frames).
 */
public interface TerrainBackend extends AutoCloseable {

    /**
     * Makes the {@code tornado} backend on the execution's device (the backend owns its plan until it is closed);
     * implemented in {@code terrain.tornado} and found as a service
     * ({@link org.accelgeom.engine.TornadoSupport#factory}).
     */
    interface Factory {
        TerrainBackend create(Execution execution);
    }

    /** Takes the tree (packed, D ≥ 6), the heights (nx·ny, row major) and the most triangles a frame may emit. */
    void load(Cbt tree, float[] heights, int nx, int ny, int capacity, PhaseTimings timings);

    /**
     * One frame: the conforming split pass, the sum reduction, the diamond merge pass, the reduction again, then
     * the emission of every leaf's triangle (9 floats each into {@code tri}, its heap index into {@code node}).
     * Returns L, the number of triangles; only min(L, capacity) are written.
     */
    int frame(float[] camera, float[] tri, int[] node);

    @Override
    void close();
}
