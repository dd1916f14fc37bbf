package org.accelgeom.io;

import static org.accelgeom.io.TestFiles.assertFormatError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The text readers in parallel blocks (tiny blocks here, so that a small file is cut into many) give the
 * same doubles, bit for bit, as {@link Double#parseDouble} on every token, and errors name the right line
 * in any block.
 */
class ParallelTextTest {
    @TempDir
    Path dir;

    @AfterEach
    void defaultBlocks() {
        System.clearProperty("accelgeom.io.block");
    }

    /** A number spelled in one of the ways files spell them. */
    static String spelling(Random r) {
        return switch (r.nextInt(7)) {
            case 0 -> Double.toString(r.nextGaussian() * Math.pow(10, r.nextInt(40) - 20)); // up to 17 digits
            case 1 -> String.format(Locale.ROOT, "%.17g", r.nextDouble() * 2000 - 1000);
            case 2 -> String.format(Locale.ROOT, "%." + r.nextInt(8) + "f", r.nextGaussian() * 100);
            case 3 -> (r.nextBoolean() ? "+" : "-") + r.nextInt(100000) + "e" + (r.nextInt(600) - 300);
            case 4 -> String.format(Locale.ROOT, "%.6E", r.nextGaussian() * 1e-5);
            case 5 -> (r.nextBoolean() ? "." : "-0.") + Math.abs(r.nextLong() % 1_000_000_000_000_000_000L);
            default -> Long.toString(r.nextLong() % 1_000_000_000L);
        };
    }

    /** Points as text, with comments, blank lines and CRLF here and there, and the expected columns. */
    static String xyz(Random r, int n, int d, double[][] expected) {
        StringBuilder sb = new StringBuilder("# generated\n");
        for (int i = 0; i < n; i++) {
            if (r.nextInt(50) == 0) {
                sb.append(r.nextBoolean() ? "\n" : "  # a comment\n");
            }
            for (int k = 0; k < d; k++) {
                String s = spelling(r);
                expected[k][i] = Double.parseDouble(s);
                sb.append(k == 0 ? (r.nextInt(10) == 0 ? "\t" : "") : r.nextBoolean() ? " " : " \t ").append(s);
            }
            sb.append(r.nextInt(20) == 0 ? "\r\n" : "\n");
        }
        return sb.toString();
    }

    @Test
    void xyzInManyBlocksEqualsParseDoubleBitForBit() throws Exception {
        Random r = new Random(14);
        int n = 20_000;
        double[][] expected = new double[3][n];
        String text = xyz(r, n, 3, expected);
        Path p = dir.resolve("many.xyz");
        Files.writeString(p, text);
        for (String block : new String[] {"7", "97", "4096", "8388608"}) {
            System.setProperty("accelgeom.io.block", block);
            PointCloud c = Formats.readPoints(p);
            for (int k = 0; k < 3; k++) {
                assertArrayEquals(expected[k], c.coords()[k], "block " + block + ", column " + k);
            }
        }
        Path gz = dir.resolve("many.xyz.gz");
        try (GZIPOutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(text.getBytes(StandardCharsets.US_ASCII));
        }
        System.setProperty("accelgeom.io.block", "333");
        assertArrayEquals(expected, Formats.readPoints(gz).coords(), "gzip: blocks read one after the other");
    }

    @Test
    void csvInManyBlocksEqualsParseDouble() throws Exception {
        Random r = new Random(16);
        int n = 5_000;
        double[][] expected = new double[4][n];
        StringBuilder sb = new StringBuilder("a,b,c,d\n");
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < 4; k++) {
                String s = spelling(r);
                expected[k][i] = Double.parseDouble(s);
                sb.append(k == 0 ? "" : r.nextBoolean() ? "," : " , ").append(r.nextInt(10) == 0 ? '"' + s + '"' : s);
            }
            sb.append('\n');
        }
        Path p = dir.resolve("many.csv");
        Files.writeString(p, sb);
        System.setProperty("accelgeom.io.block", "61");
        assertArrayEquals(expected, Formats.readPoints(p).coords());
    }

    @Test
    void errorsNameTheirLineInAnyBlock() throws Exception {
        Random r = new Random(3);
        int n = 3000;
        String[] lines = xyz(r, n, 3, new double[3][n]).split("\n", -1);
        int firstData = 1;
        while (lines[firstData - 1].isBlank() || lines[firstData - 1].strip().startsWith("#")) {
            firstData++;
        }
        System.setProperty("accelgeom.io.block", "50");
        Path p = dir.resolve("bad.xyz");
        for (int bad : new int[] {firstData + 3, 777, 2999}) {
            List<String> copy = new ArrayList<>(List.of(lines));
            copy.set(bad - 1, "1 2 nan");
            Files.writeString(p, String.join("\n", copy));
            FormatException e = assertFormatError("bad.xyz", ":" + bad + ":", () -> Formats.readPoints(p));
            assertTrue(e.getMessage().contains("'nan'"), e.getMessage());
            copy.set(bad - 1, "1 2");
            copy.set(bad + 5, "1e999 2 3");
            Files.writeString(p, String.join("\n", copy));
            e = assertFormatError("bad.xyz", ":" + bad + ":", () -> Formats.readPoints(p));
            assertTrue(e.getMessage().contains("expected 3 coordinates like line " + firstData + ", found 2"), e.getMessage());
            copy.set(bad - 1, "1 2 3");
            Files.writeString(p, String.join("\n", copy));
            e = assertFormatError("bad.xyz", ":" + (bad + 6) + ":", () -> Formats.readPoints(p));
            assertTrue(e.getMessage().contains("beyond the range"), e.getMessage());
        }
    }

    @Test
    void controlBytesAreNotText() throws Exception {
        Path p = dir.resolve("bin.xyz");
        Files.write(p, "1 2 3\n4 5 6\n7 8\u00019\n".getBytes(StandardCharsets.ISO_8859_1));
        FormatException e = assertFormatError("bin.xyz", ":3:", () -> Formats.readPoints(p));
        assertTrue(e.getMessage().contains("0x01"), e.getMessage());
    }

    @Test
    void mappingsOfAnySizeMeetAtLineEnds() throws Exception {
        // windows of 7 bytes stand for the 1 GiB mappings of files beyond 2 GB
        Random r = new Random(9);
        int n = 500;
        double[][] expected = new double[2][n];
        String text = xyz(r, n, 2, expected);
        Path p = dir.resolve("w.xyz");
        Files.writeString(p, text);
        byte[] all = Files.readAllBytes(p);
        MappedText m = new MappedText(p, 7);
        byte[] copy = new byte[all.length];
        m.get(0, copy, 0, all.length);
        assertArrayEquals(all, copy);
        assertEquals(all[all.length - 3], m.at(all.length - 3));
        for (String block : new String[] {"5", "64"}) {
            System.setProperty("accelgeom.io.block", block);
            int first = text.indexOf('\n') + 1; // after the "# generated" line
            List<TextBlocks.Block<TextPointReader.XyzLines>> blocks =
                    TextBlocks.parseMapped(m, first, TextPointReader.XyzLines::new);
            List<PointColumns> parts = new ArrayList<>();
            long lines = 0;
            for (TextBlocks.Block<TextPointReader.XyzLines> b : blocks) {
                assertEquals(null, b.error);
                parts.add(b.lines.cols);
                lines += b.newlines;
            }
            assertEquals(text.split("\n", -1).length - 1, lines + 1, "every line counted once");
            assertArrayEquals(expected, PointColumns.join(2, parts).coords());
        }
    }

    @Test
    void objInManyBlocksResolvesRelativeIndices() throws Exception {
        Random r = new Random(5);
        StringBuilder sb = new StringBuilder("# obj\nmtllib x.mtl\n");
        List<double[]> v = new ArrayList<>();
        List<int[]> faces = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            if (v.size() < 3 || r.nextInt(3) > 0) {
                double[] p = new double[3];
                sb.append('v');
                for (int k = 0; k < 3; k++) {
                    String s = spelling(r);
                    p[k] = Double.parseDouble(s);
                    sb.append(' ').append(s);
                }
                v.add(p);
                sb.append(r.nextBoolean() ? " 1.0\n" : "\n");
            } else {
                int n = 3 + r.nextInt(3);
                int[] f = new int[n];
                sb.append(r.nextBoolean() ? "f" : "f ");
                for (int j = 0; j < n; j++) {
                    f[j] = r.nextInt(v.size());
                    String idx = r.nextBoolean() ? Integer.toString(f[j] + 1) : Integer.toString(f[j] - v.size());
                    sb.append(' ').append(idx).append(r.nextBoolean() ? "" : "/" + (j + 1) + "/2");
                }
                faces.add(f);
                sb.append(r.nextInt(7) == 0 ? "\nvn 0 0 1\ng part\n" : "\n");
            }
        }
        Path p = dir.resolve("m.obj");
        Files.writeString(p, sb);
        for (String block : new String[] {"13", "1000", "8388608"}) {
            System.setProperty("accelgeom.io.block", block);
            Mesh m = Formats.readMesh(p);
            assertEquals(v.size(), m.vertexCount());
            assertEquals(faces.size(), m.faceCount());
            for (int i = 0; i < v.size(); i++) {
                assertArrayEquals(v.get(i), new double[] {m.x()[i], m.y()[i], m.z()[i]}, "vertex " + i);
            }
            for (int f = 0; f < faces.size(); f++) {
                for (int j = 0; j < faces.get(f).length; j++) {
                    assertEquals(faces.get(f)[j], m.faceVertex(f, j), "face " + f + " block " + block);
                }
            }
        }
        try (Input in = Input.open(p.toString())) {
            assertEquals(OldObjReader.read(in), Formats.readMesh(p), "the one-thread reader");
        }
        Path bunny = Path.of("data/meshes/bunny.obj");
        if (Files.isRegularFile(bunny)) {
            try (Input in = Input.open(bunny.toString())) {
                assertEquals(OldObjReader.read(in), Formats.readMesh(bunny), "the real bunny.obj");
            }
        }
        String[] lines = sb.toString().split("\n", -1);
        int last = lines.length - 1;
        lines[last - 1] = "f 1 2 -" + (v.size() + 1);
        Files.writeString(p, String.join("\n", lines));
        assertFormatError("m.obj", ":" + last + ": relative vertex index", () -> Formats.readMesh(p));
        lines[last - 1] = "f 1 2 " + (v.size() + 1);
        lines[last - 3] = "f 1 2 " + (v.size() + 1);
        Files.writeString(p, String.join("\n", lines));
        assertFormatError("m.obj", ":" + (last - 2) + ": face vertex index", () -> Formats.readMesh(p));
        Files.writeString(p, "# nothing\nvt 0 0\n");
        assertFormatError("m.obj", ":2: expected OBJ vertices", () -> Formats.readMesh(p));
    }

    @Test
    void offAndAsciiPlyInManyBlocks() throws Exception {
        Random r = new Random(8);
        int nv = 3000;
        int nf = 2000;
        double[][] v = new double[3][nv];
        StringBuilder off = new StringBuilder("OFF\n# counts next\n" + nv + " " + nf + " 0\n");
        StringBuilder ply = new StringBuilder("ply\nformat ascii 1.0\nelement vertex " + nv + "\nproperty double x\n"
                + "property double y\nproperty double z\nproperty uchar red\nelement face " + nf
                + "\nproperty list uchar int vertex_indices\nend_header\n");
        for (int i = 0; i < nv; i++) {
            for (int k = 0; k < 3; k++) {
                String s = spelling(r);
                v[k][i] = Double.parseDouble(s);
                off.append(k == 0 ? "" : " ").append(s);
                ply.append(k == 0 ? "" : r.nextInt(10) == 0 ? "\n" : " ").append(s); // records may span lines
            }
            off.append(r.nextInt(10) == 0 ? " # a comment\n" : "\n").append(r.nextInt(30) == 0 ? "\n# gap\n" : "");
            ply.append(' ').append(r.nextInt(256)).append('\n');
        }
        int[][] faces = new int[nf][];
        for (int f = 0; f < nf; f++) {
            faces[f] = new int[3 + r.nextInt(3)];
            off.append(faces[f].length);
            ply.append(faces[f].length);
            for (int j = 0; j < faces[f].length; j++) {
                faces[f][j] = r.nextInt(nv);
                off.append(' ').append(faces[f][j]);
                ply.append(' ').append(faces[f][j]);
            }
            off.append(r.nextBoolean() ? " 0.5 0.5 0.5 1\n" : "\n");
            ply.append('\n');
        }
        for (String[] f : new String[][] {{"m.off", off.toString()}, {"m.ply", ply.toString()}}) {
            Path p = dir.resolve(f[0]);
            Files.writeString(p, f[1]);
            for (String block : new String[] {"11", "5000", "8388608"}) {
                System.setProperty("accelgeom.io.block", block);
                Mesh m = Formats.readMesh(p);
                assertArrayEquals(v, new double[][] {m.x(), m.y(), m.z()}, f[0] + " block " + block);
                assertEquals(nf, m.faceCount());
                for (int g = 0; g < nf; g++) {
                    for (int j = 0; j < faces[g].length; j++) {
                        assertEquals(faces[g][j], m.faceVertex(g, j), f[0] + " face " + g);
                    }
                }
                assertArrayEquals(v, Formats.readPoints(p).coords(), f[0] + " points, block " + block);
            }
        }
        // an error in a late block names its line
        String[] lines = off.toString().split("\n", -1);
        int bad = lines.length - 5;
        lines[bad - 1] = "3 0 1 " + nv;
        Path p = dir.resolve("m.off");
        Files.writeString(p, String.join("\n", lines));
        System.setProperty("accelgeom.io.block", "101");
        assertFormatError("m.off", ":" + bad + ": face", () -> Formats.readMesh(p));
    }

    /** The real meshes, when fetched: the same in many blocks as in one. */
    @Test
    void realMeshesInManyBlocksEqualOneBlock() throws Exception {
        for (String f : new String[] {"data/meshes/bunny00.off", "data/meshes/ChineseDragon-10kv.off", "data/meshes/bunny.obj"}) {
            Path p = Path.of(f);
            Assumptions.assumeTrue(Files.isRegularFile(p), f + " not fetched");
            System.clearProperty("accelgeom.io.block");
            Mesh one = Formats.readMesh(p);
            System.setProperty("accelgeom.io.block", "4099");
            assertEquals(one, Formats.readMesh(p), f);
        }
    }

    /** The real point files, when fetched into data/ (scripts/fetch-datasets.sh); skipped otherwise. */
    @Test
    void realFilesEqualParseDouble() throws Exception {
        for (String f : new String[] {"data/points/kitten.xyz", "data/points/sphere_20k.xyz"}) {
            Path p = Path.of(f);
            Assumptions.assumeTrue(Files.isRegularFile(p), f + " not fetched");
            System.setProperty("accelgeom.io.block", "4099");
            PointCloud c = Formats.readPoints(p);
            List<double[]> rows = new ArrayList<>();
            for (String line : Files.readAllLines(p)) {
                String s = line.strip();
                if (s.isEmpty() || s.startsWith("#")) {
                    continue;
                }
                String[] t = s.split("\\s+");
                double[] row = new double[t.length];
                for (int k = 0; k < t.length; k++) {
                    row[k] = Double.parseDouble(t[k]);
                }
                rows.add(row);
            }
            assertEquals(rows.size(), c.size(), f);
            for (int i = 0; i < rows.size(); i++) {
                for (int k = 0; k < c.dimension(); k++) {
                    assertEquals(Double.doubleToRawLongBits(rows.get(i)[k]), Double.doubleToRawLongBits(c.coords()[k][i]), f);
                }
            }
        }
    }

    static byte[] gzip(byte[] data) throws Exception {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bos)) {
            out.write(data);
        }
        return bos.toByteArray();
    }
}
