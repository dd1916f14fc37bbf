package org.accelgeom.cli;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Tuning;

/**
 * {@code --devices} with one worker process per device ({@code -Daccelgeom.devices.workers=processes}, the default):
 * the CLI starts one child JVM per listed device, with the parent's JVM flags and class path and the same command
 * line, {@code --devices LIST} replaced by {@code --devices D}, so each child has its own TornadoVM runtime, OpenCL
 * context, code caches and JIT threads, and shares nothing with the other devices' workers (measured on the H100s:
 * two devices' workers in one process slowed each other; docs/scale-out.md).
 *
 * <p>The parent keeps the scheduling: its {@link org.accelgeom.engine.DevicePool} hands the next input (a file of a
 * batch, or the position of an item: a trajectory frame, a model) to the first free slot of a worker (a worker has
 * as many slots as inputs it keeps in flight), whose thread sends the number to its child's stdin and waits for the
 * child's report, which a reader thread per child hands to it by its number; the reports are printed in input
 * order, so stdout and every result file are the one-device run's. The child computes each number as it comes, as
 * a one-device batch does and beside the numbers it holds (a file: its own copy of the command; an item: read in
 * turn from the input, skipping the items it was not given) and answers each as it ends with a frame on its stdout:
 * a header line {@code \u0001ag K STATUS OUT ERR NANOS} and then OUT and ERR bytes of report and error lines. Everything else the child would print on stdout is
 * dropped ({@link #takeStdoutIfChild}); its stderr is the parent's. At the end of its numbers (stdin closed) a
 * child writes {@code \u0001ag-end PLANS} and exits.
 */
final class WorkerProcesses implements AutoCloseable {

    /** Set in a child's environment: the process serves numbers from its stdin. */
    static final String CHILD_ENV = "ACCELGEOM_DEVICE_WORKER";
    /** Set in a child's environment: the parent's {@code --devices} list, for the child's error message. */
    static final String DEVICES_ENV = "ACCELGEOM_DEVICE_LIST";
    /** Set in a child's environment where it sees its GPU alone: the device index its reports name. */
    static final String SHOWN_ENV = "ACCELGEOM_DEVICE_SHOWN";
    private static final String HEADER = "\u0001ag ";
    private static final String END = "\u0001ag-end ";

    /** The child's protocol stream (its real stdout), set by {@link #takeStdoutIfChild}; null in a parent. */
    private static volatile OutputStream protocol;
    /** In a child: when it was first ready for its parent's numbers (epoch ms; 0: not yet), for the timeline. */
    private static volatile long readyMillis;
    /** In a child: when its background TornadoVM start ({@link Prewarm}) ended (epoch ms; 0: none), for the timeline. */
    private static volatile long tornadoMillis;

    private final List<Child> children;
    private final long spawnedAt;

    private WorkerProcesses(List<Child> children, long spawnedAt) {
        this.children = children;
        this.spawnedAt = spawnedAt;
    }

    /** {@link #wanted(int[], String)} for a command other than voronoi (the hull's split, its batches, ...). */
    static boolean wanted(int[] devices) {
        return wanted(devices, null);
    }

    /** {@link #wanted(int[], String, boolean)} for a batch of files (not the items of one input). */
    static boolean wanted(int[] devices, String command) {
        return wanted(devices, command, false);
    }

    /**
     * Whether a run of {@code command} over {@code devices} uses worker processes: several workers, no child, and
     * {@code accelgeom.devices.workers} 'processes', or 'auto' (the default) for every command but voronoi's frames
     * and models ({@code items}: {@link MultiDevice#items}) and voronoi with {@code accelgeom.devices.inFlight=1}.
     * With one input at a time per worker (before session 15) voronoi's worker threads won: one start where processes
     * pay one per device (docs/scale-out.md, session 12). With inputs in flight on each worker, 8 per worker of 16
     * CPUs, one JVM holding every worker's files is far slower: 126 structures on 2 H200s took 22.3 s in threads
     * against 14.6 s in processes, on 4 H200s 17.3 s against 10.5 s; the 1,000 frames of 1UBQ (host work only) still
     * went faster in threads, 6.4 s against 7.8 s on 2 H200s (session 15).
     */
    static boolean wanted(int[] devices, String command, boolean items) {
        String mode = Tuning.DEVICE_WORKERS.stringValue("auto").trim();
        boolean threads = "voronoi".equals(command) && (items || Tuning.DEVICE_IN_FLIGHT.intValue() == 1);
        boolean processes = "processes".equalsIgnoreCase(mode) || !"threads".equalsIgnoreCase(mode) && !threads;
        return devices.length > 1 && !isChild() && processes;
    }

    /** Whether the parsed command line asks for items of one input ({@code --trajectory}, {@code --all-models}). */
    static boolean items(String... args) {
        for (String a : args) {
            if (a.equals("--trajectory") || a.startsWith("--trajectory=") || a.equals("--all-models")) {
                return true;
            }
        }
        return false;
    }

    /** This process is a worker child of another. */
    static boolean isChild() {
        return "1".equals(System.getenv(CHILD_ENV));
    }

    /** In a child, the parent's {@code --devices} list (else {@code own}): errors name the list the user gave. */
    static String parentDevices(String own) {
        String p = System.getenv(DEVICES_ENV);
        return p != null && !p.isEmpty() ? p : own;
    }

    /**
     * In a child: keeps the real stdout for the frames and makes {@link System#out} discard (the command's summary
     * lines; the parent prints its own). Call before anything prints. Does nothing in a parent.
     */
    static void takeStdoutIfChild() {
        if (isChild() && protocol == null) {
            protocol = new FileOutputStream(FileDescriptor.out);
            System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        }
    }

    // ---- the parent

    /**
     * Starts one child per entry of {@code devices} running {@code args} (the parent's command line) with
     * {@code --devices} set to that entry, all at once. Where NVIDIA's OpenCL is the only OpenCL platform, each child
     * sees only its GPU ({@link #visibleGpu}): {@code CUDA_VISIBLE_DEVICES} names it and the child computes on its
     * device 0, so that no child opens the other GPUs (TornadoVM's OpenCL context holds every device of the platform).
     */
    static WorkerProcesses start(int[] devices, String[] args) {
        return start(devices, args, java.util.Map.of(), true);
    }

    /**
     * {@link #start(int[], String[])} with {@code env} added to every child's environment, each child seeing every
     * CPU (the hull's split: its children's host work is each part's reading or generation).
     */
    static WorkerProcesses start(int[] devices, String[] args, Map<String, String> env) {
        return start(devices, args, env, false);
    }

    private static WorkerProcesses start(int[] devices, String[] args, Map<String, String> env, boolean shareCpus) {
        List<String> jvm = new ArrayList<>();
        jvm.add(ProcessHandle.current().info().command().orElse(
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        List<String> flags = ManagementFactory.getRuntimeMXBean().getInputArguments();
        for (String a : flags) {
            if (!a.startsWith("-agentlib:jdwp") && !a.startsWith("-XX:StartFlightRecording")) {
                jvm.add(a); // not a debugger's port or a recording's file, which the parent holds
            }
        }
        jvm.add("-cp");
        jvm.add(System.getProperty("java.class.path"));
        jvm.add(Main.class.getName());
        List<Child> children = new ArrayList<>();
        long spawnedAt = System.currentTimeMillis();
        String given = devicesValue(args);
        boolean nvidiaOnly = Tuning.DEVICE_ISOLATION.booleanValue() && nvidiaOnly(Path.of("/etc/OpenCL/vendors"));
        ChildCpus cpus = shareCpus ? ChildCpus.of(Tuning.DEVICE_CHILD_CPUS.stringValue("pin"), devices.length, flags)
                : ChildCpus.none(devices.length);
        try {
            for (int w = 0; w < devices.length; w++) {
                int d = devices[w];
                String gpu = nvidiaOnly ? visibleGpu(d, System.getenv("CUDA_VISIBLE_DEVICES")) : null;
                List<String> cmd = cpus.command(w, jvm);
                cmd.addAll(withDevices(args, gpu != null ? "0" : Integer.toString(d)));
                ProcessBuilder pb = new ProcessBuilder(cmd);
                pb.environment().put(CHILD_ENV, "1");
                pb.environment().putAll(env);
                if (gpu != null) {
                    pb.environment().put("CUDA_VISIBLE_DEVICES", gpu);
                    pb.environment().put(SHOWN_ENV, Integer.toString(d));
                }
                if (given != null) {
                    pb.environment().put(DEVICES_ENV, given);
                }
                Process p = pb.start();
                children.add(new Child(d, p, stderr(p.getErrorStream(), d), cpus.describe(w)));
            }
        } catch (IOException e) {
            children.forEach(Child::kill);
            throw new AccelGeomException("cannot start a worker process: " + e.getMessage(), e);
        }
        return new WorkerProcesses(children, spawnedAt);
    }

    /** Worker processes started elsewhere, device k the k-th (the tests' scripted children). */
    static WorkerProcesses of(List<Process> processes) {
        List<Child> children = new ArrayList<>();
        for (int d = 0; d < processes.size(); d++) {
            Process p = processes.get(d);
            children.add(new Child(d, p, stderr(p.getErrorStream(), d), "all"));
        }
        return new WorkerProcesses(children, System.currentTimeMillis());
    }

    /**
     * Copies a child's stderr to ours, line by line, less the JVM's first line about incubator modules (TornadoVM's
     * launcher adds every system module; scripts/accelgeom drops the same line of the parent).
     */
    private static Thread stderr(InputStream from, int device) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(from, StandardCharsets.UTF_8))) {
                String line;
                boolean first = true;
                while ((line = r.readLine()) != null) {
                    if (!(first && line.startsWith("WARNING: Using incubator modules"))) {
                        synchronized (System.err) {
                            System.err.println(line);
                        }
                    }
                    first = false;
                }
            } catch (IOException e) {
                // the child ended: nothing more to copy
            }
        }, "accelgeom-device-" + device + "-stderr");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** {@code args} with the value of {@code --devices} (as {@code --devices X} or {@code --devices=X}) replaced. */
    static List<String> withDevices(String[] args, String devices) {
        List<String> out = new ArrayList<>();
        for (int k = 0; k < args.length; k++) {
            if (args[k].equals("--devices") && k + 1 < args.length) {
                out.add(args[k]);
                out.add(devices);
                k++;
            } else if (args[k].startsWith("--devices=")) {
                out.add("--devices=" + devices);
            } else {
                out.add(args[k]);
            }
        }
        return out;
    }

    /** The value of {@code --devices} in {@code args}, or null. */
    static String devicesValue(String[] args) {
        for (int k = 0; k < args.length; k++) {
            if (args[k].equals("--devices") && k + 1 < args.length) {
                return args[k + 1];
            }
            if (args[k].startsWith("--devices=")) {
                return args[k].substring("--devices=".length());
            }
        }
        return null;
    }

    /**
     * Whether the GPUs of the OpenCL platforms the ICD loader will find are NVIDIA's ({@code dir}'s {@code .icd} files:
     * NVIDIA's, and beside it at most POCL's, whose devices are CPUs; not when {@code OCL_ICD_VENDORS} points
     * elsewhere): TornadoVM lists GPUs before CPUs (its OpenCL backend orders devices by type), so its first devices
     * are the GPUs in CUDA's order and a child can be given its GPU alone, as its device 0. A child checks that it is
     * ({@link MultiDevice#checkAlone}).
     */
    static boolean nvidiaOnly(Path dir) {
        if (System.getenv("OCL_ICD_VENDORS") != null || System.getenv("OCL_ICD_FILENAMES") != null) {
            return false;
        }
        try (var files = java.nio.file.Files.list(dir)) {
            List<String> icds = files.map(p -> p.getFileName().toString().toLowerCase(Locale.ROOT))
                    .filter(n -> n.endsWith(".icd")).toList();
            return icds.stream().anyMatch(n -> n.contains("nvidia"))
                    && icds.stream().allMatch(n -> n.contains("nvidia") || n.contains("pocl"));
        } catch (IOException | UncheckedIOException e) {
            return false;
        }
    }

    /** In a child: whether its parent gave it its GPU alone (the device index its reports name is then set). */
    static boolean isolated() {
        return isChild() && System.getenv(SHOWN_ENV) != null;
    }

    /**
     * The {@code CUDA_VISIBLE_DEVICES} of the child of device {@code d}: {@code d}, or the d-th entry of the parent's
     * own {@code CUDA_VISIBLE_DEVICES} ({@code visible}); null where that list has no such entry.
     */
    static String visibleGpu(int d, String visible) {
        if (visible == null || visible.isBlank()) {
            return Integer.toString(d);
        }
        String[] v = visible.split(",");
        return d < v.length && !v[d].isBlank() ? v[d].trim() : null;
    }

    /** The device a child's reports name: its parent's index for it, where the child sees its GPU alone as device 0. */
    static int shownDevice(int device) {
        String s = isChild() ? System.getenv(SHOWN_ENV) : null;
        try {
            return s != null ? Integer.parseInt(s) : device;
        } catch (NumberFormatException e) {
            return device;
        }
    }

    /**
     * A worker process ended without answering: the run ends (the child's own error line, such as a device it does
     * not find, came through its stderr before).
     */
    static final class Ended extends AccelGeomException {
        Ended(String message) {
            super(message);
        }

        Ended(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** What a child answered for one number: the status (0 done, 1 failed, 3 fatal), report and error text. */
    record Reply(int status, String out, String err, long nanos) {
    }

    /**
     * Worker {@code w}'s child computes number {@code k}; {@code check} (may be null) is sent along for the child to
     * verify. Several threads may ask one child at once: it computes their numbers side by side.
     */
    Reply ask(int w, int k, String check) {
        return children.get(w).ask(k, check);
    }

    /**
     * Sends number {@code k} to worker {@code w}'s child now, its answer left for {@link #ask} (which then does not
     * send it again): a caller that must give a child its numbers in increasing order (items: the child reads them
     * in turn from the input) sends each as it takes it, under the lock it takes it under, and asks later.
     */
    void send(int w, int k, String check) {
        children.get(w).send(k, check);
    }

    /**
     * Closes the children's stdin, all at once (their ends overlap: one after the other they took 0.3-0.5 s each on
     * 4 H200s, the exit of a process that held a GPU), then waits for their end frames; returns the device plans they
     * built.
     */
    @Override
    public void close() {
        long plans = 0;
        AccelGeomException first = null;
        for (Child c : children) {
            c.endInput();
        }
        for (Child c : children) {
            try {
                plans += c.finish();
            } catch (AccelGeomException e) {
                first = first == null ? e : first;
            }
        }
        planBuilds = plans;
        if (first != null) {
            throw first;
        }
    }

    private long planBuilds;

    /**
     * Closes every child's stdin now, without waiting: each finishes what it holds, sends its end frame and exits
     * while this process goes on ({@link #close()} then waits for them).
     */
    void endInputs() {
        for (Child c : children) {
            c.endInput();
        }
    }

    /** Ends every child at once (a failed run: what they compute is not needed) and waits for their exits. */
    void kill() {
        for (Child c : children) {
            c.kill();
        }
        for (Child c : children) {
            try {
                c.process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The device plans the children built (after {@link #close()}). */
    long planBuilds() {
        return planBuilds;
    }

    /**
     * One worker process: its device, its pipes, the numbers it was asked and has not answered yet. Any number of
     * threads may {@link #ask} at once (a worker's slots, {@link org.accelgeom.engine.DevicePool}): each number goes
     * down the pipe at once, and a reader thread of its own hands each answer frame to the thread that asked for its
     * number, in whatever order the child answers.
     */
    private static final class Child {
        private final int device;
        private final Process process;
        private final OutputStream in;
        private final InputStream out;
        private final Thread stderr;
        /** The numbers asked and not answered, each with the answer its asker waits for. */
        private final Map<Integer, CompletableFuture<Reply>> pending = new HashMap<>();
        /** The numbers sent and not yet taken by their askers ({@link #ask}), each with its answer. */
        private final Map<Integer, CompletableFuture<Reply>> sent = new HashMap<>();
        /** The child's end frame (null: its stdout ended without one). */
        private final CompletableFuture<String> endFrame = new CompletableFuture<>();
        /** Why the child can answer no more (its stdout ended or broke, or it answered a number not asked); null: it can. */
        private AccelGeomException dead;
        /** The timeline ({@link #timeline}): epoch ms of its start, first and last answer, end; answers and busy time. */
        private final long started = System.currentTimeMillis();
        private long firstAnswer;
        private long lastAnswer;
        private long finished;
        private int answers;
        private long busyNanos;
        private long childJvm;
        private long childReady;
        private long childTornado;

        /** The CPUs it was given ({@link ChildCpus#describe}), for the timeline. */
        private final String cpus;

        Child(int device, Process process, Thread stderr, String cpus) {
            this.device = device;
            this.cpus = cpus;
            this.process = process;
            this.stderr = stderr;
            this.in = process.getOutputStream();
            this.out = new BufferedInputStream(process.getInputStream(), 1 << 16);
            Thread reader = new Thread(this::read, "accelgeom-device-" + device + "-answers");
            reader.setDaemon(true);
            reader.start();
        }

        /** Sends number {@code k} (with {@code check}, may be null) unless sent already, and waits for its answer. */
        Reply ask(int k, String check) {
            CompletableFuture<Reply> answer;
            synchronized (this) {
                send(k, check);
                answer = sent.remove(k);
            }
            try {
                return answer.join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new AccelGeomException(String.valueOf(e.getCause()), e.getCause());
            }
        }

        /** Sends number {@code k} now unless sent already; its answer (or why none will come) goes to {@link #sent}. */
        synchronized void send(int k, String check) {
            if (sent.containsKey(k)) {
                return;
            }
            CompletableFuture<Reply> answer = new CompletableFuture<>();
            sent.put(k, answer);
            if (dead != null) {
                answer.completeExceptionally(dead);
                return;
            }
            if (pending.putIfAbsent(k, answer) != null) {
                throw new IllegalStateException("number " + k + " sent twice to the worker process of device " + device);
            }
            try {
                in.write((k + (check == null ? "" : "\t" + check) + "\n").getBytes(StandardCharsets.UTF_8));
                in.flush();
            } catch (IOException e) {
                pending.remove(k);
                dead = new Ended(ended(), e);
                answer.completeExceptionally(dead);
            }
        }

        /**
         * The reader thread: each answer frame to its asker, the end frame to {@link #finish}; at the end of the
         * child's stdout (or a frame for a number not asked) every asker still waiting gets the failure.
         */
        private void read() {
            AccelGeomException failure = null;
            try {
                for (String h = header(); h != null; h = header()) {
                    if (h.startsWith(END)) {
                        endFrame.complete(h);
                        continue;
                    }
                    String[] f = h.substring(HEADER.length()).split(" ");
                    int k = Integer.parseInt(f[0]);
                    String o = new String(out.readNBytes(Integer.parseInt(f[2])), StandardCharsets.UTF_8);
                    String e = new String(out.readNBytes(Integer.parseInt(f[3])), StandardCharsets.UTF_8);
                    Reply r = new Reply(Integer.parseInt(f[1]), o, e, Long.parseLong(f[4]));
                    CompletableFuture<Reply> asker;
                    synchronized (this) {
                        asker = pending.remove(k);
                        lastAnswer = System.currentTimeMillis();
                        firstAnswer = answers++ == 0 ? lastAnswer : firstAnswer;
                        busyNanos += r.nanos();
                    }
                    if (asker == null) {
                        failure = new AccelGeomException("worker process of device " + device + " answered " + k
                                + ", which it was not asked");
                        break;
                    }
                    asker.complete(r);
                }
            } catch (IOException | RuntimeException e) {
                failure = new Ended(ended(), e);
            }
            endFrame.complete(null);
            List<CompletableFuture<Reply>> waiting;
            synchronized (this) {
                dead = failure != null ? failure : new Ended(ended());
                waiting = new ArrayList<>(pending.values());
                pending.clear();
            }
            for (var w : waiting) {
                w.completeExceptionally(dead);
            }
        }

        /** The next answer or end frame (other lines are dropped), or null at the end of the stream. */
        private String header() throws IOException {
            while (true) {
                ByteArrayOutputStream line = new ByteArrayOutputStream();
                int b;
                while ((b = out.read()) >= 0 && b != '\n') {
                    line.write(b);
                }
                if (b < 0 && line.size() == 0) {
                    return null;
                }
                String s = line.toString(StandardCharsets.UTF_8);
                if (s.startsWith(HEADER) || s.startsWith(END)) {
                    return s;
                }
                if (b < 0) {
                    return null;
                }
            }
        }

        private String ended() {
            try {
                process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "the worker process of device " + device + " ended"
                    + (process.isAlive() ? "" : " (exit status " + process.exitValue() + ")");
        }

        /** Ends the child's input: it finishes what it holds, sends its end frame and exits. */
        void endInput() {
            try {
                in.close();
            } catch (IOException e) {
                // it ended already: finish() says how
            }
        }

        /** Ends the child's input and waits for its end frame and exit: the plans it built. */
        long finish() {
            try {
                in.close();
                String h = endFrame.get();
                int status = process.waitFor();
                stderr.join(5000); // its last lines out before ours
                if (h == null) {
                    throw new AccelGeomException(ended());
                }
                if (status != 0 && status != Main.EXIT_FAILURE) {
                    throw new AccelGeomException("the worker process of device " + device + " exited with status " + status);
                }
                finished = System.currentTimeMillis();
                String[] f = h.substring(END.length()).trim().split(" ");
                childJvm = f.length > 2 ? Long.parseLong(f[1]) : 0;
                childReady = f.length > 2 ? Long.parseLong(f[2]) : 0;
                childTornado = f.length > 3 ? Long.parseLong(f[3]) : 0;
                return Long.parseLong(f[0]);
            } catch (IOException e) {
                kill();
                throw new AccelGeomException(ended(), e);
            } catch (InterruptedException e) {
                kill();
                Thread.currentThread().interrupt();
                throw new AccelGeomException("interrupted while waiting for the worker process of device " + device);
            } catch (ExecutionException e) {
                kill(); // not thrown: the reader completes the end frame with null, never exceptionally
                throw new AccelGeomException(ended(), e);
            }
        }

        void kill() {
            process.destroyForcibly();
        }

        /** This worker's line of the timeline: its milestones in seconds after {@code origin} (epoch ms). */
        synchronized String timeline(int w, long origin) {
            java.util.function.LongFunction<String> at = t -> t == 0 ? "-" : String.format(Locale.ROOT, "%+.2f", (t - origin) / 1e3);
            return String.format(Locale.ROOT, "  worker %d (device %d): started %s, JVM up %s, TornadoVM up %s, ready %s, first answer %s, "
                    + "last answer %s, end %s; %d inputs, busy %.2f s; CPUs %s", w, device, at.apply(started), at.apply(childJvm),
                    at.apply(childTornado), at.apply(childReady), at.apply(firstAnswer), at.apply(lastAnswer),
                    at.apply(finished), answers, busyNanos / 1e9, cpus);
        }
    }

    /**
     * The timeline of a run with worker processes (after {@link #close()}), in seconds after this JVM's start: the
     * parent's start of the workers and its end, then per worker when it was started, its JVM was up, it was ready
     * for inputs (the command parsed, the inputs listed, a batch's warm-up done), its first and last answer and its
     * end; the inputs it computed and the time they took (read, compute, write), as it measured them.
     */
    String timeline() {
        long origin = ManagementFactory.getRuntimeMXBean().getStartTime();
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "devices timeline (s after this JVM's start): "
                + "workers started at %+.2f, all ended at %+.2f%n", (spawnedAt - origin) / 1e3, (System.currentTimeMillis() - origin) / 1e3));
        for (int w = 0; w < children.size(); w++) {
            b.append(children.get(w).timeline(w, origin)).append(System.lineSeparator());
        }
        return b.toString();
    }

    // ---- the child

    /**
     * In a child: the numbers its parent sends on stdin, one per line; {@code check.apply(k)}, where given, must equal
     * the text the parent sent along after a tab.
     */
    static Iterator<Integer> numbers(java.util.function.IntFunction<String> check) {
        BufferedReader r = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        return new Iterator<>() {
            private String line;

            @Override
            public boolean hasNext() {
                if (line == null) {
                    try {
                        line = r.readLine();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
                return line != null;
            }

            @Override
            public Integer next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                String l = line;
                line = null;
                int tab = l.indexOf('\t');
                int k = Integer.parseInt(tab < 0 ? l.trim() : l.substring(0, tab));
                if (tab >= 0 && check != null) {
                    String here = check.apply(k);
                    if (!l.substring(tab + 1).equals(here)) {
                        throw new AccelGeomException("worker process: input " + k + " is " + here + " here, "
                                + l.substring(tab + 1) + " in the parent");
                    }
                }
                return k;
            }
        };
    }

    /**
     * In a child: the items of {@code source} at the positions the parent sends (increasing), the items between
     * them read and skipped.
     */
    static <T> Iterator<T> positions(Iterator<T> source, int[] last) {
        Iterator<Integer> numbers = numbers(null);
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return numbers.hasNext();
            }

            @Override
            public T next() {
                int k = numbers.next();
                if (k <= last[0]) {
                    throw new AccelGeomException("worker process: item " + k + " asked after item " + last[0]);
                }
                T item = null;
                while (last[0] < k) {
                    if (!source.hasNext()) {
                        throw new AccelGeomException("worker process: no item " + k);
                    }
                    item = source.next();
                    last[0]++;
                }
                return item;
            }
        };
    }

    /** In a child: the answer for number {@code k}. */
    static synchronized void reply(int k, int status, String out, String err, long nanos) {
        byte[] o = out.getBytes(StandardCharsets.UTF_8);
        byte[] e = err.getBytes(StandardCharsets.UTF_8);
        String h = String.format(Locale.ROOT, "%s%d %d %d %d %d%n", HEADER, k, status, o.length, e.length, nanos);
        write(h.getBytes(StandardCharsets.UTF_8), o, e);
    }

    /** In a child: the end frame, after the last answer (with its JVM's start and its ready time, for the timeline). */
    static synchronized void end(long plans) {
        long ready = readyMillis != 0 ? readyMillis : System.currentTimeMillis();
        write((END + plans + " " + ManagementFactory.getRuntimeMXBean().getStartTime() + " " + ready + " " + tornadoMillis + "\n")
                .getBytes(StandardCharsets.UTF_8));
    }

    /**
     * In a child: the end frame, then the process's end ({@link Main#exit}: with the fast exit, without closing its
     * device session, whose plans and buffers TornadoVM would release one by one; the exit frees them). The parent
     * waits for its children's exits: closing the sessions took 0.3-1.9 s after the last answer on 4 GPUs.
     */
    static void endAndExit(long plans) {
        end(plans);
        Main.exit(0);
    }

    /** In a child: marks its background TornadoVM start done. */
    static void tornadoUp() {
        if (isChild() && tornadoMillis == 0) { // the first start: a batch's later inputs only ask TornadoVM again
            tornadoMillis = System.currentTimeMillis();
        }
    }

    /** In a child: marks it ready for its parent's numbers, its start done (the first call counts). */
    static void ready() {
        if (readyMillis == 0) {
            readyMillis = System.currentTimeMillis();
        }
    }

    private static void write(byte[]... parts) {
        OutputStream p = protocol;
        if (p == null) {
            throw new IllegalStateException("not a worker process");
        }
        try {
            for (byte[] b : parts) {
                p.write(b);
            }
            p.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
