package org.accelgeom.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.DevicePool;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.Progress;
import org.accelgeom.engine.TornadoSupport;
import org.accelgeom.engine.Tuning;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * {@code --devices}: a batch spread over several devices, one worker per device ({@link DevicePool}); by default
 * each worker hands its inputs to a child JVM of its own ({@link WorkerProcesses}), with
 * {@code -Daccelgeom.devices.workers=threads} it computes them itself, in this JVM.
 *
 * <p>Files of a batch: each worker computes an input with its own copy of the command (the command line parsed
 * again, so no option object is shared between threads), whose report goes to a buffer; the buffers are printed in
 * input order, so stdout reads as the one-device batch's (each input's times and device aside), and every result
 * file is the one a one-device run writes. Items of one input ({@code --all-models}, trajectory frames) go the same
 * way through {@link #items}. A failing input is reported with its file and the batch goes on; bad usage ends it.
 */
final class MultiDevice {

    /**
     * Reports (their text) per worker that may wait for an earlier input's before the workers stop taking inputs: a
     * wide window, so that no worker idles behind one slow input or a worker that started late.
     */
    static final int REPORTS_PER_WORKER = 64;
    /** The same for items (a frame, a model): the parent holds each item it handed out (a frame's coordinates). */
    static final int ITEMS_PER_WORKER = 16;

    private MultiDevice() {
    }

    /**
     * The devices of {@code --devices TEXT}: {@code all}, or indices separated by commas (an index may repeat: two
     * workers on one device). A malformed list is a usage error; an index TornadoVM lacks one error line (status 1).
     * A parent of worker processes does not start TornadoVM for a list of indices: it only schedules, and each child
     * checks its own index (through {@link #check}, as soon as it starts), so the children start at once; {@code all}
     * needs the count, which only TornadoVM knows.
     */
    static int[] parseDevices(CommandSpec spec, String text) {
        deviceCheck = null; // this run's check only (the tests run several commands in one JVM)
        String t = text.trim();
        if (t.equalsIgnoreCase("all")) {
            int count = count();
            if (count == 0) {
                throw new AccelGeomException("--devices all: TornadoVM has no device");
            }
            return IntStream.range(0, count).toArray();
        }
        String[] parts = t.split(",", -1);
        int[] d = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                d[i] = Integer.parseInt(parts[i].trim());
            } catch (NumberFormatException e) {
                d[i] = -1;
            }
            if (d[i] < 0) {
                throw new ParameterException(spec.commandLine(), "--devices takes 'all' or device indices separated by "
                        + "commas (e.g. 0,1), got '" + text + "'");
            }
        }
        String[] args = spec.root().commandLine().getParseResult() == null ? new String[0]
                : spec.root().commandLine().getParseResult().originalArgs().toArray(String[]::new);
        if (!WorkerProcesses.wanted(d, spec.name(), WorkerProcesses.items(args)) && !SplitHull.isChild()) {
            checkSoon(text, d); // a split's worker checks its device beside reading its part
        }
        return d;
    }

    /** The device check that {@link #checkSoon} began (null: none pending). */
    private static volatile Soon<Void> deviceCheck;

    /**
     * {@link #check} on a thread of its own, from now: it waits for TornadoVM's start (1.4 s alone on the H200 hosts, about
     * 2 s in each of two worker processes at once, the NVIDIA driver's initialisation), and meanwhile a batch's first
     * input is read and computed (voronoi's levels go to the host cores while the device starts, HybridSearch). Every
     * path joins it ({@link #checked}) before it prints or answers anything, so a missing device still ends the run
     * with its one error line and nothing on stdout; the inputs computed meanwhile may have written their files.
     */
    private static void checkSoon(String text, int[] devices) {
        deviceCheck = Soon.start("accelgeom-device-check", () -> {
            check(text, devices);
            return null;
        });
    }

    /** Waits for the device check begun by {@link #checkSoon} (if any) and throws what it threw. */
    static void checked() {
        Soon<Void> f = deviceCheck;
        if (f != null) {
            f.join("checking the devices");
        }
    }

    /**
     * Checks that TornadoVM has every device of {@code devices} (starting TornadoVM here, on one thread, before any
     * worker); {@code text} is the list as given (a worker process names its parent's).
     */
    static void check(String text, int[] devices) {
        int count = count();
        String given = WorkerProcesses.isChild() ? WorkerProcesses.parentDevices(text) : text;
        if (WorkerProcesses.isolated()) {
            checkAlone(TornadoSupport.devices().describeDevices(), given, WorkerProcesses.shownDevice(devices[0]));
        }
        for (int d : devices) {
            if (d >= count) {
                throw new AccelGeomException("--devices " + given + ": no device " + WorkerProcesses.shownDevice(d) + ", TornadoVM has " + count
                        + " (" + String.join("; ", TornadoSupport.devices().describeDevices()) + ")");
            }
        }
    }

    /**
     * In a worker process given its GPU alone ({@code CUDA_VISIBLE_DEVICES}): that GPU must be its device 0 and the
     * only GPU of TornadoVM's default backend ({@code described}: {@code index: name (backend, type, ...)}), else it
     * would compute on another device than its parent named; one error line instead.
     */
    static void checkAlone(List<String> described, String given, int shown) {
        long gpus = described.stream().filter(e -> e.matches("\\d+: .*") && e.contains(", GPU, ")).count();
        if (gpus != 1 || described.isEmpty() || !described.get(0).contains(", GPU, ")) {
            throw new AccelGeomException("--devices " + given + ": the worker process of device " + shown
                    + " was given its GPU alone (CUDA_VISIBLE_DEVICES) but TornadoVM lists " + String.join("; ", described)
                    + "; -Daccelgeom.devices.isolate=false lets every worker process see every device");
        }
    }

    private static int count() {
        TornadoSupport.require();
        return TornadoSupport.devices().deviceCount();
    }

    /**
     * The host threads of each worker thread's session where --threads is not given
     * ({@code accelgeom.devices.workerThreads}): 0 (the default) every worker on the one common pool of every core,
     * -1 the cores over the workers in a pool of its own per worker (0 for one worker: the one-device run's pool).
     */
    static int workerThreads(int workers) {
        int t = Tuning.DEVICE_WORKER_THREADS.intValue();
        return t >= 0 ? t : workers > 1 ? Math.max(1, Runtime.getRuntime().availableProcessors() / workers) : 0;
    }

    /** What one input's worker left: its status, its report, its error lines and the exception that ended it. */
    private record Report(int status, String out, String err, Throwable failure) {
    }

    /**
     * The files of a batch over the devices of {@code common.deviceList}; see {@link Batch#run}. {@code body} is the
     * command's: its inputs in flight ({@link WorkerSlots#perWorker}) and their heap ({@link WorkerSlots.Heap}).
     */
    static int batch(CommandSpec spec, CommonOptions common, List<Path> inputs, List<Path> outputs, Path outDir,
            int failedBefore, Batch.Body body) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String[] args = spec.root().commandLine().getParseResult().originalArgs().toArray(String[]::new);
        WorkerSlots.Heap heap = new WorkerSlots.Heap(body);
        if (WorkerProcesses.isChild()) {
            return child(args, common, inputs, outputs, outDir, heap);
        }
        int slots = WorkerSlots.perWorker(body, common.deviceList.length);
        Progress progress = common.progress();
        int[] counts = {0, failedBefore}; // done, failed
        long[] bytes = {0};
        long t0 = System.nanoTime();
        long plans;
        String workers;
        WorkerProcesses procs = WorkerProcesses.wanted(common.deviceList, spec.name())
                ? WorkerProcesses.start(common.deviceList, args) : null;
        long[] childNanos = new long[common.deviceList.length];
        try (DevicePool pool = DevicePool.open(Execution.tornado(-1), common.deviceList)
                .hostThreadsPerWorker(procs != null ? 0 : workerThreads(common.deviceList.length))) {
            progress.begin("batch on " + pool.size() + " device " + (procs != null ? "processes" : "workers")
                    + (slots > 1 ? ", " + slots + " inputs in flight each" : ""), inputs.size());
            // dealt largest first (Dealing), reported in input order
            Iterator<Integer> source = Dealing.orderSoon(inputs, common.deviceList.length);
            int[] reported = {0};
            Dealing.InputOrder<DevicePool.Outcome<Integer, Report>> inOrder = new Dealing.InputOrder<>((k, o) -> {
                Path in = inputs.get(k);
                Report r = o.result();
                Throwable failure = o.failed() ? o.failure() : r.failure();
                printReport(out, err, in, k, inputs.size(), r);
                if (failure != null) {
                    counts[1]++;
                    out.flush();
                    Main.report(err, in + ": " + Batch.message(failure), failure, common.debug);
                } else if (r.status() != 0) {
                    counts[1]++;
                } else {
                    counts[0]++;
                    bytes[0] += Batch.size(in);
                }
                progress.update(++reported[0], pool.describe());
            });
            pool.run(source, (worker, k) -> procs != null
                    ? fromChild(timed(procs.ask(worker.index(), k, inputs.get(k).toString()), childNanos, worker.index()))
                    : heap.run(inputs.get(k), () -> one(args, new Batch.Assignment(inputs.get(k), outputs.get(k), outDir, worker))),
                    (DevicePool.Outcome<Integer, Report> o) -> {
                        checked(); // before anything is printed: a missing device is the run's one error line
                        Throwable failure = o.failed() ? o.failure() : o.result().failure();
                        if (failure instanceof ParameterException || failure instanceof ChildUsage
                                || failure instanceof WorkerProcesses.Ended) {
                            int k = o.input();
                            printReport(out, err, inputs.get(k), k, inputs.size(), o.result());
                            if (failure instanceof ParameterException p) {
                                throw p; // bad usage fails every input alike
                            }
                            if (failure instanceof ChildUsage u) {
                                throw new ParameterException(spec.commandLine(), u.getMessage());
                            }
                            throw (WorkerProcesses.Ended) failure; // a worker process that died: the run ends
                        }
                        inOrder.add(o.input(), o);
                    }, REPORTS_PER_WORKER, slots);
            checked();
            progress.end();
            workers = pool.describe() + (procs != null ? ", one process each" : "")
                    + (slots > 1 ? ", " + slots + " inputs in flight each" : "") + (procs != null ? perItem(childNanos, pool) : "");
            pool.close();
            plans = pool.planBuilds();
        } finally {
            if (procs != null) {
                procs.close();
                timeline(procs, err);
            }
        }
        plans += procs != null ? procs.planBuilds() : 0;
        double secs = (System.nanoTime() - t0) / 1e9;
        out.printf(Locale.ROOT, "batch: %d done, %d failed, %.3f s, %.2f inputs/s, %.1f MB/s%s, %s%n", counts[0], counts[1],
                secs, secs > 0 ? counts[0] / secs : 0.0, secs > 0 ? bytes[0] / 1e6 / secs : 0.0,
                plans > 0 ? ", " + plans + " device plan" + (plans == 1 ? "" : "s") + " built" : "", workers);
        out.flush();
        return counts[1] > 0 ? Main.EXIT_FAILURE : 0;
    }

    /** One input's header and the report its worker left (null: none), as the one-device batch prints them. */
    private static void printReport(PrintWriter out, PrintWriter err, Path in, int k, int n, Report r) {
        out.printf(Locale.ROOT, "== %s (%d/%d)%n", in, k + 1, n);
        if (r != null) {
            out.print(r.out());
            out.flush();
            err.print(r.err());
            err.flush();
        }
    }

    /** The workers' timeline on {@code err} where asked for ({@code accelgeom.devices.timeline}). */
    private static void timeline(WorkerProcesses procs, PrintWriter err) {
        if (Tuning.DEVICE_TIMELINE.booleanValue()) {
            err.print(procs.timeline());
            err.flush();
        }
    }

    /** Adds a worker process's time for one input to its worker's sum. */
    private static WorkerProcesses.Reply timed(WorkerProcesses.Reply r, long[] nanos, int worker) {
        synchronized (nanos) {
            nanos[worker] += r.nanos();
        }
        return r;
    }

    /** The mean time per input of each worker process, as they measured it: {@code ; ms per input 38.6, 39.0}. */
    private static String perItem(long[] nanos, DevicePool pool) {
        long[] n = pool.inputsPerWorker();
        List<String> s = new ArrayList<>();
        synchronized (nanos) {
            for (int w = 0; w < n.length; w++) {
                s.add(n[w] == 0 ? "-" : String.format(Locale.ROOT, "%.1f", nanos[w] / 1e6 / n[w]));
            }
        }
        return "; ms per input " + String.join(", ", s);
    }

    /** A usage error a worker process met (the parent ends the run with it, as with a worker thread's). */
    private static final class ChildUsage extends RuntimeException {
        ChildUsage(String message) {
            super(message, null, false, false);
        }
    }

    /** A worker process's answer as a worker thread's report. */
    private static Report fromChild(WorkerProcesses.Reply r) {
        return switch (r.status()) {
            case 0 -> new Report(0, r.out(), r.err(), null);
            case 2 -> new Report(Main.EXIT_USAGE, r.out(), "", new ChildUsage(r.err()));
            case 3 -> new Report(Main.EXIT_FAILURE, r.out(), "", new AccelGeomException(r.err()));
            default -> new Report(Main.EXIT_FAILURE, r.out(), r.err(), null);
        };
    }

    /**
     * A worker process's batch: the inputs its parent sends, each computed on its one device as soon as it comes,
     * beside the others it holds (as many as its parent keeps in flight on it, {@link WorkerSlots#serve}; their
     * device work takes turns in the one session as in a one-device batch), each answered as it ends with its report
     * (status 0), its report and error lines (1: the input failed, its error line formatted as the parent's batch
     * formats it) or a usage error (2); at the end the plans it built.
     */
    private static int child(String[] args, CommonOptions common, List<Path> inputs, List<Path> outputs, Path outDir,
            WorkerSlots.Heap heap) {
        Iterator<Integer> numbers = WorkerProcesses.numbers(k -> inputs.get(k).toString());
        try (DevicePool pool = DevicePool.open(Execution.tornado(-1), common.deviceList[0])) {
            DevicePool.Worker worker = childWorker(pool);
            Integer first = numbers.hasNext() ? numbers.next() : null; // the parent deals at once
            if (first != null && first != 0 && !Dealing.bySize() && Tuning.DEVICE_WARMUP.booleanValue()) {
                // dealt in input order: the worker given input 0 needs none; dealt largest first, no worker does
                warmUp(args, inputs.get(0), outputs.get(0), worker);
            }
            WorkerProcesses.ready();
            WorkerSlots.serve(first == null ? numbers : prepend(first, numbers), "accelgeom-worker-input",
                    k -> heap.run(inputs.get(k), () -> answer(args, common, inputs.get(k), k,
                            new Batch.Assignment(inputs.get(k), outputs.get(k), outDir, worker))));
            checked(); // also a worker given no input: a missing device is its error line
            WorkerProcesses.endAndExit(pool.planBuilds()); // the exit frees the plans: no close to wait for
        }
        return 0;
    }

    /** A worker process computes input {@code k} and answers its parent (see {@link #child}). */
    private static Void answer(String[] args, CommonOptions common, Path in, int k, Batch.Assignment a) {
        long t0 = System.nanoTime();
        Report r = one(args, a);
        checked(); // computed beside the device check; a missing device ends this worker with its error line
        StringWriter e = new StringWriter();
        e.write(r.err());
        int status = r.failure() == null && r.status() == 0 ? 0 : 1;
        if (r.failure() instanceof ParameterException p) {
            WorkerProcesses.reply(k, 2, r.out(), p.getMessage(), 0);
            return null;
        }
        if (r.failure() != null) {
            Main.report(new PrintWriter(e, true), in + ": " + Batch.message(r.failure()), r.failure(), common.debug);
        }
        WorkerProcesses.reply(k, status, r.out(), e.toString(), System.nanoTime() - t0);
        return null;
    }

    /** {@code first}, then the rest of {@code rest}. */
    private static Iterator<Integer> prepend(int first, Iterator<Integer> rest) {
        return new Iterator<>() {
            private boolean given;

            @Override
            public boolean hasNext() {
                return !given || rest.hasNext();
            }

            @Override
            public Integer next() {
                if (!given) {
                    given = true;
                    return first;
                }
                return rest.next();
            }
        };
    }

    /**
     * A worker process's first plans sized as a one-device run's: the batch's first input computed once into a
     * temporary directory (its files and report dropped). Device plans are sized by the first input a session sees
     * and grow on one ladder (engine.Capacity); the kernel cache is keyed on the sizes, so workers whose first inputs
     * differed built plans no run had cached and compiled them (12 s each on the H200s in session 9). Started from
     * the same input, every worker finds the entries the one-device run, or the other workers, left.
     */
    private static void warmUp(String[] args, Path first, Path firstOutput, DevicePool.Worker worker) {
        Path tmp = null;
        try {
            tmp = Files.createTempDirectory("accelgeom-warmup");
            one(args, new Batch.Assignment(first, firstOutput == null ? null : tmp.resolve(firstOutput.getFileName()), tmp,
                    worker)); // a failure here is the real input's to report
        } catch (java.io.IOException e) {
            // no temporary directory: no warm-up
        } finally {
            if (tmp != null) {
                try (var files = Files.walk(tmp)) {
                    files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                } catch (java.io.IOException | java.io.UncheckedIOException e) {
                    // left in the temporary directory
                }
            }
        }
    }

    /** The one worker of a worker process's pool (its session on the process's device). */
    private static DevicePool.Worker childWorker(DevicePool pool) {
        return new DevicePool.Worker() {
            @Override
            public int index() {
                return 0;
            }

            @Override
            public int device() {
                return pool.device(0);
            }

            @Override
            public DeviceSession session(Execution e) {
                return pool.session(0, e == null ? Execution.tornado(-1) : e);
            }
        };
    }

    /** One input on a worker: a copy of the command, parsed from the same arguments, computes it into buffers. */
    private static Report one(String[] args, Batch.Assignment a) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        CommandLine cl = Main.commandLine(args);
        cl.setOut(new PrintWriter(o, true));
        cl.setErr(new PrintWriter(e, true));
        Batch.ASSIGNED.set(a);
        try {
            ParseResult pr = cl.parseArgs(args);
            while (pr.hasSubcommand()) {
                pr = pr.subcommand();
            }
            Object status = ((Callable<?>) pr.commandSpec().userObject()).call();
            return new Report(status instanceof Integer i ? i : 0, o.toString(), e.toString(), null);
        } catch (Exception | OutOfMemoryError | StackOverflowError x) {
            return new Report(Main.EXIT_FAILURE, o.toString(), e.toString(), x);
        } finally {
            Batch.ASSIGNED.remove();
        }
    }

    /** The work of one item of an input (a model, a frame) in a session: its report line, after writing its files. */
    @FunctionalInterface
    interface ItemWork<T> {
        String apply(DeviceSession session, T item) throws Exception;
    }

    /**
     * Items of one input ({@code --all-models}, trajectory frames) over {@code common.deviceList}: each item on the
     * first free worker's session (opened for {@code execution} on its device), the report lines printed in item
     * order; an item that fails with an {@link AccelGeomException} is reported as {@code what(item): message} and the
     * others go on. Returns the number of failed items, and the summary of the workers in {@code summary[0]}. With
     * worker processes ({@link WorkerProcesses}) the items' times as the processes measured them (their work, files
     * written included) are added to {@code childNanos[0]}.
     */
    static <T> int items(CommandSpec spec, CommonOptions common, Execution execution, Iterator<T> source, ItemWork<T> work,
            java.util.function.Function<T, String> what, PrintWriter out, PrintWriter err, String[] summary, long[] childNanos,
            boolean alone) {
        if (WorkerProcesses.isChild()) {
            return childItems(common, execution, source, work);
        }
        int[] failed = {0};
        String[] args = spec.root().commandLine().getParseResult().originalArgs().toArray(String[]::new);
        WorkerProcesses procs = WorkerProcesses.wanted(common.deviceList, spec.name(), true)
                ? WorkerProcesses.start(common.deviceList, args) : null;
        int[] position = {0};
        Iterator<Positioned<T>> positioned = new Iterator<>() {
            @Override
            public boolean hasNext() {
                return source.hasNext();
            }

            @Override
            public Positioned<T> next() {
                return new Positioned<>(position[0]++, source.next());
            }
        };
        try (DevicePool pool = DevicePool.open(execution, common.deviceList)
                .hostThreadsPerWorker(procs != null ? 0 : workerThreads(common.deviceList.length))) {
            Progress progress = common.progress();
            int slots = WorkerSlots.forItems(common.deviceList.length, alone);
            progress.begin("items on " + pool.size() + " device workers" + (slots > 1 ? ", " + slots + " in flight each" : ""), 0);
            int[] done = {0};
            long t0 = System.nanoTime();
            long[] perWorker = new long[common.deviceList.length];
            pool.run(positioned, (worker, p) -> procs != null
                    ? itemFromChild(timed(procs.ask(worker.index(), p.position(), null), perWorker, worker.index()), childNanos)
                    : work.apply(worker.session(execution), p.item()), (DevicePool.Outcome<Positioned<T>, String> o) -> {
                checked();
                if (o.failed()) {
                    if (!(o.failure() instanceof AccelGeomException) || o.failure() instanceof ChildFatal
                            || o.failure() instanceof WorkerProcesses.Ended) {
                        throw o.failure() instanceof RuntimeException r ? r : new AccelGeomException(Batch.message(o.failure()), o.failure());
                    }
                    failed[0]++;
                    out.flush();
                    Main.report(err, what.apply(o.input().item()) + ": " + o.failure().getMessage(), o.failure(), common.debug);
                } else {
                    out.print(o.result());
                }
                out.flush();
                progress.update(++done[0], pool.describe());
            }, ITEMS_PER_WORKER, slots, procs == null ? null
                    : (w, p) -> procs.send(w, p.position(), null)); // a child reads its items in turn: in order
            checked(); // also where there was no item
            progress.end();
            summary[0] = pool.describe() + (procs != null ? ", one process each" : "")
                    + (slots > 1 ? ", " + slots + " items in flight each" : "") + (procs != null ? perItem(perWorker, pool) : "")
                    + String.format(Locale.ROOT, ", %.3f s wall", (System.nanoTime() - t0) / 1e9);
        } finally {
            if (procs != null) {
                procs.close();
                timeline(procs, err);
            }
        }
        return failed[0];
    }

    /** An item and its position in the items of the input, from 0. */
    private record Positioned<T>(int position, T item) {
    }

    /** A worker process's item that failed beyond the item (the run ends, as a worker thread's would). */
    private static final class ChildFatal extends AccelGeomException {
        ChildFatal(String message) {
            super(message);
        }
    }

    /** A worker process's answer for an item: its report line, or its failure. */
    private static String itemFromChild(WorkerProcesses.Reply r, long[] nanos) {
        synchronized (nanos) {
            nanos[0] += r.nanos();
        }
        return switch (r.status()) {
            case 0 -> r.out();
            case 1 -> throw new AccelGeomException(r.err());
            default -> throw new ChildFatal(r.err());
        };
    }

    /**
     * A worker process's items: those at the positions its parent sends, each computed as soon as it is read, beside
     * the others it holds ({@link WorkerSlots#serve}), each answered as it ends with its report line (status 0), the
     * message of its AccelGeomException (1) or of any other failure (3: the parent ends the run).
     */
    private static <T> int childItems(CommonOptions common, Execution execution, Iterator<T> source, ItemWork<T> work) {
        int[] last = {-1};
        Iterator<T> items = WorkerProcesses.positions(source, last);
        Iterator<Positioned<T>> positioned = new Iterator<>() { // read on serve's one reader thread
            @Override
            public boolean hasNext() {
                return items.hasNext();
            }

            @Override
            public Positioned<T> next() {
                T item = items.next();
                return new Positioned<>(last[0], item);
            }
        };
        WorkerProcesses.ready();
        try (DevicePool pool = DevicePool.open(execution, common.deviceList[0])) {
            WorkerSlots.serve(positioned, "accelgeom-worker-item", p -> childItem(pool, execution, work, p));
            checked(); // also a worker given no input: a missing device is its error line
            WorkerProcesses.endAndExit(pool.planBuilds()); // the exit frees the plans: no close to wait for
        }
        return 0;
    }

    /** A worker process computes one item and answers its parent (see {@link #childItems}). */
    private static <T> void childItem(DevicePool pool, Execution execution, ItemWork<T> work, Positioned<T> p) {
        long t0 = System.nanoTime();
        try {
            String line = work.apply(pool.session(0, execution), p.item());
            checked();
            WorkerProcesses.reply(p.position(), 0, line, "", System.nanoTime() - t0);
        } catch (AccelGeomException e) {
            checked(); // a missing device ends this worker with its error line, not the item's
            WorkerProcesses.reply(p.position(), 1, "", String.valueOf(e.getMessage()), System.nanoTime() - t0);
        } catch (Exception | OutOfMemoryError | StackOverflowError e) {
            checked();
            WorkerProcesses.reply(p.position(), 3, "", Batch.message(e), System.nanoTime() - t0);
        }
    }

    /**
     * The pool of {@code --devices} for one input that a command splits (null without --devices, and on a worker of
     * a batch, whose input is not split): one worker per listed device.
     */
    static DevicePool pool(CommonOptions common, Execution execution) {
        if (common.deviceList == null || Batch.active()) {
            return null;
        }
        if (WorkerProcesses.wanted(common.deviceList) && !common.devices.trim().equalsIgnoreCase("all")) {
            check(common.devices, common.deviceList); // the split runs in this process: parseDevices left it to children
        }
        return DevicePool.open(execution, common.deviceList);
    }

    /** The devices as the summary names them. */
    static String describe(int[] devices) {
        List<String> s = new ArrayList<>();
        for (int d : devices) {
            s.add(Integer.toString(d));
        }
        return String.join(",", s);
    }
}
