package org.accelgeom.cli.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.accelgeom.hull.RandomPoints;
import org.accelgeom.io.Formats;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hull batch on tornado with three inputs in flight (their reads and writes beside each other, the device work taking
 * turns in the batch's one session): a bad file in the middle is reported, the other results equal the jvm batch's,
 * byte for byte, and the inputs of one size share one set of plans.
 */
@Tag("tornado")
class HullBatchPipelineTest {

    @TempDir
    Path dir;

    @Test
    void inFlightTornadoBatchEqualsTheJvmBatch() throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        for (int k = 0; k < 5; k++) {
            Formats.writePoints(in.resolve("p" + k + ".xyz"), RandomPoints.ball(20_000, 40 + k));
        }
        Files.writeString(in.resolve("p2.xyz"), "0 0 0\n1 0 0\nNaN 0 1\n");
        String old = System.setProperty("accelgeom.batch.inFlight", "3");
        String[] t;
        try {
            t = BatchPlansTest.run("hull", "--input", in.toString(), "--output", dir.resolve("t").toString(),
                    "--backend", "tornado", "--quiet");
        } finally {
            if (old == null) {
                System.clearProperty("accelgeom.batch.inFlight");
            } else {
                System.setProperty("accelgeom.batch.inFlight", old);
            }
        }
        String[] j = BatchPlansTest.run("hull", "--input", in.toString(), "--output", dir.resolve("j").toString(),
                "--backend", "jvm", "--quiet");
        assertEquals("1", t[0], t[2]);
        assertEquals(j[2], t[2]);
        assertTrue(t[2].contains("p2.xyz"), t[2]);
        assertTrue(t[1].contains("batch: 4 done, 1 failed,"), t[1]);
        assertTrue(t[1].matches("(?s).*, [1-9] device plans? built\\R$"), t[1]);
        int at = -1;
        for (int k = 0; k < 5; k++) {
            int h = t[1].indexOf("== " + in.resolve("p" + k + ".xyz") + " (" + (k + 1) + "/5)");
            assertTrue(h > at, "p" + k + " in order: " + t[1]);
            at = h;
        }
        for (String name : List.of("p0", "p1", "p3", "p4")) {
            assertArrayEquals(Files.readAllBytes(dir.resolve("j/" + name + ".ply")),
                    Files.readAllBytes(dir.resolve("t/" + name + ".ply")), name);
        }
    }
}
