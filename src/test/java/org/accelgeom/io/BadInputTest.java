package org.accelgeom.io;

import static org.accelgeom.io.TestFiles.assertFormatError;
import static org.accelgeom.io.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.accelgeom.engine.AccelGeomException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Malformed input: one-line FormatException naming the file and the line (or byte offset). */
class BadInputTest {
    @TempDir
    Path dir;

    @Test
    void nonNumericToken() {
        FormatException e = assertFormatError("bad_token.xyz", ":3:", () -> Formats.readPoints(file("bad_token.xyz")));
        assertTrue(e.getMessage().contains("'x'"), e.getMessage());
    }

    @Test
    void mixedDimension() {
        FormatException e = assertFormatError("bad_mixed.xyz", ":5:", () -> Formats.readPoints(file("bad_mixed.xyz")));
        assertTrue(e.getMessage().contains("expected 3 coordinates like line 1, found 2"), e.getMessage());
    }

    @Test
    void wrongCountInRbox() {
        FormatException e = assertFormatError("bad_rbox_count.txt", ":2:",
                () -> Formats.readPoints(file("bad_rbox_count.txt")));
        assertTrue(e.getMessage().contains("5 points, found 4"), e.getMessage());
    }

    @Test
    void truncatedBinaryPly() {
        FormatException e = assertFormatError("truncated_le.ply", "byte ", () -> Formats.readMesh(file("truncated_le.ply")));
        assertTrue(e.getMessage().contains("face 5"), e.getMessage());
    }

    @Test
    void faceIndexOutOfRange() {
        assertFormatError("bad_face.obj", ":5:", () -> Formats.readMesh(file("bad_face.obj")));
        assertFormatError("bad_face.off", ":6:", () -> Formats.readMesh(file("bad_face.off")));
    }

    @Test
    void plyFaceIndexOutOfRangeAndBadHeader() throws Exception {
        Path p = dir.resolve("bad.ply");
        Files.writeString(p, "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                + "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
                + "0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n");
        assertFormatError("bad.ply", ":13:", () -> Formats.readMesh(p));
        Files.writeString(p, "ply\nformat ascii 1.0\nelement vertex 1\nproperty float128 x\nend_header\n");
        assertFormatError("bad.ply", ":4:", () -> Formats.readPoints(p));
        Files.writeString(p, "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nend_header\n1 2\n");
        assertFormatError("bad.ply", ":3: the header's elements (2 vertex) need at least 8 bytes, but only 4",
                () -> Formats.readPoints(p));
        Files.writeString(p, "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nend_header\n"
                + "1 2\n\n\n\n");
        assertFormatError("bad.ply", ":10:", () -> Formats.readPoints(p));
    }

    @Test
    void objZeroIndexAndShortFace() throws Exception {
        Path p = dir.resolve("z.obj");
        Files.writeString(p, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n");
        assertFormatError("z.obj", ":4:", () -> Formats.readMesh(p));
        Files.writeString(p, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n");
        assertFormatError("z.obj", ":4:", () -> Formats.readMesh(p));
        Files.writeString(p, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -4\n");
        assertFormatError("z.obj", ":4:", () -> Formats.readMesh(p));
    }

    @Test
    void offCountsThatDoNotMatch() throws Exception {
        Path p = dir.resolve("short.off");
        Files.writeString(p, "OFF\n4 1 0\n0 0 0\n1 0 0\n0 1 0\n");
        assertFormatError("short.off", ":2:", () -> Formats.readMesh(p));
    }

    @Test
    void csvRagged() throws Exception {
        Path p = dir.resolve("r.csv");
        Files.writeString(p, "x,y\n1,2\n3\n");
        assertFormatError("r.csv", ":3:", () -> Formats.readPoints(p));
        Files.writeString(p, "x,y\n1,2\n3,abc\n");
        assertFormatError("r.csv", ":3:", () -> Formats.readPoints(p));
    }

    @Test
    void pdbWithBadCoordinatesAndPcdCompressedGarbage() throws Exception {
        Path p = dir.resolve("bad.pdb");
        Files.writeString(p, "ATOM      1  N   GLY A   1      -1.000   abcde   3.000  1.00  0.00           N\n");
        assertFormatError("bad.pdb", ":1:", () -> Formats.readMolecule(p));
        Path c = dir.resolve("c.pcd");
        Files.write(c, ("VERSION 0.7\nFIELDS x y z\nSIZE 4 4 4\nTYPE F F F\nCOUNT 1 1 1\nWIDTH 1\nHEIGHT 1\nPOINTS 1\n"
                + "DATA binary_compressed\n").getBytes());
        assertFormatError("c.pcd", "byte ", () -> Formats.readPoints(c));
    }

    @Test
    void truncatedGzipAndMissingFile() throws Exception {
        byte[] gz = Files.readAllBytes(file("cube_ascii.ply.gz"));
        Path p = dir.resolve("cut.ply.gz");
        Files.write(p, java.util.Arrays.copyOf(gz, gz.length / 2));
        FormatException e = assertThrows(FormatException.class, () -> Formats.readMesh(p));
        assertTrue(e.getMessage().contains("cut.ply.gz"), e.getMessage());
        AccelGeomException missing = assertThrows(AccelGeomException.class,
                () -> Formats.readPoints(dir.resolve("nope.xyz")));
        assertTrue(missing.getMessage().contains("nope.xyz: no such file"), missing.getMessage());
    }
}
