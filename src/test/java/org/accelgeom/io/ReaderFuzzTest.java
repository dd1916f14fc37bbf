package org.accelgeom.io;

import static org.accelgeom.io.TestFiles.file;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.accelgeom.engine.AccelGeomException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every reader against broken input: random bytes, each sample file cut at every line end (text) or every
 * few bytes (binary), random byte flips, and header counts far beyond the file. Each read either succeeds
 * or ends in one {@link AccelGeomException} of one line naming the file; anything else (out of memory,
 * an index out of bounds, a hang) fails. A fixed seed keeps it to a few seconds; run longer with
 * {@code -Daccelgeom.fuzz.rounds=N} (N times the random cases, and a cut at every byte).
 */
class ReaderFuzzTest {
    @TempDir
    Path dir;

    private static final int ROUNDS = Integer.getInteger("accelgeom.fuzz.rounds", 1);

    /** Sample files by name: the test resources, plus generated npy and LAS. */
    private static Map<String, byte[]> samples() throws Exception {
        Map<String, byte[]> s = new LinkedHashMap<>();
        for (String f : new String[] {"points.xyz", "rbox.txt", "semicolon.csv", "noheader.csv", "cube.obj", "cube.off",
            "cube_ascii.ply", "cube_le.ply", "cube_be.ply", "small.pcd", "small_binary.pcd", "small.pdb",
            "small.pqr", "small.cif", "small.xyzr"}) {
            String res = f.equals("small.pdb") ? "twomodels.pdb" : f;
            s.put(f, Files.readAllBytes(file(res)));
        }
        s.put("p.npy", BinaryReadersTest.npy(new double[][] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, false,
                ByteOrder.LITTLE_ENDIAN, false, false));
        s.put("p4.npy", BinaryReadersTest.npy(new double[][] {{1, 2}, {4, 5}}, true, ByteOrder.BIG_ENDIAN, true, false));
        s.put("p.las", BinaryReadersTest.las(1, new int[][] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}},
                new double[] {0.5, 0.5, 0.5}, new double[] {1, 2, 3}, 0));
        s.put("p14.las", BinaryReadersTest.las(7, new int[][] {{1, 2}, {4, 5}, {7, 8}},
                new double[] {0.5, 0.5, 0.5}, new double[] {1, 2, 3}, 2));
        return s;
    }

    private static boolean binary(String name, byte[] data) {
        return name.endsWith(".npy") || name.endsWith(".las") || name.contains("_le") || name.contains("_be")
                || name.contains("binary");
    }

    @Test
    void brokenInputGivesOneLineOrAResult() throws Exception {
        Random r = new Random(16);
        int cases = 0;
        for (Map.Entry<String, byte[]> e : samples().entrySet()) {
            String name = e.getKey();
            byte[] good = e.getValue();
            read(name, good, "the sample itself", true);
            // cuts: at every line end and a few bytes around it (text), every few bytes (binary)
            List<Integer> cuts = new ArrayList<>();
            for (int i = 0; i <= good.length; i++) {
                boolean lineEnd = i > 0 && good[i - 1] == '\n';
                if (ROUNDS > 1 || lineEnd || i < 16 || (binary(name, good) ? i % 5 == 0 : i % 17 == 0)) {
                    cuts.add(i);
                }
            }
            for (int cut : cuts) {
                read(name, java.util.Arrays.copyOf(good, cut), "cut at byte " + cut, false);
                cases++;
            }
            for (int k = 0; k < 40 * ROUNDS; k++) {
                byte[] bad = good.clone();
                int flips = 1 + r.nextInt(4);
                for (int f = 0; f < flips; f++) {
                    int at = r.nextInt(bad.length);
                    bad[at] = switch (r.nextInt(4)) {
                        case 0 -> (byte) r.nextInt(256);
                        case 1 -> (byte) '9';
                        case 2 -> (byte) ' ';
                        default -> (byte) '\n';
                    };
                }
                read(name, bad, "bytes flipped (seed case " + k + ")", false);
                cases++;
            }
            for (int k = 0; k < 10 * ROUNDS; k++) {
                byte[] noise = new byte[r.nextInt(400)];
                r.nextBytes(noise);
                read(name, noise, "random bytes (case " + k + ")", false);
                cases++;
            }
            read(name, new byte[0], "empty", false);
            if (!binary(name, good)) {
                String text = new String(good, StandardCharsets.ISO_8859_1);
                for (String huge : new String[] {"2000000000", "99999999999999999999", "-5"}) {
                    String t = text.replaceFirst("(element vertex |element face |POINTS |WIDTH |\\n)(\\d+)", "$1" + huge);
                    read(name, t.getBytes(StandardCharsets.ISO_8859_1), "a count of " + huge, false);
                    cases++;
                }
            }
        }
        assertTrue(cases > 1000, "cases: " + cases);
    }

    @Test
    void hundredByteHeadersClaimingTwoBillionElements() throws Exception {
        String[][] files = {
            {"big.off", "OFF\n2000000000 2000000000 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n"},
            {"big.ply", "ply\nformat ascii 1.0\nelement vertex 2000000000\nproperty float x\nproperty float y\n"
                + "property float z\nend_header\n0 0 0\n"},
            {"bigb.ply", "ply\nformat binary_little_endian 1.0\nelement vertex 2000000000\nproperty float x\n"
                + "property float y\nproperty float z\nend_header\n0123456789ab"},
            {"big.pcd", "VERSION 0.7\nFIELDS x y z\nSIZE 4 4 4\nTYPE F F F\nCOUNT 1 1 1\nWIDTH 2000000000\nHEIGHT 1\n"
                + "POINTS 2000000000\nDATA ascii\n0 0 0\n"},
            {"bigb.pcd", "VERSION 0.7\nFIELDS x y z\nSIZE 4 4 4\nTYPE F F F\nCOUNT 1 1 1\nWIDTH 2000000000\nHEIGHT 1\n"
                + "POINTS 2000000000\nDATA binary\n0123456789ab"},
        };
        for (String[] f : files) {
            String msg = read(f[0], f[1].getBytes(StandardCharsets.US_ASCII), "a count of 2e9", false);
            assertTrue(msg != null && msg.contains("2000000000"), f[0] + ": " + msg);
            // gzip: the size is unknown, the arrays grow as the data comes, and the end comes early
            msg = read(f[0] + ".gz", ParallelTextTest.gzip(f[1].getBytes(StandardCharsets.US_ASCII)), "gzip", false);
            assertTrue(msg != null, f[0] + ".gz was accepted");
        }
    }

    /** Reads {@code data} as file {@code name} the ways its format is read; the message of the error, or null. */
    private String read(String name, byte[] data, String what, boolean mustSucceed) throws Exception {
        Path p = dir.resolve(name);
        Files.write(p, data);
        String ext = Formats.extension(name);
        String msg = null;
        List<Runnable> reads = new ArrayList<>();
        reads.add(() -> Formats.readPoints(p));
        if (ext.equals("obj") || ext.equals("off") || ext.equals("ply")) {
            reads.add(() -> Formats.readMesh(p));
        }
        if (ext.equals("pdb") || ext.equals("cif") || ext.equals("pqr") || ext.equals("xyzr")) {
            reads.add(() -> Formats.readMolecule(p));
        }
        for (Runnable read : reads) {
            try {
                read.run();
            } catch (AccelGeomException e) {
                if (mustSucceed) {
                    fail(name + " (" + what + "): " + e.getMessage());
                }
                msg = e.getMessage();
                if (msg.contains("\n") || !msg.contains(name)) {
                    fail(name + " (" + what + "): not one line naming the file: " + msg);
                }
            } catch (Throwable t) {
                throw new AssertionError(name + " (" + what + "): " + t, t);
            }
        }
        return msg;
    }
}
