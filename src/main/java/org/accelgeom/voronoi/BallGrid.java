package org.accelgeom.voronoi;

/**
 * A uniform grid over ball centres (counting sort by cell): the balls of cell c are
 * {@code cellBalls[cellStart[c] .. cellStart[c+1])}, cells numbered {@code (z * ny + y) * nx + x}. Used to
 * prune end-vertex candidates ({@link VoronoiKernels#searchEdge}) and to find contained balls. A grid of one
 * cell holds every ball (the unpruned, brute-force search of the paper).
 */
public final class BallGrid {
    final double x0, y0, z0, cell;
    final int nx, ny, nz;
    final int[] cellStart;
    final int[] cellBalls;

    private BallGrid(double x0, double y0, double z0, double cell, int nx, int ny, int nz, int[] cellStart,
            int[] cellBalls) {
        this.x0 = x0;
        this.y0 = y0;
        this.z0 = z0;
        this.cell = cell;
        this.nx = nx;
        this.ny = ny;
        this.nz = nz;
        this.cellStart = cellStart;
        this.cellBalls = cellBalls;
    }

    /**
     * A grid of cubic cells about {@code perCell} balls each on average (at most 2^21 cells), or one cell holding
     * all balls when {@code perCell <= 0}; balls with {@code skip[i]} are left out (skip may be null).
     */
    static BallGrid build(Balls b, double perCell, boolean[] skip) {
        int n = b.size();
        double lx = Double.MAX_VALUE, ly = lx, lz = lx, hx = -lx, hy = hx, hz = hx;
        for (int i = 0; i < n; i++) {
            lx = Math.min(lx, b.x[i]);
            ly = Math.min(ly, b.y[i]);
            lz = Math.min(lz, b.z[i]);
            hx = Math.max(hx, b.x[i]);
            hy = Math.max(hy, b.y[i]);
            hz = Math.max(hz, b.z[i]);
        }
        if (n == 0) {
            lx = ly = lz = hx = hy = hz = 0;
        }
        double ex = hx - lx, ey = hy - ly, ez = hz - lz;
        double extent = Math.max(Math.max(ex, ey), Math.max(ez, 1e-9));
        int nx = 1, ny = 1, nz = 1;
        double cell = extent * 1.000001 + 1e-9;
        if (perCell > 0 && n > 0) {
            double vol = Math.max(ex, 1e-3 * extent) * Math.max(ey, 1e-3 * extent) * Math.max(ez, 1e-3 * extent);
            cell = Math.cbrt(vol * perCell / n);
            while (true) {
                nx = (int) Math.floor(ex / cell) + 1;
                ny = (int) Math.floor(ey / cell) + 1;
                nz = (int) Math.floor(ez / cell) + 1;
                if ((long) nx * ny * nz <= (1 << 21)) {
                    break;
                }
                cell *= 1.26;
            }
        }
        int cells = nx * ny * nz;
        int[] start = new int[cells + 1];
        int[] of = new int[n];
        int kept = 0;
        for (int i = 0; i < n; i++) {
            if (skip != null && skip[i]) {
                continue;
            }
            kept++;
            int cx = Math.min(nx - 1, (int) ((b.x[i] - lx) / cell));
            int cy = Math.min(ny - 1, (int) ((b.y[i] - ly) / cell));
            int cz = Math.min(nz - 1, (int) ((b.z[i] - lz) / cell));
            of[i] = (cz * ny + cy) * nx + cx;
            start[of[i] + 1]++;
        }
        for (int c = 0; c < cells; c++) {
            start[c + 1] += start[c];
        }
        int[] fill = java.util.Arrays.copyOf(start, cells);
        int[] balls = new int[kept];
        for (int i = 0; i < n; i++) {
            if (skip != null && skip[i]) {
                continue;
            }
            balls[fill[of[i]]++] = i;
        }
        return new BallGrid(lx, ly, lz, cell, nx, ny, nz, start, balls);
    }

    /** A radius that, about any point of the balls' bounding box, covers every cell. */
    double coverRadius() {
        return Math.sqrt((double) nx * nx + (double) ny * ny + (double) nz * nz) * cell + cell;
    }

    /** Calls {@code visit} for every ball in a cell that meets the cube of half-side {@code q} about (x, y, z). */
    void forEachNear(double x, double y, double z, double q, java.util.function.IntConsumer visit) {
        int ax = Math.max(0, (int) Math.floor((x - q - x0) / cell)), bx = Math.min(nx - 1, (int) Math.floor((x + q - x0) / cell));
        int ay = Math.max(0, (int) Math.floor((y - q - y0) / cell)), by = Math.min(ny - 1, (int) Math.floor((y + q - y0) / cell));
        int az = Math.max(0, (int) Math.floor((z - q - z0) / cell)), bz = Math.min(nz - 1, (int) Math.floor((z + q - z0) / cell));
        for (int cz = az; cz <= bz; cz++) {
            for (int cy = ay; cy <= by; cy++) {
                for (int cx = ax; cx <= bx; cx++) {
                    int c = (cz * ny + cy) * nx + cx;
                    for (int j = cellStart[c]; j < cellStart[c + 1]; j++) {
                        visit.accept(cellBalls[j]);
                    }
                }
            }
        }
    }
}
