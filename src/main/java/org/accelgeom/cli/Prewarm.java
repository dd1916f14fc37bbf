package org.accelgeom.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.TornadoSupport;

/**
 * A cold start's device work moved off the critical path (issue 14, "a short start"), on one background thread:
 * <ol>
 * <li>TornadoVM's start (its runtime, the OpenCL platform and devices: 0.6-1.2 s on an H100), begun by {@link Main}
 * before picocli builds its model ({@link #startEarly}), so that picocli, the option checks and the read overlap it
 * (ridge: also the generation and the host phases, tile tree, choose and extended tiles, before its evolution starts
 * its backend);
 * <li>then, queued by the command ({@link #prepare}), the family's execution plan built in the very
 * {@link DeviceSession} the run will use, at the capacity the input will need (predicted from the file,
 * {@link PointCountGuess}), and executed once on a few dummy points, so that TornadoVM compiles (or takes from
 * accelgeom's kernel cache) every kernel while the input is read. It must be the same plan: TornadoVM 5.2's code
 * cache is per plan, and compiling a small generated input in a plan of its own (tried in session 7) saved nothing.
 * A prediction that misses the capacity's rung only costs time: the run builds its own plan, as without it.
 * </ol>
 * On by default ({@code -Daccelgeom.prewarm=false} turns both off; see {@link org.accelgeom.engine.Tuning#PREWARM}).
 * A failure here is dropped: the real run meets the same problem and reports it in one line.
 */
final class Prewarm {

    /** The start that {@link Main} began for this process (null: none). */
    private static volatile Prewarm early;

    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "accelgeom-prewarm");
        t.setDaemon(true);
        return t;
    });
    private final List<Future<?>> queued = new ArrayList<>();
    /** The hull's input file read from the start of main ({@link #readEarly}), and its path; null: none. */
    private volatile java.util.concurrent.CompletableFuture<org.accelgeom.io.PointCloud> earlyPoints;
    private volatile String earlyInput;

    private Prewarm() {
        queue(() -> {
            TornadoSupport.devices().deviceCount();
            WorkerProcesses.tornadoUp(); // a worker process's timeline
            org.accelgeom.hull.StartTrace.mark("TornadoVM started");
        });
    }

    /**
     * Called first thing in {@link Main#main}: starts TornadoVM in the background when the arguments ask for a
     * command that joins it ({@code hull}, {@code voronoi}) on the tornado backend ({@code --backend tornado} or
     * {@code --backend=tornado}; not with {@code --help} or {@code --version}). A cheap scan of the strings: picocli
     * checks them later, and a start for a command line it then rejects is only dropped.
     */
    static void startEarly(String... args) {
        if (asksForTornado(args) && org.accelgeom.engine.Tuning.PREWARM.booleanValue() && !parentOfWorkers(args)) {
            Prewarm p = new Prewarm();
            String file = org.accelgeom.engine.Tuning.PREWARM_READ_EARLY.booleanValue() ? oneHullFile(args) : null;
            if (file != null) {
                p.readEarly(file);
            }
            early = p;
        }
        if (warmsVoronoi(args) && org.accelgeom.engine.Tuning.PREWARM_VORONOI.booleanValue() && !parentOfWorkers(args)) {
            Thread t = new Thread(() -> {
                try {
                    org.accelgeom.voronoi.VoronoiWarmUp.run();
                } catch (RuntimeException | LinkageError e) {
                    // a warm-up only: the run computes its own diagram
                }
            }, "accelgeom-warmup");
            t.setDaemon(true);
            t.start();
        }
    }

    /**
     * The one file of {@code hull --input FILE} (a single value, a regular file; not with --devices, not in a split's
     * worker), else null: what {@link #readEarly} may read before picocli has even parsed the command line.
     */
    static String oneHullFile(String... args) {
        if (args.length == 0 || !args[0].equals("hull") || SplitHull.isChild()) {
            return null;
        }
        String file = null;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--devices") || a.startsWith("--devices=")) {
                return null;
            }
            String value = a.startsWith("--input=") ? a.substring("--input=".length())
                    : a.equals("--input") && i + 1 < args.length ? args[i + 1] : null;
            if (value == null) {
                continue;
            }
            int next = a.equals("--input") ? i + 2 : i + 1;
            if (file != null || (next < args.length && !args[next].startsWith("-"))) {
                return null; // several inputs: a batch
            }
            file = value;
        }
        return file != null && !file.equals("-") && java.nio.file.Files.isRegularFile(java.nio.file.Path.of(file))
                ? file : null;
    }

    /**
     * Starts reading {@code file} (the parallel reader, {@link org.accelgeom.engine.Tuning#PREWARM_READ_SPARE} threads
     * fewer than cores, as {@link #beside}) now, from the start of main, beside picocli, the option checks and
     * TornadoVM's start: on an H100 host the read had waited for those 0.2-0.25 s. The command takes it with
     * {@link #read} when its input is this file; nothing else changes (the same reader, the same errors).
     */
    private void readEarly(String file) {
        int spare = org.accelgeom.engine.Tuning.PREWARM_READ_SPARE.intValue();
        int cores = Runtime.getRuntime().availableProcessors();
        java.util.concurrent.ForkJoinPool pool = new java.util.concurrent.ForkJoinPool(Math.max(1, cores - spare));
        java.util.concurrent.CompletableFuture<org.accelgeom.io.PointCloud> f = new java.util.concurrent.CompletableFuture<>();
        pool.execute(() -> {
            try {
                f.complete(org.accelgeom.io.Formats.readPoints(file));
                org.accelgeom.hull.StartTrace.mark("the input read (begun in main)");
            } catch (RuntimeException | Error e) {
                f.completeExceptionally(e);
            } finally {
                pool.shutdown();
            }
        });
        earlyInput = file;
        earlyPoints = f;
    }

    /**
     * The points of {@code input}: the read begun early ({@link #readEarly}) when it is this input's, else {@code read}
     * run {@link #beside} {@code warm} (with {@code besideStart}; else as it is). Exceptions come out unwrapped.
     */
    static org.accelgeom.io.PointCloud read(Prewarm warm, String input,
            java.util.function.Supplier<org.accelgeom.io.PointCloud> read, boolean besideStart) {
        java.util.concurrent.CompletableFuture<org.accelgeom.io.PointCloud> f = warm != null
                && input != null && input.equals(warm.earlyInput) ? warm.earlyPoints : null;
        if (f == null) {
            return besideStart ? beside(warm, read) : read.get();
        }
        warm.earlyPoints = null;
        warm.earlyInput = null;
        return result(f);
    }

    /** The read's result, its exception unwrapped. */
    private static <T> T result(Future<T> f) {
        try {
            return f.get();
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading", e);
        }
    }

    /**
     * Whether {@code args} name voronoi on a backend whose host part runs on several cores (tornado, jvm-parallel, the
     * default), without a help or version request: then {@link org.accelgeom.voronoi.VoronoiWarmUp} runs on a thread of
     * its own from the start.
     */
    static boolean warmsVoronoi(String... args) {
        String backend = args.length > 0 && args[0].equals("voronoi") ? backendOf(args) : null;
        return "tornado".equals(backend) || "jvm-parallel".equals(backend);
    }

    /**
     * Whether this process will be the parent of worker processes ({@code --devices} lists several indices): it only
     * schedules and merges, its children start TornadoVM, each on its device.
     */
    static boolean parentOfWorkers(String... args) {
        String d = WorkerProcesses.devicesValue(args);
        return d != null && d.contains(",")
                && WorkerProcesses.wanted(new int[2], args.length > 0 ? args[0] : null, WorkerProcesses.items(args));
    }

    /** The start {@link #startEarly} began and no command has taken yet (tests), else null. */
    static Prewarm pending() {
        return early;
    }

    /** The file whose early read ({@link #readEarly}) no command has taken yet, else null. */
    String earlyInput() {
        return earlyInput;
    }

    /** Whether {@code args} name hull, voronoi or ridge on the tornado backend, without a help or version request. */
    static boolean asksForTornado(String... args) {
        return args.length > 0 && (args[0].equals("hull") || args[0].equals("voronoi") || args[0].equals("ridge"))
                && "tornado".equals(backendOf(args));
    }

    /**
     * The backend {@code args} ask for ({@code --backend NAME} or {@code --backend=NAME}, the last one; lower case;
     * "jvm-parallel", the default, where none), or null with a help or version request.
     */
    static String backendOf(String... args) {
        String backend = "jvm-parallel";
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h") || a.equals("--version") || a.equals("-V")) {
                return null;
            }
            String value = a.startsWith("--backend=") ? a.substring("--backend=".length())
                    : a.equals("--backend") && i + 1 < args.length ? args[i + 1] : null;
            if (value != null) {
                backend = value.trim().toLowerCase(Locale.ROOT);
            }
        }
        return backend;
    }

    /**
     * The background start for a command: the one {@link #startEarly} began (taken, so that a second command in
     * the same JVM starts its own), else a new one when {@code wanted} (the tornado backend), else null.
     */
    static Prewarm startIf(boolean wanted) {
        Prewarm p = early;
        early = null;
        if (!wanted) {
            if (p != null) {
                join(p);
            }
            return null;
        }
        if (p != null) {
            return p;
        }
        return org.accelgeom.engine.Tuning.PREWARM.booleanValue() ? new Prewarm() : null;
    }

    /**
     * Queues {@code work} after the start (on the same thread): the command's compile ahead, in the session the
     * run will use. A failure is dropped.
     */
    synchronized void prepare(Runnable work) {
        queue(work);
    }

    /** Queues the closing of {@code session} (a run that did not reach its computation): nothing waits for it. */
    synchronized void discard(DeviceSession session) {
        queue(session::close);
        thread.shutdown();
    }

    private synchronized void queue(Runnable work) {
        if (thread.isShutdown()) { // joined already: nothing runs beside the command any more
            work.run();
            return;
        }
        queued.add(thread.submit(() -> {
            try {
                work.run();
            } catch (RuntimeException | LinkageError e) {
                // the run meets the same problem and reports it in one line
            }
        }));
    }

    /**
     * Runs {@code read} (a parallel reader: its blocks run in the pool of the calling thread, the common pool by
     * default) with {@link org.accelgeom.engine.Tuning#PREWARM_READ_SPARE} threads fewer than there are cores while
     * {@code warm} still has work, in a pool of its own that then ends; else as it is. Exceptions come out unwrapped.
     */
    static <T> T beside(Prewarm warm, java.util.function.Supplier<T> read) {
        int spare = org.accelgeom.engine.Tuning.PREWARM_READ_SPARE.intValue();
        int cores = Runtime.getRuntime().availableProcessors();
        if (warm == null || spare <= 0 || cores - spare < 1 || !warm.busy()) {
            return read.get();
        }
        java.util.concurrent.ForkJoinPool pool = new java.util.concurrent.ForkJoinPool(cores - spare);
        try {
            return result(pool.submit(read::get));
        } finally {
            pool.shutdown();
        }
    }

    /** Whether something queued is still running or waiting. */
    synchronized boolean busy() {
        for (Future<?> f : queued) {
            if (!f.isDone()) {
                return true;
            }
        }
        return false;
    }

    /** Waits for everything queued (null: nothing to wait for); the thread then ends. */
    static void join(Prewarm p) {
        if (p == null) {
            return;
        }
        List<Future<?>> all;
        synchronized (p) {
            all = List.copyOf(p.queued);
            p.thread.shutdown();
        }
        try {
            for (Future<?> f : all) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException e) {
            // dropped in queue(): not reached
        }
    }
}
