package org.accelgeom.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.TornadoSupport;
import org.accelgeom.io.Formats;
import org.accelgeom.kdtree.KdTreeBuilder;
import org.accelgeom.kdtree.KdTreeOptions;
import org.accelgeom.kdtree.KdTreeResult;
import org.accelgeom.kdtree.Scenes;
import org.accelgeom.kdtree.Triangles;
import org.accelgeom.kdtree.zhou.ZhouBuilder;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code accelgeom kdtree}: SAH kd-trees over triangle meshes. */
@Command(name = "kdtree", mixinStandardHelpOptions = true, description = "SAH kd-trees over triangles (Wald & Havran 2006).",
        subcommands = {KdTreeCommand.Build.class})
final class KdTreeCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "missing command: choose build");
    }

    /** The mesh options shared by {@code kdtree build} and {@code render}. */
    static final class TreeOptions {
        @Option(names = "--scene", paramLabel = "SPEC",
                description = "A generated scene instead of --input: random:N (N random triangles) or sphere:N.")
        String scene;

        @Option(names = "--variant", paramLabel = "V", defaultValue = "nlog2n",
                description = "jvm builder: nlog2n (events sorted at every node, the thesis's) or nlogn (sorted once) "
                        + "(default: ${DEFAULT-VALUE}); both give the same tree.")
        String variant;

        @Option(names = "--kt", paramLabel = "K_T", defaultValue = "15", description = "Cost of a traversal step (default: ${DEFAULT-VALUE}, Wald & Havran).")
        double kT;

        @Option(names = "--ki", paramLabel = "K_I", defaultValue = "20", description = "Cost of a ray-triangle test (default: ${DEFAULT-VALUE}, Wald & Havran).")
        double kI;

        @Option(names = "--lambda", paramLabel = "L", defaultValue = "0.8", description = "Empty-space bonus, in (0, 1] (default: ${DEFAULT-VALUE}).")
        double lambda;

        @Option(names = "--max-depth", paramLabel = "D", defaultValue = "0",
                description = "Maximum depth, 0.." + KdTreeOptions.MAX_DEPTH_LIMIT + " (default 0: 8 + 1.3 log2 N, pbrt's rule).")
        int maxDepth;

        @Option(names = "--device-min-refs", paramLabel = "N", defaultValue = "65536",
                description = "tornado: nodes with fewer triangle references are split on the host (default: ${DEFAULT-VALUE}).")
        int deviceMinRefs;

        @Option(names = "--binned", paramLabel = "N", defaultValue = "0",
                description = "Binned SAH (32 bins per axis) for nodes of at least N references, exact below "
                        + "(default: ${DEFAULT-VALUE}, exact everywhere).")
        int binned;

        /** The largest generated scene: its 9 floats per triangle must fit one Java array. */
        static final int MAX_SCENE = 200_000_000;

        /** Every tree option in range, and exactly one of --input and --scene (usage errors, before any work). */
        void validate(CommandSpec spec, CommonOptions common) {
            if ((scene == null) == (common.input == null)) {
                throw Check.usage(spec, "give either --input MESH or --scene SPEC (random:N or sphere:N)");
            }
            if (scene != null) {
                int colon = scene.indexOf(':');
                String kind = colon < 0 ? scene : scene.substring(0, colon);
                long n;
                try {
                    n = Long.parseLong(scene.substring(colon + 1).strip());
                } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
                    n = -1;
                }
                if (colon < 0 || !(kind.equals("random") || kind.equals("sphere")) || n < 1 || n > MAX_SCENE) {
                    throw Check.usage(spec, "bad --scene '" + scene + "': expected random:N or sphere:N with N in 1.."
                            + MAX_SCENE);
                }
            }
            variant = Check.oneOf(spec, "--variant", variant, "nlog2n", "nlogn");
            Check.onlyWith(spec, scene != null, "--scene", "--seed");
            Check.interval(spec, "--kt", kT, 0, false, Double.POSITIVE_INFINITY, false);
            Check.interval(spec, "--ki", kI, 0, false, Double.POSITIVE_INFINITY, false);
            Check.interval(spec, "--lambda", lambda, 0, false, 1, true);
            Check.range(spec, "--max-depth", maxDepth, 0, KdTreeOptions.MAX_DEPTH_LIMIT);
            Check.atLeast(spec, "--device-min-refs", deviceMinRefs, 1);
            Check.atLeast(spec, "--binned", binned, 0);
        }

        KdTreeOptions options(CommonOptions common, Backend backend) {
            KdTreeOptions.Variant v = switch (variant.toLowerCase(Locale.ROOT)) {
                case "nlog2n" -> KdTreeOptions.Variant.NLOG2N;
                case "nlogn" -> KdTreeOptions.Variant.NLOGN;
                default -> throw new AccelGeomException("unknown --variant '" + variant + "': expected nlog2n or nlogn");
            };
            return new KdTreeOptions(backend, v, kT, kI, lambda, maxDepth, common.threads, common.device, deviceMinRefs, binned);
        }

        /** The triangles of --input or --scene, and a one-line description of where they came from. */
        Triangles triangles(CommonOptions common, String[] source) {
            if ((scene == null) == (common.input == null)) {
                throw new AccelGeomException("give either --input MESH or --scene SPEC (random:N or sphere:N)");
            }
            if (scene != null) {
                source[0] = scene + " (seed " + common.seed + ")";
                return Triangles.of(Scenes.named(scene, common.seed));
            }
            source[0] = common.input;
            return Triangles.of(Formats.readMesh(common.input));
        }
    }

    @Command(name = "build", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Builds the exact SAH kd-tree of a mesh (OBJ, PLY, OFF) or a generated scene and prints its "
                + "statistics and the time per phase.",
                "--steps R instead times the thesis's per-node kernels on the root node R times (its Table 6.1)."},
            footer = {"", "Examples:",
                "  accelgeom kdtree build --input data/meshes/bunny.obj --backend jvm-parallel",
                "  accelgeom kdtree build --scene random:1000000 --backend tornado --timings",
                "  accelgeom kdtree build --scene random:1000000 --backend jvm --steps 5",
                "  accelgeom kdtree build --input data/meshes/dragon_vrip.ply.gz --builder zhou --backend tornado --repeat 5"})
    static final class Build implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        CommonOptions common;

        @Mixin
        TreeOptions tree;

        @Option(names = "--builder", paramLabel = "B", defaultValue = "exact",
                description = "exact (Wald & Havran's event SAH at every node) or zhou (breadth-first levels with binned "
                        + "SAH for nodes of more than --small references, exact SAH below; Zhou et al. 2008) "
                        + "(default: ${DEFAULT-VALUE}).")
        String builder;

        @Option(names = "--small", paramLabel = "N", defaultValue = "" + ZhouBuilder.DEFAULT_SMALL,
                description = "zhou builder: nodes of at most N references are built by the exact SAH (default: ${DEFAULT-VALUE}).")
        int small;

        @Option(names = "--small-stage", paramLabel = "S", defaultValue = "bitmask",
                description = "zhou builder: how nodes of at most --small (<= 64) references are built: bitmask (Zhou et al.'s "
                        + "small-node stage on the backend, all small nodes level by level with 64-bit reference masks and SAH "
                        + "from popcounts, boxes clipped to each node), zhou-masks (the same with Zhou et al.'s masks "
                        + "precomputed over the small roots' boxes, no clipping) or exact (the exact event SAH with perfect "
                        + "splits on the host) (default: ${DEFAULT-VALUE}).")
        String smallStage;

        @Mixin
        RepeatOptions runs;

        @Option(names = "--steps", paramLabel = "R", description = "Time the per-node kernels on the root node R times instead of building.")
        Integer steps;

        @Override
        public Integer call() throws Exception {
            return Batch.run(spec, common, null, this::one);
        }

        /** One input (or --random): the whole command, or one input of a batch. */
        private int one() {
            common.validate(spec);
            tree.validate(spec, common);
            runs.validate(spec);
            if (steps != null) {
                Check.atLeast(spec, "--steps", steps, 1);
            }
            builder = Check.oneOf(spec, "--builder", builder, "exact", "zhou");
            smallStage = Check.oneOf(spec, "--small-stage", smallStage, "bitmask", "zhou-masks", "exact");
            Check.atLeast(spec, "--small", small, 1);
            Check.onlyWith(spec, builder.equals("zhou"), "--builder zhou", "--small", "--small-stage");
            Check.onlyWith(spec, builder.equals("exact"), "--builder exact", "--variant");
            if (builder.equals("zhou") && steps != null) {
                throw Check.usage(spec, "--steps times the exact builder's per-node kernels: not with --builder zhou");
            }
            if (common.output != null) {
                throw Check.usage(spec, "kdtree build writes no file (the tree lives in memory; 'accelgeom render "
                        + "--output FILE.png' draws it): leave out --output");
            }
            if (common.backend == Backend.TORNADO) {
                TornadoSupport.require();
            }
            PrintWriter out = spec.commandLine().getOut();
            KdTreeOptions o = tree.options(common, common.backend);
            o = o.withExecution(o.execution().withTimings(runs.level()));
            boolean zhou = switch (builder.toLowerCase(Locale.ROOT)) {
                case "exact" -> false;
                case "zhou" -> true;
                default -> throw new AccelGeomException("unknown --builder '" + builder + "': expected exact or zhou");
            };
            ZhouBuilder.SmallStage stage = switch (smallStage.toLowerCase(Locale.ROOT)) {
                case "bitmask" -> ZhouBuilder.SmallStage.BITMASK;
                case "zhou-masks" -> ZhouBuilder.SmallStage.ZHOU_MASKS;
                case "exact" -> ZhouBuilder.SmallStage.EXACT;
                default -> throw new AccelGeomException("unknown --small-stage '" + smallStage
                        + "': expected bitmask, zhou-masks or exact");
            };
            String[] source = new String[1];
            Triangles t;
            try (var tick = org.accelgeom.engine.Progress.ticker(common.quiet, "reading " + (common.input != null ? common.input : tree.scene))) {
                t = tree.triangles(common, source);
            }
            out.printf(Locale.ROOT, "input:        %s%n", source[0]);
            out.printf(Locale.ROOT, "triangles:    %d (skipped %d degenerate: %d zero-area, %d non-finite)%n", t.count(),
                    t.skipped(), t.zeroArea(), t.nonFinite());
            out.printf(Locale.ROOT, "backend:      %s%n", common.describeBackend());
            if (steps != null) {
                PhaseTimings p = KdTreeBuilder.rootSteps(t, o, steps);
                out.printf(Locale.ROOT, "root-node kernels, %d runs (totals; divide by %d for one run):%n", steps, steps);
                out.print(p.format());
                out.flush();
                return 0;
            }
            KdTreeResult r = null;
            long nanos = 0;
            try (Batch.Lease lease = Batch.session(o.execution())) { // --repeat: the plans are kept
                DeviceSession session = lease.session();
                for (int run = 1; run <= runs.repeat; run++) {
                    long t0 = System.nanoTime();
                    try (var tick = org.accelgeom.engine.Progress.ticker(common.quiet, "kd-tree build (" + builder + ", " + t.count() + " triangles)")) {
                        r = zhou ? ZhouBuilder.build(t, o, small, stage, session) : KdTreeBuilder.build(t, o, session);
                    }
                    // the construction: without the statistics pass the builders run before they return
                    nanos = System.nanoTime() - t0 - r.statisticsNanos();
                    if (runs.repeat > 1) {
                        out.printf(Locale.ROOT, "run %d/%d: %10.3f ms%n", run, runs.repeat, nanos / 1e6);
                        out.flush();
                    }
                }
            }
            out.printf(Locale.ROOT, "builder:      %s%n", r.builder());
            out.printf(Locale.ROOT, "costs:        K_T %s, K_I %s, lambda %s, depth limit %d%n", o.kT(), o.kI(), o.lambda(),
                    o.depthLimit(t.count()));
            out.printf(Locale.ROOT, "tree:         %s%n", r.stats().format());
            out.printf(Locale.ROOT, "memory:       %.1f MiB (8 bytes per node + leaf lists)%n", r.tree().bytes() / 1048576.0);
            out.printf(Locale.ROOT, "build time:   %.3f ms%s (without the statistics pass, %.3f ms)%n", nanos / 1e6,
                    runs.repeat > 1 ? " (last run)" : "", r.statisticsNanos() / 1e6);
            if (runs.timings) {
                out.println("phases:");
                out.print(r.timings().format());
            }
            out.flush();
            return 0;
        }
    }
}
