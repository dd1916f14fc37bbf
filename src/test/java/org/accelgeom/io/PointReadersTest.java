package org.accelgeom.io;

import static org.accelgeom.io.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PointReadersTest {

    private static final double[][] XYZ = {{1.5, 0.25, 7}, {2, -1e3, 8}, {-3, 4, 9}};

    @Test
    void xyzSkipsCommentsAndBlankLines() {
        PointCloud p = Formats.readPoints(file("points.xyz"));
        assertEquals(3, p.dimension());
        assertArrayEquals(XYZ, p.coords());
    }

    @Test
    void gzipByExtensionAndByMagicBytes() {
        assertArrayEquals(XYZ, Formats.readPoints(file("points.xyz.gz")).coords());
        assertArrayEquals(XYZ, Formats.readPoints(file("gzipped_no_suffix.xyz")).coords());
    }

    @Test
    void rboxHeaderIsReadAndChecked() {
        PointCloud p = Formats.readPoints(file("rbox.txt"));
        assertEquals(4, p.size());
        assertEquals(3, p.dimension());
        assertEquals(-0.3, p.z()[1]);
    }

    @Test
    void oneColumnFileOfIntegersIsData() throws Exception {
        PointCloud p = readText("3\n4\n5\n");
        assertEquals(1, p.dimension());
        assertArrayEquals(new double[] {3, 4, 5}, p.x());
        PointCloud q = readText("2\n1 2 3\n4 5 6\n");
        assertEquals(2, q.size(), "a count line before 3-column points");
    }

    @Test
    void csvWithSemicolonsDecimalCommaAndHeader() {
        PointCloud p = Formats.readPoints(file("semicolon.csv"));
        assertArrayEquals(new double[][] {{1.5, 4}, {2, 5.25}, {3, -6}}, p.coords());
        assertArrayEquals(new String[] {"x", "y", "z"}, Formats.readCsvColumnNames(file("semicolon.csv")));
    }

    @Test
    void csvWithoutHeader() {
        PointCloud p = Formats.readPoints(file("noheader.csv"));
        assertArrayEquals(new double[][] {{1, 3, 5}, {2, 4, 6}}, p.coords());
    }

    @Test
    void plyVerticesInAllThreeEncodings() {
        PointCloud a = Formats.readPoints(file("cube_ascii.ply"));
        PointCloud le = Formats.readPoints(file("cube_le.ply"));
        PointCloud be = Formats.readPoints(file("cube_be.ply"));
        assertEquals(8, a.size());
        for (int i = 0; i < 8; i++) {
            assertEquals(a.x()[i] + 0.5, le.x()[i]);
            assertEquals(a.z()[i] + 0.5, le.z()[i]);
            assertEquals(a.y()[i] - 0.25, be.y()[i]);
        }
        assertEquals(a, Formats.readPoints(file("cube_ascii.ply.gz")));
    }

    @Test
    void offVerticesIgnoreColourColumns() {
        PointCloud p = Formats.readPoints(file("cube.off"));
        assertEquals(8, p.size());
        assertEquals(3, p.dimension());
        assertArrayEquals(new double[] {0, 1, 1, 0, 0, 1, 1, 0}, p.x());
    }

    @Test
    void pcdAsciiSkipsOtherFieldsAndKeepsNaN() {
        PointCloud p = Formats.readPoints(file("small.pcd"));
        assertEquals(3, p.size());
        assertArrayEquals(new double[] {2, 0.25, Double.NaN}, p.y());
        assertEquals(2, p.firstNonFinite());
        assertEquals(2, p.withoutNonFinite().size());
    }

    @Test
    void pcdBinaryWithMixedTypes() {
        PointCloud p = Formats.readPoints(file("small_binary.pcd"));
        assertArrayEquals(new double[][] {{1.5, -1}, {2.5, -2}, {3.5, -3}}, p.coords());
    }

    @Test
    void pcdBinaryCompressedIsDecodedFieldByField() throws Exception {
        // 2 points, fields x y z rgb (float); decompressed data holds all x, then all y, all z, all rgb
        float[] soa = {1, 4, 2, 5, 3, 6, 0, 0};
        java.nio.ByteBuffer raw = java.nio.ByteBuffer.allocate(32).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (float v : soa) {
            raw.putFloat(v);
        }
        java.io.ByteArrayOutputStream lzf = new java.io.ByteArrayOutputStream();
        lzf.write(31); // a literal run of 32 bytes
        lzf.write(raw.array());
        java.io.ByteArrayOutputStream file = new java.io.ByteArrayOutputStream();
        file.write(("VERSION .7\nFIELDS x y z rgb\nSIZE 4 4 4 4\nTYPE F F F F\nCOUNT 1 1 1 1\nWIDTH 2\nHEIGHT 1\n"
                + "VIEWPOINT 0 0 0 1 0 0 0\nPOINTS 2\nDATA binary_compressed\n").getBytes(StandardCharsets.US_ASCII));
        java.nio.ByteBuffer sizes = java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        sizes.putInt(lzf.size()).putInt(32);
        file.write(sizes.array());
        file.write(lzf.toByteArray());
        try (Input in = Input.of("c.pcd", new ByteArrayInputStream(file.toByteArray()))) {
            assertArrayEquals(new double[][] {{1, 4}, {2, 5}, {3, 6}}, PcdReader.read(in).coords());
        }
    }

    @Test
    void moleculeFilesGivePoints() {
        assertEquals(5, Formats.readPoints(file("twomodels.pdb")).size());
        assertEquals(3, Formats.readPoints(file("small.xyzr")).size());
    }

    @Test
    void stdinIsSniffed() throws Exception {
        byte[] ply = java.nio.file.Files.readAllBytes(file("cube_be.ply"));
        assertEquals(8, readStdin(ply).size());
        byte[] off = java.nio.file.Files.readAllBytes(file("cube.off"));
        assertEquals(8, readStdin(off).size());
        byte[] pcd = java.nio.file.Files.readAllBytes(file("small_binary.pcd"));
        assertEquals(2, readStdin(pcd).size());
        byte[] gz = java.nio.file.Files.readAllBytes(file("points.xyz.gz"));
        assertArrayEquals(XYZ, readStdin(gz).coords());
        assertEquals(2, readStdin("a,b\n1,2\n3,4\n".getBytes(StandardCharsets.US_ASCII)).dimension());
    }

    private static PointCloud readStdin(byte[] data) {
        InputStream saved = System.in;
        try {
            System.setIn(new ByteArrayInputStream(data));
            return Formats.readPoints("-");
        } finally {
            System.setIn(saved);
        }
    }

    private static PointCloud readText(String s) throws Exception {
        try (Input in = Input.of("t.xyz", new ByteArrayInputStream(s.getBytes(StandardCharsets.US_ASCII)))) {
            return TextPointReader.read(in);
        }
    }

    @Test
    void longLinesAndNoFinalNewline() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < 100_000; k++) {
            sb.append(k).append(' ');
        }
        PointCloud p = readText(sb.toString() + "\n" + sb.toString().strip());
        assertEquals(100_000, p.dimension());
        assertEquals(2, p.size());
        assertTrue(p.coords()[99_999][1] == 99_999);
    }
}
