package org.accelgeom.render.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;

import org.accelgeom.engine.Backend;
import org.accelgeom.io.Formats;
import org.accelgeom.kdtree.KdTree;
import org.accelgeom.kdtree.KdTreeBuilder;
import org.accelgeom.kdtree.KdTreeOptions;
import org.accelgeom.kdtree.Scenes;
import org.accelgeom.kdtree.Triangles;
import org.accelgeom.render.Camera;
import org.accelgeom.render.Render;
import org.accelgeom.render.RenderKernels;
import org.accelgeom.render.RenderBackend;
import org.accelgeom.render.RenderOptions;
import org.accelgeom.render.RenderResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The tornado ray caster against the jvm reference on the TornadoVM device (POCL in CI): the same hit triangle
 * per pixel, except on ties (two triangles hit at the same distance, up to a relative {@link #TIE}: a shared edge
 * or vertex), which a device that fuses multiply-adds may break the other way; the same distances up to
 * {@link #DISTANCE}; the same image; the same traversal steps.
 *
 * <p>Tolerances: on POCL every distance is bit-identical; NVIDIA's OpenCL compiler contracts float a·b + c into
 * fused multiply-adds (OpenCL C's default, FP_CONTRACT ON, which TornadoVM's generated code does not switch off),
 * so the float steps of the watertight test can round differently: distances then agree to a few float ulps
 * (measured on an H200: at most 1.2e-7 relative), hence 1e-6.
 */
@Tag("tornado")
class TornadoRenderTest {

    /** Relative difference of two hit distances that makes two different hit triangles a tie. */
    static final double TIE = 1e-6;
    /** Relative difference allowed between the jvm's and the device's distance to the same triangle. */
    static final double DISTANCE = 1e-6;

    @Test
    void generatedScenesGiveTheJvmHits() {
        for (String scene : new String[] {"random:3000", "sphere:4000"}) {
            Triangles t = Triangles.of(Scenes.named(scene, 7));
            KdTree tree = KdTreeBuilder.build(t, KdTreeOptions.of(Backend.JVM)).tree();
            compare(scene, tree, Camera.framing(tree.bounds(), 96, 64), null, true);
        }
    }

    @Test
    void latticeSeenFromInsideAlongTheAxesGivesTheJvmHits() {
        // axis-aligned triangles on a lattice, the eye inside on lattice planes: rays with zero direction
        // components, rays in split planes, hits on shared edges
        Triangles t = Triangles.of(lattice(600, 3));
        KdTree tree = KdTreeBuilder.build(t, KdTreeOptions.of(Backend.JVM)).tree();
        compare("lattice", tree, Camera.lookAt(new double[] {2.5, 3, 3}, new double[] {2.5, 3, 10}, new double[] {0, 1, 0},
                90, 65, 65), new double[] {9, 9, -3}, true);
        compare("lattice, oblique", tree, Camera.lookAt(new double[] {-4, 7, -5}, new double[] {3, 3, 3},
                new double[] {0, 1, 0}, 50, 80, 60), new double[] {9, 9, -3}, false);
    }

    @Test
    void aSmallMeshGivesTheJvmHits() {
        Triangles t = Triangles.of(Formats.readMesh(Path.of("src/test/resources/io/cube.obj")));
        KdTree tree = KdTreeBuilder.build(t, KdTreeOptions.of(Backend.JVM)).tree();
        compare("cube.obj", tree, Camera.framing(tree.bounds(), 64, 48), null, true);
        // the cube's diagonals and edges seen head-on: ties between its triangles
        float[] b = tree.bounds();
        double cx = 0.5 * (b[0] + b[3]);
        double cy = 0.5 * (b[1] + b[4]);
        double size = b[3] - b[0];
        compare("cube.obj, head-on", tree, Camera.lookAt(new double[] {cx, cy, b[5] + size}, new double[] {cx, cy, b[2]},
                new double[] {0, 1, 0}, 60, 63, 63), new double[] {cx, cy + 10 * size, b[5] + size}, true);
    }

    @Test
    void repeatedRendersReuseThePlanAndCountOnlyTheirOwnRays() {
        Triangles t = Triangles.of(Scenes.named("sphere:2000", 1));
        KdTree tree = KdTreeBuilder.build(t, KdTreeOptions.of(Backend.JVM)).tree();
        Camera cam = Camera.framing(tree.bounds(), 40, 30);
        RenderOptions o = RenderOptions.of(Backend.TORNADO);
        try (RenderBackend b = Render.backend(o)) {
            RenderResult first = Render.render(tree, cam, o, b);
            RenderResult second = Render.render(tree, cam, o, b);
            RenderResult noShadows = Render.render(tree, cam, o.withShadows(false), b);
            assertEquals(first.rays(), second.rays());
            assertEquals(first.nodeVisits(), second.nodeVisits());
            assertTrue(Arrays.equals(first.hitId(), noShadows.hitId()));
            assertEquals(40 * 30, noShadows.rays());
            assertTrue(second.timings().phases().stream().noneMatch(p -> p.name().equals("device plan")),
                    "the second render builds no new plan");
        }
    }

    static void compare(String what, KdTree tree, Camera cam, double[] light, boolean shadows) {
        int w = cam.width();
        int h = cam.height();
        RenderOptions o = RenderOptions.of(Backend.JVM).withShadows(shadows).withLight(light);
        RenderResult ref = Render.render(tree, cam, o);
        RenderResult gpu = Render.render(tree, cam, RenderOptions.of(Backend.TORNADO).withShadows(shadows).withLight(light));
        float[] c = cam.toArray(light == null ? Camera.framingLight(tree.bounds()) : light, 0);
        float[] v = tree.triangles().v();
        int ties = 0;
        int hits = 0;
        int sameColour = 0;
        for (int i = 0; i < w * h; i++) {
            int a = ref.hitId()[i];
            int b = gpu.hitId()[i];
            hits += a >= 0 ? 1 : 0;
            sameColour += ref.rgb()[i] == gpu.rgb()[i] ? 1 : 0;
            if (a == b) {
                assertEquals(ref.hitT()[i], gpu.hitT()[i], DISTANCE * Math.abs(ref.hitT()[i]), what + ": distance of pixel " + i);
                continue;
            }
            assertTrue(a >= 0 && b >= 0, what + ": pixel " + i + " hits " + a + " on jvm, " + b + " on tornado");
            double ta = distance(v, a, c, w, h, i);
            double tb = distance(v, b, c, w, h, i);
            assertTrue(Math.abs(ta - tb) <= TIE * ta, what + ": pixel " + i + ": triangles " + a + " and " + b
                    + " at " + ta + " and " + tb + " are no tie");
            ties++;
        }
        System.out.printf("%s: %d pixels, %d hits, %d ties broken the other way, %d colours differ%n", what, w * h, hits,
                ties, w * h - sameColour);
        assertTrue(hits > w * h / 10, what + ": too few hits to test anything: " + hits);
        assertTrue(ties <= w * h / 100, what + ": " + ties + " ties");
        // the colours: equal but where a tie went the other way or a distance's last bit moved the light factor
        assertTrue(sameColour >= w * h - 2 * ties - w * h / 500, what + ": " + (w * h - sameColour) + " pixels differ in colour");
        assertEquals(ref.rays(), gpu.rays(), what + ": rays");
        // the traversal is the same method: the same steps, up to rays whose pruning saw a different last bit
        assertEquals(ref.nodeVisits(), gpu.nodeVisits(), 1e-3 * ref.nodeVisits(), what + ": node visits");
        assertEquals(ref.triangleTests(), gpu.triangleTests(), 1e-3 * ref.triangleTests(), what + ": triangle tests");
    }

    /** The distance at which pixel i's primary ray meets triangle id alone (brute force over that one triangle). */
    static double distance(float[] v, int id, float[] c, int w, int h, int i) {
        float s = (float) ((2.0 * (i % w) + 1.0) / w - 1.0);
        float q = (float) (1.0 - (2.0 * (i / w) + 1.0) / h);
        float[] d = new float[3];
        for (int k = 0; k < 3; k++) {
            d[k] = (float) (c[RenderKernels.FORWARD + k] + (double) s * c[RenderKernels.RIGHT + k] + (double) q * c[RenderKernels.UP + k]);
        }
        double[] out = new double[1];
        RenderKernels.bruteForce(Arrays.copyOfRange(v, 9 * id, 9 * id + 9), 1, c[0], c[1], c[2], d[0], d[1], d[2],
                Float.POSITIVE_INFINITY, out, 0);
        return out[0];
    }

    /** n axis-aligned right triangles with integer vertices in [0, 8]^3. */
    static float[] lattice(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[9 * n];
        for (int t = 0; t < n; t++) {
            int flat = r.nextInt(3);
            int a = (flat + 1) % 3;
            int b = (flat + 2) % 3;
            float[] o = {r.nextInt(7), r.nextInt(7), r.nextInt(7)};
            for (int k = 0; k < 3; k++) {
                float[] p = o.clone();
                if (k == 1) {
                    p[a] += 1;
                }
                if (k == 2) {
                    p[b] += 1;
                }
                System.arraycopy(p, 0, v, 9 * t + 3 * k, 3);
            }
        }
        return v;
    }
}
