package org.accelgeom.io;

import static org.accelgeom.io.TestFiles.assertFormatError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** NumPy .npy and LAS files, written here byte by byte as their specifications say, read back. */
class BinaryReadersTest {
    @TempDir
    Path dir;

    /** A .npy file (version 1.0) of the given columns. */
    static byte[] npy(double[][] c, boolean f4, ByteOrder order, boolean fortran, boolean oneD) {
        int d = c.length;
        int n = c[0].length;
        String descr = (order == ByteOrder.LITTLE_ENDIAN ? "<" : ">") + (f4 ? "f4" : "f8");
        String shape = oneD ? "(" + n + ",)" : "(" + n + ", " + d + ")";
        StringBuilder h = new StringBuilder("{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False")
                + ", 'shape': " + shape + ", }");
        while ((10 + h.length() + 1) % 64 != 0) {
            h.append(' ');
        }
        h.append('\n');
        int size = f4 ? 4 : 8;
        ByteBuffer b = ByteBuffer.allocate(10 + h.length() + n * d * size).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0);
        b.putShort((short) h.length()).put(h.toString().getBytes(StandardCharsets.US_ASCII));
        b.order(order);
        for (int v = 0; v < n * d; v++) {
            int i = fortran ? v % n : v / d;
            int k = fortran ? v / n : v % d;
            if (f4) {
                b.putFloat((float) c[k][i]);
            } else {
                b.putDouble(c[k][i]);
            }
        }
        return b.array();
    }

    @Test
    void npyFloat32AndFloat64BothByteOrdersBothLayouts() throws Exception {
        Random r = new Random(1);
        double[][] c = new double[3][1000];
        for (double[] col : c) {
            for (int i = 0; i < col.length; i++) {
                col[i] = r.nextGaussian() * 1e3;
            }
        }
        Path p = dir.resolve("p.npy");
        for (boolean f4 : new boolean[] {false, true}) {
            for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
                for (boolean fortran : new boolean[] {false, true}) {
                    Files.write(p, npy(c, f4, order, fortran, false));
                    PointCloud got = Formats.readPoints(p);
                    for (int k = 0; k < 3; k++) {
                        double[] want = c[k].clone();
                        if (f4) {
                            for (int i = 0; i < want.length; i++) {
                                want[i] = (float) want[i];
                            }
                        }
                        assertArrayEquals(want, got.coords()[k], f4 + " " + order + " " + fortran);
                    }
                }
            }
        }
        Files.write(p, npy(new double[][] {{1, 2, 3}}, false, ByteOrder.LITTLE_ENDIAN, false, true));
        assertArrayEquals(new double[][] {{1, 2, 3}}, Formats.readPoints(p).coords(), "shape (N,)");
    }

    @Test
    void npyErrors() throws Exception {
        Path p = dir.resolve("bad.npy");
        byte[] good = npy(new double[][] {{1, 2}, {3, 4}, {5, 6}}, false, ByteOrder.LITTLE_ENDIAN, false, false);
        Files.write(p, Arrays.copyOf(good, good.length - 3));
        assertFormatError("bad.npy", "byte ", () -> Formats.readPoints(p));
        String h = new String(good, StandardCharsets.ISO_8859_1).replace("(2, 3)", "(9999999999, 3)");
        Files.write(p, h.getBytes(StandardCharsets.ISO_8859_1));
        FormatException e = assertFormatError("bad.npy", "byte ", () -> Formats.readPoints(p));
        assertTrue(e.getMessage().contains("needs"), e.getMessage());
        Files.write(p, new String(good, StandardCharsets.ISO_8859_1).replace("<f8", "<i8").getBytes(StandardCharsets.ISO_8859_1));
        assertFormatError("bad.npy", "'<i8'", () -> Formats.readPoints(p));
        Files.write(p, new byte[0]);
        assertFormatError("bad.npy", "empty", () -> Formats.readPoints(p));
    }

    /** The minimum record length of formats 0-10. */
    private static final int[] RECORD = {20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67};

    /** A LAS file of the given integer coordinates, as LAS 1.2 (formats 0-5) or 1.4 (6-10), with one VLR. */
    static byte[] las(int format, int[][] xyz, double[] scale, double[] offset, int extraBytes) {
        boolean v14 = format >= 6;
        int header = v14 ? 375 : 227;
        int vlr = 54 + 10;
        int record = RECORD[format] + extraBytes;
        int n = xyz[0].length;
        ByteBuffer b = ByteBuffer.allocate(header + vlr + n * record).order(ByteOrder.LITTLE_ENDIAN);
        b.put("LASF".getBytes(StandardCharsets.US_ASCII));
        b.put(24, (byte) 1).put(25, (byte) (v14 ? 4 : 2));
        b.putShort(94, (short) header).putInt(96, header + vlr).putInt(100, 1);
        b.put(104, (byte) format).putShort(105, (short) record).putInt(107, v14 ? 0 : n);
        for (int k = 0; k < 3; k++) {
            b.putDouble(131 + 8 * k, scale[k]).putDouble(155 + 8 * k, offset[k]);
        }
        if (v14) {
            b.putLong(247, n);
        }
        b.putShort(header + 52, (short) 10); // the VLR's record length after its header
        for (int i = 0; i < n; i++) {
            int at = header + vlr + i * record;
            b.putInt(at, xyz[0][i]).putInt(at + 4, xyz[1][i]).putInt(at + 8, xyz[2][i]);
            for (int j = 12; j < record; j++) {
                b.put(at + j, (byte) (i * 31 + j)); // intensity, flags, GPS time ...: skipped
            }
        }
        return b.array();
    }

    @Test
    void lasEveryPointFormatIsScaledAndOffset() throws Exception {
        Random r = new Random(2);
        int n = 777;
        int[][] xyz = new int[3][n];
        for (int[] col : xyz) {
            for (int i = 0; i < n; i++) {
                col[i] = r.nextInt();
            }
        }
        double[] scale = {0.01, 0.001, 0.0001};
        double[] offset = {500000, 4000000.5, -12.25};
        Path p = dir.resolve("p.las");
        for (int format = 0; format <= 10; format++) {
            Files.write(p, las(format, xyz, scale, offset, format % 3));
            PointCloud c = Formats.readPoints(p);
            assertEquals(n, c.size());
            for (int k = 0; k < 3; k++) {
                for (int i = 0; i < n; i++) {
                    assertEquals(xyz[k][i] * scale[k] + offset[k], c.coords()[k][i], "format " + format);
                }
            }
        }
    }

    @Test
    void lasErrorsAndLaz() throws Exception {
        Path p = dir.resolve("bad.las");
        byte[] good = las(3, new int[][] {{1, 2}, {3, 4}, {5, 6}}, new double[] {1, 1, 1}, new double[3], 0);
        Files.write(p, Arrays.copyOf(good, good.length - 1));
        assertFormatError("bad.las", "byte ", () -> Formats.readPoints(p));
        byte[] huge = good.clone();
        ByteBuffer.wrap(huge).order(ByteOrder.LITTLE_ENDIAN).putInt(107, 2_000_000_000);
        Files.write(p, huge);
        FormatException e = assertFormatError("bad.las", "byte ", () -> Formats.readPoints(p));
        assertTrue(e.getMessage().contains("2000000000 points"), e.getMessage());
        byte[] compressed = good.clone();
        compressed[104] = (byte) (3 | 0x80); // how LASzip marks a compressed point format
        Files.write(p, compressed);
        assertFormatError("bad.las", "LAZ", () -> Formats.readPoints(p));
        Path laz = dir.resolve("x.laz");
        Files.write(laz, good);
        assertFormatError("x.laz", "LAZ (compressed LAS) is not supported", () -> Formats.readPoints(laz));
        Files.write(p, "LASF and then nothing".getBytes(StandardCharsets.US_ASCII));
        assertFormatError("bad.las", "byte ", () -> Formats.readPoints(p));
    }
}
