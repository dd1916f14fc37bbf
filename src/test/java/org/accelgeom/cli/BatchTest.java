package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.accelgeom.hull.RandomPoints;
import org.accelgeom.io.Formats;
import org.accelgeom.io.InputFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Many inputs in one call ({@link Batch}): expansion, naming, failures, and results equal to single runs. */
class BatchTest {

    @TempDir
    Path dir;

    /** Three point files of different sizes and seeds, and a garbage file named to sort between them. */
    private Path inputs() throws IOException {
        Path in = Files.createDirectories(dir.resolve("in"));
        Formats.writePoints(in.resolve("a.xyz"), RandomPoints.ball(3000, 1));
        Files.writeString(in.resolve("b.xyz"), "0 0 0\n1 0 0\nnot a number\n");
        Formats.writePoints(in.resolve("c.xyz"), RandomPoints.gauss(2000, 2));
        Formats.writePoints(in.resolve("d.xyz"), RandomPoints.sphere(500, 3));
        return in;
    }

    @Test
    void badFileInTheMiddleIsReportedAndTheOthersEqualSingleRuns() throws Exception {
        Path in = inputs();
        Path out = dir.resolve("out");
        MainTest.Run r = MainTest.run("hull", "--input", in.resolve("a.xyz").toString(), in.resolve("b.xyz").toString(),
                in.resolve("c.xyz").toString(), in.resolve("d.xyz").toString(), "--output", out.toString(),
                "--backend", "jvm", "--quiet");
        assertEquals(1, r.exit(), r.err());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().startsWith("accelgeom: error: " + in.resolve("b.xyz") + ": "), r.err());
        assertTrue(r.err().contains(":3"), "the bad line is named: " + r.err());
        assertTrue(r.out().contains("batch: 3 done, 1 failed,"), r.out());
        assertFalse(Files.exists(out.resolve("b.ply")));
        for (String name : List.of("a", "c", "d")) {
            Path single = dir.resolve(name + "-single.ply");
            MainTest.Run s = MainTest.run("hull", "--input", in.resolve(name + ".xyz").toString(), "--output",
                    single.toString(), "--backend", "jvm", "--quiet");
            assertEquals(0, s.exit(), s.err());
            assertArrayEquals(Files.readAllBytes(single), Files.readAllBytes(out.resolve(name + ".ply")), name);
        }
    }

    @Test
    void directoryAndGlobExpandSortedWithoutHiddenFiles() throws Exception {
        Path in = inputs();
        Files.writeString(in.resolve(".hidden.xyz"), "0 0 0\n");
        Files.writeString(in.resolve("notes.txt"), "0 0 0\n");
        Files.createDirectories(in.resolve("sub"));
        List<String> unmatched = new ArrayList<>();
        assertEquals(List.of("a.xyz", "b.xyz", "c.xyz", "d.xyz", "notes.txt"),
                names(InputFiles.expand(List.of(in.toString()), unmatched)));
        assertEquals(List.of("a.xyz", "b.xyz", "c.xyz", "d.xyz"), names(InputFiles.expand(List.of(in + "/*.xyz"), unmatched)));
        assertEquals(List.of("c.xyz", "d.xyz", "a.xyz"),
                names(InputFiles.expand(List.of(in + "/[cd].xyz", in.resolve("a.xyz").toString()), unmatched)));
        assertTrue(unmatched.isEmpty(), unmatched.toString());
        InputFiles.expand(List.of(in + "/*.pdb", in.resolve("zz.xyz").toString()), unmatched);
        assertEquals(List.of(in + "/*.pdb", in.resolve("zz.xyz").toString()), unmatched);

        // the same through the CLI: a glob of the good files, every one written
        Path out = dir.resolve("globbed");
        MainTest.Run r = MainTest.run("hull", "--input", in + "/[acd].xyz", "--output", out.toString(), "--backend", "jvm",
                "--quiet");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("batch: 3 done, 0 failed,"), r.out());
        assertEquals(Set.of("a.ply", "c.ply", "d.ply"), Set.copyOf(names(Files.list(out).toList())));
        // a directory holding a bad file: the batch goes on and fails at the end
        MainTest.Run d = MainTest.run("hull", "--input", in.toString(), "--output", dir.resolve("all").toString(),
                "--backend", "jvm", "--quiet");
        assertEquals(1, d.exit());
        assertTrue(d.out().contains("batch: 4 done, 1 failed,"), d.out()); // notes.txt ("0 0 0") is a one-point hull
    }

    @Test
    void missingInputIsOneFailureAndTheRestRuns() throws Exception {
        Path in = inputs();
        MainTest.Run r = MainTest.run("hull", "--input", in.resolve("a.xyz").toString(), in.resolve("nope.xyz").toString(),
                "--output", dir.resolve("o").toString(), "--format", "off", "--backend", "jvm", "--quiet");
        assertEquals(1, r.exit());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().contains("nope.xyz"), r.err());
        assertTrue(Files.size(dir.resolve("o/a.off")) > 0);
    }

    @Test
    void outputNamesFollowTheInputs() {
        Set<Path> used = new HashSet<>();
        Path o = Path.of("out");
        assertEquals(o.resolve("1ubq.vertices"), InputFiles.outputFor(o, Path.of("x/1ubq.pdb"), "vertices", used));
        assertEquals(o.resolve("dragon_vrip.ply"), InputFiles.outputFor(o, Path.of("dragon_vrip.ply.gz"), "ply", used));
        // a second input of the same stem keeps its whole name
        assertEquals(o.resolve("1ubq.cif.vertices"), InputFiles.outputFor(o, Path.of("y/1ubq.cif"), "vertices", used));
        assertEquals("noext", InputFiles.stem("noext"));
        assertEquals(".hidden", InputFiles.stem(".hidden"));
    }

    @Test
    void oneFileIsNoBatch() throws Exception {
        Path in = inputs();
        MainTest.Run r = MainTest.run("hull", "--input", in.resolve("b.xyz").toString(), "--backend", "jvm", "--quiet");
        MainTest.assertOneLineError(r);
        assertFalse(r.out().contains("batch:"), r.out());
        // a file as --output for several inputs is bad usage
        Path file = Files.writeString(dir.resolve("file.ply"), "");
        MainTest.Run u = MainTest.run("hull", "--input", in.resolve("a.xyz").toString(), in.resolve("c.xyz").toString(),
                "--output", file.toString(), "--backend", "jvm", "--quiet");
        assertEquals(Main.EXIT_USAGE, u.exit(), u.err());
    }

    @Test
    void voronoiBatchWritesEdgesPerInputAndModelsIntoTheDirectory() throws Exception {
        Path in = Files.createDirectories(dir.resolve("mol"));
        try (var s = BatchTest.class.getResourceAsStream("/voronoi/1ubq.xyzr")) {
            Files.copy(s, in.resolve("1ubq.xyzr"));
        }
        Files.writeString(in.resolve("tiny.xyzr"), "0 0 0 1.5\n3 0 0 1.6\n0 3 0 1.7\n0 0 3 1.8\n2 2 2 1.5\n");
        Path out = dir.resolve("vout");
        MainTest.Run r = MainTest.run("voronoi", "--input", in.toString(), "--output", out.toString(), "--edges",
                dir.resolve("e.csv").toString(), "--backend", "jvm", "--quiet");
        assertEquals(0, r.exit(), r.err());
        Path single = dir.resolve("single.vertices");
        Path singleEdges = dir.resolve("single.csv");
        assertEquals(0, MainTest.run("voronoi", "--input", in.resolve("1ubq.xyzr").toString(), "--output", single.toString(),
                "--edges", singleEdges.toString(), "--backend", "jvm", "--quiet").exit());
        assertArrayEquals(Files.readAllBytes(single), Files.readAllBytes(out.resolve("1ubq.vertices")));
        assertArrayEquals(Files.readAllBytes(singleEdges), Files.readAllBytes(out.resolve("1ubq-e.csv")));
        assertTrue(Files.exists(out.resolve("tiny.vertices")) && Files.exists(out.resolve("tiny-e.csv")));
        assertFalse(Files.exists(dir.resolve("e.csv")), "no shared edges file in a batch");
    }

    @Test
    void voronoiInputsInFlightEqualSingleRunsInInputOrder() throws Exception {
        Path in = Files.createDirectories(dir.resolve("inflight"));
        for (String name : List.of("1ubq", "4jsv-cut57", "achbp-cut60")) {
            try (var s = BatchTest.class.getResourceAsStream("/voronoi/" + name + ".xyzr")) {
                Files.copy(s, in.resolve(name + ".xyzr"));
            }
        }
        Files.writeString(in.resolve("2bad.xyzr"), "0 0 0 1.5\n1 2 x 1\n");
        Files.copy(in.resolve("1ubq.xyzr"), in.resolve("5copy.xyzr"));
        Path out = dir.resolve("vin");
        String old = System.setProperty("accelgeom.voronoi.inFlight", "3");
        MainTest.Run r;
        try {
            r = MainTest.run("voronoi", "--input", in.toString(), "--output", out.toString(), "--edges",
                    dir.resolve("e.csv").toString(), "--backend", "jvm-parallel", "--threads", "2", "--quiet");
        } finally {
            if (old == null) {
                System.clearProperty("accelgeom.voronoi.inFlight");
            } else {
                System.setProperty("accelgeom.voronoi.inFlight", old);
            }
        }
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.out().contains("batch: 4 done, 1 failed,"), r.out());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(r.err().contains("2bad.xyzr"), r.err());
        // the reports in input order, each under its header
        List<String> names = List.of("1ubq", "2bad", "4jsv-cut57", "5copy", "achbp-cut60");
        int at = -1;
        for (int k = 0; k < names.size(); k++) {
            int h = r.out().indexOf("== " + in.resolve(names.get(k) + ".xyzr") + " (" + (k + 1) + "/5)");
            assertTrue(h > at, names.get(k) + " in order: " + r.out());
            at = h;
            if (!names.get(k).equals("2bad")) {
                int next = r.out().indexOf("== ", h + 3);
                String report = r.out().substring(h, next < 0 ? r.out().length() : next);
                assertTrue(report.contains("input:            " + in.resolve(names.get(k) + ".xyzr")), report);
            }
        }
        for (String name : List.of("1ubq", "4jsv-cut57", "5copy", "achbp-cut60")) {
            Path single = dir.resolve(name + "-single.vertices");
            Path edges = dir.resolve(name + "-single.csv");
            MainTest.Run s = MainTest.run("voronoi", "--input", in.resolve(name + ".xyzr").toString(), "--output",
                    single.toString(), "--edges", edges.toString(), "--backend", "jvm-parallel", "--threads", "2", "--quiet");
            assertEquals(0, s.exit(), s.err());
            assertArrayEquals(Files.readAllBytes(single), Files.readAllBytes(out.resolve(name + ".vertices")), name);
            assertArrayEquals(Files.readAllBytes(edges), Files.readAllBytes(out.resolve(name + "-e.csv")), name);
        }
    }

    @Test
    void allModelsGoIntoTheOutputDirectory() throws Exception {
        Path f = Files.writeString(dir.resolve("two.pdb"), VoronoiCommandTest.modelsPdb(2, 4));
        MainTest.Run r = MainTest.run("voronoi", "--input", f.toString(), "--all-models", "--output", dir.resolve("models") + "/",
                "--backend", "jvm", "--quiet");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("batch: 1 done, 0 failed,"), r.out());
        for (int k = 1; k <= 2; k++) {
            MainTest.Run one = MainTest.run("voronoi", "--input", f.toString(), "--model", "" + k, "--output",
                    dir.resolve("m" + k + ".vertices").toString(), "--backend", "jvm", "--quiet");
            assertEquals(0, one.exit(), one.err());
            assertArrayEquals(Files.readAllBytes(dir.resolve("m" + k + ".vertices")),
                    Files.readAllBytes(dir.resolve("models/two-model" + k + ".vertices")), "model " + k);
        }
    }

    private static List<String> names(List<Path> paths) {
        return paths.stream().map(p -> p.getFileName().toString()).toList();
    }
}
