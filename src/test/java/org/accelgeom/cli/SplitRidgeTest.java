package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.io.CurveFiles;
import org.accelgeom.ridge.Curve;
import org.accelgeom.ridge.Order;
import org.accelgeom.ridge.Precision;
import org.accelgeom.ridge.Ridge;
import org.accelgeom.ridge.RidgeOptions;
import org.accelgeom.ridge.RidgeResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The split ridge of worker processes ({@link SplitRidge}) with real child JVMs on the jvm backend (the CLI's
 * {@code --devices} needs tornado: its processes run on POCL in RidgeSplitTornadoTest): each child serves a part's
 * layout and its representatives through the files and the answer frames, and the curve file equals the one-device
 * run's byte for byte; a child that dies ends the run with its line, no child left and the directory removed.
 */
class SplitRidgeTest {

    @TempDir
    Path tmp;

    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    /** Children serving a split ridge on the jvm backend, the last {@code dead} of them exiting at once instead. */
    private static WorkerProcesses children(int parts, int dead, Path dir) throws IOException {
        List<Process> list = new ArrayList<>();
        for (int k = 0; k < parts; k++) {
            ProcessBuilder pb = k >= parts - dead ? new ProcessBuilder("sh", "-c", "exit 3")
                    : new ProcessBuilder(JAVA, "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                            "ridge", "--generate", "spiral3d", "--backend", "jvm", "--quiet");
            pb.environment().put(WorkerProcesses.CHILD_ENV, "1");
            pb.environment().put(SplitRidge.DIR_ENV, dir.toString());
            list.add(pb.start());
        }
        return WorkerProcesses.of(list);
    }

    private static RidgeOptions options(Precision p) {
        return RidgeOptions.of(Backend.JVM, 8.34).withPrecision(p).withTiles(null, 700);
    }

    @Test
    void processPartsWriteTheOneDeviceRunsCurveFile() throws Exception {
        double[][] cloud = Curve.parse("spiral3d").sample(8000, 0, 4.17, 5);
        for (Precision p : List.of(Precision.DOUBLE, Precision.FLOAT)) {
            RidgeResult one = Ridge.detect(cloud, options(p));
            Path expected = write(one, tmp.resolve("one-" + p + ".ply"));
            for (int parts : p == Precision.DOUBLE ? new int[] {2, 4} : new int[] {3}) {
                Path dir = Files.createDirectory(tmp.resolve("parts-" + p + "-" + parts));
                WorkerProcesses procs = children(parts, 0, dir);
                RidgeResult r;
                try (SplitRidge.Workers w = new SplitRidge.Workers(procs, dir, new int[parts])) {
                    r = w.detect(cloud, options(p));
                }
                Path got = write(r, tmp.resolve("split-" + p + "-" + parts + ".ply"));
                assertArrayEquals(Files.readAllBytes(expected), Files.readAllBytes(got), p + ", " + parts + " parts");
                assertEquals(one.stats(), r.stats(), p + ", " + parts + " parts");
                assertFalse(Files.exists(dir), "the parts' directory is removed");
                // the children's phases in the parent's table, under their part's request
                String last = "part " + (parts - 1) + " (device 0): ";
                PhaseTimings t = r.timings();
                assertEquals(last + "its worker process: evolve (wall)", t.parent(last + "representatives read (file)"));
                assertTrue(t.phases().stream().anyMatch(ph -> ph.name().equals(last + "layout file read") && ph.count() == 1),
                        t.format());
                // each part's file written from the whole layout's tiles, no part's layout gathered in the parent
                for (int k = 0; k < parts; k++) {
                    String part = "part " + k + " (device 0): layout file written (";
                    assertTrue(t.phases().stream().anyMatch(ph -> ph.name().startsWith(part)
                            && ph.name().endsWith(", from the whole layout's tiles)")), t.format());
                }
                assertFalse(t.phases().stream().anyMatch(ph -> ph.name().contains(": layout of its ")), t.format());
            }
        }
        assertTrue(Files.size(tmp.resolve("one-DOUBLE.ply")) > 200, "a curve was written");
    }

    @Test
    void aDeadChildEndsTheRunWithItsLineAndNoChildLeft() throws Exception {
        double[][] cloud = Curve.parse("spiral2d").sample(4000, 0, 4.17, 3);
        Path dir = Files.createDirectory(tmp.resolve("parts"));
        WorkerProcesses procs = children(3, 1, dir);
        SplitRidge.Workers w = new SplitRidge.Workers(procs, dir, new int[] {0, 1, 2});
        AccelGeomException e = assertThrows(AccelGeomException.class, () -> {
            try (w) {
                w.detect(cloud, options(Precision.DOUBLE));
            }
        });
        assertTrue(e.getMessage().contains("the worker process of device 2 ended (exit status 3)"), e.getMessage());
        assertFalse(Files.exists(dir), "the parts' directory is removed");
        assertNotNull(procs);
        for (ProcessHandle h : ProcessHandle.current().children().toList()) {
            assertFalse(h.isAlive() && h.info().arguments().map(a -> List.of(a).contains("ridge")).orElse(false),
                    "a worker process left: " + h.info());
        }
    }

    private static Path write(RidgeResult r, Path file) {
        int[][] lines = r.curves().polylines().stream().map(Order.Polyline::points).toArray(int[][]::new);
        boolean[] closed = new boolean[lines.length];
        for (int l = 0; l < lines.length; l++) {
            closed[l] = r.curves().polylines().get(l).closed();
        }
        CurveFiles.write(file, r.dimension(), r.representatives(), r.curves().edges(), lines, closed);
        return file;
    }
}
