package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import org.accelgeom.engine.AccelGeomException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The split ridge's part files ({@link ArrayFiles}): ints and doubles read back as written, through the buffer and
 * through the parallel chunks (a small threshold here), with a header of ints before (a double starting mid-buffer,
 * not on an 8-byte boundary of what was buffered); a file that ends early is one error.
 */
class ArrayFilesTest {

    @TempDir
    Path dir;

    @Test
    void arraysComeBackAsWrittenThroughTheBufferAndInParallelChunks() {
        SplittableRandom r = new SplittableRandom(3);
        for (int len : new int[] {0, 1, 5, 1000, 1_048_577, 3_000_001}) {
            for (long threshold : new long[] {ArrayFiles.PARALLEL_BYTES, 64}) {
                double[] a = r.doubles(len).toArray();
                int[] head = {7, len, -3};
                int[] tail = r.ints(len % 1000 + 1).toArray();
                Path f = dir.resolve("f-" + len + "-" + threshold);
                try (ArrayFiles.Out o = new ArrayFiles.Out(f, threshold)) {
                    o.ints(head).doubles(new double[] {Math.PI}, 0, 1).doubles(a, 0, len).ints(tail);
                }
                assertEquals(4L * head.length + 8 + 8L * len + 4L * tail.length, size(f));
                for (long readThreshold : new long[] {ArrayFiles.PARALLEL_BYTES, 64}) {
                    try (ArrayFiles.In in = new ArrayFiles.In(f, readThreshold)) {
                        assertArrayEquals(head, in.ints(3));
                        assertEquals(Math.PI, in.doubles(1)[0]);
                        double[] b = new double[len + 2];
                        in.doubles(b, 1, len);
                        assertArrayEquals(a, java.util.Arrays.copyOfRange(b, 1, len + 1), "length " + len);
                        assertArrayEquals(tail, in.ints(tail.length), "length " + len);
                    }
                }
            }
        }
    }

    @Test
    void aShortFileIsOneError() {
        Path f = dir.resolve("short");
        try (ArrayFiles.Out o = new ArrayFiles.Out(f)) {
            o.ints(1, 2).doubles(new double[100], 0, 100);
        }
        for (long threshold : new long[] {ArrayFiles.PARALLEL_BYTES, 64}) {
            try (ArrayFiles.In in = new ArrayFiles.In(f, threshold)) {
                in.ints(2);
                AccelGeomException e = assertThrows(AccelGeomException.class, () -> in.doubles(200));
                assertTrue(e.getMessage().contains("short"), e.getMessage());
            }
        }
    }

    private static long size(Path f) {
        try {
            return Files.size(f);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
