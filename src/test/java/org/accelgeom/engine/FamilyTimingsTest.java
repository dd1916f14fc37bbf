package org.accelgeom.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import java.util.function.Function;

import org.accelgeom.cbt.Cbt;
import org.accelgeom.cbt.CbtBackend;
import org.accelgeom.cbt.CbtBackends;
import org.accelgeom.hull.Hull;
import org.accelgeom.hull.HullOptions;
import org.accelgeom.hull.HullResult;
import org.accelgeom.kdtree.KdTree;
import org.accelgeom.kdtree.KdTreeBuilder;
import org.accelgeom.kdtree.KdTreeOptions;
import org.accelgeom.kdtree.KdTreeResult;
import org.accelgeom.kdtree.TestScenes;
import org.accelgeom.kdtree.Triangles;
import org.accelgeom.kdtree.zhou.ZhouBuilder;
import org.accelgeom.render.Camera;
import org.accelgeom.render.Render;
import org.accelgeom.render.RenderOptions;
import org.accelgeom.render.RenderResult;
import org.accelgeom.ridge.Ridge;
import org.accelgeom.ridge.RidgeOptions;
import org.accelgeom.ridge.RidgeResult;
import org.accelgeom.terrain.FractalTerrain;
import org.accelgeom.terrain.Terrain;
import org.accelgeom.terrain.TerrainOptions;
import org.accelgeom.voronoi.Balls;
import org.accelgeom.voronoi.Voronoi;
import org.accelgeom.voronoi.VoronoiOptions;
import org.accelgeom.voronoi.VoronoiResult;
import org.junit.jupiter.api.Test;

/**
 * Every family honours its execution's {@link Timings}: OFF gives a result whose timings have no phase, PHASES and
 * DEVICE (on the JVM backends the same) give phase rows whose total is the sum of the top-level rows, and the
 * result is the same whatever the timings. The options keep the timings through their with-ers and
 * {@code withExecution}/{@code execution()}.
 */
class FamilyTimingsTest {

    /** One call at each level: its result (as a comparable key) and its timings. */
    private record Call(Object key, PhaseTimings timings) {
    }

    private static void assertHonoured(String family, Function<Timings, Call> run) {
        Call off = run.apply(Timings.OFF);
        assertEquals(Timings.OFF, off.timings().level(), family);
        assertTrue(off.timings().phases().isEmpty(), family + ": timings off, yet phases: " + off.timings());
        assertEquals(0, off.timings().total(), family);
        for (Timings level : new Timings[] {Timings.PHASES, Timings.DEVICE}) {
            Call on = run.apply(level);
            PhaseTimings t = on.timings();
            assertEquals(level, t.level(), family);
            assertEquals(off.key(), on.key(), family + ": the result changed with the timings " + level);
            assertTrue(t.phases().size() >= 2, family + " " + level + ": " + t);
            long rows = t.phases().stream().filter(p -> t.parent(p.name()) == null).mapToLong(PhaseTimings.Phase::nanos).sum();
            assertEquals(rows, t.total(), family + " " + level + ": " + t);
            assertTrue(t.total() > 0, family + " " + level + ": " + t);
        }
    }

    private static Execution on(Backend b, Timings level) {
        return Execution.of(b).withThreads(b == Backend.JVM ? 0 : 2).withTimings(level);
    }

    @Test
    void hull() {
        Random rnd = new Random(5);
        double[][] p = new double[3][3000];
        for (double[] c : p) {
            for (int i = 0; i < c.length; i++) {
                c[i] = rnd.nextGaussian();
            }
        }
        for (Backend b : new Backend[] {Backend.JVM, Backend.JVM_PARALLEL}) {
            assertHonoured("hull " + b, level -> {
                HullResult r = Hull.compute(p[0], p[1], p[2], HullOptions.of(b).withExecution(on(b, level)));
                return new Call(Arrays.toString(r.vertices()) + Arrays.toString(r.facetIndex()), r.timings());
            });
        }
        HullOptions o = HullOptions.of(Backend.JVM).withExecution(on(Backend.JVM, Timings.OFF));
        assertEquals(Timings.OFF, o.withCullDirections(6).withThreads(1).withDevice(0).withMaxFacesPerRound(128)
                .withProgress(Progress.NONE).withResident(true).execution().timings());
        assertEquals(on(Backend.JVM, Timings.DEVICE), HullOptions.of(Backend.TORNADO).withExecution(on(Backend.JVM,
                Timings.DEVICE)).execution());
    }

    @Test
    void ridge() {
        Random rnd = new Random(3);
        double[][] c = new double[2][500];
        for (int i = 0; i < 500; i++) {
            double t = i / 500.0;
            c[0][i] = t + 0.01 * rnd.nextGaussian();
            c[1][i] = Math.sin(6 * t) + 0.01 * rnd.nextGaussian();
        }
        for (Backend b : new Backend[] {Backend.JVM, Backend.JVM_PARALLEL}) {
            assertHonoured("ridge " + b, level -> {
                RidgeResult r = Ridge.detect(c, RidgeOptions.of(b, 0.1).withExecution(on(b, level)));
                return new Call(Arrays.toString(r.representatives()), r.timings());
            });
        }
        RidgeOptions o = RidgeOptions.of(Backend.JVM, 0.1).withExecution(on(Backend.JVM, Timings.OFF));
        assertEquals(Timings.OFF, o.withR2(0.3).withOrder(false).withMaxIterations(50).withThreads(2).execution().timings());
    }

    @Test
    void voronoi() {
        Balls balls = Balls.randomAtoms(120, 7);
        for (Backend b : new Backend[] {Backend.JVM, Backend.JVM_PARALLEL}) {
            assertHonoured("voronoi " + b, level -> {
                VoronoiResult r = Voronoi.compute(balls, VoronoiOptions.of(b).withExecution(on(b, level)));
                return new Call(r.vertexCount() + ":" + Arrays.toString(r.quads()) + Arrays.toString(r.spheres()), r.timings());
            });
        }
        VoronoiOptions o = VoronoiOptions.of(Backend.JVM).withExecution(on(Backend.JVM, Timings.OFF));
        assertEquals(Timings.OFF, o.withGrid(false).withBatch(64).withLanes(1).withResident(true).execution().timings());
    }

    @Test
    void kdtreeZhouAndRender() {
        Triangles tris = Triangles.of(TestScenes.scene("sphere", 1500, 1));
        for (Backend b : new Backend[] {Backend.JVM, Backend.JVM_PARALLEL}) {
            assertHonoured("kdtree " + b, level -> {
                KdTreeResult r = KdTreeBuilder.build(tris, KdTreeOptions.of(b).withExecution(on(b, level)));
                return new Call(key(r.tree()), r.timings());
            });
            assertHonoured("kdtree.zhou " + b, level -> {
                KdTreeResult r = ZhouBuilder.build(tris, KdTreeOptions.of(b).withExecution(on(b, level)),
                        ZhouBuilder.DEFAULT_SMALL, ZhouBuilder.DEFAULT_STAGE);
                return new Call(key(r.tree()), r.timings());
            });
        }
        KdTree tree = KdTreeBuilder.build(tris, KdTreeOptions.of(Backend.JVM)).tree();
        Camera cam = Camera.framing(tree.bounds(), 48, 32);
        for (Backend b : new Backend[] {Backend.JVM, Backend.JVM_PARALLEL}) {
            assertHonoured("render " + b, level -> {
                RenderResult r = Render.render(tree, cam, RenderOptions.of(b).withExecution(on(b, level)));
                return new Call(Arrays.toString(r.hitId()) + Arrays.toString(r.rgb()), r.timings());
            });
        }
        KdTreeOptions o = KdTreeOptions.of(Backend.JVM).withExecution(on(Backend.JVM, Timings.OFF));
        assertEquals(Timings.OFF, o.withVariant(KdTreeOptions.Variant.NLOGN).withCosts(1, 2).withLambda(0.5)
                .withMaxDepth(10).withBinnedMinRefs(4).withDeviceMinRefs(8).withBackend(Backend.JVM_PARALLEL)
                .execution().timings());
        assertEquals(Timings.OFF, RenderOptions.of(Backend.JVM).withExecution(on(Backend.JVM, Timings.OFF)).withShadows(false)
                .withThreads(2).withDevice(0).execution().timings());
    }

    private static String key(KdTree t) {
        return Arrays.toString(t.split()) + Arrays.toString(t.info()) + Arrays.toString(t.leafTris());
    }

    @Test
    void terrainAndCbt() {
        var heights = FractalTerrain.generate(4, 0.7, 5);
        Camera view = Camera.lookAt(500, -300, 400, 500, 500, 0, 60, 64, 48);
        for (Backend b : new Backend[] {Backend.JVM, Backend.JVM_PARALLEL}) {
            assertHonoured("terrain " + b, level -> {
                TerrainOptions o = TerrainOptions.of(10, 12, b).withExecution(on(b, level));
                try (Terrain t = Terrain.create(heights, o)) {
                    t.frame(view);
                    t.frame(view);
                    return new Call(Arrays.toString(t.nodes()), t.timings());
                }
            });
            // cbt: the caller hands its timings to the backend, made from the execution as the other families do
            assertHonoured("cbt " + b, level -> {
                Execution e = on(b, level);
                try (CbtBackend c = CbtBackends.create(e, 0, false)) {
                    PhaseTimings t = e.newTimings();
                    c.load(Cbt.uninitialised(10, true), t);
                    int leaves = c.init(6);
                    c.reduce();
                    return new Call(leaves, t);
                }
            });
        }
        TerrainOptions o = TerrainOptions.of(10, 12, Backend.JVM).withExecution(on(Backend.JVM, Timings.OFF));
        assertEquals(on(Backend.JVM, Timings.OFF), o.execution());
    }
}
