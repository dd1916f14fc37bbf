package org.accelgeom.render.tornado;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.accelgeom.engine.Backend;
import org.accelgeom.kdtree.KdTree;
import org.accelgeom.kdtree.KdTreeBuilder;
import org.accelgeom.kdtree.KdTreeOptions;
import org.accelgeom.kdtree.Scenes;
import org.accelgeom.kdtree.Triangles;
import org.accelgeom.render.TraceBuffers;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;

/**
 * The ray-casting example of docs/embedding.md, compiled and run: the user's graph makes the rays on the device,
 * accelgeom's trace graph takes them there and leaves the hits there, and the user's shading graph takes the hits;
 * checked against the same three steps on the JVM.
 */
@Tag("tornado")
class EmbeddingExampleTest {

    /** The user's rays: a w-wide grid of rays along -z over the box {@code box} (min x y z, max x y z). */
    static void gridRays(float[] box, int w, float[] rays) {
        for (@Parallel int i = 0; i < rays.length / 7; i++) {
            int h = rays.length / 7 / w;
            rays[7 * i] = box[0] + (i % w + 0.5f) / w * (box[3] - box[0]);
            rays[7 * i + 1] = box[1] + (i / w + 0.5f) / h * (box[4] - box[1]);
            rays[7 * i + 2] = box[5] + 1f;
            rays[7 * i + 3] = 0f;
            rays[7 * i + 4] = 0f;
            rays[7 * i + 5] = -1f;
            rays[7 * i + 6] = box[5] - box[2] + 2f;
        }
    }

    /**
     * The user's shading: 255·|cos| of the angle between the ray and the normal of the triangle hit, 0 for none; the
     * hit ids copied to {@code ids} (for the check).
     */
    static void shade(float[] tri, float[] rays, int[] hitId, int[] grey, int[] ids) {
        for (@Parallel int i = 0; i < hitId.length; i++) {
            int t = hitId[i];
            int g = 0;
            if (t >= 0) {
                float ax = tri[9 * t + 3] - tri[9 * t];
                float ay = tri[9 * t + 4] - tri[9 * t + 1];
                float az = tri[9 * t + 5] - tri[9 * t + 2];
                float bx = tri[9 * t + 6] - tri[9 * t];
                float by = tri[9 * t + 7] - tri[9 * t + 1];
                float bz = tri[9 * t + 8] - tri[9 * t + 2];
                float nx = ay * bz - az * by;
                float ny = az * bx - ax * bz;
                float nz = ax * by - ay * bx;
                float dx = rays[7 * i + 3];
                float dy = rays[7 * i + 4];
                float dz = rays[7 * i + 5];
                float c = Math.abs(nx * dx + ny * dy + nz * dz)
                        / (float) Math.sqrt((nx * nx + ny * ny + nz * nz) * (dx * dx + dy * dy + dz * dz));
                g = (int) (255f * c);
            }
            grey[i] = g;
            ids[i] = t;
        }
    }

    @Test
    void theUsersGraphsAroundTheTraceGraphGiveTheJvmHitsAndShading() throws Exception {
        KdTree tree = KdTreeBuilder.build(Triangles.of(Scenes.named("sphere:3000", 1)), KdTreeOptions.of(Backend.JVM)).tree();
        int w = 96;
        int h = 64;
        // --- docs/embedding.md, begin
        TraceBuffers b = new TraceBuffers(tree, w * h);
        float[] box = tree.bounds().clone();   // the user's own copy for the user's graph
        int[] grey = new int[w * h];
        int[] ids = new int[w * h];
        TaskGraph rays = new TaskGraph("rays")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, box)
                .task("grid", EmbeddingExampleTest::gridRays, box, w, b.rays)
                .persistOnDevice(b.rays);                                   // rays stay on the device
        TaskGraph trace = RenderTaskGraphs.trace("trace", b, null, "rays", true);  // tree from the host, hits kept
        TaskGraph shading = new TaskGraph("shading")
                .consumeFromDevice("trace", b.tri, b.rays, b.hitId)
                .task("shade", EmbeddingExampleTest::shade, b.tri, b.rays, b.hitId, grey, ids)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, grey, ids);   // ids, not b.hitId: a consumed array does not come back
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(rays.snapshot(), trace.snapshot(), shading.snapshot())) {
            plan.withGridScheduler(RenderTaskGraphs.traceGrid("trace", b, new GridScheduler()))
                    .withCompilerFlags(TornadoVMBackendType.OPENCL, RenderTaskGraphs.COMPILER_FLAGS);
            plan.withGraph(0).execute();
            plan.withGraph(1).execute();
            plan.withGraph(2).execute();
        }
        // --- docs/embedding.md, end
        TraceBuffers ref = new TraceBuffers(tree, w * h);
        int[] refGrey = new int[w * h];
        gridRays(box, w, ref.rays);
        ref.traceOnJvm();
        shade(ref.tri, ref.rays, ref.hitId, refGrey, new int[w * h]);
        int hits = 0;
        int ties = 0;
        int deviceHits = 0;
        for (int i = 0; i < w * h; i++) {
            deviceHits += ids[i] >= 0 ? 1 : 0;
        }
        String counts = "device hits " + deviceHits + ", jvm hits " + java.util.Arrays.stream(ref.hitId).filter(x -> x >= 0).count()
                + ", device grey sum " + java.util.Arrays.stream(grey).sum() + ", first ids " + ids[0] + " " + ids[w * h / 2]
                + " vs " + ref.hitId[0] + " " + ref.hitId[w * h / 2];
        for (int i = 0; i < w * h; i++) {
            hits += ref.hitId[i] >= 0 ? 1 : 0;
            if (ids[i] != ref.hitId[i]) {
                // a tie between two triangles at the same distance (a shared edge), broken the other way by a device
                // that fuses multiply-adds (Render's contract)
                assertTrue(ids[i] >= 0 && ref.hitId[i] >= 0, "ray " + i + ": hit on one side only; " + counts);
                ties++;
                continue;
            }
            // the user's float shading: 1 grey level for the device's fused multiply-adds
            assertTrue(Math.abs(grey[i] - refGrey[i]) <= 1, "ray " + i + ": " + grey[i] + " vs " + refGrey[i]);
        }
        assertTrue(hits > w * h / 4, "the sphere fills the grid: " + hits);
        assertTrue(ties <= w * h / 100, ties + " ties");
    }
}
