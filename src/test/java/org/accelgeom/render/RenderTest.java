package org.accelgeom.render;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.accelgeom.engine.Backend;
import org.accelgeom.kdtree.KdTree;
import org.accelgeom.kdtree.KdTreeBuilder;
import org.accelgeom.kdtree.KdTreeOptions;
import org.accelgeom.kdtree.Scenes;
import org.accelgeom.kdtree.TestScenes;
import org.accelgeom.kdtree.Triangles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Traversal and intersection against brute force; renders on every jvm backend. */
public class RenderTest {

    /**
     * Random rays: from outside and inside the scene, towards random points, along axes, with zero direction
     * components, and (on the lattice scene) lying in the planes of axis-aligned triangles.
     */
    public static float[] ray(SplittableRandom r, float[] b, boolean lattice) {
        float[] o = new float[3];
        float[] d = new float[3];
        for (int k = 0; k < 3; k++) {
            double ext = (double) b[3 + k] - b[k];
            o[k] = (float) (b[k] - 0.5 * ext + 2 * ext * r.nextDouble());
            d[k] = (float) (b[k] + ext * r.nextDouble() - o[k]);
            if (lattice) {
                o[k] = (float) Math.floor(o[k]) + (r.nextInt(4) == 0 ? 0.5f : 0f);
            }
        }
        int mode = r.nextInt(6);
        if (mode == 0) {
            d[r.nextInt(3)] = 0;
        } else if (mode == 1) {
            int k = r.nextInt(3);
            d[0] = 0;
            d[1] = 0;
            d[2] = 0;
            d[k] = r.nextBoolean() ? 1 : -1;
        }
        if (d[0] == 0 && d[1] == 0 && d[2] == 0) {
            d[2] = 1;
        }
        return new float[] {o[0], o[1], o[2], d[0], d[1], d[2]};
    }

    @ParameterizedTest
    @ValueSource(strings = {"random", "large", "sphere", "grid"})
    void everyHitIsTheBruteForceHit(String kind) {
        for (int seed = 1; seed <= 4; seed++) {
            Triangles t = Triangles.of(TestScenes.scene(kind, 400 * seed, seed));
            // odd seeds: binned SAH above 200 references (a different tree, the same hits)
            KdTree tree = KdTreeBuilder.build(t, KdTreeOptions.of(Backend.JVM).withBinnedMinRefs(seed % 2 == 1 ? 200 : 0)).tree();
            SplittableRandom r = new SplittableRandom(seed);
            double[] a = new double[1];
            double[] e = new double[1];
            int[] counts = new int[3];
            int hits = 0;
            for (int i = 0; i < 4000; i++) {
                float[] q = ray(r, tree.bounds(), kind.equals("grid"));
                float tMax = r.nextInt(3) == 0 ? (float) r.nextDouble() : Float.POSITIVE_INFINITY;
                int got = RenderKernels.trace(tree.split(), tree.info(), tree.leafTris(), t.v(), tree.bounds(), q[0], q[1], q[2],
                        q[3], q[4], q[5], tMax, a, 0, counts);
                int want = RenderKernels.bruteForce(t.v(), t.count(), q[0], q[1], q[2], q[3], q[4], q[5], tMax, e, 0);
                if (e[0] < 1e-6) {
                    // the origin lies on a triangle (lattice rays): a hit at t = 0 is not a hit, and rounding decides
                    // whether the shear makes it a tiny positive one; the traversal rightly skips the side behind
                    continue;
                }
                assertEquals(want, got, kind + " seed " + seed + " ray " + i + " " + java.util.Arrays.toString(q));
                // a miss reports tMax (the kernels hold no infinite constant; see RenderKernels)
                assertEquals(want < 0 ? tMax : e[0], a[0], 0.0);
                hits += got >= 0 ? 1 : 0;
            }
            assertTrue(hits > 400, kind + ": too few hits to test anything: " + hits);
            // the tree must pay: fewer tests per ray than brute force
            assertTrue(counts[1] < 4000L * t.count() / 4, kind + ": " + counts[1] + " tests");
        }
    }

    @Test
    void aRayThroughASharedEdgeHitsOneOfItsTriangles() {
        // watertightness: a fan of triangles around the origin, rays exactly through the shared edges and vertex
        int m = 12;
        float[] v = new float[9 * m];
        for (int i = 0; i < m; i++) {
            double a0 = 2 * Math.PI * i / m;
            double a1 = 2 * Math.PI * (i + 1) / m;
            float[] tri = {0, 0, 0, (float) Math.cos(a0), (float) Math.sin(a0), 0, (float) Math.cos(a1), (float) Math.sin(a1), 0};
            System.arraycopy(tri, 0, v, 9 * i, 9);
        }
        Triangles t = Triangles.of(v);
        KdTree tree = KdTreeBuilder.build(t, KdTreeOptions.of(Backend.JVM)).tree();
        double[] h = new double[1];
        int[] c = new int[3];
        for (int i = 0; i < m; i++) {
            for (double f : new double[] {0, 0.25, 0.5, 0.75}) {
                float x = (float) (f * v[9 * i + 3]);
                float y = (float) (f * v[9 * i + 4]);
                int id = RenderKernels.trace(tree.split(), tree.info(), tree.leafTris(), t.v(), tree.bounds(), x, y, 1, 0, 0, -1,
                        Float.POSITIVE_INFINITY, h, 0, c);
                assertTrue(id >= 0, "ray through the edge at " + x + ", " + y + " fell through");
                assertEquals(1.0, h[0], 1e-6);
            }
        }
    }

    @Test
    void rendersAreTheBruteForceHitsAndEqualOnBothJvmBackends() {
        Triangles t = Triangles.of(TestScenes.scene("sphere", 2000, 1));
        KdTree tree = KdTreeBuilder.build(t, KdTreeOptions.of(Backend.JVM)).tree();
        int w = 64;
        int h = 48;
        Camera cam = Camera.framing(tree.bounds(), w, h);
        RenderResult a = Render.render(tree, cam, RenderOptions.of(Backend.JVM));
        RenderResult b = Render.render(tree, cam, RenderOptions.of(Backend.JVM_PARALLEL).withThreads(3));
        assertArrayEquals(a.hitId(), b.hitId());
        assertArrayEquals(a.rgb(), b.rgb());
        assertEquals(a.rays(), b.rays());
        float[] c = cam.toArray(Camera.framingLight(tree.bounds()), 0);
        double[] e = new double[1];
        int hits = 0;
        for (int i = 0; i < w * h; i++) {
            float s = (float) ((2.0 * (i % w) + 1.0) / w - 1.0);
            float q = (float) (1.0 - (2.0 * (i / w) + 1.0) / h);
            float[] d = new float[3];
            for (int k = 0; k < 3; k++) {
                d[k] = (float) (c[RenderKernels.FORWARD + k] + (double) s * c[RenderKernels.RIGHT + k] + (double) q * c[RenderKernels.UP + k]);
            }
            int want = RenderKernels.bruteForce(t.v(), t.count(), c[0], c[1], c[2], d[0], d[1], d[2], Float.POSITIVE_INFINITY, e, 0);
            assertEquals(want, a.hitId()[i], "pixel " + i);
            hits += want >= 0 ? 1 : 0;
        }
        assertTrue(hits > w * h / 8, "the sphere should fill the view: " + hits);
        assertTrue(a.rays() > w * h, "shadow rays were traced");
        assertTrue(a.stepsPerRay() > 1);
    }

    @Test
    void workItemsCoverEveryPixelOnce() {
        for (int[] wh : new int[][] {{1, 1}, {1, 9}, {9, 1}, {8, 4}, {17, 6}, {64, 48}, {13, 11}, {1920, 1080}}) {
            int n = wh[0] * wh[1];
            boolean[] seen = new boolean[n];
            for (int i = 0; i < n; i++) {
                int p = RenderKernels.pixel(wh[0], wh[1], i);
                assertTrue(p >= 0 && p < n && !seen[p], wh[0] + "x" + wh[1] + ": work-item " + i + " -> pixel " + p);
                seen[p] = true;
            }
        }
        // a warp of 32 work-items is an 8x4 block
        assertEquals(3 * 64 + 7, RenderKernels.pixel(64, 48, 31));
    }

    @Test
    void treeDepthIsTheStatisticsDepth() {
        for (String kind : new String[] {"random", "sphere", "grid"}) {
            KdTree tree = KdTreeBuilder.build(Triangles.of(TestScenes.scene(kind, 500, 3)), KdTreeOptions.of(Backend.JVM)).tree();
            assertEquals(tree.stats(1, 1).depth(), Render.depth(tree.info()), kind);
        }
        // a chain of 49 inner nodes (each with an empty leaf on the left) is one level too deep for the stack
        int d = RenderKernels.STACK + 1;
        int[] info = new int[2 * d + 1];
        for (int i = 0; i < d; i++) {
            info[2 * i] = (2 * i + 2) << 2;
            info[2 * i + 1] = 3;
        }
        info[2 * d] = 3;
        KdTree deep = new KdTree(new float[info.length], info, new int[] {0}, new float[] {0, 0, 0, 1, 1, 1},
                Triangles.of(new float[] {0, 0, 0, 1, 0, 0, 0, 1, 0}));
        assertEquals(d, Render.depth(info));
        var e = org.junit.jupiter.api.Assertions.assertThrows(org.accelgeom.engine.AccelGeomException.class,
                () -> Render.render(deep, Camera.framing(deep.bounds(), 4, 4), RenderOptions.of(Backend.JVM)));
        assertTrue(e.getMessage().contains("levels deep"), e.getMessage());
    }

    @Test
    void aTriangleAboveAFloorCastsAShadow() {
        // floor: a big quad at y = 0; blocker: a triangle at y = 1 straight below the light
        float[] v = {-5, 0, -5, 5, 0, -5, 5, 0, 5, -5, 0, -5, 5, 0, 5, -5, 0, 5, -1, 1, -1, 1, 1, -1, 0, 1, 1.5f};
        Triangles t = Triangles.of(v);
        KdTree tree = KdTreeBuilder.build(t, KdTreeOptions.of(Backend.JVM)).tree();
        Camera cam = Camera.lookAt(new double[] {0, 8, 0.01}, new double[] {0, 0, 0}, new double[] {0, 0, -1}, 60, 32, 32);
        RenderOptions light = RenderOptions.of(Backend.JVM).withLight(new double[] {0, 10, 0});
        RenderResult lit = Render.render(tree, cam, light.withShadows(false));
        RenderResult shadowed = Render.render(tree, cam, light);
        int darker = 0;
        for (int i = 0; i < 32 * 32; i++) {
            if (shadowed.hitId()[i] < 2 && shadowed.rgb()[i] != lit.rgb()[i]) {
                darker++;
            }
        }
        // the blocker covers the floor pixels right under it; only floor pixels change
        assertTrue(darker == 0, "floor pixels seen by the camera are under the blocker, whose own pixels hide them");
        Camera side = Camera.lookAt(new double[] {6, 6, 6}, new double[] {0, 0, 0}, new double[] {0, 1, 0}, 60, 64, 64);
        RenderResult l2 = Render.render(tree, side, light.withShadows(false));
        RenderResult s2 = Render.render(tree, side, light);
        for (int i = 0; i < 64 * 64; i++) {
            if (s2.hitId()[i] < 2 && s2.rgb()[i] != l2.rgb()[i]) {
                darker++;
            }
        }
        assertTrue(darker > 10, "a shadow on the floor: " + darker + " pixels");
    }

    @Test
    void badRenderRequestsAreOneLineErrors() {
        Triangles t = Triangles.of(Scenes.sphere(4, 8));
        KdTree tree = KdTreeBuilder.build(t, KdTreeOptions.of(Backend.JVM)).tree();
        Camera cam = Camera.framing(tree.bounds(), 8, 8);
        var e = org.junit.jupiter.api.Assertions.assertThrows(org.accelgeom.engine.AccelGeomException.class,
                () -> Camera.framing(tree.bounds(), 0, 10));
        assertTrue(e.getMessage().contains("image size"));
        if (!org.accelgeom.engine.TornadoSupport.available()) {
            // without the TornadoVM runtime (plain JVM tests), the tornado backend says how to get it
            e = org.junit.jupiter.api.Assertions.assertThrows(org.accelgeom.engine.AccelGeomException.class,
                    () -> Render.render(tree, cam, RenderOptions.of(Backend.TORNADO)));
            assertTrue(e.getMessage().contains("TornadoVM"), e.getMessage());
        }
        org.junit.jupiter.api.Assertions.assertThrows(org.accelgeom.engine.AccelGeomException.class,
                () -> Camera.lookAt(new double[] {0, 0, 0}, new double[] {0, 0, 0}, new double[] {0, 1, 0}, 40, 8, 8));
        org.junit.jupiter.api.Assertions.assertThrows(org.accelgeom.engine.AccelGeomException.class,
                () -> Camera.lookAt(new double[] {0, 0, 0}, new double[] {0, 0, 1}, new double[] {0, 0, 2}, 40, 8, 8));
    }
}
