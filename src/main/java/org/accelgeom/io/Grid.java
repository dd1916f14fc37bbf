package org.accelgeom.io;

import java.util.Arrays;

/**
 * A regular 2D grid of float samples (a heightmap or DEM), row-major: {@code values[y * nx + x]}, row y = 0
 * first (the top row of an image). Cell (x, y) lies at {@code (originX + x * cellSize, originY + y * cellSize)};
 * readers that know no georeference give cell size 1 and origin (0, 0).
 */
public record Grid(int nx, int ny, float[] values, double cellSize, double originX, double originY) {

    public Grid {
        if (nx < 0 || ny < 0 || (long) nx * ny != values.length) {
            throw new IllegalArgumentException("grid " + nx + " x " + ny + " needs " + (long) nx * ny
                    + " values, got " + values.length);
        }
        if (!(cellSize > 0)) {
            throw new IllegalArgumentException("cell size must be positive, got " + cellSize);
        }
    }

    /** A grid with unit cells at the origin. */
    public Grid(int nx, int ny, float[] values) {
        this(nx, ny, values, 1, 0, 0);
    }

    /** The sample at column x, row y. */
    public float at(int x, int y) {
        return values[y * nx + x];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Grid g && nx == g.nx && ny == g.ny && Arrays.equals(values, g.values)
                && cellSize == g.cellSize && originX == g.originX && originY == g.originY;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values) * 31 + nx;
    }

    @Override
    public String toString() {
        return "Grid[" + nx + " x " + ny + "]";
    }
}
