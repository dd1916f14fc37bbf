package org.accelgeom.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.Progress;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.TornadoSupport;
import org.accelgeom.io.Formats;
import org.accelgeom.io.Molecule;
import org.accelgeom.io.NoSuchModelException;
import org.accelgeom.io.VoronoiFiles;
import org.accelgeom.voronoi.AtomBalls;
import org.accelgeom.voronoi.Voronoi;
import org.accelgeom.voronoi.VoronoiOptions;
import org.accelgeom.voronoi.VoronoiResult;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code accelgeom voronoi}: the additively weighted Voronoi diagram of a molecule's atoms. */
@Command(name = "voronoi", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The additively weighted (Apollonius) Voronoi diagram of the atom balls of a molecule, by edge",
            "tracing. Input: PDB, mmCIF, PQR or XYZR. Prints counts and times; --output writes the vertices in",
            "Voronota's 'q1 q2 q3 q4 x y z r' format, --edges the edges as .json or .csv."},
        footer = {"", "Examples:",
            "  accelgeom voronoi --input data/molecules/1ubq.pdb --output 1ubq.vertices --backend jvm-parallel",
            "  accelgeom voronoi --input data/molecules/4hhb.pdb --hetatm --edges 4hhb-edges.csv --timings",
            "  accelgeom voronoi --input data/molecules/3o21.pdb --backend tornado --precision two-phase --repeat 3",
            "  accelgeom voronoi --random 20000 --save-balls r20k.xyzr --backend jvm-parallel"})
final class VoronoiCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Option(names = "--model", paramLabel = "N", defaultValue = "1", description = "Model of a multi-model file, from 1 (default: 1).")
    int model;

    @Option(names = "--all-models", description = "Every model of the file (a batch, several at once: "
            + "accelgeom.voronoi.framesInFlight): one line per model, in model order; --output and --edges get "
            + "'-model<N>' before their extension.")
    boolean allModels;

    @Option(names = "--trajectory", paramLabel = "FILE.dcd", description = "A CHARMM/NAMD DCD trajectory of the --input "
            + "molecule (same atoms, same order): the diagram of every frame (a batch, several at once: "
            + "accelgeom.voronoi.framesInFlight), one line per frame, in frame order; --output and --edges get "
            + "'-frame<N>' before their extension.")
    Path trajectory;

    @Option(names = "--hydrogens", description = "Include hydrogen atoms (left out by default, as Voronota does).")
    boolean hydrogens;

    @Option(names = "--waters", description = "Include waters (HOH, WAT, DOD, H2O).")
    boolean waters;

    @Option(names = "--hetatm", description = "Include HETATM records other than waters.")
    boolean hetatm;

    @Option(names = "--radii", paramLabel = "TABLE", defaultValue = "auto",
            description = "voronota (Voronota's defaults: Bondi, other elements 1.70), bondi (other elements 1.80), "
                    + "file (the radii of a PQR/XYZR input) or auto: file for PQR/XYZR, voronota otherwise (default: ${DEFAULT-VALUE}).")
    String radii;

    @Option(names = "--random", paramLabel = "N",
            description = "Use N random atom-like balls instead of --input: uniform in a cube at protein density "
                    + "(0.05 per cubic Å), radii in [1.5, 1.9] Å (seed --seed).")
    Integer random;

    @Option(names = "--save-balls", paramLabel = "FILE.xyzr",
            description = "Also write the selected balls as 'x y z r' lines (what voronota calculate-vertices reads).")
    Path saveBalls;

    @Option(names = "--only-balls", description = "Only select the balls (and --save-balls them); no diagram.")
    boolean onlyBalls;

    @Option(names = "--precision", paramLabel = "P",
            description = "End-vertex search: two-phase, double or float (default: double on jvm backends, two-phase on tornado).")
    String precision;

    @Option(names = "--threshold", paramLabel = "T", defaultValue = "" + VoronoiOptions.DEFAULT_THRESHOLD,
            description = "Suspect band of the two-phase search, pseudo-angle units (default: ${DEFAULT-VALUE}).")
    double threshold;

    @Option(names = "--no-grid", description = "Every ball is a candidate of every edge (the paper's brute force).")
    boolean noGrid;

    @Option(names = "--batch", paramLabel = "N",
            description = "Edges per search call: 1 = the stack of Alg. 5.1, 0 = level by level (default: 1 on jvm, 0 otherwise).")
    Integer batch;

    @Option(names = "--lanes", paramLabel = "L", defaultValue = "0",
            description = "tornado: work-items per edge in the end-vertex search (default 0: 32; 1: one per edge).")
    int lanes;

    @Option(names = "--edges", paramLabel = "FILE", description = "Write the edges: .json or .csv.")
    Path edges;

    @Option(names = "--tetrahedra", paramLabel = "FILE.csv", description = "Write the dual quasi-triangulation: one "
            + "row per tetrahedron (a vertex's generator quadruple) with its four face neighbours (-1: the face is on the "
            + "hull, b_inf; -2: not traced).")
    Path tetrahedra;

    @Mixin
    RepeatOptions runs;

    @Override
    public Integer call() throws Exception {
        return Batch.run(spec, common, "vertices", new Batch.InFlight() {
            @Override
            public int inFlight() {
                return inputsInFlight();
            }

            @Override
            public int inFlight(int cores) {
                return inputsInFlight(cores);
            }

            @Override
            public boolean itemsOverDevices() {
                return trajectory != null || allModels;
            }

            @Override
            public Callable<Batch.Body> start() throws IOException {
                return one();
            }
        });
    }

    /**
     * How many inputs of a batch are computed at once: {@code accelgeom.voronoi.inFlight}, or by default on
     * jvm-parallel half the cores (2 to 8; each input's sequential host phases then run beside the others' and their
     * parallel steps share the session's pool; on tornado their device steps take turns, so plans are built and
     * compiled one at a time: POCL's kernel cache failed at two at once, "unable to rename temporary ..."); on jvm 1
     * (one thread) unless set, then each input on one thread. --repeat, --all-models and --trajectory run one input
     * at a time.
     */
    int inputsInFlight() {
        return inputsInFlight(Runtime.getRuntime().availableProcessors());
    }

    /** {@link #inputsInFlight()} on {@code cores} CPUs (a device worker's share, MultiDevice). */
    int inputsInFlight(int cores) {
        int set = org.accelgeom.engine.Tuning.VORONOI_IN_FLIGHT.intValue();
        if (runs.repeat > 1 || allModels || trajectory != null || random != null
                || common.backend == Backend.JVM && set <= 0) {
            return 1;
        }
        if (set <= 0 && oneThreadPerInput()) {
            return batchThreads();
        }
        return set > 0 ? set : halfTheCores(cores);
    }

    /**
     * Voronoi inputs (or frames) in flight on {@code cores} CPUs where each computes on all of them: half the cores, 2 to
     * 8 (each input's sequential host phases beside the others', their device steps taking turns).
     */
    static int halfTheCores(int cores) {
        return Math.max(2, Math.min(8, cores / 2));
    }

    /**
     * Inputs of this batch computed each on one thread ({@code accelgeom.voronoi.oneThreadPerInput}, jvm-parallel):
     * while at least {@link #batchThreads} inputs remain, an input gets the batch's one-thread session (the
     * jvm-parallel algorithm, its loops on the input's worker), one input per thread at once; the last ones get the
     * batch's session on all threads. The output does not depend on the threads (every parallel step writes per index).
     */
    private boolean oneThreadPerInput() {
        return org.accelgeom.engine.Tuning.VORONOI_ONE_THREAD.booleanValue() && common.backend == Backend.JVM_PARALLEL
                && Batch.active() && runs.repeat <= 1 && !allModels && trajectory == null && random == null
                && batchThreads() > 1;
    }

    /** The threads of the batch's jvm-parallel session: --threads, or every core. */
    private int batchThreads() {
        return common.threads > 0 ? common.threads : Runtime.getRuntime().availableProcessors();
    }

    /** Frames and models this process computed each on one thread (see {@link #alone}; the tests read it). */
    static final java.util.concurrent.atomic.AtomicInteger FRAMES_ALONE = new java.util.concurrent.atomic.AtomicInteger();

    /** Inputs this process computed on one thread in a batch (see {@link #oneThreadPerInput}; the tests read it). */
    static final java.util.concurrent.atomic.AtomicInteger ONE_THREAD_INPUTS = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * One input (or --random), the whole command or one input of a batch, in two parts: what runs here (checks, the
     * options and paths of this input) and the work it returns, which reads, computes and writes the result files,
     * and returns the printing of its report (in a batch, in input order).
     */
    private Callable<Batch.Body> one() throws IOException {
        common.validate(spec);
        if (common.input == null && random == null) {
            throw usage("missing input: give --input FILE (PDB, mmCIF, PQR or XYZR) or --random N");
        }
        if (common.input != null && random != null) {
            throw usage("give either --input FILE or --random N, not both");
        }
        if (random != null && random < 0) {
            throw usage("--random must be >= 0, got " + random);
        }
        runs.validate(spec);
        Check.atLeast(spec, "--model", model, 1);
        Check.onlyWith(spec, random != null, "--random", "--seed");
        Check.onlyWith(spec, common.input != null, "--input", "--model", "--all-models", "--trajectory");
        Check.range(spec, "--lanes", lanes, 0, 1024);
        if (batch != null) {
            Check.atLeast(spec, "--batch", batch, 0);
        }
        Check.interval(spec, "--threshold", threshold, 0, false, 1, false);
        if (allModels && spec.commandLine().getParseResult().hasMatchedOption("--model")) {
            throw usage("--all-models reads every model: leave out --model");
        }
        Check.extension(spec, "--output", common.output, false, "the vertices (Voronota's text format)", ".vertices",
                "-vertices", ".txt");
        Check.extension(spec, "--tetrahedra", tetrahedra, false, "the quasi-triangulation", ".csv");
        Check.extension(spec, "--save-balls", saveBalls, false, "the balls ('x y z r' lines)", ".xyzr", ".txt");
        if (onlyBalls && (common.output != null || edges != null || tetrahedra != null)) {
            throw usage("--only-balls computes no diagram: --output, --edges and --tetrahedra need it");
        }
        boolean carriesRadii = carriesRadii(common.input);
        AtomBalls.Radii table = switch (radii.toLowerCase(Locale.ROOT)) {
            case "auto" -> carriesRadii ? AtomBalls.Radii.FILE : AtomBalls.Radii.VORONOTA;
            case "voronota" -> AtomBalls.Radii.VORONOTA;
            case "bondi" -> AtomBalls.Radii.BONDI;
            case "file" -> AtomBalls.Radii.FILE;
            default -> throw usage("unknown --radii '" + radii + "': expected auto, voronota, bondi or file");
        };
        Check.extension(spec, "--edges", edges, false, "the edges", ".json", ".csv");
        VoronoiOptions options = Check.asUsage(spec, () -> VoronoiOptions.of(common.backend).withThreads(common.threads)
                .withDevice(common.device).withGrid(!noGrid).withThreshold(threshold).withResident(runs.repeat > 1 || Batch.active())
                .withLanes(lanes));
        options = options.withExecution(options.execution().withTimings(runs.level()));
        if (precision != null) {
            VoronoiOptions o = options;
            options = Check.asUsage(spec, () -> o.withPrecision(VoronoiOptions.Precision.parse(precision)));
        }
        if (batch != null) {
            options = options.withBatch(batch);
        }
        Check.writable(common.output, edges, tetrahedra, saveBalls); // before the work, not after
        if (common.backend == Backend.TORNADO) {
            TornadoSupport.require();
        }
        PrintWriter out = spec.commandLine().getOut();
        if (trajectory != null) {
            if (random != null || allModels) {
                throw usage("--trajectory needs --input FILE (the molecule of the trajectory), not --random or --all-models");
            }
            VoronoiOptions o = options;
            return () -> {
                int rc = trajectory(out, table, o);
                return () -> rc;
            };
        }
        if (allModels) {
            if (random != null) {
                throw usage("--all-models needs --input FILE");
            }
            VoronoiOptions o = options;
            return () -> {
                int rc = allModels(out, table, o);
                return () -> rc;
            };
        }
        // what the work needs, taken now: in a batch, the options' input and output are the next input's by then
        Input in = new Input(common.input, random, common.seed, model, table, options, common.output,
                Batch.perInput(saveBalls), Batch.perInput(edges), Batch.perInput(tetrahedra), common.describeBackend());
        // beside other inputs, the report waits in a buffer for its turn; else it is printed as it comes (--repeat)
        boolean buffered = Batch.active() && inputsInFlight() > 1;
        boolean alone = oneThreadPerInput() && Batch.remaining() >= batchThreads();
        if (alone) {
            ONE_THREAD_INPUTS.incrementAndGet();
        }
        // in a batch, the batch's session (on all threads) or its one-thread session
        Batch.Lease lease = alone ? Batch.oneThreadSession(options.execution()) : Batch.session(options.execution());
        return () -> {
            try (lease) {
                return Batch.reported(out, buffered, o -> {
                    compute(in, lease, o);
                    lease.close();
                    Timeline.markProcess("closing the device session");
                    return 0;
                });
            }
        };
    }

    /** One input's work as {@link #one} captured it. */
    private record Input(String file, Integer random, long seed, int model, AtomBalls.Radii table, VoronoiOptions options,
            Path output, Path saveBalls, Path edges, Path tetrahedra, String backend) {
    }

    /** Reads, computes (--repeat times) and writes one input's results; its report goes to {@code out}. */
    private void compute(Input in, Batch.Lease lease, PrintWriter out) {
        Timeline.markProcess("command line, options checked");
        long r0 = System.nanoTime();
        Prewarm warm = Prewarm.startIf(common.backend == Backend.TORNADO && in.random() == null); // TornadoVM starts meanwhile
        Molecule m;
        try (var tick = org.accelgeom.engine.Progress.ticker(common.quiet, "reading " + in.file())) {
            m = in.random() != null ? randomAtoms(in.random(), in.seed()) : Formats.readMolecule(Path.of(in.file()), in.model());
        }
        if (in.random() == null) {
            Check.finiteAtoms(in.file(), m, in.table() == AtomBalls.Radii.FILE && carriesRadii(in.file()));
        }
        AtomBalls.Selection sel = AtomBalls.of(m, hydrogens, waters, hetatm, in.random() != null ? AtomBalls.Radii.FILE : in.table());
        long readNanos = System.nanoTime() - r0;
        Timeline.markProcess("reading the input");
        if (in.saveBalls() != null || onlyBalls) {
            Prewarm.join(warm); // no diagram: nothing overlaps the start
            Timeline.markProcess("waiting for the background TornadoVM start");
        }
        if (in.saveBalls() != null) {
            writeBalls(in.saveBalls(), sel.balls());
            if (!onlyBalls) {
                out.printf(Locale.ROOT, "wrote %s (%d balls)%n", in.saveBalls(), sel.balls().size());
            }
        }
        if (onlyBalls) {
            out.printf(Locale.ROOT, "balls:            %d%s%n", sel.balls().size(), in.saveBalls() != null ? " (wrote " + in.saveBalls() + ")" : "");
            out.flush();
            return;
        }
        VoronoiResult r = null;
        long nanos = 0;
        for (int run = 1; run <= runs.repeat; run++) { // --repeat: one plan
            long t0 = System.nanoTime();
            try (var tick = org.accelgeom.engine.Progress.ticker(common.quiet, "voronoi diagram of " + sel.balls().size() + " balls")) {
                r = Voronoi.compute(sel.balls(), in.options(), lease.session()); // device steps take turns inside
            }
            nanos = System.nanoTime() - t0;
            if (runs.repeat > 1) {
                out.printf(Locale.ROOT, "run %d/%d: %10.3f ms (%d vertices)%n", run, runs.repeat, nanos / 1e6, r.vertexCount());
                out.flush();
            }
        }
        Prewarm.join(warm); // the diagram's host levels ran while TornadoVM started (HybridSearch#deviceStarting)
        Timeline.markProcess("computing the diagram",
                String.format(Locale.ROOT, "(its phase table: %.1f ms)", r.timings().total() / 1e6));
        VoronoiResult.Stats s = r.stats();
        out.printf(Locale.ROOT, "input:            %s (%d atoms, %d balls selected)%n", in.random() != null
                ? in.random() + " random balls (seed " + in.seed() + ")" : in.file() + ", model " + in.model(), m.size(),
                sel.balls().size());
        out.printf(Locale.ROOT, "hidden balls:     %d (inside another ball: no cell)%n", r.hidden().length);
        out.printf(Locale.ROOT, "vertices:         %d%s%n", r.vertexCount(),
                r.vertexCount() == 0 ? " (fewer than 4 visible balls, or no vertex)" : "");
        out.printf(Locale.ROOT, "edges:            %d (%d to infinity, %d closed without vertex)%n",
                r.edgeCount() + r.closedEdgeCount(), s.infiniteEdges(), r.closedEdgeCount());
        out.printf(Locale.ROOT, "components:       %d (tracings of the vertex graph; %d balls without vertex)%n",
                s.components(), s.vertexFreeBalls());
        if (s.undecidedBalls() > 0) {
            out.printf(Locale.ROOT, "undecided:        %d balls in no vertex with unbounded cells over too many balls: "
                    + "a piece of the diagram may be missing there%n", s.undecidedBalls());
        }
        out.printf(Locale.ROOT, "end-vertex searches: %d in %d calls, %.2f pruning passes each%n", s.searches(), s.batches(),
                s.searches() == 0 ? 0.0 : (double) s.passes() / s.searches());
        if (r.precision() == VoronoiOptions.Precision.TWO_PHASE) {
            out.printf(Locale.ROOT, "float->double swaps: %d (%.2f%%), %.1f double evaluations per search%n", s.swaps(),
                    s.searches() == 0 ? 0.0 : 100.0 * s.swaps() / s.searches(),
                    s.searches() == 0 ? 0.0 : (double) s.doubleEvals() / s.searches());
        }
        if (r.precision() == VoronoiOptions.Precision.FLOAT) {
            out.printf(Locale.ROOT, "float errors:     %d (%.2f%%; every search checked again in double on the host)%n",
                    s.swaps(), s.searches() == 0 ? 0.0 : 100.0 * s.swaps() / s.searches());
        }
        if (s.tieRechecks() > 0) {
            out.printf(Locale.ROOT, "host re-searches: %d searches the device flagged (near ties, borderline decisions), decided in Java double%n", s.tieRechecks());
        }
        if (s.unresolved() + s.inconsistent() > 0) {
            out.printf(Locale.ROOT, "degenerate:       %d unresolved searches, %d inconsistent links%n", s.unresolved(),
                    s.inconsistent());
        }
        out.printf(Locale.ROOT, "read time:        %.3f ms%n", readNanos / 1e6);
        out.printf(Locale.ROOT, "total time:       %.3f ms%s%n", nanos / 1e6, runs.repeat > 1 ? " (last run)" : "");
        out.printf(Locale.ROOT, "backend:          %s, precision %s%n", in.backend(), r.precision());
        if (runs.timings) {
            out.println("phases:");
            out.print(r.timings().format());
        }
        Timeline.markProcess("printing the results");
        if (in.output() != null) {
            writeVertices(in.output(), r);
            out.printf(Locale.ROOT, "wrote %s (%d vertices)%n", in.output(), r.vertexCount());
        }
        if (in.edges() != null) {
            writeEdges(in.edges(), r);
            out.printf(Locale.ROOT, "wrote %s (%d edges)%n", in.edges(), r.edgeCount() + r.closedEdgeCount());
        }
        if (in.tetrahedra() != null) {
            writeTetrahedra(in.tetrahedra(), r);
            out.printf(Locale.ROOT, "wrote %s (%d tetrahedra)%n", in.tetrahedra(), r.vertexCount());
        }
        Timeline.markProcess("writing the output");
        out.flush();
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** Every model of the input in turn (models are read until the file has no more). */
    private int allModels(PrintWriter out, AtomBalls.Radii table, VoronoiOptions options) {
        // the models of an ensemble have as many atoms: the backend stays loaded in the session (tornado: one plan)
        VoronoiOptions o = options.withResident(true);
        Molecule first = readModel(1);
        java.util.Iterator<Numbered<Molecule>> models = new java.util.Iterator<>() { // read one ahead, until none is left
            private int k = 0;
            private Molecule next = first;

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public Numbered<Molecule> next() {
                Numbered<Molecule> m = new Numbered<>(++k, next);
                next = readModel(k + 1);
                return m;
            }
        };
        long[] total = {0};
        Items<Numbered<Molecule>> items = runItems(o, models, (session, m, alone) -> {
            long t0 = System.nanoTime();
            String line = model(m.number(), m.item(), table, o, session, alone);
            synchronized (total) {
                total[0] += System.nanoTime() - t0;
            }
            return line;
        }, m -> common.input + ", model " + m.number(), out, total, selected(first, table), 0);
        out.printf(Locale.ROOT, "models:           %d%s%n", items.count(), items.failed() > 0 ? " (" + items.failed() + " failed)" : "");
        out.printf(Locale.ROOT, "total time:       %.3f ms%n", total[0] / 1e6);
        out.printf(Locale.ROOT, "backend:          %s%s%n", common.describeBackend(), items.devices());
        out.flush();
        return items.failed() > 0 ? Main.EXIT_FAILURE : 0;
    }

    /** Model {@code model} of the input, or null past the last one. */
    private Molecule readModel(int model) {
        try {
            return Formats.readMolecule(Path.of(common.input), model);
        } catch (NoSuchModelException e) {
            if (model > 1) {
                return null; // past the last model
            }
            throw e;
        }
    }

    /** The balls selected of {@code m} (its atoms where the selection fails: the model reports that in its turn). */
    private int selected(Molecule m, AtomBalls.Radii table) {
        try {
            return AtomBalls.of(m, hydrogens, waters, hetatm, table).balls().size();
        } catch (RuntimeException e) {
            return m.size();
        }
    }

    /** Model {@code k}'s diagram (alone: on this thread only): its files written, its report line returned. */
    private String model(int k, Molecule m, AtomBalls.Radii table, VoronoiOptions options, DeviceSession session,
            boolean alone) {
        Check.finiteAtoms(common.input + " model " + k, m, table == AtomBalls.Radii.FILE && carriesRadii(common.input));
        AtomBalls.Selection sel = AtomBalls.of(m, hydrogens, waters, hetatm, table);
        long t0 = System.nanoTime();
        VoronoiResult r = alone ? Voronoi.computeAlone(sel.balls(), options, session) : Voronoi.compute(sel.balls(), options, session);
        long nanos = System.nanoTime() - t0;
        if (common.output != null) {
            writeVertices(suffixed(common.output, k), r);
        }
        if (edges != null) {
            writeEdges(suffixed(Batch.perInput(edges), k), r);
        }
        return String.format(Locale.ROOT, "model %d: %d balls, %d hidden, %d vertices, %d edges, %.3f ms%n", k,
                sel.balls().size(), r.hidden().length, r.vertexCount(), r.edgeCount() + r.closedEdgeCount(), nanos / 1e6);
    }

    /** An item of one input (a model, a frame) and its number, from 1. */
    record Numbered<T>(int number, T item) {
    }

    /** How a run over the items of one input went: items seen, failed, and the devices' share (or ""). */
    record Items<T>(int count, int failed, String devices) {
    }

    /**
     * The items of one input in order, each in the session (a batch's, or with --devices the first free device
     * worker's), {@link #framesInFlight} of them at once ({@link FramesInFlight}); the report lines in item order. An
     * item that fails with an AccelGeomException is reported on one line and the next one runs (a batch). {@code
     * balls}: the balls of an item; {@code known}: the items the input says it has (0: unknown).
     */
    private <T> Items<Numbered<T>> runItems(VoronoiOptions options, java.util.Iterator<Numbered<T>> source,
            FramesInFlight.Work<Numbered<T>> work, java.util.function.Function<Numbered<T>, String> what, PrintWriter out,
            long[] total, int balls, int known) {
        int[] count = {0};
        java.util.Iterator<Numbered<T>> counted = new java.util.Iterator<>() {
            @Override
            public boolean hasNext() {
                return source.hasNext();
            }

            @Override
            public Numbered<T> next() {
                count[0]++;
                return source.next();
            }
        };
        if (common.deviceList != null && !Batch.active()) { // --devices: the items over the device workers
            String[] summary = new String[1];
            boolean small = smallItems(balls); // each on its slot's thread, as many slots as a worker's cores
            int failed = MultiDevice.items(spec, common, options.execution(), counted,
                    (session, item) -> work.apply(session, item, small), what, out, spec.commandLine().getErr(), summary,
                    total, small);
            return new Items<>(count[0], failed, ", " + summary[0]);
        }
        int slots = framesInFlight(balls, known);
        Progress progress = common.progress();
        progress.begin(trajectory != null ? "frames" : "models", known);
        int failed = 0;
        try (Batch.Lease lease = Batch.session(options.execution())) {
            if (slots > 1) {
                java.util.function.IntPredicate alone = position -> {
                    boolean one = alone(position, balls, known);
                    if (one) {
                        FRAMES_ALONE.incrementAndGet();
                    }
                    return one;
                };
                failed = FramesInFlight.run(counted, slots, alone, lease.session(), work, what, out,
                        spec.commandLine().getErr(), common.debug, progress);
                return new Items<>(count[0], failed, "");
            }
            while (counted.hasNext()) {
                Numbered<T> item = counted.next();
                try {
                    String line = work.apply(lease.session(), item, false);
                    progress.end(); // a terminal's progress line cleared before the report line (drawn again after)
                    out.print(line);
                } catch (AccelGeomException e) {
                    failed++;
                    progress.end();
                    out.flush();
                    Main.report(spec.commandLine().getErr(), what.apply(item) + ": " + e.getMessage(), e, common.debug);
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new AccelGeomException(Batch.message(e), e);
                }
                out.flush();
                progress.update(count[0]);
            }
        } finally {
            progress.end();
        }
        return new Items<>(count[0], failed, "");
    }

    /**
     * Frames (models) of one input computed at once on one device or none ({@link FramesInFlight}): {@code
     * accelgeom.voronoi.framesInFlight}, or by default on jvm 1; where the first frame runs {@link #alone} as many as
     * the threads (at most 64), else half the cores (2 to 8); at most as many as fit in half the heap. {@code balls}: a frame's.
     */
    int framesInFlight(int balls, int known) {
        int set = org.accelgeom.engine.Tuning.VORONOI_FRAMES_IN_FLIGHT.intValue();
        // (at most 64 by default: on POCL the JVM is told of 256 processors, see tornado-config/pocl.argfile)
        int k = set > 0 ? set : common.backend == Backend.JVM ? 1 : alone(0, balls, known) ? Math.min(64, batchThreads())
                : halfTheCores(Runtime.getRuntime().availableProcessors());
        long fit = Runtime.getRuntime().maxMemory() / 2 / Math.max(1, (long) balls * BYTES_PER_BALL);
        return (int) Math.max(1, Math.min(k, fit));
    }

    /**
     * About the heap one frame's diagram needs at its peak per ball (its balls, grid, tracing, result and the text of
     * its files), for {@link #framesInFlight}: 20,000 random balls computed and wrote their vertices with -Xmx64m, not
     * with -Xmx48m (jvm, one process), about 3 KB per ball with the JVM's own share.
     */
    static final long BYTES_PER_BALL = 4 << 10;

    /**
     * Whether the frame at {@code position} (from 0) of frames of {@code balls} balls is computed on its worker thread
     * only ({@link Voronoi#computeAlone}, as {@link #oneThreadPerInput} does for the inputs of a batch, and with its
     * switch): on jvm-parallel while at least as many frames remain as the threads, on tornado small frames (whose
     * levels stay on the host cores, {@link Voronoi#staysOnHost}) as long; where the count of frames is not known, the
     * small ones. The others run on the session's threads (tornado: their device steps take turns).
     */
    private boolean alone(int position, int balls, int known) {
        if (!mayRunAlone() || batchThreads() < 2) {
            return false;
        }
        boolean small = Voronoi.staysOnHost(balls);
        if (known <= position) {
            return small;
        }
        return known - position >= batchThreads() && (small || common.backend == Backend.JVM_PARALLEL);
    }

    /**
     * Whether the items of {@code balls} balls over --devices are each computed alone on a worker's slot thread
     * ({@link Voronoi#computeAlone}): small items, whose levels stay on the host cores ({@link Voronoi#staysOnHost}),
     * as {@link #alone} decides for the small frames of one device.
     */
    private boolean smallItems(int balls) {
        return mayRunAlone() && Voronoi.staysOnHost(balls);
    }

    /** Whether a diagram may run on its caller's thread only: not on jvm (one thread anyway), and the switch on. */
    private boolean mayRunAlone() {
        return common.backend != Backend.JVM && org.accelgeom.engine.Tuning.VORONOI_ONE_THREAD.booleanValue();
    }

    /** Every frame of the DCD trajectory: the --input molecule's selected atoms at the frame's coordinates. */
    private int trajectory(PrintWriter out, AtomBalls.Radii table, VoronoiOptions options) {
        // frames of as many balls: the backend stays loaded in the session (tornado: one plan, compiled once)
        VoronoiOptions o = options.withResident(true);
        Molecule m = Formats.readMolecule(Path.of(common.input), model);
        Check.finiteAtoms(common.input, m, table == AtomBalls.Radii.FILE && carriesRadii(common.input));
        AtomBalls.Selection sel = AtomBalls.of(m, hydrogens, waters, hetatm, table);
        long[] total = {0};
        Items<Numbered<org.accelgeom.voronoi.Balls>> items;
        try (org.accelgeom.io.DcdReader dcd = org.accelgeom.io.DcdReader.open(trajectory)) {
            if (dcd.atoms() != m.size()) {
                throw new AccelGeomException(trajectory + " has " + dcd.atoms() + " atoms per frame, " + common.input
                        + " has " + m.size() + " (model " + model + "): the trajectory must be of that molecule");
            }
            int[] atoms = sel.atoms();
            double[] r = sel.balls().r();
            java.util.Iterator<Numbered<org.accelgeom.voronoi.Balls>> frames = new java.util.Iterator<>() {
                private final double[] x = new double[m.size()], y = new double[m.size()], z = new double[m.size()];
                private int f = 0;
                private Boolean ahead;

                @Override
                public boolean hasNext() {
                    if (ahead == null) {
                        ahead = dcd.next(x, y, z);
                    }
                    return ahead;
                }

                @Override
                public Numbered<org.accelgeom.voronoi.Balls> next() {
                    if (!hasNext()) {
                        throw new java.util.NoSuchElementException();
                    }
                    ahead = null;
                    double[] bx = new double[atoms.length], by = new double[atoms.length], bz = new double[atoms.length];
                    for (int j = 0; j < atoms.length; j++) {
                        bx[j] = x[atoms[j]];
                        by[j] = y[atoms[j]];
                        bz[j] = z[atoms[j]];
                    }
                    return new Numbered<>(++f, new org.accelgeom.voronoi.Balls(bx, by, bz, r.clone()));
                }
            };
            items = runItems(o, frames, (session, frame, alone) -> {
                long t0 = System.nanoTime();
                VoronoiResult res = alone ? Voronoi.computeAlone(frame.item(), o, session) : Voronoi.compute(frame.item(), o, session);
                long nanos = System.nanoTime() - t0;
                synchronized (total) {
                    total[0] += nanos;
                }
                if (common.output != null) {
                    writeVertices(suffixed(common.output, "frame", frame.number()), res);
                }
                if (edges != null) {
                    writeEdges(suffixed(Batch.perInput(edges), "frame", frame.number()), res);
                }
                return String.format(Locale.ROOT, "frame %d: %d balls, %d hidden, %d vertices, %d edges, %.3f ms%n",
                        frame.number(), atoms.length, res.hidden().length, res.vertexCount(),
                        res.edgeCount() + res.closedEdgeCount(), nanos / 1e6);
            }, f -> trajectory + ", frame " + f.number(), out, total, atoms.length, Math.max(0, dcd.framesInHeader()));
        }
        int frames = items.count();
        out.printf(Locale.ROOT, "frames:           %d%s%n", frames, items.failed() > 0 ? " (" + items.failed() + " failed)" : "");
        out.printf(Locale.ROOT, "total time:       %.3f ms%s%n", total[0] / 1e6,
                frames > 0 ? String.format(Locale.ROOT, " (%.3f ms per frame)", total[0] / 1e6 / frames) : "");
        out.printf(Locale.ROOT, "backend:          %s%s%n", common.describeBackend(), items.devices());
        out.flush();
        return items.failed() > 0 ? Main.EXIT_FAILURE : 0;
    }

    /** FILE.ext to FILE-modelK.ext. */
    static Path suffixed(Path p, int k) {
        return suffixed(p, "model", k);
    }

    /** FILE.ext to FILE-{what}K.ext. */
    static Path suffixed(Path p, String what, int k) {
        String name = p.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String s = dot > 0 ? name.substring(0, dot) + "-" + what + k + name.substring(dot) : name + "-" + what + k;
        return p.resolveSibling(s);
    }

    /** {@link org.accelgeom.voronoi.Balls#randomAtoms} as a molecule of nameless atoms carrying their radii. */
    static Molecule randomAtoms(int n, long seed) {
        org.accelgeom.voronoi.Balls b = org.accelgeom.voronoi.Balls.randomAtoms(n, seed);
        double[] x = b.x(), y = b.y(), z = b.z(), r = b.r();
        String[] empty = new String[n];
        java.util.Arrays.fill(empty, "");
        int[] serial = new int[n];
        for (int i = 0; i < n; i++) {
            serial[i] = i + 1;
        }
        return new Molecule(x, y, z, r, serial, empty, empty, empty, new int[n], empty, new boolean[n]);
    }

    private static boolean carriesRadii(String input) {
        String lower = input == null ? "" : input.toLowerCase(Locale.ROOT);
        return lower.endsWith(".pqr") || lower.endsWith(".xyzr") || lower.endsWith(".pqr.gz") || lower.endsWith(".xyzr.gz");
    }

    private static void writeBalls(Path file, org.accelgeom.voronoi.Balls b) {
        VoronoiFiles.writeBalls(file, b.x(), b.y(), b.z(), b.r());
    }

    private static void writeVertices(Path file, VoronoiResult r) {
        VoronoiFiles.writeVertices(file, r.vertexCount(), r.quads(), r.spheres());
    }

    private static void writeTetrahedra(Path file, VoronoiResult r) {
        VoronoiFiles.writeTetrahedra(file, r.vertexCount(), r.quads(), r.tetrahedronNeighbours());
    }

    private static void writeEdges(Path file, VoronoiResult r) {
        VoronoiFiles.writeEdges(file, r.vertexCount(), r.edgeCount(), r.triples(), r.ends(), r.closedEdgeCount(),
                r.closedTriples());
    }
}
