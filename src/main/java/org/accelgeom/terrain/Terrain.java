package org.accelgeom.terrain;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.accelgeom.cbt.Cbt;
import org.accelgeom.cbt.CbtKernels;
import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.TornadoSupport;
import org.accelgeom.io.Grid;
import org.accelgeom.io.Mesh;
import org.accelgeom.render.Camera;

/**
 * An adaptive terrain by conforming longest-edge bisection over a concurrent binary tree (Dupuy 2020, the
 * application the CBT article names): the square [0, size]² of two root triangles, refined where a triangle's
 * longest edge looks larger than a target in pixels from the camera and coarsened where both halves of a diamond
 * look smaller. Each {@link #frame} runs the CBT usage cycle on the chosen backend: split pass, reduction, merge
 * pass, reduction, emission of the triangles. The mesh is conforming after every frame (no T-junctions).
 *
 * <p>A frame splits each leaf at most once (plus the conforming chain), so refinement to depth D from the two
 * roots takes about D frames at a fixed camera; a flight refines and coarsens as it goes, as Dupuy's demo does.
 */
public final class Terrain implements AutoCloseable {

    /** The largest maximum depth: 2^24 bits of flags and up to 16 M triangles. */
    public static final int MAX_DEPTH = 24;

    private final TerrainOptions options;
    private final Grid heights;
    private final Cbt tree;
    private final TerrainBackend backend;
    private final float[] tri;
    private final int[] node;
    private final PhaseTimings timings;
    private int count;

    private Terrain(Grid heights, TerrainOptions o) {
        if (heights.nx() < 2 || heights.ny() < 2) {
            throw new AccelGeomException("terrain: the height grid needs at least 2 x 2 samples, got " + heights.nx() + " x " + heights.ny());
        }
        this.options = o;
        this.heights = heights;
        this.timings = o.execution().newTimings();
        int cap = o.capacity() > 0 ? o.capacity() : (int) Math.min(1L << o.maxDepth(), 1 << 21);
        this.tree = Cbt.create(o.maxDepth(), 1, true);
        this.tri = new float[9 * cap];
        this.node = new int[cap];
        this.backend = switch (o.backend()) {
            case JVM -> new JvmTerrainBackend(0);
            case JVM_PARALLEL -> new JvmTerrainBackend(o.threads() > 0 ? o.threads() : Runtime.getRuntime().availableProcessors());
            case TORNADO -> TornadoSupport.factory(TerrainBackend.Factory.class).create(Execution.tornado(o.device()));
        };
        backend.load(tree, heights.values(), heights.nx(), heights.ny(), cap, timings);
    }

    /** A terrain over a heightmap, starting from the two root triangles. */
    public static Terrain create(Grid heights, TerrainOptions o) {
        return new Terrain(heights, o);
    }

    /** One frame of the cycle for this camera. */
    public TerrainResult frame(Camera c) {
        long t0 = System.nanoTime();
        int n = backend.frame(kernelCamera(c, options.size(), options.zScale(), options.targetPixels()), tri, node);
        if (n > node.length) {
            throw new AccelGeomException("terrain: " + n + " triangles exceed the capacity of " + node.length
                    + "; raise --target-pixels or lower --max-depth");
        }
        count = n;
        int deepest = 0;
        for (int i = 0; i < n; i++) {
            deepest = Math.max(deepest, CbtKernels.depth(node[i]));
        }
        return new TerrainResult(n, deepest, (System.nanoTime() - t0) / 1e6);
    }

    /** All phases of all frames so far. */
    public PhaseTimings timings() {
        return timings;
    }

    public TerrainOptions options() {
        return options;
    }

    public Grid heights() {
        return heights;
    }

    /** Number of triangles of the last frame. */
    public int triangleCount() {
        return count;
    }

    /** The heap indices of the last frame's triangles (LEB nodes, depth = FindMSB). */
    public int[] nodes() {
        return Arrays.copyOf(node, count);
    }

    /** The last frame's triangles, 9 floats each (x, y, z of three counter-clockwise vertices). */
    public float[] triangles() {
        return Arrays.copyOf(tri, 9 * count);
    }

    /** The last frame as a mesh with shared vertices (vertices of LEB triangles are exact, so they match exactly). */
    public Mesh mesh() {
        Map<Long, Integer> index = new HashMap<>();
        double[] x = new double[3 * count];
        double[] y = new double[3 * count];
        double[] z = new double[3 * count];
        int[] t = new int[3 * count];
        int nv = 0;
        for (int i = 0; i < 3 * count; i++) {
            long key = ((long) Float.floatToIntBits(tri[3 * i]) << 32) | (Float.floatToIntBits(tri[3 * i + 1]) & 0xFFFFFFFFL);
            Integer v = index.get(key);
            if (v == null) {
                v = nv++;
                index.put(key, v);
                x[v] = tri[3 * i];
                y[v] = tri[3 * i + 1];
                z[v] = tri[3 * i + 2];
            }
            t[i] = v;
        }
        return Mesh.ofTriangles(Arrays.copyOf(x, nv), Arrays.copyOf(y, nv), Arrays.copyOf(z, nv), t);
    }

    /**
     * Conformity check of a set of LEB leaves: the number of interior triangle edges without an identical edge of
     * opposite direction (a T-junction leaves the long edge unmatched), plus 1 if the triangles do not tile the
     * square exactly. 0 for a conforming mesh.
     */
    public static long conformityDefects(int[] nodes) {
        Set<String> edges = new HashSet<>();
        float[] v = new float[6];
        double area = 0;
        for (int k : nodes) {
            LebKernels.vertices(k, v, 0);
            for (int e = 0; e < 3; e++) {
                int a = e;
                int b = (e + 1) % 3;
                edges.add(v[2 * a] + "," + v[2 * a + 1] + ">" + v[2 * b] + "," + v[2 * b + 1]);
            }
            area += ((v[2] - v[0]) * (double) (v[5] - v[1]) - (v[3] - v[1]) * (double) (v[4] - v[0])) / 2;
        }
        long open = 0;
        for (int k : nodes) {
            LebKernels.vertices(k, v, 0);
            for (int e = 0; e < 3; e++) {
                int a = e;
                int b = (e + 1) % 3;
                boolean boundary = (v[2 * a] == v[2 * b] && (v[2 * a] == 0 || v[2 * a] == 1))
                        || (v[2 * a + 1] == v[2 * b + 1] && (v[2 * a + 1] == 0 || v[2 * a + 1] == 1));
                if (!boundary && !edges.contains(v[2 * b] + "," + v[2 * b + 1] + ">" + v[2 * a] + "," + v[2 * a + 1])) {
                    open++;
                }
            }
        }
        return open + (Math.abs(area - 1) > 1e-9 ? 1 : 0);
    }

    @Override
    public void close() {
        backend.close();
    }

    /**
     * The camera parameter array of {@link TerrainKernels} for camera {@code c} over a terrain of {@code size} (world
     * units), heights scaled by {@code zScale}, refined to about {@code targetPixels} pixels per triangle edge.
     */
    public static float[] kernelCamera(Camera c, double size, double zScale, double targetPixels) {
        float[] k = new float[TerrainKernels.CAMERA_FLOATS];
        k[TerrainKernels.CX] = (float) c.x();
        k[TerrainKernels.CY] = (float) c.y();
        k[TerrainKernels.CZ] = (float) c.z();
        k[TerrainKernels.DX] = (float) c.dx();
        k[TerrainKernels.DY] = (float) c.dy();
        k[TerrainKernels.DZ] = (float) c.dz();
        k[TerrainKernels.PIXEL_SCALE] = (float) c.pixelScale();
        k[TerrainKernels.TARGET] = (float) targetPixels;
        k[TerrainKernels.SIZE] = (float) size;
        k[TerrainKernels.Z_SCALE] = (float) zScale;
        return k;
    }
}
