package org.accelgeom.cli.tornado;

import static org.accelgeom.cli.tornado.MultiDeviceTornadoTest.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code ridge --tiled --devices 0,0} (and {@code 0,0,0,0}) on one input: the tiles split over two (four) workers on
 * POCL's one device, in worker processes (the default: {@code cli.SplitRidge}, one child JVM per listed device) or
 * as threads of this process ({@code -Daccelgeom.devices.workers=threads}: {@code ridge.TileSplit} over a session and
 * a thread each), whose curve file equals the jvm run's byte for byte.
 */
@Tag("tornado")
class RidgeSplitTornadoTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"spiral3d, double, '0,0', processes", "spiral2d, float, '0,0,0,0', processes",
            "spiral3d, float, '0,0,0', threads"})
    void splitByTilesWritesTheJvmRunsFile(String curve, String precision, String devices, String workers)
            throws Exception {
        String before = System.getProperty("accelgeom.devices.workers");
        System.setProperty("accelgeom.devices.workers", workers);
        try {
            splitRun(curve, precision, devices, workers.equals("processes"));
        } finally {
            if (before == null) {
                System.clearProperty("accelgeom.devices.workers");
            } else {
                System.setProperty("accelgeom.devices.workers", before);
            }
        }
    }

    private void splitRun(String curve, String precision, String devices, boolean processes) throws Exception {
        Path cloud = dir.resolve("cloud.xyz");
        String[] jvm = run("ridge", "--generate", curve, "--n", "12000", "--tiled", "--tile-capacity", "1500",
                "--precision", precision, "--backend", "jvm", "--save-points", cloud.toString(), "--output",
                dir.resolve("jvm.ply").toString(), "--quiet");
        assertEquals("0", jvm[0], jvm[2]);
        String[] split = run("ridge", "--input", cloud.toString(), "--r1", "8.34", "--tiled", "--tile-capacity", "1500",
                "--precision", precision, "--backend", "tornado", "--devices", devices, "--timings", "--output",
                dir.resolve("split.ply").toString(), "--quiet");
        assertEquals("0", split[0], split[2]);
        int parts = devices.split(",").length;
        assertTrue(split[1].contains("tornado (devices " + devices + ")"), split[1]);
        assertTrue(split[1].contains("evolve, tiles split over " + parts + " parts (in parallel)"), split[1]);
        assertTrue(split[1].contains("part " + (parts - 1) + " (device 0): "), split[1]);
        // in processes, the children's own phases (their device's executions) under their part's requests
        assertEquals(processes, split[1].contains("part " + (parts - 1) + " (device 0): its worker process: evolve"),
                split[1]);
        assertTrue(split[1].contains("part " + (parts - 1) + " (device 0): evolve executions"), split[1]);
        // in processes, each child read its file tile by tile as it ordered the tiles
        assertEquals(processes, split[1].contains("part " + (parts - 1)
                + " (device 0): layout read and device order, tile by tile"), split[1]);
        assertEquals(line(jvm[1], "representatives:"), line(split[1], "representatives:"));
        assertEquals(line(jvm[1], "evolve:"), line(split[1], "evolve:"));
        assertEquals(line(jvm[1], "polylines:"), line(split[1], "polylines:"));
        assertArrayEquals(Files.readAllBytes(dir.resolve("jvm.ply")), Files.readAllBytes(dir.resolve("split.ply")),
                "the curve file, byte for byte");
        assertTrue(Files.size(dir.resolve("split.ply")) > 200, "a curve was written");
    }

    private static String line(String report, String head) {
        return report.lines().filter(l -> l.startsWith(head)).findFirst().orElse("(no " + head + ")");
    }
}
