package org.accelgeom.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.accelgeom.engine.AccelGeomException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 16 item 2: no output is ever left half-written, and a failure leaves the previous file as it was. */
class AtomicOutputTest {

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    @Test
    void aFailedWriteKeepsThePreviousFileAndLeavesNoTemporary(@TempDir Path dir) throws IOException {
        Path target = dir.resolve("mesh.obj");
        Files.writeString(target, "the previous good file\n");
        AccelGeomException e = assertThrows(AccelGeomException.class, () -> AtomicOutput.write(target, out -> {
            out.write(new byte[100_000]); // more than the buffer: bytes reach the temporary before the failure
            throw new IOException("No space left on device");
        }));
        assertEquals(target + ": cannot write: No space left on device", e.getMessage());
        assertEquals("the previous good file\n", Files.readString(target));
        assertEquals(List.of(target), files(dir));
        assertEquals(0, AtomicOutput.inFlight());
    }

    @Test
    void aWriterThatThrowsUncheckedAlsoLeavesNoTemporary(@TempDir Path dir) throws IOException {
        Path target = dir.resolve("p.xyz");
        assertThrows(IllegalStateException.class, () -> AtomicOutput.write(target, out -> {
            out.write(1);
            throw new IllegalStateException("bug");
        }));
        assertEquals(List.of(), files(dir));
    }

    @Test
    void aCompleteWriteReplacesTheTarget(@TempDir Path dir) throws IOException {
        Path target = dir.resolve("v.txt");
        Files.writeString(target, "old");
        AtomicOutput.write(target, out -> out.write("new content".getBytes(StandardCharsets.US_ASCII)));
        assertEquals("new content", Files.readString(target));
        assertEquals(List.of(target), files(dir));
    }

    @Test
    void theTemporaryIsHiddenBesideTheTarget(@TempDir Path dir) {
        Path t = AtomicOutput.temporary(dir.resolve("hull.ply"));
        assertEquals(dir.toAbsolutePath(), t.getParent());
        assertTrue(t.getFileName().toString().matches("\\.hull\\.ply\\.[0-9a-f]{16}\\.tmp"), t.toString());
    }

    @Test
    void writabilityIsCheckedWithAReason(@TempDir Path dir) throws IOException {
        AtomicOutput.checkWritable(dir.resolve("ok.csv"));
        assertEquals(List.of(), files(dir));
        AccelGeomException missing = assertThrows(AccelGeomException.class,
                () -> AtomicOutput.checkWritable(dir.resolve("no/such/e.csv")));
        assertEquals(dir.resolve("no/such/e.csv") + ": cannot write: no such directory", missing.getMessage());
        AccelGeomException isDir = assertThrows(AccelGeomException.class, () -> AtomicOutput.checkWritable(dir));
        assertTrue(isDir.getMessage().endsWith(": cannot write: is a directory"), isDir.getMessage());
        Path file = Files.writeString(dir.resolve("f"), "x");
        AccelGeomException under = assertThrows(AccelGeomException.class,
                () -> AtomicOutput.checkWritable(file.resolve("x.csv")));
        assertTrue(under.getMessage().contains("is not a directory"), under.getMessage());
    }

    @Test
    void formatsWritesAtomicallyToo(@TempDir Path dir) throws IOException {
        Path target = dir.resolve("pts.csv.gz");
        Formats.writePoints(target, PointCloud.of(new double[] {1, 2}, new double[] {3, 4}, new double[] {5, 6}));
        assertEquals(2, Formats.readPoints(target).size());
        Formats.writePng(dir.resolve("i.png"), new BufferedImage(3, 2, BufferedImage.TYPE_INT_RGB));
        VoronoiFiles.writeVertices(dir.resolve("v.vertices"), 1, new int[] {0, 1, 2, 3}, new double[] {1, 2, 3, 0.5});
        assertEquals("0 1 2 3 1.000000000000000 2.000000000000000 3.000000000000000 0.500000000000000\n",
                Files.readString(dir.resolve("v.vertices")));
        assertEquals(List.of(dir.resolve("i.png"), dir.resolve("pts.csv.gz"), dir.resolve("v.vertices")), files(dir));
    }

    /** Writes its argument slowly (a byte every millisecond), after printing "writing" once the temporary exists. */
    public static final class SlowWriter {
        public static void main(String[] args) {
            AtomicOutput.write(Path.of(args[0]), out -> {
                out.flush();
                System.out.println("writing");
                System.out.flush();
                for (int i = 0; i < 600_000; i++) {
                    out.write('x');
                    out.flush();
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }
            });
        }
    }

    private static Process slowWriter(Path target) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), SlowWriter.class.getName(),
                target.toString()).redirectErrorStream(true).start();
        byte[] line = new byte[8];
        assertEquals(8, p.getInputStream().readNBytes(line, 0, 8), "the writer did not start");
        assertEquals("writing\n", new String(line, StandardCharsets.US_ASCII));
        return p;
    }

    /** SIGTERM: the shutdown hook deletes the temporary; the previous file stays. */
    @Test
    void sigtermLeavesThePreviousFileAndNoTemporary(@TempDir Path dir) throws Exception {
        Path target = dir.resolve("out.obj");
        Files.writeString(target, "good\n");
        Process p = slowWriter(target);
        assertEquals(2, files(dir).size(), "the temporary exists while writing");
        p.destroy();
        p.waitFor();
        assertEquals("good\n", Files.readString(target));
        assertEquals(List.of(target), files(dir));
    }

    /** kill -9: no hook runs; only the hidden temporary is left, never a truncated target. */
    @Test
    void sigkillLeavesOnlyAHiddenTemporary(@TempDir Path dir) throws Exception {
        Path target = dir.resolve("out.obj");
        Files.writeString(target, "good\n");
        Process p = slowWriter(target);
        p.destroyForcibly();
        p.waitFor();
        assertEquals("good\n", Files.readString(target));
        List<Path> left = files(dir);
        assertEquals(2, left.size(), left.toString());
        assertTrue(left.get(0).getFileName().toString().startsWith(".out.obj."), left.toString());
    }
}
