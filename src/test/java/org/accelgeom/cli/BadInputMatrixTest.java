package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bad-input matrix of issue 16 (items 3, 6-10): each row a command line, the exit status it must give and a
 * pattern its one error line must match. Every row runs in-process through {@link Main#execute} with stdout and
 * stderr captured; none may print a stack trace or more than one stderr line, and no error row may print a result.
 * {@code $D} in an argument is the row's temporary directory (fixtures are written there first).
 */
class BadInputMatrixTest {

    @TempDir
    static Path dir;

    record Row(String[] args, int exit, String pattern) {
        @Override
        public String toString() {
            return String.join(" ", args) + " -> " + exit;
        }
    }

    private static Row row(int exit, String pattern, String... args) {
        return new Row(args, exit, pattern);
    }

    static Stream<Arguments> matrix() {
        List<Row> rows = new ArrayList<>();
        // item 7: usage errors are exit 2 with the range in the message
        rows.add(row(2, "--threads must be in 0\\.\\.32767, got 40000", "hull", "--random", "100", "--threads", "40000"));
        rows.add(row(2, "bad --scene 'sphere:2000000000'.*1\\.\\.200000000", "kdtree", "build", "--scene", "sphere:2000000000"));
        rows.add(row(2, "bad --scene 'cube:10'", "kdtree", "build", "--scene", "cube:10"));
        rows.add(row(2, "--depth must be in 1\\.\\.30, got 64", "cbt", "--depth", "64"));
        rows.add(row(2, "--init must be in 0\\.\\.4, got 7", "cbt", "--depth", "4", "--init", "7"));
        rows.add(row(2, "--fov must be in \\(0, 180\\), got 0", "render", "--scene", "random:10", "--fov", "0"));
        rows.add(row(2, "--fov must be in \\(0, 180\\)", "terrain", "--fov", "180"));
        rows.add(row(2, "--lambda must be in \\(0, 1\\], got 2", "kdtree", "build", "--scene", "random:10", "--lambda", "2"));
        rows.add(row(2, "--kt must be a finite number > 0, got -1", "kdtree", "build", "--scene", "random:10", "--kt", "-1"));
        rows.add(row(2, "--ki must be a finite number > 0, got NaN", "render", "--scene", "random:10", "--ki", "NaN"));
        rows.add(row(2, "unknown --builder 'fast': expected exact, zhou", "kdtree", "build", "--scene", "random:10", "--builder", "fast"));
        rows.add(row(2, "--max-depth must be in 0\\.\\.\\d+, got 999", "kdtree", "build", "--scene", "random:10", "--max-depth", "999"));
        rows.add(row(2, "--fill must be in \\(0, 1\\], got 2", "cbt", "--bench", "cycle", "--fill", "2"));
        rows.add(row(2, "unknown precision 'quad'", "voronoi", "--random", "10", "--precision", "quad"));
        rows.add(row(2, "--threshold must be in \\(0, 1\\), got 5", "voronoi", "--random", "10", "--threshold", "5"));
        rows.add(row(2, "--output x\\.stl: the hull \\(a mesh\\) is written as \\.ply, \\.obj, \\.off", "hull", "--random", "10", "--output", "x.stl"));
        rows.add(row(2, "--picture x\\.jpg: a picture is written as \\.png", "hull", "--random", "10", "--picture", "x.jpg"));
        rows.add(row(2, "--save-points x\\.obj: points", "hull", "--random", "10", "--save-points", "x.obj"));
        rows.add(row(2, "--thread-counts must be in 0\\.\\.32767, got -1", "cbt", "--bench", "decode", "--thread-counts", "-1"));
        rows.add(row(2, "--split 1: node 1 is not a leaf", "cbt", "--split", "1"));
        rows.add(row(2, "--split must be in 1\\.\\.31, got 99", "cbt", "--split", "99"));
        rows.add(row(2, "unknown --bench 'fly'", "cbt", "--memory", "--bench", "fly"));
        rows.add(row(2, "--batch must be >= 0, got -1", "voronoi", "--random", "10", "--batch", "-1"));
        rows.add(row(2, "--lanes must be in 0\\.\\.1024", "voronoi", "--random", "10", "--lanes", "5000"));
        rows.add(row(2, "--all-models reads every model: leave out --model", "voronoi", "--input", "$D/two.pdb", "--all-models", "--model", "2"));
        rows.add(row(2, "--tetrahedra x\\.json: the quasi-triangulation is written as \\.csv", "voronoi", "--random", "10", "--tetrahedra", "x.json"));
        rows.add(row(2, "--output v\\.ply: the vertices", "voronoi", "--random", "10", "--output", "v.ply"));
        rows.add(row(2, "--roughness must be in \\(0, 1\\], got 2", "terrain", "--roughness", "2"));
        rows.add(row(2, "--settle must be >= 0, got -1", "terrain", "--settle", "-1"));
        rows.add(row(2, "--fractal generates the heights: not with --input", "terrain", "--input", "$D/h.f32", "--nx", "2", "--ny", "2", "--fractal", "5"));
        rows.add(row(2, "--fractal must be in 1\\.\\.13, got 40", "terrain", "--fractal", "40"));
        rows.add(row(2, "--max-depth must be in 6\\.\\.24, got 30", "terrain", "--max-depth", "30"));
        rows.add(row(2, "--output t\\.png: the mesh", "terrain", "--output", "t.png"));
        rows.add(row(2, "kdtree build writes no file", "kdtree", "build", "--scene", "random:10", "--output", "t.obj"));
        rows.add(row(2, "--eye needs three comma-separated numbers", "render", "--scene", "random:10", "--eye", "1,2"));
        rows.add(row(2, "--width must be in 1\\.\\.16384, got 0", "render", "--scene", "random:10", "--width", "0"));
        rows.add(row(2, "--r1 must be a finite number > 0, got -1", "ridge", "--generate", "spiral2d", "--r1", "-1"));
        rows.add(row(2, "--output c\\.obj: the curve is written as \\.ply, \\.csv", "ridge", "--generate", "spiral2d", "--output", "c.obj"));
        rows.add(row(2, "--cull-directions must be in 0\\.\\.1024", "hull", "--random", "10", "--cull-directions", "99999"));
        // item 10: options that would do nothing are refused
        rows.add(row(2, "--distribution needs --random", "hull", "--input", "$D/pts-nan.xyz", "--distribution", "cube"));
        rows.add(row(2, "--fill needs --bench", "cbt", "--memory", "--fill", "0.5"));
        rows.add(row(2, "--small needs --builder zhou", "kdtree", "build", "--scene", "random:10", "--small", "8"));
        rows.add(row(2, "--roughness needs no --input", "terrain", "--input", "$D/h.f32", "--nx", "2", "--ny", "2", "--roughness", "0.5"));
        rows.add(row(2, "--n needs --generate", "ridge", "--input", "$D/pts-nan.xyz", "--r1", "1", "--n", "10"));
        // item 10 / 2: an output that cannot be written is found before the computation (exit 1)
        rows.add(row(1, "/nonexistent-dir/h\\.ply: cannot write: no such directory", "hull", "--random", "100", "--output", "/nonexistent-dir/h.ply"));
        rows.add(row(1, "/nonexistent-dir/e\\.csv: cannot write: no such directory", "voronoi", "--random", "50", "--edges", "/nonexistent-dir/e.csv"));
        rows.add(row(1, "\\$D: cannot write: is a directory|cannot write: is a directory", "ridge", "--generate", "spiral2d", "--output", "$D/dir.csv"));
        rows.add(row(1, "cannot write: no such directory", "terrain", "--fractal", "3", "--picture", "/nonexistent-dir/t.png"));
        rows.add(row(1, "cannot write: no such directory", "render", "--scene", "random:10", "--output", "/nonexistent-dir/r.png"));
        // item 6: non-finite and huge heights
        rows.add(row(1, "h-nan\\.f32: height at row 1, column 2 is NaN", "terrain", "--input", "$D/h-nan.f32", "--nx", "2", "--ny", "2"));
        rows.add(row(1, "h-inf\\.f32: height at row 2, column 1 is Infinity", "terrain", "--input", "$D/h-inf.f32", "--nx", "2", "--ny", "2"));
        rows.add(row(1, "h-big\\.f32: height at row 2, column 2 is 3\\.0E38", "terrain", "--input", "$D/h-big.f32", "--nx", "2", "--ny", "2"));
        // item 8: control bytes in what is echoed are escaped
        rows.add(row(1, "bad\\\\x1b\\[31mname\\.xyz: no such file", "hull", "--input", "$D/bad\u001b[31mname.xyz"));
        // item 8: point and atom numbers from 1, with the input named
        rows.add(row(1, "pts-nan\\.xyz(:2:|: point 2 of 3 \\(4\\.0, NaN, 6\\.0\\) has a non-finite coordinate)", "hull", "--input", "$D/pts-nan.xyz"));
        rows.add(row(1, "pts-big\\.xyz(:3:|: point 3 of 3 .*beyond float range: use --precision double)", "ridge", "--input", "$D/pts-big.xyz", "--r1", "1", "--precision", "float"));
        rows.add(row(1, "balls\\.xyzr(:2:|: atom 2 of 2 \\(serial 2\\) has the radius -1\\.0)", "voronoi", "--input", "$D/balls.xyzr"));
        // item 3: out of memory is one line with the way to give more
        rows.add(row(1, "out of memory .*ACCELGEOM_JAVA_OPTS=-Xmx\\d+g", "hull", "--random", "2000000000", "--cull-directions", "0"));
        return rows.stream().map(Arguments::of);
    }

    @BeforeAll
    static void fixtures() throws IOException {
        Files.writeString(dir.resolve("two.pdb"), """
                MODEL        1
                ATOM      1  CA  ALA A   1       0.000   0.000   0.000  1.00  0.00           C
                ENDMDL
                MODEL        2
                ATOM      1  CA  ALA A   1       1.000   0.000   0.000  1.00  0.00           C
                ENDMDL
                """);
        grid("h.f32", 1, 2, 3, 4);
        grid("h-nan.f32", 1, Float.NaN, 3, 4);
        grid("h-inf.f32", 1, 2, Float.POSITIVE_INFINITY, 4);
        grid("h-big.f32", 1, 2, 3, 3e38f);
        Files.createDirectories(dir.resolve("dir.csv"));
        Files.writeString(dir.resolve("pts-nan.xyz"), "1 2 3\n4 NaN 6\n7 8 9\n");
        Files.writeString(dir.resolve("pts-big.xyz"), "1 2 3\n4 5 6\n7 8 1e39\n");
        Files.writeString(dir.resolve("balls.xyzr"), "0 0 0 1.5\n1 0 0 -1\n");
    }

    private static void grid(String name, float... v) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) {
            b.putFloat(f);
        }
        Files.write(dir.resolve(name), b.array());
    }

    static MainTest.Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = Main.commandLine(args);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = Main.execute(cl, args);
        return new MainTest.Run(exit, out.toString(), err.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("matrix")
    void oneLineErrorAndExitStatus(Row row) {
        String[] args = Stream.of(row.args()).map(a -> a.replace("$D", dir.toString())).toArray(String[]::new);
        MainTest.Run r = run(args);
        assertEquals(row.exit(), r.exit(), "exit of " + row + "\nstdout:\n" + r.out() + "\nstderr:\n" + r.err());
        assertEquals(1, r.errLines().size(), "stderr of " + row + ":\n" + r.err());
        String line = r.errLines().get(0);
        assertTrue(line.startsWith("accelgeom: error: "), line);
        assertTrue(Pattern.compile(row.pattern()).matcher(line).find(), "'" + row.pattern() + "' not in: " + line);
        assertFalse(r.err().contains("\tat ") || r.err().contains("Exception"), r.err());
        assertTrue(line.chars().noneMatch(c -> c < 0x20 || c == 0x7f), "control bytes in: " + line);
        assertEquals("", r.out(), "an error row printed a result:\n" + r.out());
    }

    /** Item 3: TornadoVM's device out-of-memory (a buffer beyond the device's maximum allocation) is one line. */
    @Test
    void deviceOutOfMemoryIsOneLine() {
        StringWriter err = new StringWriter();
        var cl = Main.commandLine();
        cl.setErr(new PrintWriter(err, true));
        RuntimeException wrapped = new RuntimeException(new TornadoOutOfMemoryException(
                "Unable to allocate 17179869184 bytes of memory."));
        assertEquals(1, new Main.Failures(false).handleExecutionException(wrapped, cl, null));
        assertEquals(1, err.toString().lines().count(), err.toString());
        assertTrue(err.toString().startsWith("accelgeom: error: the device is out of memory (Unable to allocate "
                + "17179869184 bytes of memory.): a buffer is larger than the device can allocate"), err.toString());
        assertTrue(err.toString().contains("'accelgeom devices' prints its maximum allocation"), err.toString());
    }

    /** Stands in for TornadoVM's exception of that name (the CLI recognises it by name: no TornadoVM at compile time). */
    static final class TornadoOutOfMemoryException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TornadoOutOfMemoryException(String message) {
            super(message);
        }
    }

    /** Item 8: a full stdout is an error, not exit 0 with the data lost. */
    @Test
    void fullStdoutIsAnError() {
        String[] args = {"hull", "--random", "100"};
        StringWriter err = new StringWriter();
        var cl = Main.commandLine(args);
        cl.setOut(new PrintWriter(new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("No space left on device");
            }
        }, true));
        cl.setErr(new PrintWriter(err, true));
        assertEquals(1, Main.execute(cl, args));
        assertTrue(err.toString().startsWith("accelgeom: error: standard output: cannot write"), err.toString());
    }

    /** Item 8: 1e10 is printed as 1e+10 (it was 1e+1). */
    @Test
    void largeRadiiArePrintedAsGiven() {
        assertEquals("1e+10", Check.num(1e10));
        assertEquals("8.34", Check.num(8.34));
        assertEquals("100", Check.num(100));
        assertEquals("1.5e-07", Check.num(1.5e-7));
        MainTest.Run r = run("ridge", "--generate", "segment", "--n", "200", "--sigma", "0.5", "--r1", "1e10", "--r2", "2e10",
                "--no-order", "--quiet");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("R1 = 1e+10, R2 = 2e+10"), r.out());
    }

    /** Item 10: -V works on every command; the top-level help lists whole sentences. */
    @Test
    void versionOnEveryCommandAndWholeSentencesInTheHelp() {
        for (String[] args : List.of(new String[] {"hull", "-V"}, new String[] {"kdtree", "build", "--version"},
                new String[] {"cbt", "-V"})) {
            MainTest.Run r = run(args);
            assertEquals(0, r.exit(), r.err());
            assertTrue(r.out().startsWith("accelgeom "), String.join(" ", args) + ": " + r.out());
        }
        for (String c : List.of("hull", "ridge", "render", "voronoi", "cbt", "terrain")) {
            MainTest.Run help = run(c, "--help");
            List<String> lines = help.out().lines().toList();
            for (int i = lines.indexOf("Examples:") + 1; i < lines.size(); i++) {
                String l = lines.get(i);
                assertTrue(l.length() <= 79, c + ": an example wider than the help, picocli would wrap it: " + l);
                if (l.startsWith("      ")) { // a continuation: the line before ends in " \"
                    assertTrue(lines.get(i - 1).endsWith(" \\"), c + ": " + lines.get(i - 1));
                }
            }
        }
        assertEquals(List.of("  accelgeom b --c d \\", "      --e f"), Main.continued("  accelgeom b --c d --e f", 22));
        MainTest.Run h = run("--help");
        assertEquals(0, h.exit());
        String list = h.out().substring(h.out().indexOf("Commands:"));
        for (String c : List.of("hull", "ridge", "kdtree", "render", "voronoi", "cbt", "terrain", "devices", "bench")) {
            Pattern p = Pattern.compile("(?m)^  " + c + " +(.*(?:\\n {6,}.*)*)");
            var m = p.matcher(list);
            assertTrue(m.find(), c + " not in:\n" + list);
            assertTrue(m.group(1).strip().endsWith("."), c + "'s summary is cut: " + m.group(1));
        }
    }

    /** Item 10: the files written alongside say so; render without --output says the image was not written. */
    @Test
    void everyWrittenFileHasItsLine() {
        Path balls = dir.resolve("b.xyzr");
        MainTest.Run v = run("voronoi", "--random", "30", "--save-balls", balls.toString(), "--quiet");
        assertEquals(0, v.exit(), v.err());
        assertTrue(v.out().contains("wrote " + balls + " (30 balls)"), v.out());
        Path pts = dir.resolve("p.xyz");
        MainTest.Run h = run("hull", "--random", "50", "--save-points", pts.toString(), "--quiet");
        assertEquals(0, h.exit(), h.err());
        assertTrue(h.out().contains("wrote " + pts + " (50 points)"), h.out());
        MainTest.Run r = run("render", "--scene", "random:20", "--width", "8", "--height", "8");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("not written (give --output FILE.png"), r.out());
    }

    /** Issue 15 item 6: --all-models stops at the last model by the exception's type. */
    @Test
    void allModelsStopsAfterTheLast() throws IOException {
        StringBuilder pdb = new StringBuilder();
        for (int m = 1; m <= 3; m++) {
            pdb.append(String.format("MODEL     %4d%n", m));
            for (int a = 0; a < 6; a++) {
                pdb.append(String.format("ATOM  %5d  CA  ALA A%4d    %8.3f%8.3f%8.3f  1.00  0.00           C%n", a + 1, a + 1,
                        (a % 2) * 3.0 + m * 0.1, (a / 2 % 2) * 3.0, (a / 4) * 3.0 + (a % 3) * 0.7));
            }
            pdb.append("ENDMDL\n");
        }
        Path f = dir.resolve("three.pdb");
        Files.writeString(f, pdb);
        MainTest.Run r = run("voronoi", "--input", f.toString(), "--all-models", "--quiet");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("models:           3"), r.out());
    }
}
