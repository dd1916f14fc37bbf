package org.accelgeom.voronoi;

/**
 * What the end-vertex search reads, prepared on the host for a program that runs the search's task graphs itself
 * ({@code voronoi.tornado.VoronoiTaskGraphs}): the balls in grid-cell order (double, and float about the grid's
 * centre), the uniform grid ({@code cellStart}, {@code cellBalls}), the parameters ({@code p}, {@code ip}, layout in
 * {@link VoronoiKernels}), and the edges of a first tracing level to search. The arrays are the ones the diagram
 * itself uses; a program reads them and does not change them.
 */
public final class SearchInput {
    public final double[] bx, by, bz, br;
    public final float[] fx, fy, fz, fr;
    public final int[] cellStart, cellBalls;
    public final double[] p;
    public final int[] ip;
    /** The most edges one search holds (the frame arrays' size in edges). */
    public final int capacity;
    private final Voronoi.Prepared prep;

    private SearchInput(Voronoi.Prepared prep) {
        this.prep = prep;
        Balls b = prep.pb();
        bx = b.x;
        by = b.y;
        bz = b.z;
        br = b.r;
        fx = prep.fx();
        fy = prep.fy();
        fz = prep.fz();
        fr = prep.fr();
        cellStart = prep.grid().cellStart;
        cellBalls = prep.grid().cellBalls;
        p = prep.p();
        ip = prep.ip();
        capacity = prep.capacity();
    }

    /**
     * The search input of {@code balls} with {@code options}' precision, grid and lanes (as the diagram prepares
     * it: hidden balls found, balls sorted into the grid's cells; the lanes are the tornado default when 0).
     */
    public static SearchInput of(Balls balls, VoronoiOptions options) {
        VoronoiRange.check(balls);
        return new SearchInput(Voronoi.prepare(balls, options));
    }

    /** Work-items per edge of the device search ({@code ip[I_LANES]}). */
    public int lanes() {
        return ip[VoronoiKernels.I_LANES];
    }

    /**
     * The first level of the tracing: the frames ({@link VoronoiKernels#FS} doubles per edge, and their float copies)
     * and gates ({@link VoronoiKernels#GS} ints per edge) of the four edges leaving the diagram's initial vertex
     * (Alg. 2.2); returns how many were written (0 when there is no vertex).
     */
    public int firstLevel(double[] frames, float[] framesF, int[] gates) {
        int[] q = new int[4];
        double[] s = new double[4];
        if (prep.visible() < 4 || !InitialVertex.find(prep.pb(), prep.hidden(), 64, Voronoi.TOLERANCE, q, s)) {
            return 0;
        }
        double[] s0 = new double[4];
        int root = CellVertex.rootOf(prep.pb(), q, s, s0);
        double[] v = root < 0 ? s : s0;
        int count = 0;
        for (int k = 0; k < 4; k++) {
            int[] t = new int[3];
            for (int j = 0, m = 0; j < 4; j++) {
                if (j != k) {
                    t[m++] = q[j];
                }
            }
            if (EdgeFrames.build(prep.pb(), t[0], t[1], t[2], q[k], v[0], v[1], v[2], frames, count * VoronoiKernels.FS,
                    gates, count * VoronoiKernels.GS)) {
                EdgeFrames.toFloat(frames, count * VoronoiKernels.FS, framesF, prep.sx(), prep.sy(), prep.sz());
                count++;
            }
        }
        return count;
    }

    /**
     * The jvm reference of one search over these inputs: the end ball of each of edges {@code 0 .. count-1}, in the
     * device's lane layout ({@link #lanes()} lanes per edge), results in {@code out} ({@link VoronoiKernels#OS} ints
     * per edge: end ball, float arg-min, double evaluations, passes and tie flag).
     */
    public void searchOnJvm(int count, double[] frames, float[] framesF, int[] gates, int[] out) {
        try (JvmVoronoiBackend jvm = new JvmVoronoiBackend(null, lanes())) {
            jvm.load(bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, p, ip, capacity);
            jvm.search(count, frames, framesF, gates, out);
        }
    }
}
