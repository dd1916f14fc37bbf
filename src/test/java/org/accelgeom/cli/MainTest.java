package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.imageio.ImageIO;

import org.accelgeom.engine.TornadoSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI run in-process, as a user runs it: exit codes, stdout, and one-line errors on stderr. */
class MainTest {

    record Run(int exit, String out, String err) {
        List<String> errLines() {
            return err.lines().toList();
        }

        /** The number after {@code label:} in the summary. */
        long value(String label) {
            Matcher m = Pattern.compile("(?m)^" + Pattern.quote(label) + ":\\s+(-?\\d+)").matcher(out);
            assertTrue(m.find(), "no '" + label + "' in:\n" + out);
            return Long.parseLong(m.group(1));
        }
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = Main.commandLine(args);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    /** Exactly one stderr line, starting with the error prefix, and no stack trace. */
    static void assertOneLineError(Run r) {
        assertNotEquals(0, r.exit(), r.out());
        assertEquals(1, r.errLines().size(), "stderr:\n" + r.err());
        assertTrue(r.err().startsWith("accelgeom: error: "), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void sphereHullHasEveryPointAsVertex() {
        Run r = run("hull", "--random", "2000", "--distribution", "sphere", "--quiet");
        assertEquals(0, r.exit(), r.err());
        assertEquals(2000, r.value("hull vertices"));
        assertEquals(2000, r.value("points"));
        assertEquals(3, r.value("dimension"));
        assertTrue(r.out().contains("backend:          jvm-parallel"), r.out());
        assertEquals("", r.err());
    }

    @Test
    void sameSeedSameHullOnEveryBackendAndRepeat() {
        Run a = run("hull", "--random", "20000", "--distribution", "gauss", "--backend", "jvm", "--seed", "7");
        Run b = run("hull", "--random", "20000", "--distribution", "gauss", "--backend", "jvm-parallel", "--seed", "7",
                "--threads", "3", "--repeat", "2", "--timings");
        assertEquals(0, a.exit(), a.err());
        assertEquals(0, b.exit(), b.err());
        assertEquals(a.value("hull vertices"), b.value("hull vertices"));
        assertEquals(a.value("facets"), b.value("facets"));
        assertTrue(b.out().contains("run 2/2:"), b.out());
        assertTrue(b.out().contains("phases:"), b.out());
        assertTrue(b.out().contains("jvm-parallel (3 threads)"), b.out());
    }

    @Test
    void missingInputFileIsOneLineError() {
        Run r = run("hull", "--input", "/nonexistent/points.xyz");
        assertOneLineError(r);
        assertEquals(Main.EXIT_FAILURE, r.exit());
        assertTrue(r.err().contains("/nonexistent/points.xyz"), r.err());
    }

    @Test
    void unknownBackendIsUsageError() {
        Run r = run("hull", "--random", "100", "--backend", "nonsense");
        assertOneLineError(r);
        assertEquals(Main.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("nonsense"), r.err());
        assertTrue(r.err().contains("jvm, jvm-parallel, tornado"), r.err());
    }

    @Test
    void otherUsageErrorsAreOneLine() {
        for (String[] args : List.of(new String[] {"hull"}, new String[] {"hull", "--random", "10", "--input", "x.xyz"},
                new String[] {"hull", "--random", "10", "--distribution", "torus"}, new String[] {"hull", "--frobnicate"},
                new String[] {"hull", "--random", "ten"}, new String[] {"nosuchcommand"}, new String[] {})) {
            Run r = run(args);
            assertOneLineError(r);
            assertEquals(Main.EXIT_USAGE, r.exit(), String.join(" ", args));
        }
    }

    @Test
    void debugAddsTheStackTrace() {
        Run r = run("hull", "--input", "/nonexistent/points.xyz", "--debug");
        assertEquals(Main.EXIT_FAILURE, r.exit());
        assertTrue(r.err().startsWith("accelgeom: error: "), r.err());
        assertTrue(r.err().contains("\tat "), r.err());
    }

    @Test
    void tornadoWithoutRuntimeGivesTheHowTo() {
        if (TornadoSupport.available()) {
            return; // under the TornadoVM launcher there is nothing to explain
        }
        Run r = run("hull", "--random", "100", "--backend", "tornado");
        assertOneLineError(r);
        assertTrue(r.err().contains(TornadoSupport.HOW_TO), r.err());
    }

    @Test
    void twoDimensionalInputIsRejectedClearly(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("flat.xyz");
        Files.writeString(f, "0 0\n1 0\n0 1\n1 1\n");
        Run r = run("hull", "--input", f.toString());
        assertOneLineError(r);
        assertTrue(r.err().contains("2 coordinates"), r.err());
        assertTrue(r.err().contains("3D"), r.err());
    }

    @Test
    void malformedInputNamesTheLine(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("bad.xyz");
        Files.writeString(f, "0 0 0\n1 0 0\n0 1 zero\n");
        Run r = run("hull", "--input", f.toString());
        assertOneLineError(r);
        assertTrue(r.err().contains("bad.xyz:3:"), r.err());
    }

    @Test
    void degenerateInputSaysWhatTheHullIs(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("square.xyz");
        Files.writeString(f, "0 0 1\n1 0 1\n0 1 1\n1 1 1\n0.5 0.5 1\n");
        Run r = run("hull", "--input", f.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(2, r.value("dimension"));
        assertTrue(r.out().contains("flat: all points coplanar, the hull is a polygon"), r.out());
        assertEquals(4, r.value("hull vertices"));
    }

    @Test
    void rboxInputIsRead(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("cube.txt");
        StringBuilder sb = new StringBuilder("3 rbox c\n9\n");
        for (int i = 0; i < 8; i++) {
            sb.append(i & 1).append(' ').append((i >> 1) & 1).append(' ').append((i >> 2) & 1).append('\n');
        }
        sb.append("0.5 0.5 0.5\n");
        Files.writeString(f, sb);
        Run r = run("hull", "--input", f.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(8, r.value("hull vertices"));
        assertEquals(6, r.value("facets"));
    }

    @Test
    void outputMeshIsWrittenAndReadBack(@TempDir Path dir) throws IOException {
        for (String ext : List.of("off", "ply", "obj")) {
            Path mesh = dir.resolve("hull." + ext);
            Path png = dir.resolve("hull-" + ext + ".png");
            Run r = run("hull", "--random", "5000", "--distribution", "cube", "--output", mesh.toString(), "--picture",
                    png.toString());
            assertEquals(0, r.exit(), r.err());
            long vertices = r.value("hull vertices");
            long facets = r.value("facets");
            org.accelgeom.io.Mesh m = org.accelgeom.io.Formats.readMesh(mesh);
            assertEquals(vertices, m.vertexCount(), ext);
            assertEquals(facets, m.faceCount(), ext);
            assertEquals(800, ImageIO.read(png.toFile()).getWidth());
        }
    }

    @Test
    void unknownMeshExtensionFailsBeforeTheWork(@TempDir Path dir) {
        Run r = run("hull", "--random", "100", "--output", dir.resolve("hull.stl").toString());
        assertOneLineError(r);
        assertEquals(Main.EXIT_USAGE, r.exit(), r.err());
        assertTrue(r.err().contains(".ply, .obj, .off"), r.err());
    }

    @Test
    void devicesIsInformational() {
        Run r = run("devices");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("TornadoVM runtime:"), r.out());
        assertTrue(r.out().contains("cores"), r.out());
    }

    @Test
    void versionAndHelp() {
        Run v = run("--version");
        assertEquals(0, v.exit());
        assertTrue(v.out().startsWith("accelgeom "), v.out());
        Run h = run("hull", "--help");
        assertEquals(0, h.exit());
        assertTrue(h.out().contains("--distribution"), h.out());
    }

    private static long countVertices(Path mesh, String ext) throws IOException {
        List<String> lines = Files.readAllLines(mesh);
        return switch (ext) {
            case "off" -> Long.parseLong(lines.get(1).trim().split("\\s+")[0]);
            case "ply" -> header(lines, "element vertex ");
            default -> lines.stream().filter(l -> l.startsWith("v ")).count();
        };
    }

    private static long countFaces(Path mesh, String ext) throws IOException {
        List<String> lines = Files.readAllLines(mesh);
        return switch (ext) {
            case "off" -> Long.parseLong(lines.get(1).trim().split("\\s+")[1]);
            case "ply" -> header(lines, "element face ");
            default -> lines.stream().filter(l -> l.startsWith("f ")).count();
        };
    }

    private static long header(List<String> lines, String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).mapToLong(l -> Long.parseLong(l.substring(prefix.length()).trim()))
                .findFirst().orElseThrow();
    }
}
