package org.accelgeom.voronoi.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.io.DcdReader;
import org.accelgeom.io.DcdWriter;
import org.accelgeom.voronoi.Balls;
import org.accelgeom.voronoi.VoronoiChecks;
import org.accelgeom.voronoi.Voronoi;
import org.accelgeom.voronoi.VoronoiOptions;
import org.accelgeom.voronoi.VoronoiResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Trajectory frames on the tornado backend (POCL in CI): the frames of a DCD file of 1UBQ's balls (jiggled by 0.2 Å,
 * so that each frame's grid differs), computed with one resident backend, equal the jvm reference frame by frame,
 * and the execution plan is built (JIT-compiled) once for all of them, and for a smaller frame too (its arrays have room).
 */
@Tag("tornado")
@org.junit.jupiter.api.extension.ExtendWith(EveryLevelOnTheDevice.class)
class TornadoTrajectoryTest {

    @TempDir
    Path dir;


    @Test
    void framesReuseOnePlanAndEqualTheJvmReference() throws Exception {
        Balls base = VoronoiChecks.resourceBalls("1ubq.xyzr");
        int n = base.size();
        int frames = 4;
        float[][][] xyz = new float[frames][3][n];
        Random rnd = new Random(7);
        for (int f = 0; f < frames; f++) {
            for (int i = 0; i < n; i++) {
                xyz[f][0][i] = (float) (base.x()[i] + (f == 0 ? 0 : 0.2 * rnd.nextGaussian()));
                xyz[f][1][i] = (float) (base.y()[i] + (f == 0 ? 0 : 0.2 * rnd.nextGaussian()));
                xyz[f][2][i] = (float) (base.z()[i] + (f == 0 ? 0 : 0.2 * rnd.nextGaussian()));
            }
        }
        Path dcd = dir.resolve("t.dcd");
        Files.write(dcd, DcdWriter.write(ByteOrder.LITTLE_ENDIAN, true, false, 0, xyz, n));
        VoronoiOptions tornado = VoronoiOptions.of(Backend.TORNADO).withResident(true);
        try (DeviceSession session = DeviceSession.open(tornado.execution())) {
            framesIn(session, dcd, base, tornado, frames);
        }
    }

    private static void framesIn(DeviceSession session, Path dcd, Balls base, VoronoiOptions tornado, int frames)
            throws Exception {
        int n = base.size();
        long before = session.planBuilds();
        int read = 0;
        try (DcdReader in = DcdReader.open(dcd)) {
            double[] x = new double[n], y = new double[n], z = new double[n];
            while (in.next(x, y, z)) {
                read++;
                Balls frame = new Balls(x.clone(), y.clone(), z.clone(), base.r().clone());
                VoronoiResult ref = Voronoi.compute(frame, VoronoiOptions.of(Backend.JVM));
                VoronoiResult gpu = Voronoi.compute(frame, tornado, session);
                assertTrue(ref.vertexCount() > 1000, "frame " + read + " vertices: " + ref.vertexCount());
                assertEquals(VoronoiChecks.vertexKeys(ref), VoronoiChecks.vertexKeys(gpu), "frame " + read + ": vertices");
                assertEquals(VoronoiChecks.edgeKeys(ref), VoronoiChecks.edgeKeys(gpu), "frame " + read + ": edges");
            }
        }
        assertEquals(frames, read);
        assertEquals(1, session.planBuilds() - before, "one plan for every frame");
        // a frame of one ball less fits the plan (its arrays have room): no new plan, and still the reference's diagram
        Balls fewer = new Balls(java.util.Arrays.copyOf(base.x(), n - 1), java.util.Arrays.copyOf(base.y(), n - 1),
                java.util.Arrays.copyOf(base.z(), n - 1), java.util.Arrays.copyOf(base.r(), n - 1));
        VoronoiResult ref = Voronoi.compute(fewer, VoronoiOptions.of(Backend.JVM));
        VoronoiResult gpu = Voronoi.compute(fewer, tornado, session);
        assertEquals(VoronoiChecks.vertexKeys(ref), VoronoiChecks.vertexKeys(gpu), "smaller frame: vertices");
        assertEquals(1, session.planBuilds() - before, "a smaller input reuses the plan");
    }
}
