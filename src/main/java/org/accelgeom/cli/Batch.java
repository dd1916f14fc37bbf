package org.accelgeom.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.Execution;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.io.InputFiles;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Many inputs in one process: the one place where a command's per-input body runs over a batch.
 *
 * <p>{@code --input} takes files, directories (their regular files, sorted by name, hidden ones left out) and
 * globs ({@code 'data/*.pdb'}, quoted so the shell leaves them to us); {@code --output} is then a directory (made
 * if missing) and each input's result is written there as {@code <name without extension>.<ext>}, {@code ext}
 * being {@code --format} or the command's default. The body runs once per input with {@link CommonOptions#input}
 * and {@link CommonOptions#output} set to that input's file and result, so the same code serves one input and a
 * batch, and the families keep their plans and device buffers between inputs ({@link #active()} tells a command to
 * ask for resident backends, and {@link #session} lends them the batch's one DeviceSession). A failing input is reported as
 * one line with its file (a body that returns a non-zero status has reported its failure itself) and the batch goes
 * on; the run ends with one summary line on stdout and exit status 1 if
 * any input failed. Bad usage (a {@link ParameterException}) still ends the run at once, with status 2.
 *
 * <p>A body that is {@link InFlight} (hull, voronoi) is a pipeline: several inputs in flight on worker threads, each
 * reading, computing and writing its results beside the others, a new one started as soon as one ends, as many as
 * fit in half the heap ({@link InFlight#footprint}); on tornado their device work takes turns in the batch's session
 * ({@link Lease#exclusive}). The reports still come in input order, each under its header, as one at a time.
 *
 * <p>One input that is a plain file, with an {@code --output} that is not a directory, is no batch: the body
 * runs as before, its errors propagate unchanged.
 *
 * <p>With {@code --devices} the inputs are spread over the devices ({@link MultiDevice}): each worker runs its own
 * copy of the command, whose {@code Batch.run} computes the one input {@link #ASSIGNED} to it in the worker's session.
 */
final class Batch {

    /** A command's work for the input and output currently set in its {@link CommonOptions}. */
    @FunctionalInterface
    interface Body {
        int run() throws Exception;
    }

    /**
     * A body whose work for one input may run beside other inputs' work ({@link #run} keeps up to {@link #inFlight()}
     * inputs in flight): {@link #start()} runs on the batch thread with the input's options set and captures what the
     * work needs; the work runs on a worker thread and returns what is left to do in input order on the batch thread
     * (print the input's report). {@link Body#run()} is the same thing in one go (one input, no batch).
     */
    interface InFlight extends Body {
        /** Inputs computed at once in a batch (1: one after the other, as a plain {@link Body}). */
        int inFlight();

        /**
         * {@link #inFlight()} of a batch that had {@code cores} CPUs (a device worker's share of them, {@link
         * MultiDevice}); by default the same.
         */
        default int inFlight(int cores) {
            return inFlight();
        }

        /**
         * About the heap one input needs at its peak, in bytes (0: small); the batch starts an input beside others
         * only while the inputs in flight stay within half the heap (-Xmx), so large inputs run one at a time.
         */
        default long footprint(Path input) {
            return 0;
        }

        /**
         * Whether one input's work spreads its own items over {@code --devices} ({@link MultiDevice#items}: frames,
         * models), which waits for the device check only before its first report: then the items compute while
         * TornadoVM starts. Otherwise one input waits for the check first.
         */
        default boolean itemsOverDevices() {
            return false;
        }

        /** Called on the batch thread for each input: its work, to run on another thread. */
        java.util.concurrent.Callable<Body> start() throws Exception;

        @Override
        default int run() throws Exception {
            return start().call().run();
        }
    }

    /** One input's work that prints its report to {@code out} (see {@link #reported}). */
    @FunctionalInterface
    interface Reporting {
        int run(PrintWriter out) throws Exception;
    }

    /**
     * Runs one input's {@code work}, its report printed to {@code out} as it comes, or with {@code buffered} (an
     * input beside others in a batch) kept in a buffer that the returned body prints in its turn: then the work's
     * status, or its failure thrown after the text it printed before failing, as it would come one at a time.
     */
    static Body reported(PrintWriter out, boolean buffered, Reporting work) throws Exception {
        if (!buffered) {
            int status = work.run(out);
            return () -> status;
        }
        java.io.StringWriter text = new java.io.StringWriter();
        PrintWriter to = new PrintWriter(text);
        int status;
        Throwable failure = null;
        try {
            status = work.run(to);
        } catch (Exception | Error e) {
            status = Main.EXIT_FAILURE;
            failure = e;
        }
        to.flush();
        int s = status;
        Throwable f = failure;
        return () -> {
            out.print(text);
            out.flush();
            if (f instanceof Error e) {
                throw e;
            }
            if (f != null) {
                throw (Exception) f;
            }
            return s;
        };
    }

    private static final ThreadLocal<Boolean> ACTIVE = ThreadLocal.withInitial(() -> false);
    /** The output directory (or null) and the stem of the input being computed in a batch. */
    private static final ThreadLocal<Path> DIR = new ThreadLocal<>();
    private static final ThreadLocal<String> STEM = new ThreadLocal<>();
    /** The batch's device session (plans, device buffers, threads kept from one input to the next), once opened. */
    private static final ThreadLocal<DeviceSession> SESSION = new ThreadLocal<>();
    /** The lock of the batch session's device work (see {@link Lease#exclusive}). */
    private static final ThreadLocal<Object> DEVICE_WORK = new ThreadLocal<>();
    /** The batch's one-thread session (see {@link #oneThreadSession}), once opened. */
    private static final ThreadLocal<DeviceSession> ONE_THREAD = new ThreadLocal<>();
    /** Inputs of the batch from the one being started to the last, itself included. */
    private static final ThreadLocal<Integer> REMAINING = ThreadLocal.withInitial(() -> 1);
    /** On a worker of a multi-device batch ({@link MultiDevice}): the one input its copy of the command computes. */
    static final ThreadLocal<Assignment> ASSIGNED = new ThreadLocal<>();

    /** One input of a multi-device batch, for the worker's own copy of the command (see {@link MultiDevice}). */
    record Assignment(Path input, Path output, Path dir, org.accelgeom.engine.DevicePool.Worker worker) {
    }

    private Batch() {
    }

    /** True while a batch runs on this thread: commands keep their backend resident (plans, device buffers). */
    static boolean active() {
        return ACTIVE.get();
    }

    /**
     * A second result file of a command ({@code --edges e.csv}, {@code --picture p.png}): as given outside a batch,
     * else {@code <stem>-<its name>} in the output directory (or beside the option's file without --output), so
     * that each input of a batch gets its own.
     */
    static Path perInput(Path option) {
        if (option == null || !active()) {
            return option;
        }
        String name = STEM.get() + "-" + option.getFileName();
        return DIR.get() != null ? DIR.get().resolve(name) : option.resolveSibling(name);
    }

    /**
     * The session one input is computed in: outside a batch a new one, which closing the lease closes; in a batch the
     * batch's, opened for the first input's {@code execution} and kept for the next inputs (an input that fits the
     * plans reuses them, a larger one grows them), closed after the last input, not by the lease.
     */
    static Lease session(Execution execution) {
        Assignment a = ASSIGNED.get();
        if (a != null) { // a worker of a multi-device batch: its session, on its device, kept by the pool; its
            // inputs in flight take turns on the device as a one-device batch's do
            return new Lease(a.worker().session(execution), false, a.worker().deviceWork());
        }
        if (!active()) {
            return new Lease(DeviceSession.open(execution), true, new Object());
        }
        DeviceSession s = SESSION.get();
        if (s == null || s.isClosed()) {
            s = DeviceSession.open(execution);
            SESSION.set(s);
            DEVICE_WORK.set(new Object());
        }
        return new Lease(s, false, DEVICE_WORK.get());
    }

    /** Inputs of the running batch from the one being started to the last, itself included (1 outside a batch). */
    static int remaining() {
        return active() ? REMAINING.get() : 1;
    }

    /**
     * In a batch, its second session on {@code execution} with one thread, shared by the inputs computed beside each
     * other: its loops run on each caller's thread ({@link org.accelgeom.engine.ParallelLoops}), so every input
     * runs alone on its worker; closed after the last input. Outside a batch, as {@link #session}.
     */
    static Lease oneThreadSession(Execution execution) {
        if (!active() || ASSIGNED.get() != null) {
            return session(execution);
        }
        DeviceSession s = ONE_THREAD.get();
        if (s == null || s.isClosed()) {
            s = DeviceSession.open(execution.withThreads(1));
            ONE_THREAD.set(s);
        }
        return new Lease(s, false, new Object());
    }

    /** A session lent to one input's work (see {@link #session}); {@code deviceWork} is the lock of {@link #exclusive}. */
    record Lease(DeviceSession session, boolean owned, Object deviceWork) implements AutoCloseable {

        /**
         * Runs {@code work} (one input's computation in the session) alone on a tornado session: the session's plans
         * serve one call at a time (a second call at once would build and compile plans of its own), so the inputs
         * of a batch in flight read, check and write beside each other, and take turns on the device. Other
         * backends run it at once (their calls share the session's thread pool).
         */
        <T> T exclusive(java.util.function.Supplier<T> work) {
            if (session.execution().backend() != org.accelgeom.engine.Backend.TORNADO) {
                return work.get();
            }
            synchronized (deviceWork) {
                return work.get();
            }
        }

        @Override
        public void close() {
            if (owned) {
                session.close();
            }
        }
    }

    /**
     * Runs {@code body} once, or once per input of a batch.
     *
     * @param defaultExt the result's extension when {@code --format} is absent (without the dot)
     */
    static int run(CommandSpec spec, CommonOptions common, String defaultExt, Body body) throws Exception {
        Assignment assigned = ASSIGNED.get();
        if (assigned != null) {
            return runAssigned(common, assigned, body);
        }
        common.deviceList = common.devices(spec);
        if (!isBatch(common, outputSpec(spec))) {
            if (!(body instanceof InFlight f && f.itemsOverDevices()) && !SplitRidge.isChild()) {
                MultiDevice.checked(); // one input: the device check first (a split ridge's worker: in its answers)
            }
            if (common.deviceList != null) {
                common.device = common.deviceList[0]; // one input: on the first device, unless the command splits it
            }
            return body.run();
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<String> failedSpecs = new ArrayList<>();
        List<Path> inputs = InputFiles.expand(common.inputs, failedSpecs);
        Path outDir = common.output;
        if (outDir != null) {
            if (Files.exists(outDir) && !Files.isDirectory(outDir)) {
                throw new ParameterException(spec.commandLine(), "--output " + outDir
                        + " is a file: with several inputs, a directory, or an input directory or glob, --output names a directory");
            }
            try {
                Files.createDirectories(outDir);
            } catch (IOException e) {
                throw new AccelGeomException("cannot make the output directory " + outDir + ": " + e.getMessage());
            }
        }
        if (inputs.isEmpty() && failedSpecs.isEmpty()) {
            throw new AccelGeomException("no input files in " + String.join(" ", common.inputs));
        }
        String ext = common.format != null ? common.format.replaceFirst("^\\.", "") : defaultExt;
        int done = 0;
        int failed = 0;
        long bytes = 0;
        for (String s : failedSpecs) {
            Main.report(err, s + ": no such file, directory or matching file", null, false);
            failed++;
        }
        Set<Path> used = new HashSet<>();
        if (common.deviceList != null) {
            List<Path> outputs = new ArrayList<>();
            for (Path in : inputs) {
                outputs.add(outDir == null || ext == null ? null : InputFiles.outputFor(outDir, in, ext, used));
            }
            return MultiDevice.batch(spec, common, inputs, outputs, outDir, failed, body);
        }
        long t0 = System.nanoTime();
        long plans = 0;
        ACTIVE.set(true);
        DIR.set(outDir);
        try {
            boolean concurrent = body instanceof InFlight f && f.inFlight() > 1;
            if (concurrent) {
                long[] counts = inFlight((InFlight) body, common, inputs, outDir, ext, used, out, err);
                done = (int) counts[0];
                failed += (int) counts[1];
                bytes = counts[2];
            }
            for (int k = 0; !concurrent && k < inputs.size(); k++) {
                Path in = inputs.get(k);
                REMAINING.set(inputs.size() - k);
                common.input = in.toString();
                STEM.set(InputFiles.stem(in.getFileName().toString()));
                common.output = outDir == null || ext == null ? null : InputFiles.outputFor(outDir, in, ext, used);
                out.printf(Locale.ROOT, "== %s (%d/%d)%n", in, k + 1, inputs.size());
                out.flush();
                try {
                    if (body.run() != 0) { // the body reported its failure itself (e.g. one model of --all-models)
                        failed++;
                        continue;
                    }
                    done++;
                    bytes += size(in);
                } catch (ParameterException e) {
                    throw e; // bad usage fails every input alike
                } catch (Exception | OutOfMemoryError | StackOverflowError e) {
                    failed++;
                    out.flush();
                    Main.report(err, in + ": " + message(e), e, common.debug);
                }
            }
        } finally {
            ACTIVE.set(false);
            DIR.remove();
            STEM.remove();
            common.output = outDir;
            DeviceSession s = SESSION.get();
            SESSION.remove();
            DEVICE_WORK.remove();
            REMAINING.remove();
            DeviceSession one = ONE_THREAD.get();
            ONE_THREAD.remove();
            if (one != null) {
                one.close();
            }
            if (s != null) {
                plans = s.planBuilds();
                s.close();
            }
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        // the device plans the batch built: one per step and size, reused by every input that fits
        out.printf(Locale.ROOT, "batch: %d done, %d failed, %.3f s, %.2f inputs/s, %.1f MB/s%s%n", done, failed, secs,
                secs > 0 ? done / secs : 0.0, secs > 0 ? bytes / 1e6 / secs : 0.0,
                plans > 0 ? ", " + plans + " device plan" + (plans == 1 ? "" : "s") + " built" : "");
        out.flush();
        return failed > 0 ? Main.EXIT_FAILURE : 0;
    }

    /** A worker's copy of the command computes its one input, in the worker's session, quietly (the batch shows progress). */
    private static int runAssigned(CommonOptions common, Assignment a, Body body) throws Exception {
        common.input = a.input().toString();
        common.output = a.output();
        common.device = a.worker().device();
        common.quiet = true;
        ACTIVE.set(true);
        DIR.set(a.dir());
        STEM.set(InputFiles.stem(a.input().getFileName().toString()));
        try {
            return body.run();
        } finally {
            ACTIVE.set(false);
            DIR.remove();
            STEM.remove();
        }
    }

    /**
     * One input of an in-flight batch: its work (a future) or what failed when it was started, and the heap it was
     * counted for.
     */
    private record Pending(Path input, java.util.concurrent.Future<Body> work, Exception failed, long footprint) {
        boolean done() {
            return work == null || work.isDone();
        }
    }

    /** Reports kept waiting behind an input still computing, per input in flight (only their text is held). */
    static final int REPORTS_AHEAD = 4;

    /**
     * The loop of {@link #run} for an {@link InFlight} body, a pipeline: up to {@code inFlight()} inputs computed at
     * once on worker threads (each reads, computes and writes its results), a new one started as soon as one ends,
     * not when the oldest ends; while the inputs in flight stay within half the heap by their {@link
     * InFlight#footprint} (the first one always starts). The reports are printed in input order as their turn comes;
     * at most {@link #REPORTS_AHEAD} per input in flight wait behind a slow one. Returns {done, failed, bytes of the
     * inputs done}.
     */
    static long[] inFlight(InFlight body, CommonOptions common, List<Path> inputs, Path outDir, String ext,
            Set<Path> used, PrintWriter out, PrintWriter err) throws Exception {
        long[] counts = new long[3];
        int slots = body.inFlight();
        long budget = Runtime.getRuntime().maxMemory() / 2;
        java.util.ArrayDeque<Pending> window = new java.util.ArrayDeque<>();
        java.util.concurrent.BlockingQueue<Pending> ended = new java.util.concurrent.LinkedBlockingQueue<>();
        var workers = java.util.concurrent.Executors.newFixedThreadPool(slots, r -> {
            Thread t = new Thread(r, "accelgeom-batch");
            t.setDaemon(true);
            return t;
        });
        int next = 0;
        int running = 0;
        long heap = 0;
        int reported = 0;
        try {
            while (next < inputs.size() || !window.isEmpty()) {
                while (next < inputs.size() && running < slots && window.size() < slots * (1 + REPORTS_AHEAD)) {
                    Path in = inputs.get(next);
                    long footprint = footprint(body, in);
                    if (running > 0 && heap + footprint > budget) {
                        break; // memory: wait until an input in flight ends
                    }
                    next++;
                    REMAINING.set(inputs.size() - next + 1);
                    Pending p = start(body, common, in, outDir, ext, used, footprint, workers, ended);
                    window.add(p);
                    if (p.work() != null) {
                        running++;
                        heap += footprint;
                    }
                }
                while (!window.isEmpty() && window.peek().done()) {
                    report(window.poll(), ++reported, inputs.size(), common, out, err, counts);
                }
                if (!window.isEmpty() || next < inputs.size()) {
                    for (Pending e = running > 0 ? ended.take() : null; e != null; e = ended.poll()) {
                        running--;
                        heap -= e.footprint();
                    }
                }
            }
        } finally {
            workers.shutdownNow();
        }
        return counts;
    }

    /** Starts one input of an in-flight batch: its options set, its work submitted (it tells {@code ended} when it ends). */
    private static Pending start(InFlight body, CommonOptions common, Path in, Path outDir, String ext, Set<Path> used,
            long footprint, java.util.concurrent.ExecutorService workers,
            java.util.concurrent.BlockingQueue<Pending> ended) {
        common.input = in.toString();
        STEM.set(InputFiles.stem(in.getFileName().toString()));
        common.output = outDir == null || ext == null ? null : InputFiles.outputFor(outDir, in, ext, used);
        java.util.concurrent.Callable<Body> work;
        try {
            work = body.start();
        } catch (ParameterException e) {
            throw e; // bad usage fails every input alike
        } catch (Exception e) {
            return new Pending(in, null, e, footprint);
        }
        Pending[] self = new Pending[1];
        java.util.concurrent.FutureTask<Body> task = new java.util.concurrent.FutureTask<>(work) {
            @Override
            protected void done() {
                ended.add(self[0]); // after the future's result is set: the batch thread finds it done
            }
        };
        self[0] = new Pending(in, task, null, footprint);
        workers.execute(task);
        return self[0];
    }

    /** {@link InFlight#footprint} of an input; 0 if it cannot tell (the input's own work reports what is wrong). */
    private static long footprint(InFlight body, Path in) {
        try {
            return Math.max(0, body.footprint(in));
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /** Prints one in-flight input's header and report (what its work left to do), or its failure. */
    private static void report(Pending p, int number, int total, CommonOptions common, PrintWriter out, PrintWriter err,
            long[] counts) {
        out.printf(Locale.ROOT, "== %s (%d/%d)%n", p.input(), number, total);
        out.flush();
        try {
            if (p.failed() != null) {
                throw p.failed();
            }
            Body rest;
            try {
                rest = p.work().get();
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof Error x) {
                    throw x;
                }
                throw e.getCause() instanceof Exception x ? x : e;
            }
            if (rest.run() != 0) { // the body reported its failure itself
                counts[1]++;
                return;
            }
            counts[0]++;
            counts[2] += size(p.input());
        } catch (ParameterException e) {
            throw e;
        } catch (Exception | OutOfMemoryError | StackOverflowError e) {
            counts[1]++;
            out.flush();
            Main.report(err, p.input() + ": " + message(e), e, common.debug);
        }
    }

    /** {@code --output} as typed (a trailing '/' says "directory"), or null. */
    private static String outputSpec(CommandSpec spec) {
        var parsed = spec.commandLine().getParseResult();
        var o = parsed == null ? null : parsed.matchedOption("--output");
        return o == null || o.stringValues().isEmpty() ? null : o.stringValues().get(0);
    }

    /** Several inputs, a directory, a glob, or an output directory (existing, or typed with a trailing '/'): a batch. */
    static boolean isBatch(CommonOptions common, String outputTyped) {
        List<String> in = common.inputs;
        if (in == null || in.isEmpty()) {
            return false;
        }
        if (in.size() > 1 || InputFiles.isGlob(in.get(0))) {
            return true;
        }
        String only = in.get(0);
        if (!"-".equals(only) && Files.isDirectory(Path.of(only))) {
            return true;
        }
        return common.output != null && (Files.isDirectory(common.output) || outputTyped != null && outputTyped.endsWith("/"));
    }

    /** A file's size in bytes, 0 where it cannot be read (its own work reports that). */
    static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return 0;
        }
    }

    static String message(Throwable e) {
        if (e instanceof OutOfMemoryError) {
            return "out of memory (max heap " + Runtime.getRuntime().maxMemory() / (1 << 20)
                    + " MiB): give the JVM more, e.g. ACCELGEOM_JAVA_OPTS=-Xmx16g";
        }
        if (e instanceof UncheckedIOException u) {
            return describe(u.getCause());
        }
        if (e instanceof IOException io) {
            return describe(io);
        }
        if (e instanceof AccelGeomException) {
            return e.getMessage();
        }
        return "internal error (a bug; please report it with the output of --debug): " + e;
    }

    private static String describe(IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return e.getMessage() + ": no such file";
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }
}
