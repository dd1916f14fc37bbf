package org.accelgeom.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.Tuning;
import org.accelgeom.ridge.EvolutionLayout;
import org.accelgeom.ridge.Ridge;
import org.accelgeom.ridge.RidgeBackend;
import org.accelgeom.ridge.RidgeOptions;
import org.accelgeom.ridge.RidgeResult;

/**
 * {@code ridge --tiled --devices LIST} on one input, the tiles' evolution split over worker processes, one per device
 * ({@link WorkerProcesses}, the default; with {@code -Daccelgeom.devices.workers=threads} the parts are threads of this
 * process, {@code ridge.TileSplit} over a {@code DevicePool}): several devices in one JVM slow each other down (one
 * OpenCL context holds them all; docs/scale-out.md).
 *
 * <p>The parent starts the children first thing, so that their JVMs and TornadoVM start while it generates or reads
 * the cloud, then runs the host phases as one device does (tile tree, extended tiles, choose, the decimation of every
 * round, order, the output) and the evolution (Alg. 2) through {@code TileSplit}, whose part k is a proxy of child k
 * ({@link Part}): its load writes the part's layout (its tiles' points) to a file of a temporary directory and asks
 * the child to load it; each evolve writes the part's representatives and tile ranges, asks, and reads back the
 * moved representatives, the answer frame bringing the iterations and the child's phases. The child builds the backend
 * a one-device run builds ({@link Ridge#evolution}) from the parameters the parent sends (d, R1, precision, the
 * whole layout's fixed-point exponent, the iteration cap) and keeps it over the rounds: the result is the one-device
 * run's, bit for bit ({@code TileSplit}'s exactness). The directory is removed at the end, also on failure; a failed
 * or dead child ends the run with one line and no child left.
 */
final class SplitRidge {

    /** The first request to every child, sent at its start: answered when its device is checked. */
    private static final String READY = "ready\t-";

    /** Set in a child's environment: the directory of the part files (the child serves a split ridge). */
    static final String DIR_ENV = "ACCELGEOM_RIDGE_SPLIT_DIR";

    /** Set in a child's environment: how many worker processes the split has (they load their parts at once). */
    static final String PARTS_ENV = "ACCELGEOM_RIDGE_SPLIT_PARTS";

    /** Whether a child reads its layout file tile by tile as its backend orders the tiles ({@link RidgeLayoutFile}). */
    private static final boolean STREAM = Tuning.RIDGE_SPLIT_STREAM.booleanValue();

    private SplitRidge() {
    }

    /** This process is a worker of a split ridge. */
    static boolean isChild() {
        return WorkerProcesses.isChild() && System.getenv(DIR_ENV) != null;
    }

    /** Whether this run splits its one input over worker processes (several devices, not a batch, processes). */
    static boolean wanted(CommonOptions common) {
        return common.deviceList != null && common.deviceList.length > 1 && !Batch.active()
                && WorkerProcesses.wanted(common.deviceList, "ridge");
    }

    // ---- the parent

    /** The worker processes of one split run and their directory. */
    static final class Workers implements AutoCloseable {
        private final WorkerProcesses procs;
        private final Path dir;
        private final int[] devices;
        private boolean done;
        private RuntimeException failure;

        /** Ends the children and removes the directory if this process is ended from outside (a signal, Ctrl-C). */
        private final Thread hook;

        Workers(WorkerProcesses procs, Path dir, int[] devices) {
            this.procs = procs;
            this.dir = dir;
            this.devices = devices;
            this.hook = new Thread(() -> {
                procs.kill();
                PartFiles.delete(dir);
            }, "accelgeom-ridge-split-cleanup");
            Runtime.getRuntime().addShutdownHook(hook);
        }

        /** Starts one child per device running {@code args} (the parent's command line), all at once. */
        static Workers start(int[] devices, String[] args) {
            Path dir = tempDir();
            try {
                WorkerProcesses procs = WorkerProcesses.start(devices, args,
                        Map.of(DIR_ENV, dir.toString(), PARTS_ENV, Integer.toString(devices.length)));
                for (int k = 0; k < devices.length; k++) {
                    procs.send(k, 0, READY); // answered once its device is checked; read by the part's first request
                }
                return new Workers(procs, dir, devices);
            } catch (RuntimeException e) {
                PartFiles.delete(dir);
                throw e;
            }
        }

        /**
         * Records the first part's failure and ends every child at once (the others' work is not needed; their
         * requests then fail too, and {@link #detect} reports this one).
         */
        void failed(RuntimeException e) {
            synchronized (this) {
                if (failure != null) {
                    return;
                }
                failure = e;
            }
            procs.kill();
        }

        /**
         * The detection with the evolution in the children; on success their inputs are closed at once (they exit
         * while this process orders and writes the curve).
         */
        RidgeResult detect(double[][] coords, RidgeOptions options) {
            RidgeResult r;
            try {
                r = Ridge.detectSplit(coords, options, devices.length, (prm, k) -> new Part(this, k, prm),
                        k -> "part " + k + " (device " + devices[k] + ")");
            } catch (RuntimeException e) {
                synchronized (this) {
                    throw failure != null ? failure : e;
                }
            }
            done = true;
            procs.endInputs();
            return r;
        }

        /** After a detection: waits for the children's exits; else (a failure) ends them. The directory is removed. */
        @Override
        public void close() {
            try {
                if (done) {
                    procs.close();
                } else {
                    procs.kill();
                }
                if (Tuning.DEVICE_TIMELINE.booleanValue()) {
                    System.err.print(procs.timeline());
                    System.err.flush();
                }
            } finally {
                PartFiles.delete(dir);
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // the process is ending: the hook does the same
                }
            }
        }
    }

    /**
     * The parts' directory: in {@code /dev/shm} (memory) where it has room for a 10^8-point layout, else in the
     * temporary directory.
     */
    private static Path tempDir() {
        try {
            Path shm = Path.of("/dev/shm");
            if (Files.isDirectory(shm) && Files.isWritable(shm)
                    && Files.getFileStore(shm).getUsableSpace() >= SHM_ROOM) {
                return Files.createTempDirectory(shm, "accelgeom-ridge");
            }
            return Files.createTempDirectory("accelgeom-ridge");
        } catch (IOException e) {
            throw new AccelGeomException("cannot make a temporary directory for the parts: " + e.getMessage(), e);
        }
    }

    /**
     * The free room {@link #tempDir} wants in /dev/shm: 32 GiB (a 10^8 spiral's layout, 3.8·10^8 points with margins,
     * is about 11 GB, all parts' files at once).
     */
    private static final long SHM_ROOM = 32L << 30;

    /**
     * Part k of the split as {@code TileSplit} sees it: a proxy of child k. Used by one thread at a time (the part's).
     */
    static final class Part implements RidgeBackend.OfTiles {
        private final Workers w;
        private final int k;
        private final Parameters prm;
        private int asked;

        Part(Workers w, int k, Parameters prm) {
            this.w = w;
            this.k = k;
            this.prm = prm;
        }

        @Override
        public void load(EvolutionLayout layout, int capacity, PhaseTimings timings) {
            send(layout.n(), "", f -> writeLayout(f, prm, layout, capacity, ArrayFiles.PARALLEL_BYTES), timings);
        }

        /** Writes the part's tiles to the child's file straight from the whole layout's ranges (no gathered copy). */
        @Override
        public void loadTiles(EvolutionLayout whole, int[] tiles, int[] firstPoint, int capacity,
                PhaseTimings timings) {
            long m = 0;
            for (int t : tiles) {
                m += firstPoint[t + 1] - firstPoint[t];
            }
            send(m, ", from the whole layout's tiles",
                    f -> writeTiles(f, prm, whole, tiles, firstPoint, capacity, ArrayFiles.PARALLEL_BYTES), timings);
        }

        /** The part's layout file of {@code n} points written by {@code write}, and the child asked to load it. */
        private void send(long n, String how, java.util.function.Consumer<Path> write, PhaseTimings timings) {
            Path f = w.dir.resolve("part-" + k + ".layout");
            // a child that cannot compute fails the run before its layout is written
            timings.time("waiting for its process's start (device check)", Kind.HOST, this::ready);
            try {
                timings.time(String.format(Locale.ROOT, "layout file written (%.1f MB%s)", n * (8.0 * prm.d() + 4) / 1e6,
                        how), Kind.HOST, () -> write.accept(f));
                ask("load", f, timings, Kind.HOST);
            } finally {
                delete(f);
            }
        }

        @Override
        public int evolve(double[] reps, int ns, int[] tileStart, PhaseTimings timings) {
            int d = prm.d();
            Path f = w.dir.resolve("part-" + k + ".reps");
            Path back = w.dir.resolve("part-" + k + ".moved");
            try {
                timings.time("representatives sent (file)", Kind.HOST, () -> {
                    try (ArrayFiles.Out o = new ArrayFiles.Out(f)) {
                        o.ints(ns, tileStart.length - 1).ints(tileStart).doubles(reps, 0, ns * d);
                    }
                });
                int it = Integer.parseInt(ask("evolve", f, timings, Kind.KERNEL));
                timings.time("representatives back (file)", Kind.HOST, () -> {
                    try (ArrayFiles.In in = new ArrayFiles.In(back)) {
                        in.doubles(reps, 0, ns * d);
                    }
                });
                return it;
            } finally {
                delete(f);
                delete(back);
            }
        }

        /**
         * Asks child k to {@code op} the file; its phases go into {@code timings} as parts of this request's wall;
         * returns its answer's first line. A failed child: its message as this run's failure.
         */
        private String ask(String op, Path file, PhaseTimings timings, Kind kind) {
            WorkerProcesses.Reply r;
            try (PhaseTimings.Region region = timings.enclose("its worker process: " + op + " (wall)", kind)) {
                try {
                    ready();
                    r = answered(w.procs.ask(k, asked++, op + "\t" + file));
                } catch (RuntimeException e) {
                    w.failed(e);
                    throw e;
                }
                String[] lines = r.out().split("\n");
                for (int i = 1; i < lines.length; i++) {
                    String[] f = lines[i].split("\t", 5);
                    timings.add(f[4], Kind.valueOf(f[0]), Long.parseLong(f[2]), Integer.parseInt(f[1]),
                            f[3].isEmpty() ? null : f[3]);
                }
                return lines[0].strip();
            }
        }

        /** Waits for the child's answer to {@link #READY} (sent at its start: its device checked), once. */
        private void ready() {
            if (asked == 0) {
                try {
                    answered(w.procs.ask(k, asked++, READY));
                } catch (RuntimeException e) {
                    w.failed(e);
                    throw e;
                }
            }
        }

        /** The reply, or its failure (the child's message) thrown. */
        private static WorkerProcesses.Reply answered(WorkerProcesses.Reply r) {
            if (r.status() != 0) {
                throw new AccelGeomException(r.err().strip());
            }
            return r;
        }

        @Override
        public void close() {
            // the child keeps its backend until its input ends
        }
    }

    /**
     * A part's layout file: the header (d, n, tiles, capacity, precision, fixed-point exponent, iteration cap; R1), the
     * coordinates column-major, the points' tiles. Doubles over {@code parallelBytes} go in parallel chunks.
     */
    static void writeLayout(Path f, RidgeBackend.Parameters prm, EvolutionLayout layout, int capacity,
            long parallelBytes) {
        try (ArrayFiles.Out o = new ArrayFiles.Out(f, parallelBytes)) {
            header(o, prm, layout.n(), layout.numTiles(), capacity);
            o.doubles(layout.coords(), 0, layout.d() * layout.n());
            o.ints(layout.pointTile(), 0, layout.n());
        }
    }

    /**
     * The file {@link #writeLayout} writes for {@code TileSplit.gather(whole, tiles, firstPoint)}, byte for byte,
     * written from the whole layout's tile ranges: each coordinate's ranges one after another, then the tiles' numbers
     * from 0 as runs, both in parallel chunks when over {@code parallelBytes}.
     */
    static void writeTiles(Path f, RidgeBackend.Parameters prm, EvolutionLayout whole, int[] tiles, int[] firstPoint,
            int capacity, long parallelBytes) {
        int d = whole.d();
        int n = whole.n();
        int[] len = new int[tiles.length];
        int m = 0;
        for (int i = 0; i < tiles.length; i++) {
            len[i] = firstPoint[tiles[i] + 1] - firstPoint[tiles[i]];
            m = Math.addExact(m, len[i]);
        }
        Math.multiplyExact(d, m); // one array on the child's side
        int[] from = new int[d * tiles.length];
        int[] lens = new int[d * tiles.length];
        for (int c = 0; c < d; c++) {
            for (int i = 0; i < tiles.length; i++) {
                from[c * tiles.length + i] = c * n + firstPoint[tiles[i]];
                lens[c * tiles.length + i] = len[i];
            }
        }
        try (ArrayFiles.Out o = new ArrayFiles.Out(f, parallelBytes)) {
            header(o, prm, m, tiles.length, capacity);
            o.doubles(whole.coords(), from, lens);
            o.runs(len);
        }
    }

    private static void header(ArrayFiles.Out o, RidgeBackend.Parameters prm, int n, int tiles, int capacity) {
        o.ints(prm.d(), n, tiles, capacity, prm.precision().ordinal(), prm.fixedPointExponent(), prm.maxIterations());
        o.doubles(new double[] {prm.r1()}, 0, 1);
    }

    private static void delete(Path f) {
        try {
            Files.deleteIfExists(f);
        } catch (IOException e) {
            // the directory goes at the end
        }
    }

    /** A child's phases as its answer's lines: kind, count, nanoseconds, enclosing phase, name (tab-separated). */
    static String encode(PhaseTimings t) {
        StringBuilder b = new StringBuilder();
        for (PhaseTimings.Phase p : t.phases()) {
            String parent = t.parent(p.name());
            b.append(p.kind()).append('\t').append(p.count()).append('\t').append(p.nanos()).append('\t')
                    .append(parent == null ? "" : parent.replace('\t', ' ').replace('\n', ' ')).append('\t')
                    .append(p.name().replace('\t', ' ').replace('\n', ' ')).append('\n');
        }
        return b.toString();
    }

    // ---- the child

    /**
     * A worker process of a split ridge: serves its parent's requests from stdin ({@code K\tload\tFILE}: a part's
     * layout and the parameters, the backend made and loaded; {@code K\tevolve\tFILE}: representatives evolved,
     * written to FILE's {@code .moved} sibling), each answered with a frame; at the end of its input it exits.
     */
    static int child(Execution execution) {
        WorkerProcesses.ready();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        DeviceSession session = DeviceSession.open(execution);
        RidgeBackend backend = null;
        int d = 0;
        try {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] f = line.split("\t", 3);
                int k = Integer.parseInt(f[0].trim());
                long t0 = System.nanoTime();
                PhaseTimings t = execution.newTimings();
                try {
                    MultiDevice.checked(); // the device check begun at the start: its error line, not a later one
                    WorkerProcesses.tornadoUp(); // the timeline's mark (the first request: "ready", sent at the start)
                    Path file = Path.of(f[2]);
                    String answer;
                    if (f[1].equals("ready")) {
                        answer = "0";
                    } else if (f[1].equals("load")) {
                        if (backend != null) {
                            backend.close();
                        }
                        try (RidgeLayoutFile pf = t.time("layout file opened (its header and points' tiles)",
                                Kind.HOST, () -> RidgeLayoutFile.open(file, cores()))) {
                            d = pf.parameters().d();
                            backend = t.time("its backend made", Kind.HOST,
                                    () -> Ridge.evolution(pf.parameters(), session));
                            if (STREAM && backend instanceof RidgeBackend.Streamed s) {
                                s.load(pf, pf.capacity(), t); // its tiles read as it orders them
                            } else { // the whole file first (session 17's child)
                                t.time("layout file read", Kind.HOST, pf::fillAll);
                                backend.load(pf.layout(), pf.capacity(), t);
                            }
                        }
                        answer = "0";
                    } else if (f[1].equals("evolve") && backend != null) {
                        int dd = d;
                        int[][] ints = new int[2][];
                        double[] reps = t.time("representatives read (file)", Kind.HOST, () -> {
                            try (ArrayFiles.In r = new ArrayFiles.In(file)) {
                                ints[0] = r.ints(2);
                                ints[1] = r.ints(ints[0][1] + 1);
                                return r.doubles(ints[0][0] * dd);
                            }
                        });
                        int it = backend.evolve(reps, ints[0][0], ints[1], t);
                        Path back = file.resolveSibling(file.getFileName().toString().replace(".reps", ".moved"));
                        t.time("representatives written (file)", Kind.HOST, () -> {
                            try (ArrayFiles.Out o = new ArrayFiles.Out(back)) {
                                o.doubles(reps, 0, reps.length);
                            }
                        });
                        answer = Integer.toString(it);
                    } else {
                        throw new AccelGeomException("worker process: unknown request '" + line + "'");
                    }
                    WorkerProcesses.reply(k, 0, answer + "\n" + encode(t), "", System.nanoTime() - t0);
                } catch (AccelGeomException e) {
                    WorkerProcesses.reply(k, 1, "", String.valueOf(e.getMessage()), System.nanoTime() - t0);
                } catch (Exception | OutOfMemoryError | StackOverflowError e) {
                    WorkerProcesses.reply(k, 3, "", Batch.message(e), System.nanoTime() - t0);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        WorkerProcesses.endAndExit(session.planBuilds()); // the exit frees the device: no close, one by one
        return 0;
    }

    /**
     * The cores a child counts on while it loads: the host's over the split's worker processes (all load at once).
     */
    private static int cores() {
        int parts = 1;
        try {
            parts = Math.max(1, Integer.parseInt(String.valueOf(System.getenv(PARTS_ENV)).strip()));
        } catch (NumberFormatException e) {
            // not set: this process alone
        }
        return Math.max(1, java.util.concurrent.ForkJoinPool.getCommonPoolParallelism() / parts);
    }
}
