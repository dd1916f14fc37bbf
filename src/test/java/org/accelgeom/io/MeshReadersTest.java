package org.accelgeom.io;

import static org.accelgeom.io.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MeshReadersTest {

    private static final int[] CUBE_FACES = {0, 3, 2, 1, 4, 5, 6, 7, 0, 1, 5, 4, 1, 2, 6, 5, 2, 3, 7, 6, 3, 0, 4, 7};
    private static final double[] CUBE_X = {0, 1, 1, 0, 0, 1, 1, 0};

    private static void assertCube(Mesh m, double shift) {
        assertEquals(8, m.vertexCount());
        assertEquals(6, m.faceCount());
        assertArrayEquals(new int[] {0, 4, 8, 12, 16, 20, 24}, m.faceStart());
        assertArrayEquals(CUBE_FACES, m.faceIndex());
        for (int i = 0; i < 8; i++) {
            assertEquals(CUBE_X[i] + shift, m.x()[i]);
        }
    }

    @Test
    void asciiPlyWithExtraPropertiesListsAndElements() {
        assertCube(Formats.readMesh(file("cube_ascii.ply")), 0);
        assertCube(Formats.readMesh(file("cube_ascii.ply.gz")), 0);
    }

    @Test
    void binaryPlyBothByteOrders() {
        assertCube(Formats.readMesh(file("cube_le.ply")), 0.5);
        assertCube(Formats.readMesh(file("cube_be.ply")), -0.25);
    }

    @Test
    void offWithColours() {
        assertCube(Formats.readMesh(file("cube.off")), 0);
    }

    @Test
    void objWithSlashFormsAndNegativeIndices() {
        Mesh m = Formats.readMesh(file("cube.obj"));
        assertEquals(8, m.vertexCount());
        assertEquals(6, m.faceCount());
        assertArrayEquals(new int[] {0, 3, 2, 1}, face(m, 0));
        assertArrayEquals(new int[] {4, 5, 6, 7}, face(m, 1));
        assertArrayEquals(new int[] {2, 3, 7, 6}, face(m, 4));
        assertArrayEquals(new int[] {3, 0, 4, 7}, face(m, 5));
        assertTrue(!m.isTriangles());
        assertEquals(36, m.triangles().length);
    }

    private static int[] face(Mesh m, int f) {
        int[] v = new int[m.faceSize(f)];
        for (int k = 0; k < v.length; k++) {
            v[k] = m.faceVertex(f, k);
        }
        return v;
    }
}
