package org.accelgeom.io;

import java.util.Arrays;

/**
 * A polygon mesh: vertex coordinates as structure of arrays, faces as a compressed list
 * (face f has the vertices {@code faceIndex[faceStart[f] .. faceStart[f+1]-1]}, counter-clockwise seen from
 * outside for closed meshes).
 */
public record Mesh(double[] x, double[] y, double[] z, int[] faceStart, int[] faceIndex) {

    public Mesh {
        if (x.length != y.length || x.length != z.length) {
            throw new IllegalArgumentException("vertex coordinate arrays of different lengths");
        }
        if (faceStart.length == 0 || faceStart[0] != 0 || faceStart[faceStart.length - 1] != faceIndex.length) {
            throw new IllegalArgumentException("faceStart must start at 0 and end at faceIndex.length");
        }
    }

    /** A mesh of triangles {@code tri[3t], tri[3t+1], tri[3t+2]}. */
    public static Mesh ofTriangles(double[] x, double[] y, double[] z, int[] tri) {
        int[] start = new int[tri.length / 3 + 1];
        for (int f = 0; f < start.length; f++) {
            start[f] = 3 * f;
        }
        return new Mesh(x, y, z, start, tri.clone());
    }

    public int vertexCount() {
        return x.length;
    }

    public int faceCount() {
        return faceStart.length - 1;
    }

    /** Number of vertices of face f. */
    public int faceSize(int f) {
        return faceStart[f + 1] - faceStart[f];
    }

    /** Vertex k of face f. */
    public int faceVertex(int f, int k) {
        return faceIndex[faceStart[f] + k];
    }

    /** True when every face is a triangle. */
    public boolean isTriangles() {
        for (int f = 0; f < faceCount(); f++) {
            if (faceSize(f) != 3) {
                return false;
            }
        }
        return true;
    }

    /** The faces fan-triangulated: three vertex indices per triangle. */
    public int[] triangles() {
        int count = 0;
        for (int f = 0; f < faceCount(); f++) {
            count += Math.max(0, faceSize(f) - 2);
        }
        int[] t = new int[3 * count];
        int k = 0;
        for (int f = 0; f < faceCount(); f++) {
            int s = faceStart[f];
            for (int j = 1; j + 1 < faceSize(f); j++) {
                t[k++] = faceIndex[s];
                t[k++] = faceIndex[s + j];
                t[k++] = faceIndex[s + j + 1];
            }
        }
        return t;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Mesh m && Arrays.equals(x, m.x) && Arrays.equals(y, m.y) && Arrays.equals(z, m.z)
                && Arrays.equals(faceStart, m.faceStart) && Arrays.equals(faceIndex, m.faceIndex);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(x) * 31 + Arrays.hashCode(faceIndex);
    }

    @Override
    public String toString() {
        return "Mesh[" + vertexCount() + " vertices, " + faceCount() + " faces]";
    }
}
