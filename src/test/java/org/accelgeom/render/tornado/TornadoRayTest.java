package org.accelgeom.render.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.tornado.Plans;
import org.accelgeom.kdtree.KdTree;
import org.accelgeom.kdtree.KdTreeBuilder;
import org.accelgeom.kdtree.KdTreeOptions;
import org.accelgeom.kdtree.Scenes;
import org.accelgeom.kdtree.Triangles;
import org.accelgeom.render.RenderKernels;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;

/**
 * {@link RenderKernels#trace} on the TornadoVM device (POCL in CI) against the jvm for rays of every kind, not only
 * camera rays: origins outside and inside the scene, directions with zero components, axis-parallel rays, rays
 * lying in the lattice's planes, finite and infinite tMax (the NaN slabs and the tMax miss value on the device).
 */
@Tag("tornado")
class TornadoRayTest {

    /** Floats per ray: origin, direction, tMax. */
    static final int RAY = 7;

    public static void traceAll(float[] split, int[] info, int[] leafTris, float[] tri, float[] bounds, float[] rays,
            int[] hitId, double[] hitT, int[] counts) {
        for (@Parallel int i = 0; i < hitId.length; i++) {
            counts[3 * i] = 0;
            counts[3 * i + 1] = 0;
            counts[3 * i + 2] = 0;
            hitId[i] = RenderKernels.trace(split, info, leafTris, tri, bounds, rays[RAY * i], rays[RAY * i + 1],
                    rays[RAY * i + 2], rays[RAY * i + 3], rays[RAY * i + 4], rays[RAY * i + 5], rays[RAY * i + 6], hitT,
                    i, counts);
        }
    }

    @Test
    void raysOfEveryKindGiveTheJvmHits() {
        check("random", Triangles.of(Scenes.named("random:2000", 5)), false);
        check("lattice", Triangles.of(TornadoRenderTest.lattice(500, 8)), true);
    }

    static void check(String what, Triangles t, boolean lattice) {
        KdTree tree = KdTreeBuilder.build(t, KdTreeOptions.of(Backend.JVM)).tree();
        int n = 20000;
        SplittableRandom r = new SplittableRandom(11);
        float[] rays = new float[RAY * n];
        for (int i = 0; i < n; i++) {
            ray(r, tree.bounds(), lattice, rays, RAY * i);
        }
        int[] refId = new int[n];
        double[] refT = new double[n];
        int[] refC = new int[3 * n];
        traceAll(tree.split(), tree.info(), tree.leafTris(), t.v(), tree.bounds(), rays, refId, refT, refC);
        int[] id = new int[n];
        double[] ht = new double[n];
        int[] c = new int[3 * n];
        TaskGraph g = new TaskGraph("rays" + what)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, tree.split(), tree.info(), tree.leafTris(), t.v(),
                        tree.bounds(), rays)
                .task("t", TornadoRayTest::traceAll, tree.split(), tree.info(), tree.leafTris(), t.v(), tree.bounds(), rays,
                        id, ht, c)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, id, ht, c);
        WorkerGrid1D w = new WorkerGrid1D(n);
        w.setLocalWorkToNull();
        GridScheduler gs = new GridScheduler();
        gs.addWorkerGrid("rays" + what + ".t", w);
        TornadoExecutionPlan plan = new TornadoExecutionPlan(g.snapshot());
        try {
            plan.withGridScheduler(gs).withCompilerFlags(TornadoVMBackendType.OPENCL, "-w").execute();
        } finally {
            Plans.release(plan);
        }
        int hits = 0;
        int ties = 0;
        for (int i = 0; i < n; i++) {
            hits += refId[i] >= 0 ? 1 : 0;
            if (refId[i] != id[i]) {
                // only a tie may differ: both triangles hit at the same distance (see TornadoRenderTest)
                assertTrue(refId[i] >= 0 && id[i] >= 0, what + ": ray " + i + " hits " + refId[i] + " on jvm, " + id[i]);
                double a = alone(t.v(), refId[i], rays, i);
                double b = alone(t.v(), id[i], rays, i);
                assertTrue(Math.abs(a - b) <= TornadoRenderTest.TIE * a, what + ": ray " + i + " "
                        + Arrays.toString(Arrays.copyOfRange(rays, RAY * i, RAY * i + RAY)) + ": triangle " + refId[i]
                        + " at " + a + " on jvm, " + id[i] + " at " + b + " on the device");
                ties++;
                continue;
            }
            // float rounding in the watertight test scales with the coordinates (this scene is of unit size), not with
            // the distance: a hit 1e-5 from the origin may move by a float ulp of 1 (see TornadoRenderTest.DISTANCE)
            assertEquals(refT[i], ht[i], TornadoRenderTest.DISTANCE * Math.max(1, Math.abs(refT[i])), what + ": distance of ray " + i);
            assertEquals(refC[3 * i], c[3 * i], what + ": nodes of ray " + i);
        }
        System.out.printf("%s: %d rays, %d hits, %d ties broken the other way%n", what, n, hits, ties);
        assertTrue(hits > n / 10, what + ": too few hits: " + hits);
        assertTrue(ties <= n / 1000, what + ": " + ties + " ties");
    }

    /** The distance at which ray i meets triangle id alone. */
    static double alone(float[] v, int id, float[] rays, int i) {
        double[] out = new double[1];
        int o = RAY * i;
        RenderKernels.bruteForce(Arrays.copyOfRange(v, 9 * id, 9 * id + 9), 1, rays[o], rays[o + 1], rays[o + 2],
                rays[o + 3], rays[o + 4], rays[o + 5], rays[o + 6], out, 0);
        return out[0];
    }

    /** A random ray of RenderTest (origin, direction) and a tMax: finite for a third of the rays. */
    static void ray(SplittableRandom r, float[] b, boolean lattice, float[] rays, int at) {
        System.arraycopy(org.accelgeom.render.RenderTest.ray(r, b, lattice), 0, rays, at, 6);
        rays[at + 6] = r.nextInt(3) == 0 ? (float) r.nextDouble() * 5 : Float.POSITIVE_INFINITY;
    }
}
