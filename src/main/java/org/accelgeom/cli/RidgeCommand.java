package org.accelgeom.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DevicePool;
import org.accelgeom.engine.TornadoSupport;
import org.accelgeom.io.CurveFiles;
import org.accelgeom.io.Formats;
import org.accelgeom.io.PointCloud;
import org.accelgeom.ridge.Curve;
import org.accelgeom.ridge.Order;
import org.accelgeom.ridge.Precision;
import org.accelgeom.ridge.Quality;
import org.accelgeom.ridge.Ridge;
import org.accelgeom.ridge.RidgeOptions;
import org.accelgeom.ridge.RidgeResult;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code accelgeom ridge}: curve reconstruction from a noisy point cloud (Rupniewski's ridge detection). */
@Command(name = "ridge", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Reconstructs curves from a noisy point cloud of any dimension 1..16 (Rupniewski's ridge",
            "detection, brute force or tiled). Prints |S|, the iterations, the polylines and the time per phase;",
            "with --generate also the quality against the noise-free curve. --output writes the polylines (.ply",
            "edges, d <= 3, or .csv), --picture a PNG of the cloud and the curve."},
        footer = {"", "Examples:",
            "  accelgeom ridge --generate spiral2d --n 100000 --sigma 4.17 --r1 8.34 --picture spiral.png",
            "  accelgeom ridge --generate spiral3d --n 1000000 --tiled --backend tornado",
            "  accelgeom ridge --generate segment --dim 5 --n 200000 --sigma 2.17 --r1 3.689 --precision float",
            "  accelgeom ridge --generate spiral3d --save-points cloud.xyz --output first.ply",
            "  accelgeom ridge --input cloud.xyz --r1 8.34 --output curve.ply"})
final class RidgeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Mixin
    Generated generated;

    @Mixin
    Evolution evolution;

    @Mixin
    Tiling tiling;

    @Option(names = "--timings", description = "Print the time of each phase.")
    boolean timings;

    @Option(names = "--picture", paramLabel = "FILE.png", description = "Write a PNG of the cloud and the reconstructed curve.")
    Path picture;

    @Option(names = "--save-points", paramLabel = "FILE", description = "Also write the input points to FILE, format by extension.")
    Path savePoints;

    @Override
    public Integer call() throws Exception {
        return Batch.run(spec, common, "csv", this::one);
    }

    /** One input (or --random): the whole command, or one input of a batch. */
    private int one() {
        common.validate(spec);
        Precision prec = validate();
        boolean split = common.deviceList != null && common.deviceList.length > 1 && !Batch.active()
                && !WorkerProcesses.isChild(); // one input over several devices: its tiles split (TileSplit)
        if (split && !tiling.tiled) {
            throw usage("--devices " + common.devices + " on one input: " + Ridge.BRUTE_FORCE_UNSPLIT);
        }
        if (common.backend == Backend.TORNADO) {
            TornadoSupport.require();
        }
        if (SplitRidge.isChild()) {
            return SplitRidge.child(options(prec).execution()); // a worker process of a split: its part's evolution
        }
        Check.writable(common.output, picture, savePoints); // before the work, not after
        // one input over several devices in worker processes: they start now, beside the generation or the read
        String[] args = spec.root().commandLine().getParseResult().originalArgs().toArray(String[]::new);
        SplitRidge.Workers workers = split && SplitRidge.wanted(common) ? SplitRidge.Workers.start(common.deviceList, args)
                : null;
        try {
            return compute(prec, split, workers);
        } finally {
            if (workers != null) {
                workers.close();
            }
        }
    }

    /** The options of the command line (the cloud's tiles aside). */
    private RidgeOptions options(Precision prec) {
        RidgeOptions o = evolution.options(common.backend, generated.sigma, prec).withThreads(common.threads)
                .withDevice(common.device).withProgress(common.progress());
        return o.withExecution(o.execution().withTimings(RepeatOptions.level(timings)));
    }

    /** The detection of one input and its report; with {@code workers} its evolution split over their processes. */
    private int compute(Precision prec, boolean split, SplitRidge.Workers workers) {
        // TornadoVM starts (begun by Main) beside the generation or read and the host phases, until the evolution's
        // backend needs it; one input on several devices starts it in its pool or worker processes instead
        Prewarm warm = Prewarm.startIf(common.backend == Backend.TORNADO && !split);
        try {
            return compute(prec, split, workers, spec.commandLine().getOut());
        } finally {
            Prewarm.join(warm);
        }
    }

    private int compute(Precision prec, boolean split, SplitRidge.Workers workers, PrintWriter out) {
        Curve curve = generated.curve();
        PointCloud cloud;
        String source;
        if (curve != null) {
            cloud = new PointCloud(curve.sample(generated.n, generated.dim, generated.sigma, common.seed));
            source = String.format(Locale.ROOT, "%d samples of %s (sigma %s, seed %d)", generated.n, curve.id(),
                    num(generated.sigma), common.seed);
        } else {
            cloud = Formats.readPoints(common.input);
            source = "-".equals(common.input) ? "standard input" : common.input;
        }
        Check.finitePoints(source, cloud, prec == Precision.FLOAT, "ridge detection");
        if (savePoints != null) {
            Formats.writePoints(savePoints, cloud);
            out.printf(Locale.ROOT, "wrote %s (%d points)%n", savePoints, cloud.size());
        }
        RidgeOptions o = options(prec);
        if (tiling.tiled) {
            o = o.withTiles(tiling.counts(spec, cloud.dimension()), tiling.tileCapacity);
        }
        long t0 = System.nanoTime();
        RidgeResult r;
        try (DevicePool devices = split && workers == null ? MultiDevice.pool(common, o.execution()) : null) {
            r = workers != null ? workers.detect(cloud.coords(), o)
                    : devices != null ? Ridge.detect(cloud.coords(), o, devices) : Ridge.detect(cloud, o);
        } catch (OutOfMemoryError e) {
            throw new AccelGeomException("out of memory for " + cloud.size() + " points (max heap "
                    + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB): give the JVM more, e.g. ACCELGEOM_JAVA_OPTS=-Xmx16g");
        }
        long nanos = System.nanoTime() - t0;
        RidgeResult.Stats s = r.stats();
        out.printf(Locale.ROOT, "input:            %s%n", source);
        out.printf(Locale.ROOT, "points:           %d (dimension %d)%n", s.points(), r.dimension());
        out.printf(Locale.ROOT, "radii:            R1 = %s, R2 = %s%n", num(o.r1()), num(o.effectiveR2()));
        out.printf(Locale.ROOT, "version:          %s%n", tiling.tiled ? String.format(Locale.ROOT,
                "tiled: %d tiles, %d points with margins", s.tiles(), s.evolutionPoints()) : "brute force");
        out.printf(Locale.ROOT, "representatives:  %d chosen, %d after %d evolve+decimate rounds%n", s.chosen(), r.count(),
                s.outerIterations());
        out.printf(Locale.ROOT, "evolve:           %d iterations%s%n", s.evolveIterations(),
                s.capped() ? " (stopped at --max-iterations: not converged)" : "");
        if (r.curves() != null) {
            int closed = 0;
            for (Order.Polyline p : r.curves().polylines()) {
                closed += p.closed() ? 1 : 0;
            }
            out.printf(Locale.ROOT, "polylines:        %d (%d closed), %d edges%n", r.curves().polylines().size(), closed,
                    r.curves().edges().length);
        }
        if (curve != null) {
            Quality q = Quality.of(r.representatives(), r.count(), r.dimension(), curve);
            out.printf(Locale.ROOT, "distance to the noise-free curve: min %.4f, mean %.4f, median %.4f, max %.4f%n",
                    q.min(), q.mean(), q.median(), q.max());
            out.printf(Locale.ROOT, "Hausdorff:        S->curve %.4f, curve->S %.4f, symmetric %.4f%n", q.max(),
                    q.curveToResult(), q.hausdorff());
        }
        out.printf(Locale.ROOT, "total time:       %.3f ms%n", nanos / 1e6);
        out.printf(Locale.ROOT, "backend:          %s, %s%n", common.describeBackend(), prec.id());
        if (timings) {
            out.println("phases:");
            out.print(r.timings().format());
        }
        if (s.capped()) {
            spec.commandLine().getErr().println("accelgeom: warning: an evolve step did not converge within "
                    + evolution.maxIterations + " iterations (see docs/ridge.md); the result is the state at that point");
        }
        if (common.output != null) {
            CurveFiles.write(common.output, r.dimension(), r.representatives(), r.curves() == null ? null : r.curves().edges(),
                    polylines(r), closed(r));
            out.printf(Locale.ROOT, "wrote %s%n", common.output);
        }
        Path picture = Batch.perInput(this.picture);
        if (picture != null) {
            CurveFiles.picture(picture, cloud, r.dimension(), r.representatives(), polylines(r), closed(r));
            out.printf(Locale.ROOT, "wrote %s%n", picture);
        }
        out.flush();
        return 0;
    }

    private Precision validate() {
        boolean generating = generated.generate != null;
        if (generating && common.input != null) {
            throw usage("give either --input FILE or --generate CURVE, not both");
        }
        if (!generating && common.input == null) {
            throw usage("missing input: give --input FILE (or '-' for standard input) or --generate spiral2d|spiral3d|segment");
        }
        Check.onlyWith(spec, generating, "--generate", "--n", "--sigma", "--dim", "--seed");
        if (generating) {
            generated.validate(spec);
        }
        evolution.validate(spec, generating, generated.sigma);
        tiling.validate(spec);
        Check.extension(spec, "--picture", picture, false, "a picture", ".png");
        Check.extension(spec, "--output", common.output, false, "the curve", ".ply", ".csv");
        Check.extension(spec, "--save-points", savePoints, true, "points", ".ply", ".csv", ".xyz", ".txt", ".pts");
        return evolution.precision(spec);
    }

    private ParameterException usage(String message) {
        return Check.usage(spec, message);
    }

    private static String num(double v) {
        return Check.num(v);
    }

    /** The points of each polyline of the result's order, or null without an order (for {@link CurveFiles}). */
    private static int[][] polylines(RidgeResult r) {
        return r.curves() == null ? null : r.curves().polylines().stream().map(Order.Polyline::points).toArray(int[][]::new);
    }

    /** Whether each polyline of the result's order closes, or null without an order. */
    private static boolean[] closed(RidgeResult r) {
        if (r.curves() == null) {
            return null;
        }
        List<Order.Polyline> lines = r.curves().polylines();
        boolean[] c = new boolean[lines.size()];
        for (int l = 0; l < c.length; l++) {
            c[l] = lines.get(l).closed();
        }
        return c;
    }

    /** {@code --generate} and the generator's parameters: a noisy sample of a known curve instead of a file. */
    static final class Generated {

        @Option(names = "--generate", paramLabel = "CURVE",
                description = "Use generated noisy samples of spiral2d, spiral3d or segment instead of --input.")
        String generate;

        @Option(names = "--n", paramLabel = "N", defaultValue = "100000", description = "Generated points (default: ${DEFAULT-VALUE}).")
        int n;

        @Option(names = "--sigma", paramLabel = "S", defaultValue = "4.17",
                description = "Spread of the generated noise (default: ${DEFAULT-VALUE}, the thesis's Fig. 3.14).")
        double sigma;

        @Option(names = "--dim", paramLabel = "D", defaultValue = "2", description = "Dimension of a generated segment (default: ${DEFAULT-VALUE}).")
        int dim;

        /** The curve of {@code --generate}, or null without it (read a file). */
        Curve curve() {
            return generate == null ? null : Curve.parse(generate);
        }

        /** The curve's name and the generator's parameters in range (usage errors). */
        void validate(CommandSpec spec) {
            try {
                Curve.parse(generate);
            } catch (IllegalArgumentException e) {
                throw Check.usage(spec, e.getMessage());
            }
            Check.atLeast(spec, "--n", n, 3);
            Check.interval(spec, "--sigma", sigma, 0, true, Double.POSITIVE_INFINITY, false);
            if (dim < 1 || dim > Ridge.MAX_DIMENSION) {
                throw Check.usage(spec, "--dim must be 1.." + Ridge.MAX_DIMENSION + ", got " + dim);
            }
        }
    }

    /** The evolution's parameters: the radii R1 and R2, the scalar type, the iteration cap, the order step. */
    static final class Evolution {

        @Option(names = "--r1", paramLabel = "R1",
                description = "R1: choose radius and evolution ball (default with --generate: 2·sigma, as the thesis).")
        Double r1;

        @Option(names = "--r2", paramLabel = "R2", description = "R2: decimation and order radius (default: 2·R1).")
        Double r2;

        @Option(names = "--precision", paramLabel = "P", defaultValue = "double",
                description = "Scalar type of the evolution: float or double (default: ${DEFAULT-VALUE}).")
        String precision;

        @Option(names = "--max-iterations", paramLabel = "K", defaultValue = "10000",
                description = "Stop an evolve step after K iterations if it has not converged (default: ${DEFAULT-VALUE}).")
        int maxIterations;

        @Option(names = "--no-order", description = "Skip order (Alg. 4): no polylines, as in the thesis's timings.")
        boolean noOrder;

        /** Usage errors: R1 missing for a file or not derivable from --sigma, radii not positive, no iterations. */
        void validate(CommandSpec spec, boolean generating, double sigma) {
            if (!generating && r1 == null) {
                throw Check.usage(spec, "missing --r1: the evolution radius must be given for a point file");
            }
            if (r1 != null) {
                Check.interval(spec, "--r1", r1, 0, false, Double.POSITIVE_INFINITY, false);
            }
            if (r1 == null && !(sigma > 0)) {
                throw Check.usage(spec, "--sigma 0 gives no default R1: give --r1");
            }
            if (r2 != null) {
                Check.interval(spec, "--r2", r2, 0, false, Double.POSITIVE_INFINITY, false);
            }
            if (maxIterations < 1) {
                throw Check.usage(spec, "--max-iterations must be at least 1, got " + maxIterations);
            }
        }

        /** The scalar type of {@code --precision} (a usage error if unknown). */
        Precision precision(CommandSpec spec) {
            try {
                return Precision.parse(precision);
            } catch (IllegalArgumentException e) {
                throw Check.usage(spec, e.getMessage());
            }
        }

        /** Ridge options on {@code backend} with these parameters; R1 defaults to 2 sigma, as the thesis. */
        RidgeOptions options(Backend backend, double sigma, Precision prec) {
            RidgeOptions o = RidgeOptions.of(backend, r1 != null ? r1 : 2 * sigma).withPrecision(prec).withOrder(!noOrder)
                    .withMaxIterations(maxIterations);
            return r2 != null ? o.withR2(r2) : o;
        }
    }

    /** {@code --tiled} and the tiling's parameters (the thesis's extended tiles). */
    static final class Tiling {

        @Option(names = "--tiled", description = "The tiled version (extended tiles, hybrid detection) instead of brute force.")
        boolean tiled;

        @Option(names = "--tiles", paramLabel = "K[,K...]",
                description = "Tiled: initial tiles per dimension, one number for all or one per dimension (default: 3).")
        String tiles;

        @Option(names = "--tile-capacity", paramLabel = "M", defaultValue = "200000",
                description = "Tiled: a tile with more points is halved (default: ${DEFAULT-VALUE}).")
        int tileCapacity;

        /** Usage errors: a capacity under 2, {@code --tiles} without {@code --tiled}. */
        void validate(CommandSpec spec) {
            if (tileCapacity < 2) {
                throw Check.usage(spec, "--tile-capacity must be at least 2, got " + tileCapacity);
            }
            if (tiles != null && !tiled) {
                throw Check.usage(spec, "--tiles needs --tiled");
            }
        }

        /** The initial tiles per dimension of {@code --tiles} for dimension d, or null for the default. */
        int[] counts(CommandSpec spec, int d) {
            if (tiles == null) {
                return null;
            }
            String[] parts = tiles.split(",");
            if (parts.length != 1 && parts.length != d) {
                throw Check.usage(spec, "--tiles needs 1 or " + d + " numbers (one per dimension), got " + parts.length);
            }
            int[] cnt = new int[d];
            for (int c = 0; c < d; c++) {
                String v = parts[parts.length == 1 ? 0 : c].strip();
                try {
                    cnt[c] = Integer.parseInt(v);
                } catch (NumberFormatException e) {
                    throw Check.usage(spec, "--tiles: '" + v + "' is not a whole number");
                }
                if (cnt[c] < 1) {
                    throw Check.usage(spec, "--tiles: counts must be at least 1, got " + cnt[c]);
                }
            }
            return cnt;
        }
    }
}
