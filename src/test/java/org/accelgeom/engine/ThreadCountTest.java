package org.accelgeom.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.accelgeom.cbt.Cbt;
import org.accelgeom.cbt.CbtBackend;
import org.accelgeom.cbt.CbtBackends;
import org.accelgeom.hull.Hull;
import org.accelgeom.hull.HullOptions;
import org.accelgeom.hull.RandomPoints;
import org.accelgeom.io.PointCloud;
import org.accelgeom.kdtree.KdTree;
import org.accelgeom.kdtree.KdTreeBuilder;
import org.accelgeom.kdtree.KdTreeOptions;
import org.accelgeom.kdtree.Scenes;
import org.accelgeom.kdtree.Triangles;
import org.accelgeom.kdtree.zhou.ZhouBuilder;
import org.accelgeom.render.Camera;
import org.accelgeom.render.Render;
import org.accelgeom.render.RenderOptions;
import org.accelgeom.ridge.Ridge;
import org.accelgeom.ridge.RidgeOptions;
import org.accelgeom.terrain.FractalTerrain;
import org.accelgeom.terrain.Terrain;
import org.accelgeom.terrain.TerrainOptions;
import org.accelgeom.voronoi.Balls;
import org.accelgeom.voronoi.Voronoi;
import org.accelgeom.voronoi.VoronoiOptions;
import org.junit.jupiter.api.Test;

/**
 * Every family computed 100 times on jvm-parallel with 4 threads: the live thread count stays flat (a pool per call
 * that is never shut grows it by 4 a call). Each call without a session opens and closes its own; the same calls in
 * one {@link DeviceSession} share its pool.
 */
class ThreadCountTest {

    static final int CALLS = 100;
    /** Room for threads the JVM starts on its own meanwhile (JIT compiler threads, common-pool workers). */
    static final int SLACK = 6;

    @Test
    void hull() {
        PointCloud p = RandomPoints.ball(3000, 1);
        HullOptions o = HullOptions.of(Backend.JVM_PARALLEL).withThreads(4);
        int ref = Hull.compute(p, o).vertices().length;
        assertFlat("hull", () -> assertEquals(ref, Hull.compute(p, o).vertices().length));
        try (DeviceSession s = DeviceSession.open(o.execution())) {
            assertFlat("hull in a session", () -> assertEquals(ref, Hull.compute(p, o, s).vertices().length));
        }
    }

    @Test
    void ridge() {
        Random rnd = new Random(3);
        double[][] c = new double[2][600];
        for (int i = 0; i < 600; i++) {
            double t = i / 600.0;
            c[0][i] = t + 0.01 * rnd.nextGaussian();
            c[1][i] = Math.sin(6 * t) + 0.01 * rnd.nextGaussian();
        }
        RidgeOptions o = RidgeOptions.of(Backend.JVM_PARALLEL, 0.1).withThreads(4);
        int ref = Ridge.detect(c, o).count();
        assertFlat("ridge", () -> assertEquals(ref, Ridge.detect(c, o).count()));
    }

    @Test
    void voronoi() {
        Balls b = Balls.randomAtoms(150, 5);
        VoronoiOptions o = VoronoiOptions.of(Backend.JVM_PARALLEL).withThreads(4);
        int ref = Voronoi.compute(b, o).vertexCount();
        assertFlat("voronoi", () -> assertEquals(ref, Voronoi.compute(b, o).vertexCount()));
        VoronoiOptions resident = o.withResident(true);
        try (DeviceSession s = DeviceSession.open(resident.execution())) {
            assertFlat("voronoi in a session", () -> assertEquals(ref, Voronoi.compute(b, resident, s).vertexCount()));
        }
    }

    @Test
    void kdTreesAndRays() {
        Triangles t = Triangles.of(Scenes.randomTriangles(300, 10, 7));
        KdTreeOptions o = KdTreeOptions.of(Backend.JVM_PARALLEL).withThreads(4);
        KdTree ref = KdTreeBuilder.build(t, o).tree();
        assertFlat("kd-tree", () -> assertTrue(KdTreeBuilder.build(t, o).tree().sameTree(ref)));
        KdTree zhou = ZhouBuilder.build(t, o, 16).tree();
        assertFlat("kd-tree (zhou)", () -> assertTrue(ZhouBuilder.build(t, o, 16).tree().sameTree(zhou)));
        RenderOptions r = RenderOptions.of(Backend.JVM_PARALLEL).withThreads(4);
        Camera cam = Camera.framing(ref.bounds(), 8, 8);
        long rays = Render.render(ref, cam, r).rays();
        assertFlat("ray caster", () -> assertEquals(rays, Render.render(ref, cam, r).rays()));
    }

    @Test
    void cbtAndTerrain() {
        assertFlat("cbt", () -> {
            try (CbtBackend b = CbtBackends.create(Backend.JVM_PARALLEL, 4, -1, 0, false)) {
                b.load(Cbt.uninitialised(10, true), new PhaseTimings());
                assertEquals(1 << 6, b.init(6));
            }
        });
        TerrainOptions o = new TerrainOptions(10, 12, 1000, 100, Backend.JVM_PARALLEL, 4, -1, 0);
        var heights = FractalTerrain.generate(4, 0.7, 5);
        Camera view = Camera.lookAt(500, -300, 400, 500, 500, 0, 60, 64, 48);
        assertFlat("terrain", () -> {
            try (Terrain t = Terrain.create(heights, o)) {
                assertTrue(t.frame(view).triangles() >= 2);
            }
        });
    }

    /** Runs {@code call} {@link #CALLS} times (after two warm-up calls) and checks the live thread count. */
    static void assertFlat(String what, Runnable call) {
        call.run();
        call.run();
        int before = settledThreads(Integer.MAX_VALUE);
        for (int i = 0; i < CALLS; i++) {
            call.run();
        }
        int after = settledThreads(before + SLACK);
        assertTrue(after <= before + SLACK, what + ": " + before + " live threads before " + CALLS + " calls, " + after
                + " after");
    }

    /** The live thread count, waiting up to 2 s for it to drop to {@code target} (ended workers leave late). */
    static int settledThreads(int target) {
        int n = Thread.activeCount();
        for (int i = 0; i < 40 && n > target; i++) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            n = Thread.activeCount();
        }
        return n;
    }
}
