package org.accelgeom.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.accelgeom.engine.Backend;
import org.accelgeom.io.Formats;
import org.accelgeom.kdtree.KdTree;
import org.accelgeom.kdtree.KdTreeBuilder;
import org.accelgeom.kdtree.KdTreeResult;
import org.accelgeom.kdtree.Triangles;
import org.accelgeom.render.Camera;
import org.accelgeom.render.Render;
import org.accelgeom.render.RenderBackend;
import org.accelgeom.render.RenderOptions;
import org.accelgeom.render.RenderResult;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code accelgeom render}: ray casting through an SAH kd-tree into a PNG. */
@Command(name = "render", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Builds the SAH kd-tree of a mesh or a generated scene and ray casts it from a pinhole camera: "
            + "primary rays, shadow rays to a point light, shading by the surface normal.",
            "Prints rays per second and traversal steps per ray; --output writes the PNG."},
        footer = {"", "Examples:",
            "  accelgeom render --input data/meshes/bunny.obj --width 1920 --height 1080 --output bunny.png",
            "  accelgeom render --scene sphere:100000 --eye 0,0,4 --target 0,0,0 --no-shadows --output s.png"})
final class RenderCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Mixin
    KdTreeCommand.TreeOptions tree;

    @Option(names = "--build-backend", paramLabel = "NAME", defaultValue = "jvm-parallel",
            converter = CommonOptions.BackendConverter.class,
            description = "Backend that builds the tree (default: ${DEFAULT-VALUE}); --backend traces the rays.")
    Backend buildBackend;

    @Mixin
    ViewOptions view = new ViewOptions(800, 600, 40);

    @Option(names = "--eye", paramLabel = "X,Y,Z", description = "Camera position (default: framing the whole scene).")
    String eye;

    @Option(names = "--target", paramLabel = "X,Y,Z", description = "Point looked at (default: the scene's centre).")
    String target;

    @Option(names = "--up", paramLabel = "X,Y,Z", defaultValue = "0,1,0", description = "Up direction (default: ${DEFAULT-VALUE}).")
    String up;

    @Option(names = "--light", paramLabel = "X,Y,Z", description = "Point light (default: above and to the right of the eye).")
    String light;

    @Option(names = "--no-shadows", description = "No shadow rays.")
    boolean noShadows;

    @Mixin
    RepeatOptions runs;

    @Override
    public Integer call() throws Exception {
        return Batch.run(spec, common, "png", this::one);
    }

    /** One input (or --random): the whole command, or one input of a batch. */
    private int one() {
        common.validate(spec);
        tree.validate(spec, common);
        view.validate(spec);
        runs.validate(spec);
        double[] eyeAt = eye == null ? null : vector("--eye", eye);
        double[] targetAt = target == null ? null : vector("--target", target);
        double[] upDir = vector("--up", up);
        double[] lightAt = light == null ? null : vector("--light", light);
        Check.extension(spec, "--output", common.output, false, "the image", ".png");
        Check.writable(common.output);
        PrintWriter out = spec.commandLine().getOut();
        String[] source = new String[1];
        Triangles t = tree.triangles(common, source);
        long b0 = System.nanoTime();
        KdTreeResult built = KdTreeBuilder.build(t, tree.options(common, buildBackend));
        long buildNanos = System.nanoTime() - b0;
        KdTree kd = built.tree();
        Camera defaults = Camera.framing(kd.bounds(), view.width, view.height);
        Camera cam = Check.asUsage(spec, () -> Camera.lookAt(eyeAt == null ? defaults.eye() : eyeAt,
                targetAt == null ? Camera.centre(kd.bounds()) : targetAt, upDir, view.fov, view.width, view.height));
        RenderOptions ro = RenderOptions.of(common.backend).withShadows(!noShadows).withThreads(common.threads)
                .withDevice(common.device).withLight(lightAt);
        ro = ro.withExecution(ro.execution().withTimings(runs.level()));
        RenderResult r = null;
        try (RenderBackend backend = Render.backend(ro)) {
            for (int run = 1; run <= runs.repeat; run++) {
                r = Render.render(kd, cam, ro, backend);
                if (runs.repeat > 1) {
                    out.printf(Locale.ROOT, "run %d/%d: %s%n", run, runs.repeat, r.format());
                    out.flush();
                }
            }
        }
        out.printf(Locale.ROOT, "input:        %s%n", source[0]);
        out.printf(Locale.ROOT, "triangles:    %d (skipped %d degenerate)%n", t.count(), t.skipped());
        out.printf(Locale.ROOT, "tree:         %s%n", built.stats().format());
        out.printf(Locale.ROOT, "build:        %.3f ms (%s)%n", buildNanos / 1e6, built.builder());
        out.printf(Locale.ROOT, "render:       %s%n", r.format());
        out.printf(Locale.ROOT, "backend:      %s%n", common.describeBackend());
        if (runs.timings) {
            out.println("phases:");
            out.print(r.timings().format());
        }
        if (common.output != null) {
            Formats.writePng(common.output, r.image());
            out.printf(Locale.ROOT, "wrote %s%n", common.output);
        } else {
            out.println("image:        not written (give --output FILE.png to keep it)");
        }
        out.flush();
        return 0;
    }

    private double[] vector(String option, String s) {
        String[] p = s.split(",");
        if (p.length != 3) {
            throw Check.usage(spec, option + " needs three comma-separated numbers X,Y,Z, got '" + s + "'");
        }
        double[] v = new double[3];
        for (int k = 0; k < 3; k++) {
            try {
                v[k] = Double.parseDouble(p[k].trim());
            } catch (NumberFormatException e) {
                throw Check.usage(spec, option + ": '" + p[k] + "' is not a number");
            }
            if (!Double.isFinite(v[k])) {
                throw Check.usage(spec, option + ": coordinates must be finite, got '" + s + "'");
            }
        }
        return v;
    }

}
