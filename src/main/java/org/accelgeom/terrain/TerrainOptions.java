package org.accelgeom.terrain;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.Timings;

/**
 * @param maxDepth     D of the CBT (6..24); the finest triangles have legs size·2^(−D/2)
 * @param targetPixels split where the projected longest edge exceeds this
 * @param size         side of the square in metres
 * @param zScale       metres per height unit of the grid
 * @param capacity     the most triangles a frame emits (0: min(2^D, 2 M); the tornado backend downloads this buffer every frame)
 * @param timings      what {@link Terrain#timings()} records over the frames ({@link Execution#timings()})
 */
public record TerrainOptions(int maxDepth, double targetPixels, double size, double zScale, Backend backend, int threads, int device,
        int capacity, Timings timings) {

    public TerrainOptions {
        if (maxDepth < 6 || maxDepth > Terrain.MAX_DEPTH) {
            throw new AccelGeomException("terrain maximum depth " + maxDepth + " out of range: expected 6.." + Terrain.MAX_DEPTH);
        }
        if (!(targetPixels > 0) || !(size > 0) || !(zScale >= 0)) {
            throw new AccelGeomException("terrain: target pixels and size must be positive and the height scale >= 0");
        }
    }

    /** These options with the default timings ({@link Timings#PHASES}). */
    public TerrainOptions(int maxDepth, double targetPixels, double size, double zScale, Backend backend, int threads,
            int device, int capacity) {
        this(maxDepth, targetPixels, size, zScale, backend, threads, device, capacity, Timings.PHASES);
    }

    public static TerrainOptions of(int maxDepth, double targetPixels, Backend backend) {
        return new TerrainOptions(maxDepth, targetPixels, 1000, 100, backend, 0, -1, 0);
    }

    /** Where the frames run: backend, threads, device and timings. */
    public Execution execution() {
        return Execution.of(backend).withThreads(threads).withDevice(device).withTimings(timings);
    }

    /** These options on {@code e} (its backend, threads, device and timings). */
    public TerrainOptions withExecution(Execution e) {
        return new TerrainOptions(maxDepth, targetPixels, size, zScale, e.backend(), e.threads(), e.device(), capacity,
                e.timings());
    }
}
