package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DealingTest {

    @TempDir
    Path dir;

    @Test
    void largestFirstKeepsInputOrderAmongEqualSizes() {
        assertArrayEquals(new int[] {1, 3, 0, 4, 2}, Dealing.largestFirst(new long[] {5, 9, 1, 9, 5}));
        assertArrayEquals(new int[0], Dealing.largestFirst(new long[0]));
    }

    @Test
    void severalWorkersGetTheLargestFilesFirstOneWorkerTheInputOrder() throws Exception {
        List<Path> files = new ArrayList<>();
        int[] bytes = {10, 300, 20, 300, 5000};
        for (int k = 0; k < bytes.length; k++) {
            files.add(Files.write(dir.resolve("f" + k), new byte[bytes[k]]));
        }
        files.add(dir.resolve("missing")); // unreadable: size 0, dealt last; its own work reports it
        assertArrayEquals(new int[] {4, 1, 3, 2, 0, 5}, Dealing.order(files, 2));
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5}, Dealing.order(files, 1));
        String before = System.getProperty("accelgeom.devices.order");
        System.setProperty("accelgeom.devices.order", "input");
        try {
            assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5}, Dealing.order(files, 2));
        } finally {
            if (before == null) {
                System.clearProperty("accelgeom.devices.order");
            } else {
                System.setProperty("accelgeom.devices.order", before);
            }
        }
    }

    @Test
    void aStructureWeighsItsAtomRecordsGzippedOrNot() throws Exception {
        String pdb = "HEADER    TEST\nATOM      1  N   GLY A   1       0.000   0.000   0.000  1.00  0.00           N\n"
                + "HETATM    2  O   HOH A   2       1.000   0.000   0.000  1.00  0.00           O\n"
                + "REMARK ATOM in a remark\nATOM      3  CA  GLY A   1       2.000   0.000   0.000  1.00  0.00           C\n"
                + "ATOM      4  C   GLY A   1       3.000   0.000   0.000  1.00  0.00           C";
        Path plain = Files.writeString(dir.resolve("s.pdb"), pdb + "\n" + "REMARK".repeat(1000) + "\n");
        assertEquals(3, Dealing.weight(plain), "the ATOM records, not the bytes");
        Path gz = dir.resolve("s.cif.gz");
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(pdb.getBytes(java.nio.charset.StandardCharsets.US_ASCII)); // no final newline
        }
        assertEquals(3, Dealing.weight(gz));
        Path xyz = Files.writeString(dir.resolve("p.xyz"), "0 0 0\n1 1 1\n2 2 2\n3 3 3\n");
        assertEquals(4, Dealing.weight(xyz), "a point file's points");
        assertEquals(0, Dealing.weight(dir.resolve("none.pdb")), "unreadable: its own work reports it");
    }

    @Test
    void outcomesArrivingInDealingOrderLeaveInInputOrder() {
        List<String> seen = new ArrayList<>();
        Dealing.InputOrder<String> order = new Dealing.InputOrder<>((k, o) -> seen.add(k + ":" + o));
        for (int k : new int[] {4, 1, 3}) {
            order.add(k, "r" + k);
        }
        assertEquals(List.of(), seen, "nothing before input 0");
        assertEquals(3, order.waiting());
        order.add(0, "r0");
        assertEquals(List.of("0:r0", "1:r1"), seen);
        order.add(2, "r2");
        assertEquals(List.of("0:r0", "1:r1", "2:r2", "3:r3", "4:r4"), seen);
        assertEquals(0, order.waiting());
    }
}
