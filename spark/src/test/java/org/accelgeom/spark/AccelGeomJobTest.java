package org.accelgeom.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.accelgeom.cli.Main;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spark job in local mode (JVM backends) against the CLI run in this process on the same inputs: the same
 * result files, byte for byte. Inputs: real proteins of the root project's test resources, a DCD trajectory of
 * ubiquitin written here, and the hull tests' point clouds as tiles.
 */
class AccelGeomJobTest {

    /** The root project's test resources (surefire runs in spark/). */
    static final Path RESOURCES = Path.of("..", "src", "test", "resources");

    static JavaSparkContext sc;

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {
    }

    @BeforeAll
    static void start() {
        sc = new JavaSparkContext(local("local[3]"));
    }

    @AfterAll
    static void stop() {
        sc.stop();
        SessionPool.closeAll();
    }

    /** A local Spark of {@code master}, no UI, on the loopback address. */
    static SparkConf local(String master) {
        return new SparkConf().setMaster(master).setAppName("AccelGeomJobTest").set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1")
                .set("spark.ui.showConsoleProgress", "false");
    }

    static Run job(JavaSparkContext sc, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int exit = AccelGeomJob.run(sc, args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static Run cli(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        var cl = Main.commandLine(args);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    /** The same file names in both directories, each with the same bytes; no other file (no temporaries). */
    static void assertSameFiles(Path expected, Path actual, int count) throws IOException {
        List<String> e = names(expected), a = names(actual);
        assertEquals(count, e.size(), "the CLI's files: " + e);
        assertEquals(e, a);
        for (String name : e) {
            assertArrayEquals(Files.readAllBytes(expected.resolve(name)), Files.readAllBytes(actual.resolve(name)), name);
        }
    }

    static List<String> names(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    static Path copy(Path to, String... resources) throws IOException {
        Files.createDirectories(to);
        for (String r : resources) {
            Path from = RESOURCES.resolve(r);
            Files.copy(from, to.resolve(from.getFileName()));
        }
        return to;
    }

    @Test
    void voronoiOfProteinsEqualsTheCli() throws IOException {
        // three files of stem "small": the names of a batch (small.vertices, small.pqr.vertices, ...) too
        Path in = copy(dir.resolve("in"), "voronoi/1ubq.xyzr", "voronoi/4jsv-cut57.xyzr", "voronoi/achbp-cut60.xyzr",
                "io/small.pqr", "io/small.cif", "io/small.xyzr", "io/twomodels.pdb");
        Run c = cli("voronoi", "--input", in.toString(), "--output", dir.resolve("cli").toString(),
                "--quiet");
        assertEquals(0, c.exit(), c.err());
        Run j = job(sc, "voronoi", "--input", in.toString(), "--output", dir.resolve("spark").toString());
        assertEquals(0, j.exit(), j.err());
        assertEquals("", j.err());
        assertTrue(j.out().startsWith("spark: 7 done, 0 failed, 7 files written"), j.out());
        assertTrue(j.out().contains("3 partitions; ran on jvm-parallel: 7"), j.out()); // no GPU: the cores
        assertSameFiles(dir.resolve("cli"), dir.resolve("spark"), 7);
    }

    /** A piece of a protein moving: 6 frames in ranges of 4 (2 tasks), each frame's file equal to the CLI's --trajectory. */
    @Test
    void trajectoryFrameRangesEqualTheCli() throws IOException {
        Path balls = copy(dir.resolve("in"), "voronoi/achbp-cut60.xyzr").resolve("achbp-cut60.xyzr");
        List<String> lines = Files.readAllLines(balls);
        int n = lines.size();
        float[][][] frames = new float[6][3][n];
        Random rnd = new Random(7);
        for (int i = 0; i < n; i++) {
            String[] t = lines.get(i).trim().split("\\s+");
            for (int a = 0; a < 3; a++) {
                float v = Float.parseFloat(t[a]);
                for (int f = 0; f < frames.length; f++) {
                    frames[f][a][i] = f == 0 ? v : v + (float) (0.1 * f * rnd.nextGaussian());
                }
            }
        }
        Path dcd = dir.resolve("achbp.dcd");
        Files.write(dcd, TinyDcd.write(frames, n));
        Path cliOut = Files.createDirectories(dir.resolve("cli"));
        Run c = cli("voronoi", "--input", balls.toString(), "--trajectory", dcd.toString(), "--output",
                cliOut.resolve("achbp-cut60.vertices").toString(), "--quiet");
        assertEquals(0, c.exit(), c.err());
        Run j = job(sc, "voronoi", "--input", balls.toString(), "--trajectory", dcd.toString(), "--frames-per-task", "4",
                "--output", dir.resolve("spark").toString());
        assertEquals(0, j.exit(), j.err());
        assertTrue(j.out().startsWith("spark: 2 done, 0 failed, 6 files written"), j.out());
        assertSameFiles(cliOut, dir.resolve("spark"), 6);
        // the frames differ, so equal files are no accident of one frame written five times
        assertFalse(java.util.Arrays.equals(Files.readAllBytes(cliOut.resolve("achbp-cut60-frame1.vertices")),
                Files.readAllBytes(cliOut.resolve("achbp-cut60-frame6.vertices"))));
    }

    /** Point-cloud tiles: the hull of each, as PLY and as OBJ. */
    @Test
    void hullOfTilesEqualsTheCli() throws IOException {
        Path in = copy(dir.resolve("tiles"), "hull/ball2000.txt", "hull/cube2000.txt", "hull/sphere500.txt", "hull/grid6.txt");
        for (String format : List.of("ply", "obj")) {
            Run c = cli("hull", "--input", in.toString(), "--output", dir.resolve("cli-" + format).toString(), "--format",
                    format, "--quiet");
            assertEquals(0, c.exit(), c.err());
            Run j = job(sc, "hull", "--input", in.toString(), "--output", dir.resolve("spark-" + format).toString(),
                    "--format", format, "--partitions", "2");
            assertEquals(0, j.exit(), j.err());
            assertTrue(j.out().contains("2 partitions"), j.out());
            assertSameFiles(dir.resolve("cli-" + format), dir.resolve("spark-" + format), 4);
        }
    }

    /** A broken input and a missing one: one line each, the others written, exit status 1. */
    @Test
    void failuresAreSummarised() throws IOException {
        Path in = copy(dir.resolve("in"), "voronoi/4jsv-cut57.xyzr");
        Files.writeString(in.resolve("broken.xyzr"), "0 0 0 1\n1 0 zero 1\n");
        Run j = job(sc, "voronoi", "--input", in.toString(), dir.resolve("missing.pdb").toString(), "--output",
                dir.resolve("out").toString());
        assertEquals(1, j.exit(), j.out());
        List<String> err = j.err().lines().toList();
        assertEquals(2, err.size(), j.err());
        assertTrue(err.stream().allMatch(l -> l.startsWith("accelgeom-spark: error: ")), j.err());
        assertTrue(err.stream().anyMatch(l -> l.contains("missing.pdb: no such file")), j.err());
        assertTrue(err.stream().anyMatch(l -> l.contains("broken.xyzr")), j.err());
        assertFalse(j.err().contains("\tat "), j.err());
        assertTrue(j.out().startsWith("spark: 1 done, 2 failed"), j.out());
        assertEquals(List.of("4jsv-cut57.vertices"), names(dir.resolve("out")));
        // a trajectory of another molecule: each frame range fails, saying so; an output path that is a file
        Path dcd = dir.resolve("ten.dcd");
        Files.write(dcd, TinyDcd.write(new float[2][3][10], 10));
        j = job(sc, "voronoi", "--input", in.resolve("4jsv-cut57.xyzr").toString(), "--trajectory", dcd.toString(),
                "--frames-per-task", "1", "--output", dir.resolve("frames").toString());
        assertEquals(1, j.exit(), j.out());
        assertEquals(2, j.err().lines().filter(l -> l.contains("has 10 atoms per frame")).count(), j.err());
        j = job(sc, "hull", "--input", in.toString(), "--output", in.resolve("broken.xyzr").toString());
        assertEquals(1, j.exit(), j.out());
        assertTrue(j.err().startsWith("accelgeom-spark: error: cannot make the output directory "), j.err());
    }

    @Test
    void badUsageIsOneLineAndStatus2() {
        for (String[] args : new String[][] {{"ridge", "--input", "x", "--output", "y"}, {"voronoi", "--input", "x"},
                {"hull", "--input", "x", "--output", "y", "--trajectory", "t.dcd"},
                {"voronoi", "--input", "x", "--output", "y", "--backend", "gpu"},
                {"hull", "--input", "x", "--output", "y", "--format", "vertices"}}) {
            Run j = job(sc, args);
            assertEquals(2, j.exit(), String.join(" ", args));
            assertEquals(1, j.err().lines().count(), j.err());
            assertTrue(j.err().startsWith("accelgeom-spark: error: "), j.err());
        }
    }
}
