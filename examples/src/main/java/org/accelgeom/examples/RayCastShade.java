package org.accelgeom.examples;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;

import javax.imageio.ImageIO;

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
import org.accelgeom.render.TraceBuffers;
import org.accelgeom.render.tornado.RenderTaskGraphs;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;

/**
 * A TornadoVM program that ray casts accelgeom's kd-tree and shades the hits with its own kernel, all on the device
 * (docs/embedding.md, "Ray casting"): its kernel makes a pinhole camera's primary rays, accelgeom's trace graph takes
 * them with {@code consumeFromDevice} and leaves the closest hits there, and its shading kernel takes the hits and
 * writes the image, the only array that comes back (with the hit ids, for the check). Writes a PNG.
 * Self-check: the device's shading equals the same shading kernel run as plain Java on the device's hits (to one
 * grey level: the OpenCL compiler may fuse the float multiply-adds), and the hits equal accelgeom's JVM trace but
 * for ties on shared edges (at most 1 % of the pixels); exit status 1 otherwise.
 * Options: {@code -Dexamples.mesh=FILE} (OBJ, PLY, STL, OFF; default a generated sphere of 20000 triangles),
 * {@code -Dexamples.size=WxH} (default 640x480), {@code -Dexamples.out=FILE.png} (default raycastshade.png).
 */
public final class RayCastShade {

    private RayCastShade() {
    }

    /** The user's kernel: pixel i's primary ray of the camera array {@code cam} ({@link RenderKernels#EYE} ...). */
    static void primaryRays(float[] cam, int w, int h, float[] rays) {
        for (@Parallel int i = 0; i < w * h; i++) {
            float s = (float) ((2.0 * (i % w) + 1.0) / w - 1.0);
            float q = (float) (1.0 - (2.0 * (i / w) + 1.0) / h);
            rays[7 * i] = cam[0];
            rays[7 * i + 1] = cam[1];
            rays[7 * i + 2] = cam[2];
            rays[7 * i + 3] = cam[3] + s * cam[6] + q * cam[9];
            rays[7 * i + 4] = cam[4] + s * cam[7] + q * cam[10];
            rays[7 * i + 5] = cam[5] + s * cam[8] + q * cam[11];
            rays[7 * i + 6] = cam[16];
        }
    }

    /**
     * The user's shading: a headlight, |cos| of the angle between the ray and the triangle's normal, tinted warm;
     * a dark blue background where nothing is hit. Packed 0xRRGGBB. The hit ids are copied to {@code ids} for the
     * check (an array a graph took with consumeFromDevice does not come back to the host with transferToHost).
     */
    static void shade(float[] tri, float[] rays, int[] hitId, int[] rgb, int[] ids) {
        for (@Parallel int i = 0; i < hitId.length; i++) {
            int t = hitId[i];
            int colour = 0x101828;
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
                int r = (int) (40f + 215f * c);
                int g = (int) (30f + 190f * c);
                int b = (int) (20f + 140f * c);
                colour = (r << 16) | (g << 8) | b;
            }
            rgb[i] = colour;
            ids[i] = t;
        }
    }

    public static void main(String[] args) throws Exception {
        String mesh = System.getProperty("examples.mesh");
        String[] size = System.getProperty("examples.size", "640x480").split("x");
        int w = Integer.parseInt(size[0]);
        int h = Integer.parseInt(size[1]);
        Path out = Path.of(System.getProperty("examples.out", "raycastshade.png"));
        Triangles tris = mesh == null ? Triangles.of(Scenes.named("sphere:20000", 1)) : Triangles.of(Formats.readMesh(Path.of(mesh)));
        KdTree tree = KdTreeBuilder.build(tris, KdTreeOptions.of(Backend.JVM_PARALLEL)).tree();
        float[] cam = Render.cameraArray(tree, Camera.framing(tree.bounds(), w, h), null);

        TraceBuffers b = new TraceBuffers(tree, w * h);
        int[] rgb = new int[w * h];
        int[] ids = new int[w * h];
        TaskGraph rays = new TaskGraph("rays")
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, cam)
                .task("primary", RayCastShade::primaryRays, cam, w, h, b.rays)
                .persistOnDevice(b.rays);
        TaskGraph trace = RenderTaskGraphs.trace("trace", b, null, "rays", true);
        TaskGraph shading = new TaskGraph("shading")
                .consumeFromDevice("trace", b.tri, b.rays, b.hitId)
                .task("shade", RayCastShade::shade, b.tri, b.rays, b.hitId, rgb, ids)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, rgb, ids);
        long t0 = System.nanoTime();
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(rays.snapshot(), trace.snapshot(), shading.snapshot())) {
            plan.withGridScheduler(RenderTaskGraphs.traceGrid("trace", b, new GridScheduler()))
                    .withCompilerFlags(TornadoVMBackendType.OPENCL, RenderTaskGraphs.COMPILER_FLAGS);
            plan.withGraph(0).execute();
            plan.withGraph(1).execute();
            plan.withGraph(2).execute();
        }
        long wall = System.nanoTime() - t0;

        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        img.setRGB(0, 0, w, h, rgb, 0, w);
        try {
            ImageIO.write(img, "png", out.toFile());
        } catch (IOException e) {
            System.err.println("RayCastShade: cannot write " + out + ": " + e.getMessage());
            System.exit(1);
        }

        // the check: the same kernels as plain Java, the JVM's trace of the same rays
        TraceBuffers ref = new TraceBuffers(tree, w * h);
        primaryRays(cam, w, h, ref.rays);
        ref.traceOnJvm();
        int[] same = new int[w * h];
        shade(ref.tri, ref.rays, ids, same, new int[w * h]); // the device's hits, shaded on the JVM
        int worst = 0;
        int ties = 0;
        for (int i = 0; i < w * h; i++) {
            for (int sh = 0; sh <= 16; sh += 8) {
                worst = Math.max(worst, Math.abs(((rgb[i] >> sh) & 255) - ((same[i] >> sh) & 255)));
            }
            ties += ids[i] != ref.hitId[i] ? 1 : 0;
        }
        System.out.printf("RayCastShade: %d triangles, %dx%d, device graphs %.1f ms (first run, with compilation), "
                + "%d hit ids unlike the JVM's (ties), shading within %d grey level(s) of the JVM's; wrote %s%n",
                tris.count(), w, h, wall / 1e6, ties, worst, out);
        if (worst > 1 || ties > w * h / 100) {
            System.err.println("RayCastShade: MISMATCH with the JVM");
            System.exit(1);
        }
    }
}
