package org.accelgeom.kdtree;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.io.Mesh;

/**
 * The triangles a kd-tree is built over, in float, as the thesis stores them (3 vertices × 3 floats = 36 bytes
 * per triangle, {@code v[9t .. 9t+8]}). Degenerate triangles, those with zero area or with a NaN or infinite
 * coordinate, cannot be hit by a ray and would give empty or meaningless boxes: they are skipped and counted.
 *
 * @param v         9 floats per kept triangle: x0 y0 z0 x1 y1 z1 x2 y2 z2
 * @param ids       the index of each kept triangle in the input (the mesh's fan-triangulated faces)
 * @param zeroArea  skipped input triangles with zero area (in float coordinates)
 * @param nonFinite skipped input triangles with a NaN or infinite coordinate
 */
public record Triangles(float[] v, int[] ids, int zeroArea, int nonFinite) {

    /** The largest number of triangles: events carry a triangle index in 30 bits. */
    public static final int MAX_TRIANGLES = (1 << 30) - 1;

    public Triangles {
        if (v.length != 9 * ids.length) {
            throw new IllegalArgumentException("v must hold 9 floats per triangle");
        }
    }

    public int count() {
        return ids.length;
    }

    /** Input triangles skipped as degenerate. */
    public int skipped() {
        return zeroArea + nonFinite;
    }

    /** The fan-triangulated faces of a mesh. */
    public static Triangles of(Mesh mesh) {
        int[] t = mesh.triangles();
        int n = t.length / 3;
        float[] v = new float[9 * n];
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < 3; c++) {
                int p = t[3 * i + c];
                v[9 * i + 3 * c] = (float) mesh.x()[p];
                v[9 * i + 3 * c + 1] = (float) mesh.y()[p];
                v[9 * i + 3 * c + 2] = (float) mesh.z()[p];
            }
        }
        return of(v);
    }

    /** Triangles given as 9 floats each; degenerate ones are skipped and counted. */
    public static Triangles of(float[] raw) {
        if (raw.length % 9 != 0) {
            throw new AccelGeomException("triangle data must have 9 floats per triangle, got " + raw.length + " floats");
        }
        int n = raw.length / 9;
        if (n > MAX_TRIANGLES) {
            throw new AccelGeomException(n + " triangles: at most " + MAX_TRIANGLES + " are supported");
        }
        int kept = 0;
        int zero = 0;
        int bad = 0;
        int[] ids = new int[n];
        for (int i = 0; i < n; i++) {
            int d = degeneracy(raw, i);
            if (d == 1) {
                zero++;
            } else if (d == 2) {
                bad++;
            } else {
                ids[kept++] = i;
            }
        }
        float[] v = new float[9 * kept];
        int[] keptIds = java.util.Arrays.copyOf(ids, kept);
        for (int k = 0; k < kept; k++) {
            for (int c = 0; c < 9; c++) {
                v[9 * k + c] = raw[9 * keptIds[k] + c] + 0.0f; // -0 to +0: positions are sorted by their bits
            }
        }
        return new Triangles(v, keptIds, zero, bad);
    }

    /** 0: a proper triangle, 1: zero area, 2: a non-finite coordinate. */
    static int degeneracy(float[] v, int t) {
        for (int k = 0; k < 9; k++) {
            if (!Float.isFinite(v[9 * t + k])) {
                return 2;
            }
        }
        // the edge vectors' cross product, exact enough in double to tell zero from non-zero for float input
        double ux = (double) v[9 * t + 3] - v[9 * t];
        double uy = (double) v[9 * t + 4] - v[9 * t + 1];
        double uz = (double) v[9 * t + 5] - v[9 * t + 2];
        double wx = (double) v[9 * t + 6] - v[9 * t];
        double wy = (double) v[9 * t + 7] - v[9 * t + 1];
        double wz = (double) v[9 * t + 8] - v[9 * t + 2];
        double cx = uy * wz - uz * wy;
        double cy = uz * wx - ux * wz;
        double cz = ux * wy - uy * wx;
        return cx == 0 && cy == 0 && cz == 0 ? 1 : 0;
    }

    /** Each triangle's own bounding box into {@code box}: triangle i at box[6i .. 6i+5] (min x y z, max x y z). */
    public void boxes(float[] box) {
        int n = count();
        for (int i = 0; i < n; i++) {
            box(v, i, box);
        }
    }

    /** Triangle i's bounding box (of {@code v}, 9 floats a triangle) into box[6i .. 6i+5]; a device kernel's element too. */
    public static void box(float[] v, int i, float[] box) {
        for (int k = 0; k < 3; k++) {
            float a = v[9 * i + k];
            float b = v[9 * i + 3 + k];
            float d = v[9 * i + 6 + k];
            box[6 * i + k] = Math.min(a, Math.min(b, d));
            box[6 * i + 3 + k] = Math.max(a, Math.max(b, d));
        }
    }

    /** The axis-aligned bounding box of all triangles: min x y z, max x y z (empty input: all zero). */
    public float[] bounds() {
        return bounds(null);
    }

    /**
     * As {@link #bounds()}, over chunks of the triangles on the loops' threads (null: this thread). On the host for
     * every backend, not a device @Reduce: the builders need the bounds before their first execution (the root's
     * voxel and the bins' range), so a device reduction would add an execution and a download to every build.
     */
    public float[] bounds(ParallelLoops loops) {
        if (v.length == 0) {
            return new float[6];
        }
        int chunks = loops == null || count() < (1 << 16) ? 1 : 64;
        float[] part = new float[6 * chunks];
        ParallelLoops.RangeBody body = (from, to) -> {
            for (int c = from; c < to; c++) {
                long a = (long) count() * c / chunks;
                long b = (long) count() * (c + 1) / chunks;
                range(v, 9 * (int) a, 9 * (int) b, part, 6 * c);
            }
        };
        if (chunks == 1) {
            body.run(0, 1);
        } else {
            loops.forRange(chunks, 1, body);
        }
        float[] out = new float[6];
        for (int k = 0; k < 3; k++) {
            float lo = Float.POSITIVE_INFINITY;
            float hi = Float.NEGATIVE_INFINITY;
            for (int c = 0; c < chunks; c++) {
                lo = part[6 * c + k] < lo ? part[6 * c + k] : lo;
                hi = part[6 * c + 3 + k] > hi ? part[6 * c + 3 + k] : hi;
            }
            // -0 to +0: positions are compared by their bits when sorted
            out[k] = lo + 0.0f;
            out[3 + k] = hi + 0.0f;
        }
        return out;
    }

    /** The box of the vertices in {@code v[from .. to)} into {@code out[o .. o+5]}; a device kernel's element too. */
    public static void range(float[] v, int from, int to, float[] out, int o) {
        // plain comparisons in locals (Math.min/max on floats carry NaN and -0 logic: several times slower)
        float x0 = Float.POSITIVE_INFINITY;
        float y0 = Float.POSITIVE_INFINITY;
        float z0 = Float.POSITIVE_INFINITY;
        float x1 = Float.NEGATIVE_INFINITY;
        float y1 = Float.NEGATIVE_INFINITY;
        float z1 = Float.NEGATIVE_INFINITY;
        for (int i = from; i < to; i += 3) {
            float x = v[i];
            float y = v[i + 1];
            float z = v[i + 2];
            x0 = x < x0 ? x : x0;
            x1 = x > x1 ? x : x1;
            y0 = y < y0 ? y : y0;
            y1 = y > y1 ? y : y1;
            z0 = z < z0 ? z : z0;
            z1 = z > z1 ? z : z1;
        }
        out[o] = x0;
        out[o + 1] = y0;
        out[o + 2] = z0;
        out[o + 3] = x1;
        out[o + 4] = y1;
        out[o + 5] = z1;
    }
}
