package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.hull.Hull;
import org.accelgeom.hull.HullOptions;
import org.accelgeom.hull.HullResult;
import org.accelgeom.hull.PartitionedHull;
import org.accelgeom.hull.RandomPoints;
import org.accelgeom.io.Formats;
import org.accelgeom.io.PointCloud;
import org.accelgeom.io.PointParts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The split hull of worker processes ({@link SplitHull}) through its code path with the parts in this process: each
 * part made alone (generated, or read in its byte range), its hull and part file as a worker writes them, the
 * parent's merge; the mesh file equals the one-device run's byte for byte. The processes themselves run in
 * MultiDeviceTornadoTest (tornado on POCL: --devices needs the tornado backend).
 */
class SplitHullTest {

    @TempDir
    Path dir;

    @Test
    void randomPartsAreTheWholeCloudsPointsAndTheOldGenerator() {
        for (String d : List.of("cube", "ball", "sphere", "gauss")) {
            PointCloud all = RandomPoints.part(d, 10_000, 7, 0, 10_000);
            int[] cuts = {0, 1, 2_499, 5_000, 9_999, 10_000};
            for (int c = 0; c + 1 < cuts.length; c++) {
                PointCloud p = RandomPoints.part(d, 10_000, 7, cuts[c], cuts[c + 1]);
                for (int k = 0; k < 3; k++) {
                    assertArrayEquals(java.util.Arrays.copyOfRange(all.coords()[k], cuts[c], cuts[c + 1]), p.coords()[k],
                            d + " part " + c);
                }
            }
        }
        // the points of one sequential stream, as RandomPoints drew them before parts (no redraw happens here)
        SplittableRandom r = new SplittableRandom(11);
        PointCloud ball = RandomPoints.ball(1000, 11);
        for (int i = 0; i < 1000; i++) {
            double[] u = new double[3];
            for (int k = 0; k < 3; k++) {
                u[k] = Math.sqrt(-2 * Math.log(1.0 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
            }
            double len = Math.sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
            double s = Math.cbrt(r.nextDouble());
            assertEquals(s * (u[0] / len), ball.x()[i]);
            assertEquals(s * (u[2] / len), ball.z()[i]);
        }
        SplittableRandom q = new SplittableRandom(5);
        PointCloud cube = RandomPoints.cube(100, 5);
        for (int i = 0; i < 100; i++) {
            assertEquals(2 * q.nextDouble() - 1, cube.x()[i]);
            assertEquals(2 * q.nextDouble() - 1, cube.y()[i]);
            assertEquals(2 * q.nextDouble() - 1, cube.z()[i]);
        }
    }

    @Test
    void randomBallsSplitEqualOneDevice() throws Exception {
        for (int parts : new int[] {2, 3, 4}) {
            HullParts source = new HullParts("ball", null, "ball", 40_000, parts);
            assertSameMesh(source, parts, RandomPoints.ball(40_000, parts));
        }
        assertSameMesh(new HullParts("gauss", null, "gauss", 30_000, 1), 4, RandomPoints.gauss(30_000, 1));
        assertSameMesh(new HullParts("sphere", null, "sphere", 5_000, 2), 3, RandomPoints.sphere(5_000, 2));
    }

    @Test
    void textAndBinaryFilesReadInPartsAsWhole() throws Exception {
        PointCloud cloud = RandomPoints.ball(20_000, 3);
        for (String ext : List.of("xyz", "ply", "csv")) {
            Path f = dir.resolve("c." + ext);
            Formats.writePoints(f, cloud);
            HullParts source = new HullParts(f.toString(), f.toString(), null, 0, 0);
            assertSameMesh(source, 3, Formats.readPoints(f));
            assertEquals(!ext.equals("csv"), PointParts.read(f.toString(), 1, 3).ranged(), ext);
        }
        // comments, blank lines, CRLF, a part of comments only
        StringBuilder t = new StringBuilder("# a cloud\n\n");
        for (int i = 0; i < 3000; i++) {
            t.append(cloud.x()[i]).append(' ').append(cloud.y()[i]).append(' ').append(cloud.z()[i]).append(i % 7 == 0 ? "\r\n" : "\n");
        }
        t.append("#".repeat(200_000)).append('\n');
        Path f = dir.resolve("t.txt");
        Files.writeString(f, t);
        PointCloud whole = Formats.readPoints(f);
        assertEquals(3000, whole.size());
        assertSameMesh(new HullParts(f.toString(), f.toString(), null, 0, 0), 4, whole);
        // a header (a count line): read whole, less the other parts
        Path h = dir.resolve("h.pts");
        Files.writeString(h, "3000\n" + t.substring("# a cloud\n\n".length()));
        assertFalse(PointParts.read(h.toString(), 0, 2).ranged());
        assertSameMesh(new HullParts(h.toString(), h.toString(), null, 0, 0), 2, Formats.readPoints(h));
    }

    @Test
    void badFilesFailAsTheWholeReadFails() throws Exception {
        StringBuilder t = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            t.append(i).append(" 1 ").append(i % 3).append('\n');
        }
        t.append("1 2\n");
        for (int i = 0; i < 2000; i++) {
            t.append(i).append(" 2 ").append(i % 5).append('\n');
        }
        Path f = dir.resolve("bad.xyz");
        Files.writeString(f, t);
        String whole = assertThrows(AccelGeomException.class, () -> Formats.readPoints(f)).getMessage();
        int failed = 0;
        for (int k = 0; k < 4; k++) { // the part with the bad line fails as the whole read; the others read
            try {
                assertEquals(3, PointParts.read(f.toString(), k, 4).points().dimension());
            } catch (AccelGeomException e) {
                assertEquals(whole, e.getMessage(), "part " + k);
                failed++;
            }
        }
        assertEquals(1, failed);
        // a binary PLY whose face element is missing: the whole read's error for every part
        Path ply = dir.resolve("cut.ply");
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        b.writeBytes(("ply\nformat binary_little_endian 1.0\nelement vertex 3000\nproperty double x\nproperty double y\n"
                + "property double z\nelement face 100\nproperty list uchar int vertex_indices\nend_header\n").getBytes());
        java.nio.ByteBuffer v = java.nio.ByteBuffer.allocate(3000 * 24).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 3000; i++) {
            v.putDouble(i).putDouble(i % 7).putDouble(i % 11);
        }
        b.writeBytes(v.array());
        Files.write(ply, b.toByteArray());
        String cut = assertThrows(AccelGeomException.class, () -> Formats.readPoints(ply)).getMessage();
        assertEquals(cut, assertThrows(AccelGeomException.class, () -> PointParts.read(ply.toString(), 1, 2)).getMessage());
        // four columns in every part: the hull's check of the one-device run
        Path four = dir.resolve("four.xyz");
        StringBuilder w = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            w.append(i).append(" 1 ").append(i % 3).append(" 7\n");
        }
        Files.writeString(four, w);
        HullParts fours = new HullParts(four.toString(), four.toString(), null, 0, 0);
        PointCloud fourPart = fours.load(2, 3).points();
        assertEquals(4, fourPart.dimension());
        assertEquals(four + ": the points have 4 coordinates each; the convex hull needs 3D points (x y z)",
                assertThrows(AccelGeomException.class, () -> fours.check(fourPart)).getMessage());
        // a non-finite point: named in the whole input, as the one-device check names it
        PointCloud cloud = RandomPoints.cube(5000, 1);
        cloud.y()[3777] = Double.NaN;
        Path p = dir.resolve("nan.ply");
        Formats.writePoints(p, cloud);
        HullParts source = new HullParts(p.toString(), p.toString(), null, 0, 0);
        List<SplitHull.Stages> stages = new ArrayList<>();
        for (int k = 0; k < 3; k++) {
            PointCloud part = source.load(k, 3).points();
            stages.add(SplitHull.hullPart(source, part, k == 0, PartFiles.file(dir, k), options(), null));
        }
        String split = assertThrows(AccelGeomException.class, () -> SplitHull.readParts(dir, 3, p.toString(), stages))
                .getMessage();
        String one = assertThrows(AccelGeomException.class,
                () -> Check.finitePoints(p.toString(), Formats.readPoints(p), false, "the convex hull")).getMessage();
        assertEquals(one, split);
    }

    @Test
    void degeneratePartsAndInputs() throws Exception {
        // fewer points than parts, tiny parts
        assertSameMesh(points(new double[][] {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.2, 0.2, 0.2}}), 4);
        assertSameMesh(points(new double[][] {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.2, 0.2, 0.2}}), 3);
        // every part coplanar (z = 0 in the first half, z = 1 in the second), the whole 3D
        double[][] slabs = new double[4000][];
        SplittableRandom r = new SplittableRandom(9);
        for (int i = 0; i < slabs.length; i++) {
            slabs[i] = new double[] {r.nextDouble(), r.nextDouble(), i < 2000 ? 0 : 1};
        }
        assertSameMesh(points(slabs), 2);
        // the whole input coplanar, and collinear, and one point repeated
        double[][] flat = new double[3000][];
        double[][] line = new double[3000][];
        double[][] same = new double[3000][];
        for (int i = 0; i < flat.length; i++) {
            flat[i] = new double[] {r.nextDouble(), r.nextDouble(), 0.5};
            line[i] = new double[] {i, 2 * i, -i};
            same[i] = new double[] {1, 2, 3};
        }
        assertSameMesh(points(flat), 3);
        assertSameMesh(points(line), 3);
        assertSameMesh(points(same), 2);
    }

    private PointCloud points(double[][] p) {
        double[][] c = new double[3][p.length];
        for (int i = 0; i < p.length; i++) {
            for (int k = 0; k < 3; k++) {
                c[k][i] = p[i][k];
            }
        }
        return new PointCloud(c);
    }

    /** {@code cloud} written as a text file and split in {@code parts}. */
    private void assertSameMesh(PointCloud cloud, int parts) throws Exception {
        Path f = dir.resolve("d" + System.nanoTime() + ".xyz");
        Formats.writePoints(f, cloud);
        assertSameMesh(new HullParts(f.toString(), f.toString(), null, 0, 0), parts, cloud);
    }

    /** The split of {@code source} in {@code parts} (jvm-parallel parts, the parent's merge) writes the one-device mesh. */
    private void assertSameMesh(HullParts source, int parts, PointCloud whole) throws Exception {
        Path work = Files.createTempDirectory(dir, "parts");
        List<SplitHull.Stages> stages = new ArrayList<>();
        for (int k = 0; k < parts; k++) {
            PointCloud part = source.load(k, parts).points();
            stages.add(SplitHull.hullPart(source, part, k == 0, PartFiles.file(work, k), options(), null));
        }
        assertEquals(whole.size(), stages.stream().mapToInt(SplitHull.Stages::count).sum());
        List<PartitionedHull.Part> list = SplitHull.readParts(work, parts, source.name(), stages);
        PartitionedHull.Merged m = PartitionedHull.merge(list, options(), new PhaseTimings(), () -> null);
        HullResult one = Hull.compute(whole, HullOptions.of(Backend.JVM));
        assertEquals(one.dimension(), m.result().dimension());
        assertArrayEquals(one.vertices(), m.result().vertices(), source.name());
        if (one.dimension() >= 1) {
            Path a = work.resolve("one.ply");
            Path b = work.resolve("split.ply");
            Formats.writeMesh(a, one.toMesh(whole));
            Formats.writeMesh(b, m.local().toMesh(m.candidates()));
            assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b), source.name() + " in " + parts);
            assertArrayEquals(Files.readAllBytes(a), writeMesh(work, m.result().toMesh(whole)), "the same by indices");
        }
        assertTrue(m.result().stats().points() == whole.size());
    }

    private static byte[] writeMesh(Path work, org.accelgeom.io.Mesh mesh) throws Exception {
        Path c = work.resolve("c.ply");
        Formats.writeMesh(c, mesh);
        return Files.readAllBytes(c);
    }

    @Test
    void aPartsPhaseTableGoesBesideItsFileWithTimingsOnly() throws Exception {
        Path work = Files.createTempDirectory(dir, "phases");
        PointCloud part = RandomPoints.ball(5000, 7);
        HullOptions timed = options().withExecution(options().execution().withTimings(org.accelgeom.engine.Timings.DEVICE));
        SplitHull.hullPart(part, -1, false, PartFiles.file(work, 0), timed, null);
        SplitHull.hullPart(part, -1, false, PartFiles.file(work, 1), options(), null);
        String table = PartFiles.phases(PartFiles.file(work, 0));
        assertTrue(table != null && table.contains("insert (host topology)") && table.contains("total"), table);
        assertEquals(null, PartFiles.phases(PartFiles.file(work, 1)), "no --timings: no table");
        // the part file itself is the same either way
        assertArrayEquals(Files.readAllBytes(PartFiles.file(work, 1)), Files.readAllBytes(PartFiles.file(work, 0)));
    }

    @Test
    void theSeedPartsHistoryTravelsInItsFile() throws Exception {
        Path work = Files.createTempDirectory(dir, "seed");
        PointCloud part = RandomPoints.ball(5000, 9);
        org.accelgeom.hull.Hull.Traced t;
        try (org.accelgeom.engine.DeviceSession s = org.accelgeom.engine.DeviceSession.open(options().execution())) {
            t = org.accelgeom.hull.Hull.trace(part.x(), part.y(), part.z(), options(), s);
        }
        PartFiles.write(PartFiles.file(work, 0), part, t, true, -1);
        PartFiles.write(PartFiles.file(work, 1), part, t, false, -1);
        org.accelgeom.hull.PartitionedHull.Part seed = PartFiles.read(PartFiles.file(work, 0)).part();
        org.accelgeom.hull.PartitionedHull.Part other = PartFiles.read(PartFiles.file(work, 1)).part();
        org.accelgeom.hull.HullHistory h = t.history();
        assertArrayEquals(h.fv(), seed.history().fv());
        assertArrayEquals(h.twin(), seed.history().twin());
        assertArrayEquals(h.coneFirst(), seed.history().coneFirst());
        assertArrayEquals(h.coneCount(), seed.history().coneCount());
        assertArrayEquals(h.points(), seed.vertices(), "the seed's candidates: every point of its history");
        assertEquals(null, other.history());
        assertArrayEquals(t.result().vertices(), other.vertices(), "the others': the points of the live faces");
    }

    private static HullOptions options() {
        return HullOptions.of(Backend.JVM_PARALLEL).withThreads(2);
    }
}
