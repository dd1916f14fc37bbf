package org.accelgeom.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Write then read gives the same data, bit for bit (text formats print the shortest exact decimal). */
class RoundTripTest {
    @TempDir
    Path dir;

    /** Awkward doubles: random bits of every magnitude, negative zero, integers, tiny and huge values. */
    static PointCloud awkward(int n, int dim, long seed) {
        Random r = new Random(seed);
        double[][] c = new double[dim][n];
        for (int k = 0; k < dim; k++) {
            for (int i = 0; i < n; i++) {
                c[k][i] = switch (i % 5) {
                    case 0 -> r.nextGaussian();
                    case 1 -> Double.longBitsToDouble(r.nextLong() & 0x7fefffffffffffffL) * (r.nextBoolean() ? 1 : -1);
                    case 2 -> r.nextInt(2000) - 1000;
                    case 3 -> 1e-300 * r.nextDouble();
                    default -> i == 4 ? -0.0 : r.nextDouble() * 1e15;
                };
            }
        }
        return new PointCloud(c);
    }

    static Mesh polygonMesh(long seed) {
        PointCloud p = awkward(50, 3, seed);
        Random r = new Random(seed);
        int faces = 40;
        int[] start = new int[faces + 1];
        int[] index = new int[faces * 6];
        int k = 0;
        for (int f = 0; f < faces; f++) {
            int size = 3 + r.nextInt(4);
            for (int j = 0; j < size; j++) {
                index[k++] = r.nextInt(50);
            }
            start[f + 1] = k;
        }
        return new Mesh(p.x(), p.y(), p.z(), start, java.util.Arrays.copyOf(index, k));
    }

    @Test
    void pointsThroughEveryPointFormat() {
        PointCloud p3 = awkward(200, 3, 7);
        for (String name : new String[] {"p.ply", "p.ply.gz", "p.csv", "p.csv.gz", "p.xyz", "p.txt.gz", "p.pts"}) {
            Path f = dir.resolve(name);
            Formats.writePoints(f, p3);
            assertEquals(p3, Formats.readPoints(f), name);
        }
        PointCloud p5 = awkward(30, 5, 8);
        for (String name : new String[] {"q.csv", "q.xyz"}) {
            Formats.writePoints(dir.resolve(name), p5);
            assertEquals(p5, Formats.readPoints(dir.resolve(name)), name);
        }
        PointCloud p2 = awkward(30, 2, 9);
        Formats.writePoints(dir.resolve("two.ply"), p2);
        assertEquals(p2, Formats.readPoints(dir.resolve("two.ply")));
    }

    @Test
    void asciiPlyPointsWithColour() throws Exception {
        PointCloud p = awkward(20, 3, 3);
        int[] rgb = new int[20];
        for (int i = 0; i < rgb.length; i++) {
            rgb[i] = i * 0x010203;
        }
        for (boolean binary : new boolean[] {false, true}) {
            Path f = dir.resolve("c" + binary + ".ply");
            try (OutputStream out = Files.newOutputStream(f)) {
                PlyWriter.writePoints(out, p, binary, rgb);
            }
            assertEquals(p, Formats.readPoints(f));
        }
    }

    @Test
    void meshesThroughEveryMeshFormat() {
        Mesh m = polygonMesh(11);
        for (String name : new String[] {"m.ply", "m.ply.gz", "m.obj", "m.obj.gz", "m.off", "m.off.gz"}) {
            Path f = dir.resolve(name);
            Formats.writeMesh(f, m);
            assertEquals(m, Formats.readMesh(f), name);
        }
        Formats.writeMesh(dir.resolve("a.ply"), m, false);
        assertEquals(m, Formats.readMesh(dir.resolve("a.ply")));
    }

    @Test
    void plyMeshWithColoursEdgesAndBigFaces() throws Exception {
        Mesh m = polygonMesh(12);
        int[] big = new int[300];
        for (int k = 0; k < big.length; k++) {
            big[k] = k % m.vertexCount();
        }
        Mesh withBig = new Mesh(m.x(), m.y(), m.z(), new int[] {0, 300}, big);
        int[] rgb = new int[m.vertexCount()];
        java.util.Arrays.fill(rgb, 0xff8000);
        for (boolean binary : new boolean[] {false, true}) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PlyWriter.writeMesh(out, withBig, binary, rgb, new int[] {0, 1, 1, 2});
            try (Input in = Input.of("mem.ply", new java.io.ByteArrayInputStream(out.toByteArray()))) {
                Mesh back = PlyReader.readMesh(in);
                assertEquals(withBig, back);
            }
        }
    }

    @Test
    void emptyMeshAndSingleTriangle() {
        Mesh tri = Mesh.ofTriangles(new double[] {0, 1, 0}, new double[] {0, 0, 1}, new double[] {0, 0, 0},
                new int[] {0, 1, 2});
        for (String name : new String[] {"t.ply", "t.obj", "t.off"}) {
            Formats.writeMesh(dir.resolve(name), tri);
            Mesh back = Formats.readMesh(dir.resolve(name));
            assertArrayEquals(tri.faceIndex(), back.faceIndex());
            assertEquals(tri, back);
        }
        Mesh empty = new Mesh(new double[0], new double[0], new double[0], new int[] {0}, new int[0]);
        Formats.writeMesh(dir.resolve("e.ply"), empty);
        assertEquals(empty, Formats.readMesh(dir.resolve("e.ply")));
    }
}
