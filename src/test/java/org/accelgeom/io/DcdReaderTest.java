package org.accelgeom.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DCD trajectories written by {@link DcdWriter} read back, every layout; malformed files give one clear line. */
class DcdReaderTest {

    @TempDir
    Path dir;

    static float[][][] frames(int frames, int atoms, long seed) {
        Random rnd = new Random(seed);
        float[][][] f = new float[frames][3][atoms];
        for (float[][] fr : f) {
            for (float[] axis : fr) {
                for (int i = 0; i < atoms; i++) {
                    axis[i] = (float) (rnd.nextGaussian() * 20);
                }
            }
        }
        return f;
    }

    @Test
    void everyLayoutReadsBack() throws Exception {
        float[][][] want = frames(4, 37, 1);
        int k = 0;
        for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            for (boolean[] layout : new boolean[][] {{true, true}, {true, false}, {false, false}}) {
                Path p = dir.resolve("t" + k++ + ".dcd");
                Files.write(p, DcdWriter.write(order, layout[0], layout[1], 0, want, 37));
                try (DcdReader r = DcdReader.open(p)) {
                    assertEquals(37, r.atoms());
                    assertEquals(4, r.framesInHeader());
                    double[] x = new double[37], y = new double[37], z = new double[37];
                    for (int f = 0; f < 4; f++) {
                        assertTrue(r.next(x, y, z), "frame " + f);
                        for (int i = 0; i < 37; i++) {
                            assertEquals(want[f][0][i], (float) x[i]);
                            assertEquals(want[f][1][i], (float) y[i]);
                            assertEquals(want[f][2][i], (float) z[i]);
                        }
                    }
                    assertFalse(r.next(x, y, z));
                    assertEquals(4, r.framesRead());
                }
            }
        }
    }

    @Test
    void malformedFilesGiveOneClearLine() throws Exception {
        byte[] good = DcdWriter.write(ByteOrder.LITTLE_ENDIAN, true, true, 0, frames(2, 10, 2), 10);
        assertError("truncated", Arrays.copyOf(good, 2));
        byte[] magic = good.clone();
        magic[4] = 'X';
        assertError("expected CORD", magic);
        assertError("not a DCD file", "hello world, this is text".getBytes());
        assertError("truncated", Arrays.copyOf(good, good.length - 7));
        byte[] corrupt = good.clone();
        corrupt[good.length - 1] = 9; // the last record's end length
        assertError("corrupt file", corrupt);
        assertError("fixed atoms", DcdWriter.write(ByteOrder.LITTLE_ENDIAN, true, false, 3, frames(1, 10, 3), 10));
        FormatException e = assertThrows(FormatException.class, () -> DcdReader.open(dir.resolve("missing.dcd")));
        assertTrue(e.getMessage().endsWith("no such file"), e.getMessage());
    }

    private void assertError(String part, byte[] bytes) throws Exception {
        Path p = dir.resolve("bad.dcd");
        Files.write(p, bytes);
        FormatException e = assertThrows(FormatException.class, () -> {
            try (DcdReader r = DcdReader.open(p)) {
                double[] x = new double[r.atoms()], y = new double[r.atoms()], z = new double[r.atoms()];
                while (r.next(x, y, z)) {
                    // read to the end
                }
            }
        });
        assertTrue(e.getMessage().contains(part), e.getMessage());
        assertTrue(e.getMessage().startsWith(p.toString()), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }
}
