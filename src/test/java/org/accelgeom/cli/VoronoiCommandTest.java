package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code accelgeom voronoi} in-process: outputs written and read back, filters, radii, one-line errors. */
class VoronoiCommandTest {

    @TempDir
    Path dir;

    @Test
    void writesVoronotaFormatAndEdges() throws Exception {
        Path balls = dir.resolve("1ubq.xyzr");
        try (var in = VoronoiCommandTest.class.getResourceAsStream("/voronoi/1ubq.xyzr")) {
            Files.copy(in, balls);
        }
        Path vertices = dir.resolve("v.txt");
        Path csv = dir.resolve("e.csv");
        Path tets = dir.resolve("t.csv");
        MainTest.Run r = MainTest.run("voronoi", "--input", balls.toString(), "--output", vertices.toString(), "--edges",
                csv.toString(), "--tetrahedra", tets.toString(), "--backend", "jvm-parallel", "--quiet", "--timings");
        assertEquals(0, r.exit(), r.err());
        assertEquals(3793, r.value("vertices"));
        List<String> lines = Files.readAllLines(vertices);
        assertEquals(3793, lines.size());
        String[] t = lines.get(0).split(" ");
        assertEquals(8, t.length);
        int q0 = Integer.parseInt(t[0]), q1 = Integer.parseInt(t[1]);
        assertTrue(q0 < q1, lines.get(0));
        List<String> edges = Files.readAllLines(csv);
        assertEquals("g1,g2,g3,from,to", edges.get(0));
        assertEquals(r.value("edges") + 1, edges.size());
        List<String> tet = Files.readAllLines(tets);
        assertEquals("t,q1,q2,q3,q4,n1,n2,n3,n4", tet.get(0));
        assertEquals(3793 + 1, tet.size());
        assertEquals(9, tet.get(1).split(",").length);
        Path json = dir.resolve("e.json");
        r = MainTest.run("voronoi", "--input", balls.toString(), "--edges", json.toString(), "--backend", "jvm", "--quiet",
                "--precision", "two-phase");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("float->double swaps:"), r.out());
        assertTrue(Files.readString(json).startsWith("{\"vertices\": 3793, \"edges\": ["));
    }

    @Test
    void pdbFiltersAndRadii() throws Exception {
        Path pdb = dir.resolve("tiny.pdb");
        Files.writeString(pdb, String.join("\n",
                "ATOM      1  N   MET A   1      27.340  24.430   2.614  1.00  9.67           N",
                "ATOM      2  CA  MET A   1      26.266  25.413   2.842  1.00 10.38           C",
                "ATOM      3  C   MET A   1      26.913  26.639   3.531  1.00  9.62           C",
                "ATOM      4  O   MET A   1      27.886  26.463   4.263  1.00  9.62           O",
                "ATOM      5  H   MET A   1      27.000  24.000   2.000  1.00  9.62           H",
                "HETATM    6 FE   HEM A   2      25.000  25.000   5.000  1.00  9.62          FE",
                "HETATM    7  O   HOH A   3      29.000  27.000   1.000  1.00  9.62           O", "END", ""));
        MainTest.Run r = MainTest.run("voronoi", "--input", pdb.toString(), "--quiet", "--backend", "jvm");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("4 balls selected"), r.out());
        r = MainTest.run("voronoi", "--input", pdb.toString(), "--quiet", "--backend", "jvm", "--hydrogens", "--hetatm",
                "--waters", "--save-balls", dir.resolve("b.xyzr").toString());
        assertTrue(r.out().contains("7 balls selected"), r.out());
        List<String> b = Files.readAllLines(dir.resolve("b.xyzr"));
        assertEquals(List.of("1.55", "1.7", "1.7", "1.52", "1.2", "1.7", "1.52"),
                b.stream().map(l -> l.split(" ")[3]).toList(), "Voronota's default radii");
        // fewer than 4 balls: a clear empty result
        r = MainTest.run("voronoi", "--input", pdb.toString(), "--quiet", "--backend", "jvm", "--radii", "bondi",
                "--random", "3");
        assertEquals(Main.EXIT_USAGE, r.exit());
        r = MainTest.run("voronoi", "--random", "3", "--quiet", "--backend", "jvm");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("vertices:         0 (fewer than 4 visible balls"), r.out());
    }

    @Test
    void allModelsOfAFile() throws Exception {
        StringBuilder pdb = new StringBuilder(modelsPdb(3, 4));
        Path f = dir.resolve("three.pdb");
        Files.writeString(f, pdb.toString());
        Path v = dir.resolve("v.txt");
        MainTest.Run r = MainTest.run("voronoi", "--input", f.toString(), "--all-models", "--quiet", "--backend", "jvm",
                "--output", v.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(3, r.value("models"));
        for (int k = 1; k <= 3; k++) {
            assertTrue(r.out().contains("model " + k + ": 30 balls"), r.out());
            assertTrue(Files.readAllLines(dir.resolve("v-model" + k + ".txt")).size() > 20);
        }
    }

    @Test
    void badInputIsOneLine() throws Exception {
        MainTest.assertOneLineError(MainTest.run("voronoi", "--input", dir.resolve("missing.pdb").toString()));
        MainTest.assertOneLineError(MainTest.run("voronoi", "--random", "10", "--radii", "huge"));
        MainTest.assertOneLineError(MainTest.run("voronoi", "--random", "10", "--precision", "quad"));
        MainTest.assertOneLineError(MainTest.run("voronoi", "--random", "10", "--edges", dir.resolve("e.txt").toString()));
        Path bad = dir.resolve("bad.xyzr");
        Files.writeString(bad, "0 0 0 1\n1 0 0 NaN\n");
        MainTest.assertOneLineError(MainTest.run("voronoi", "--input", bad.toString()));
    }

    /** A DCD trajectory of 1UBQ's balls: frame 1 as the file, frame 2 moved by 10 Å (same diagram), frame 3 jiggled. */
    @Test
    void trajectoryFramesAsABatch() throws Exception {
        Path balls = dir.resolve("1ubq.xyzr");
        try (var in = VoronoiCommandTest.class.getResourceAsStream("/voronoi/1ubq.xyzr")) {
            Files.copy(in, balls);
        }
        List<String> lines = Files.readAllLines(balls);
        int n = lines.size();
        float[][][] frames = new float[3][3][n];
        java.util.Random rnd = new java.util.Random(1);
        for (int i = 0; i < n; i++) {
            String[] t = lines.get(i).trim().split("\\s+");
            for (int a = 0; a < 3; a++) {
                float v = Float.parseFloat(t[a]);
                frames[0][a][i] = v;
                frames[1][a][i] = v + 10;
                frames[2][a][i] = v + (float) (0.05 * rnd.nextGaussian());
            }
        }
        Path dcd = dir.resolve("t.dcd");
        Files.write(dcd, org.accelgeom.io.DcdWriter.write(java.nio.ByteOrder.LITTLE_ENDIAN, true, true, 0, frames, n));
        Path vertices = dir.resolve("v.txt");
        MainTest.Run r = MainTest.run("voronoi", "--input", balls.toString(), "--trajectory", dcd.toString(), "--output",
                vertices.toString(), "--backend", "jvm-parallel", "--quiet");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("frame 1: 602 balls, 0 hidden, 3793 vertices"), r.out());
        assertTrue(r.out().contains("frame 2: 602 balls, 0 hidden, 3793 vertices"), r.out());
        assertTrue(r.out().contains("frame 3: 602 balls"), r.out());
        assertEquals(3, r.value("frames"));
        List<String> v1 = Files.readAllLines(dir.resolve("v-frame1.txt")), v2 = Files.readAllLines(dir.resolve("v-frame2.txt"));
        assertEquals(v1.stream().map(l -> l.substring(0, l.indexOf(' ', l.indexOf(' ', l.indexOf(' ', l.indexOf(' ') + 1) + 1) + 1)))
                .sorted().toList(), v2.stream().map(l -> l.substring(0, l.indexOf(' ', l.indexOf(' ', l.indexOf(' ',
                l.indexOf(' ') + 1) + 1) + 1))).sorted().toList());
        assertTrue(Files.exists(dir.resolve("v-frame3.txt")));
        // a trajectory of another molecule, and a broken file: one line each
        Files.write(dcd, org.accelgeom.io.DcdWriter.write(java.nio.ByteOrder.BIG_ENDIAN, false, false, 0,
                DcdReaderFrames.of(2, 10), 10));
        r = MainTest.run("voronoi", "--input", balls.toString(), "--trajectory", dcd.toString(), "--quiet");
        assertEquals(1, r.exit());
        assertTrue(r.err().contains("has 10 atoms per frame"), r.err());
        Files.write(dcd, new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        r = MainTest.run("voronoi", "--input", balls.toString(), "--trajectory", dcd.toString(), "--quiet");
        assertEquals(1, r.exit());
        assertTrue(r.err().contains("not a DCD file"), r.err());
    }

    /** Random frames for the mismatch case. */
    static final class DcdReaderFrames {
        static float[][][] of(int frames, int atoms) {
            return new float[frames][3][atoms];
        }
    }

    /** A PDB file of {@code models} models of 30 random CA atoms each (seeded), ending with END. */
    static String modelsPdb(int models, long seed) {
        StringBuilder pdb = new StringBuilder();
        java.util.Random rnd = new java.util.Random(seed);
        for (int model = 1; model <= models; model++) {
            pdb.append(String.format("MODEL     %4d%n", model));
            for (int i = 0; i < 30; i++) {
                pdb.append(String.format(java.util.Locale.ROOT,
                        "ATOM  %5d  CA  ALA A%4d    %8.3f%8.3f%8.3f  1.00  0.00           C%n", i + 1, i + 1,
                        rnd.nextDouble() * 12, rnd.nextDouble() * 12, rnd.nextDouble() * 12));
            }
            pdb.append("ENDMDL\n");
        }
        return pdb.append("END\n").toString();
    }
}
