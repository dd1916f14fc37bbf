package org.accelgeom.cli;

import org.accelgeom.io.Formats;
import org.accelgeom.io.MeshPicture;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.TornadoSupport;
import org.accelgeom.hull.Hull;
import org.accelgeom.hull.HullOptions;
import org.accelgeom.hull.HullResult;
import org.accelgeom.hull.PartitionedHull;
import org.accelgeom.hull.RandomPoints;
import org.accelgeom.io.Mesh;
import org.accelgeom.io.PointCloud;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code accelgeom hull}: the exact 3D convex hull of a file's points or of random points. */
@Command(name = "hull", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The exact 3D convex hull (parallel QuickHull) of the points of a file or of random points.",
            "Prints the counts and the time; --output writes the hull as a mesh, --picture as a PNG."},
        footer = {"", "Examples:",
            "  accelgeom hull --random 1000000 --distribution ball --backend jvm-parallel",
            "  accelgeom hull --input data/points/kitten.xyz --output hull.ply --timings",
            "  accelgeom hull --random 1000000 --backend tornado --device 0 --repeat 5"})
final class HullCommand implements Callable<Integer> {

    /** At most this many points are drawn in a --picture. */
    static final int PICTURE_POINTS = 20_000;

    /** More culling directions than this cost more than they cull. */
    static final int MAX_CULL_DIRECTIONS = 1024;

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Option(names = "--random", paramLabel = "N", description = "Use N random points instead of --input.")
    Integer random;

    @Option(names = "--distribution", paramLabel = "D", defaultValue = "ball",
            description = "Distribution of --random: cube, ball, sphere or gauss (default: ${DEFAULT-VALUE}).")
    String distribution;

    @Option(names = "--cull-directions", paramLabel = "K", defaultValue = "" + HullOptions.DEFAULT_CULL_DIRECTIONS,
            description = "Directions of the interior-culling polytope, 0..1024; 0 turns culling off (default: ${DEFAULT-VALUE}).")
    int cullDirections;

    @Option(names = "--picture", paramLabel = "FILE.png", description = "Write a PNG picture of the hull and a sample of the points.")
    Path picture;

    @Option(names = "--save-points", paramLabel = "FILE",
            description = "Also write the input points (e.g. the generated ones) to FILE, format by extension.")
    Path savePoints;

    @Option(names = "--repeat", paramLabel = "R", defaultValue = "1",
            description = "Compute the hull R times and report each time (shows JIT warm-up).")
    int repeat;

    @Option(names = "--timings", description = "Print the time of each phase.")
    boolean timings;

    @Override
    public Integer call() throws Exception {
        return Batch.run(spec, common, "ply", new Batch.InFlight() {
            @Override
            public int inFlight() {
                return inputsInFlight();
            }

            @Override
            public long footprint(Path input) {
                return HullCommand.footprint(input);
            }

            @Override
            public Callable<Batch.Body> start() {
                return one();
            }
        });
    }

    /**
     * How many inputs of a batch are in flight at once ({@code accelgeom.batch.inFlight}, default 3): each reads its
     * file (the parallel reader), computes and writes its result beside the others, on jvm-parallel sharing the
     * cores (the readers' blocks and the hull's loops run on the common pool), on tornado taking turns on the device
     * ({@link Batch.Lease#exclusive}), so that reading, which bounds a batch of 10^6-point text files, overlaps the
     * computation. 1 on jvm (one thread), with --repeat, --random and --save-points (one file for every input: the
     * last input's, as one at a time).
     */
    int inputsInFlight() {
        if (repeat > 1 || random != null || savePoints != null || common.backend == Backend.JVM) {
            return 1;
        }
        int set = org.accelgeom.engine.Tuning.BATCH_IN_FLIGHT.intValue();
        return set > 0 ? set : 3;
    }

    /**
     * The heap an input may need at its peak, from its file's size: its points (text: about 60 bytes a point, binary
     * 12-24), the hull's arrays over them (a few ints and doubles a point) and the mapped text's blocks; ten times the
     * file is on the safe side for binary floats, generous for text.
     */
    static long footprint(Path input) {
        try {
            return 10 * java.nio.file.Files.size(input);
        } catch (java.io.IOException e) {
            return 0;
        }
    }

    /**
     * One input (or --random), the whole command or one input of a batch, in two parts: the checks and this input's
     * paths, here, and the work it returns (read, compute, write), whose report is printed in input order.
     */
    private Callable<Batch.Body> one() {
        common.validate(spec);
        validate();
        if (common.backend == Backend.TORNADO) {
            TornadoSupport.require(); // the one-line how-to, before any work
        }
        Check.writable(common.output, picture, savePoints); // before the work, not after
        PrintWriter out = spec.commandLine().getOut();
        // what the work needs, taken now: in a batch, the options' input and output are the next input's by then
        String input = common.input;
        Path output = common.output;
        Path picture = Batch.perInput(this.picture);
        HullOptions given = HullOptions.of(common.backend).withCullDirections(cullDirections).withThreads(common.threads)
                .withDevice(common.device).withProgress(common.progress())
                .withResident(repeat > 1); // the same points each time: keep them and the kernels on the device
        HullOptions options = given.withExecution(given.execution().withTimings(RepeatOptions.level(timings)));
        boolean buffered = Batch.active() && inputsInFlight() > 1; // beside other inputs: the report waits its turn
        // one file outside a batch, one device: its plan may compile ahead while the file is read
        boolean ahead = random == null && !Batch.active() && Batch.ASSIGNED.get() == null && common.deviceList == null;
        Batch.Lease lease = Batch.session(options.execution()); // --repeat: one plan, one pool; a batch's session
        return () -> {
            try (lease) {
                return Batch.reported(out, buffered, o -> one(input, output, picture, options, ahead, lease, o));
            }
        };
    }

    /** Reads (or generates), computes and writes one input; its report goes to {@code out}. */
    private int one(String input, Path output, Path picture, HullOptions options, boolean ahead, Batch.Lease batchLease,
            PrintWriter out) {
        Timeline.markProcess("command line, options checked");
        if (SplitHull.isChild()) {
            return SplitHull.child(this, input, options); // a worker process of a split: its part, for its parent
        }
        if (SplitHull.wanted(common, input)) {
            return SplitHull.parent(this, input, output, picture, options, out); // --devices: one process per part
        }

        // TornadoVM starts (begun by Main) and the hull's plan compiles while the points are read or generated
        Prewarm warm = Prewarm.startIf(common.backend == Backend.TORNADO);
        // the points once read and checked: the plan built ahead loads them if they are there by then
        var checked = new java.util.concurrent.atomic.AtomicReference<double[][]>();
        DeviceSession prepared = ahead ? prepare(warm, input, options, checked::get) : null;
        String source;
        PointCloud points;
        try {
            if (random != null) {
                points = generate(distribution, random, common.seed);
                source = String.format(Locale.ROOT, "%d random points (%s, seed %d)", random, distribution, common.seed);
                Timeline.markProcess("generating the points");
            } else {
                try (var tick = org.accelgeom.engine.Progress.ticker(common.quiet, "reading " + input)) {
                    points = Prewarm.read(warm, input, () -> readPoints(input), prepared != null);
                }
                source = "-".equals(input) ? "standard input" : input;
                Timeline.markProcess("reading the input");
                org.accelgeom.hull.StartTrace.mark("the input read");
            }
            if (points.dimension() != 3) {
                throw new AccelGeomException(source + ": the points have " + points.dimension() + " coordinate"
                        + (points.dimension() == 1 ? "" : "s") + " each; the convex hull needs 3D points (x y z)");
            }
            Check.finitePoints(source, points, false, "the convex hull");
            checked.set(points.coords());
            Timeline.markProcess("checking the coordinates");
        } catch (RuntimeException | Error e) {
            if (prepared != null) {
                warm.discard(prepared); // a bad input does not wait for the compile ahead
            }
            throw e;
        }
        if (prepared != null && warm.busy() && org.accelgeom.engine.Tuning.PREWARM_JIT.booleanValue()) {
            // the host's hull code compiled while the plan is still on its way: again while it is (each run warmer, the
            // JIT's profiles fuller), at most accelgeom.prewarm.jitRuns times
            int runs = 0;
            do {
                org.accelgeom.hull.HullWarmUp.run();
                runs++;
            } while (warm.busy() && runs < org.accelgeom.engine.Tuning.PREWARM_JIT_RUNS.intValue());
            org.accelgeom.hull.StartTrace.mark("the host's hull code warmed up (" + runs + " runs)");
            Timeline.markProcess("warming up the host's hull code (JIT) while the plan is built");
        }
        Prewarm.join(warm);
        org.accelgeom.hull.StartTrace.mark("the background start and plan joined");
        Timeline.markProcess(prepared != null ? "waiting for the background TornadoVM start and plan"
                : "waiting for the background TornadoVM start");
        if (savePoints != null) {
            try {
                Formats.writePoints(savePoints, points);
            } catch (RuntimeException | Error e) {
                if (prepared != null) {
                    prepared.close(); // its plan's device memory
                }
                throw e;
            }
            out.printf(Locale.ROOT, "wrote %s (%d points)%n", savePoints, points.size());
            Timeline.markProcess("writing --save-points");
        }

        HullResult r = null;
        long nanos = 0;
        try (Batch.Lease lease = prepared != null ? new Batch.Lease(prepared, true, new Object()) // compiled ahead
                : batchLease; // closed here too (a second close does nothing): the session goes before the printing
                var devices = MultiDevice.pool(common, options.execution())) { // --devices: split over them
            DeviceSession session = lease.session();
            for (int run = 1; run <= repeat; run++) {
                long t0 = System.nanoTime();
                r = devices != null ? PartitionedHull.compute(points, options.withResident(false), devices)
                        : lease.exclusive(() -> compute(points, options, session));
                nanos = System.nanoTime() - t0;
                if (repeat > 1) {
                    out.printf(Locale.ROOT, "run %d/%d: %10.3f ms (%d hull vertices)%n", run, repeat, nanos / 1e6,
                            r.vertices().length);
                    out.flush();
                }
            }
            Timeline.markProcess("computing the hull", String.format(Locale.ROOT, "(its phase table: %.1f ms)",
                    r.timings().total() / 1e6));
        }
        Timeline.markProcess("closing the device session");
        PointCloud all = points;
        HullResult hull = r;
        return finish(out, source, r, nanos, () -> hull.toMesh(all), points, output, picture);
    }

    /**
     * Prints a computed hull's report and writes its files: the one-device run's and the split's ({@link SplitHull},
     * whose {@code points} are null unless --picture asked for them).
     */
    int finish(PrintWriter out, String source, HullResult r, long nanos, java.util.function.Supplier<Mesh> meshOf,
            PointCloud points, Path output, Path picture) {
        HullResult.Stats s = r.stats();
        out.printf(Locale.ROOT, "input:            %s%n", source);
        out.printf(Locale.ROOT, "points:           %d%n", s.points());
        out.printf(Locale.ROOT, "dimension:        %d%s%n", r.dimension(), degenerate(r.dimension()));
        out.printf(Locale.ROOT, "hull vertices:    %d%n", r.vertices().length);
        out.printf(Locale.ROOT, "facets:           %d%s%n", r.facetCount(),
                r.dimension() == 3 ? " (" + r.triangleCount() + " triangles)" : "");
        out.printf(Locale.ROOT, "culled points:    %d (%.1f%%)%n", s.culled(), s.points() == 0 ? 0.0 : 100.0 * s.culled() / s.points());
        out.printf(Locale.ROOT, "rounds:           %d%n", s.rounds());
        out.printf(Locale.ROOT, "exact fallbacks:  %d%n", s.exactFallbacks());
        out.printf(Locale.ROOT, "total time:       %.3f ms%s%n", nanos / 1e6, repeat > 1 ? " (last run)" : "");
        out.printf(Locale.ROOT, "backend:          %s%n", common.describeBackend());
        if (timings) {
            out.println("phases:");
            out.print(r.timings().format());
        }
        out.flush();
        Timeline.markProcess("printing the results");

        if (output != null || picture != null) {
            Mesh mesh = meshOf.get();
            if (output != null) {
                Formats.writeMesh(output, mesh);
                out.printf(Locale.ROOT, "wrote %s (%d vertices, %d faces)%n", output, mesh.vertexCount(), mesh.faceCount());
            }
            if (picture != null) {
                writePicture(picture, mesh, points);
                out.printf(Locale.ROOT, "wrote %s%n", picture);
            }
            Timeline.markProcess("writing the output");
        }
        out.flush();
        return 0;
    }

    /**
     * Queues the compile ahead of the hull's plan on {@code warm}'s thread, in a session of its own that the run then
     * uses (one input outside a batch, on one device, with a point count guessed from the file); null when not.
     */
    private DeviceSession prepare(Prewarm warm, String input, HullOptions options,
            java.util.function.Supplier<double[][]> checked) {
        if (warm == null || !org.accelgeom.engine.Tuning.PREWARM_PLAN.booleanValue()) {
            return null;
        }
        long guess = PointCountGuess.points(input);
        if (guess <= 0) {
            return null;
        }
        DeviceSession session = DeviceSession.open(options.execution());
        int points = (int) Math.min(guess, org.accelgeom.engine.Capacity.MAX / 2);
        Runnable plan; // the plan's host arrays start now, beside TornadoVM's start and the read
        try {
            var factory = session.tornado(org.accelgeom.hull.HullBackend.Factory.class);
            plan = org.accelgeom.engine.Tuning.PREWARM_ARRAYS.booleanValue()
                    ? factory.prepareAhead(session, points, org.accelgeom.engine.Tuning.PREWARM_POINTS.booleanValue()
                            ? checked : null)
                    : () -> factory.prepare(session, points);
        } catch (RuntimeException | LinkageError e) {
            return session; // the run meets the same problem and reports it in one line
        }
        warm.prepare(plan);
        return session;
    }

    private void validate() {
        if (random != null && common.input != null) {
            throw usage("give either --input FILE or --random N, not both");
        }
        if (random == null && common.input == null) {
            throw usage("missing input: give --input FILE (or '-' for standard input) or --random N");
        }
        if (random != null) {
            Check.atLeast(spec, "--random", random, 0);
        }
        distribution = Check.oneOf(spec, "--distribution", distribution, "cube", "ball", "sphere", "gauss");
        Check.onlyWith(spec, random != null, "--random", "--distribution", "--seed");
        Check.range(spec, "--cull-directions", cullDirections, 0, MAX_CULL_DIRECTIONS);
        Check.atLeast(spec, "--repeat", repeat, 1);
        Check.extension(spec, "--picture", picture, false, "a picture", ".png");
        Check.extension(spec, "--output", common.output, true, "the hull (a mesh)", ".ply", ".obj", ".off");
        Check.extension(spec, "--save-points", savePoints, true, "points", ".ply", ".csv", ".xyz", ".txt", ".pts");
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    static PointCloud generate(String distribution, int n, long seed) {
        return switch (distribution) {
            case "cube" -> RandomPoints.cube(n, seed);
            case "ball" -> RandomPoints.ball(n, seed);
            case "sphere" -> RandomPoints.sphere(n, seed);
            case "gauss" -> RandomPoints.gauss(n, seed);
            default -> throw new IllegalArgumentException(distribution);
        };
    }

    private static String degenerate(int dimension) {
        return switch (dimension) {
            case -1 -> " (empty: no points, the hull is empty)";
            case 0 -> " (a point: all points are equal, the hull is one point)";
            case 1 -> " (a segment: all points collinear, the hull is a segment)";
            case 2 -> " (flat: all points coplanar, the hull is a polygon)";
            default -> "";
        };
    }

    private static HullResult compute(PointCloud points, HullOptions options, DeviceSession session) {
        try {
            return Hull.compute(points, options, session);
        } catch (OutOfMemoryError e) {
            throw new AccelGeomException("out of memory for " + points.size() + " points (max heap "
                    + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB): give the JVM more, e.g. ACCELGEOM_JAVA_OPTS=-Xmx16g");
        }
    }

    private static PointCloud readPoints(String pathOrDash) {
        return Formats.readPoints(pathOrDash);
    }

    /** The one place that draws the hull: shaded facets, a sample of the points, hull vertices highlighted. */
    private static void writePicture(Path file, Mesh hull, PointCloud points) {
        new MeshPicture(800, 800).wireframe(true).maxPoints(PICTURE_POINTS).points(points, null).writePng(file, hull);
    }
}
