package org.accelgeom.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.hull.Hull;
import org.accelgeom.hull.HullOptions;
import org.accelgeom.hull.HullResult;
import org.accelgeom.hull.PartitionedHull;
import org.accelgeom.io.PointCloud;

import picocli.CommandLine.ParameterException;

/**
 * {@code hull --devices LIST} on one input, split over worker processes ({@link WorkerProcesses}, the default; with
 * {@code -Daccelgeom.devices.workers=threads} the split runs as threads of this process, {@link PartitionedHull}).
 *
 * <p>The parent starts one child per listed device, all at once, and asks child k for part k of K. The child makes
 * its part alone ({@link HullParts#load}: {@code --random} generates only its points, a file is read in its byte
 * range), checks it as the one-device run checks the whole input, computes the part's hull on its device and
 * writes the part's hull vertices (part indices and exact coordinates, {@link PartFiles}) to a file in the parent's
 * temporary directory; its answer says its point count and its stages' times. The parent reads the parts' vertices
 * and computes the hull of their union ({@link PartitionedHull#merge}), numbering the points as one process does
 * (each part's first point after the earlier parts' counts): the report and the files are the one-device run's
 * ({@link HullResult#toMesh} writes the facets in a canonical order). With --repeat the children keep their parts
 * and compute them again. The parent holds the input's points only for --save-points and --picture.
 */
final class SplitHull {

    /** Set in a child's environment: the number of parts (the child's part is the number its parent sends). */
    static final String PARTS_ENV = "ACCELGEOM_SPLIT_PARTS";
    /** Set in a child's environment: the directory its part files go to. */
    static final String DIR_ENV = "ACCELGEOM_SPLIT_DIR";

    private SplitHull() {
    }

    /** This process is a worker of a split hull. */
    static boolean isChild() {
        return WorkerProcesses.isChild() && System.getenv(PARTS_ENV) != null;
    }

    /**
     * Whether this run splits its one input over worker processes: several devices, worker processes (the default),
     * not a batch, and an input the children can read themselves (not standard input).
     */
    static boolean wanted(CommonOptions common, String input) {
        return common.deviceList != null && !Batch.active() && WorkerProcesses.wanted(common.deviceList)
                && !"-".equals(input);
    }

    // ---- the parent

    /** What child k answered: its point count, the times of its stages, and how it read its part. */
    record Stages(int count, long ready, long load, long device, long hull, long write, String how) {
        static Stages parse(String line) {
            String[] f = line.strip().split(" ", 7);
            return new Stages(Integer.parseInt(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]),
                    Long.parseLong(f[4]), Long.parseLong(f[5]), f[6]);
        }

        String format() {
            return String.format(Locale.ROOT, "%d %d %d %d %d %d %s", count, ready, load, device, hull, write, how);
        }
    }

    /** The split run: its report and files as the one-device run's ({@link HullCommand#finish}). */
    static int parent(HullCommand c, String input, Path output, Path picture, HullOptions options, PrintWriter out) {
        int[] devices = c.common.deviceList;
        int parts = devices.length;
        String[] args = c.spec.root().commandLine().getParseResult().originalArgs().toArray(String[]::new);
        HullParts source = HullParts.of(c, input);
        Path dir;
        try {
            dir = Files.createTempDirectory("accelgeom-split");
        } catch (IOException e) {
            throw new AccelGeomException("cannot make a temporary directory for the parts: " + e.getMessage(), e);
        }
        long launched = System.currentTimeMillis();
        PhaseTimings first = new PhaseTimings();
        PhaseTimings.Region start = first.enclose("parts in " + parts + " worker processes (wall, from their start)",
                Kind.HOST);
        WorkerProcesses procs = WorkerProcesses.start(devices, args, Map.of(PARTS_ENV, Integer.toString(parts),
                DIR_ENV, dir.toString()));
        Timeline.markProcess("starting the worker processes");
        ExecutorService askers = Executors.newFixedThreadPool(parts);
        DeviceSession[] mergeDevice = new DeviceSession[1];
        boolean done = false;
        try {
            PointCloud points = null;
            HullResult r = null;
            PartitionedHull.Merged merged = null;
            String[] partPhases = new String[parts];
            long nanos = 0;
            for (int run = 1; run <= c.repeat; run++) {
                long t0 = System.nanoTime();
                PhaseTimings timings = run == 1 ? first : new PhaseTimings();
                PhaseTimings.Region region = run == 1 ? start
                        : timings.enclose("parts in " + parts + " worker processes (wall)", Kind.HOST);
                List<Future<WorkerProcesses.Reply>> replies = new ArrayList<>();
                for (int k = 0; k < parts; k++) {
                    int part = k;
                    replies.add(askers.submit(() -> procs.ask(part, part, null)));
                }
                if (run == 1) {
                    timings.add("this process: the merge's code run once on a sample while the parts compute", Kind.HOST,
                            warmUp(options));
                }
                if (run == 1 && (c.savePoints != null || picture != null)) {
                    points = source.all(); // while the children work
                    if (c.savePoints != null) {
                        org.accelgeom.io.Formats.writePoints(c.savePoints, points);
                        out.printf(Locale.ROOT, "wrote %s (%d points)%n", c.savePoints, points.size());
                    }
                }
                List<Stages> stages = collect(c, replies);
                addStages(timings, stages, devices, source.verb(), run == 1 ? launched : -1);
                region.close();
                Timeline.markProcess("the parts' hulls in the worker processes");
                List<PartitionedHull.Part> list = timings.time("reading the parts' vertices", Kind.HOST,
                        () -> readParts(dir, parts, source.name(), stages));
                for (int k = 0; k < parts; k++) {
                    partPhases[k] = PartFiles.phases(PartFiles.file(dir, k));
                }
                merged = PartitionedHull.merge(list, options.withResident(false), timings, () -> mergeDevice[0] != null
                        ? mergeDevice[0] : (mergeDevice[0] = DeviceSession.open(options.execution())));
                r = merged.result();
                nanos = run == 1 ? (System.currentTimeMillis() - launched) * 1_000_000L // from the children's start
                        : System.nanoTime() - t0;
                if (c.repeat > 1) {
                    out.printf(Locale.ROOT, "run %d/%d: %10.3f ms (%d hull vertices)%n", run, c.repeat, nanos / 1e6,
                            r.vertices().length);
                    out.flush();
                }
            }
            Timeline.markProcess("computing the hull");
            PartitionedHull.Merged m = merged;
            done = true;
            int rc = c.finish(out, source.name(), r, nanos, () -> m.local().toMesh(m.candidates()), points, output,
                    picture);
            for (int k = 0; k < parts && c.timings; k++) {
                if (partPhases[k] != null) {
                    out.printf(Locale.ROOT, "part %d's hull in its worker process (device %d, last run):%n%s", k,
                            devices[k], partPhases[k]);
                }
            }
            out.flush();
            return rc;
        } finally {
            askers.shutdownNow();
            try {
                procs.close();
            } catch (RuntimeException e) {
                if (done) {
                    throw e;
                } // else the run's own failure is the one to report
            } finally {
                if (mergeDevice[0] != null) {
                    mergeDevice[0].close();
                }
                PartFiles.delete(dir);
            }
        }
    }

    /** Every child's answer, in part order; then the first part's failure, if any (no child's stream is read on). */
    private static List<Stages> collect(HullCommand c, List<Future<WorkerProcesses.Reply>> replies) {
        List<Stages> stages = new ArrayList<>();
        RuntimeException failure = null;
        for (Future<WorkerProcesses.Reply> f : replies) {
            try {
                stages.add(answer(c, await(f)));
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
        return stages;
    }

    /** Each part's stages as phases; {@code launched} (ms), where not -1, is when the processes were started. */
    private static void addStages(PhaseTimings timings, List<Stages> stages, int[] devices, String verb, long launched) {
        for (int k = 0; k < stages.size(); k++) {
            Stages s = stages.get(k);
            String p = String.format(Locale.ROOT, "part %d (device %d, %d points): ", k, devices[k], s.count());
            if (launched >= 0) {
                timings.add(p + "process start until its work", Kind.HOST, (s.ready() - launched) * 1_000_000L);
            }
            if (s.load() > 0) {
                timings.add(p + verb + " (" + s.how() + ")", Kind.HOST, s.load());
            }
            if (s.device() > 0) {
                timings.add(p + "waiting for its device's start and plan", Kind.HOST, s.device());
            }
            timings.add(p + "hull", Kind.HOST, s.hull());
            timings.add(p + "vertices written", Kind.HOST, s.write());
        }
    }

    /**
     * The merge's code (the hull on the host's cores) run on random points while the children work: the parent's
     * JIT has compiled it by the time the parts' vertices come (a cold merge of 10^5 vertices is several times a
     * warm one). Returns its time.
     */
    private static long warmUp(HullOptions options) {
        long t0 = System.nanoTime();
        HullOptions host = HullOptions.of(options.execution().backend() == Backend.JVM ? Backend.JVM : Backend.JVM_PARALLEL)
                .withThreads(options.execution().threads()).withCullDirections(options.cullDirections());
        for (int k = 0; k < 3; k++) { // the parts' hulls and their merge, as the parent runs it
            PartitionedHull.warmUp(org.accelgeom.hull.RandomPoints.sphere(1 << 15, k), host);
        }
        return System.nanoTime() - t0;
    }

    private static WorkerProcesses.Reply await(Future<WorkerProcesses.Reply> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AccelGeomException("interrupted while waiting for a worker process");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new AccelGeomException(Batch.message(e.getCause()), e.getCause());
        }
    }

    /** A child's answer: its stages, or its failure as this run's (usage: a usage error; else one error line). */
    private static Stages answer(HullCommand c, WorkerProcesses.Reply r) {
        return switch (r.status()) {
            case 0 -> Stages.parse(r.out());
            case 2 -> throw new ParameterException(c.spec.commandLine(), r.err());
            default -> throw new AccelGeomException(r.err());
        };
    }

    /**
     * The parts' vertices from their files, in part order; the first non-finite point of the input (the earliest
     * part's first) fails the run with the one-device run's message, its index in the whole input.
     */
    static List<PartitionedHull.Part> readParts(Path dir, int parts, String name, List<Stages> stages) {
        List<PartitionedHull.Part> list = new ArrayList<>();
        long before = 0;
        long total = stages.stream().mapToLong(Stages::count).sum();
        for (int k = 0; k < parts; k++) {
            PartFiles.Read p = PartFiles.read(PartFiles.file(dir, k));
            if (p.bad() >= 0) {
                throw new AccelGeomException(name + ": point " + (before + p.bad() + 1) + " of " + total + " ("
                        + p.badCoordinates() + ") has a non-finite coordinate: the convex hull needs finite coordinates");
            }
            list.add(p.part());
            before += p.part().count();
        }
        return list;
    }

    // ---- the child

    /**
     * A worker process of a split: answers each part number its parent sends (its part, made once and kept for
     * --repeat) with its stages, having written the part's hull vertices to the parent's directory.
     */
    static int child(HullCommand c, String input, HullOptions options) {
        long ready = System.currentTimeMillis();
        int parts = Integer.parseInt(System.getenv(PARTS_ENV));
        Path dir = Path.of(System.getenv(DIR_ENV));
        HullParts source = HullParts.of(c, input);
        Iterator<Integer> numbers = WorkerProcesses.numbers(null);
        DeviceSession session = null;
        java.util.concurrent.CompletableFuture<Void> warm = null;
        try {
            PointCloud points = null;
            String how = "";
            int bad = -1;
            while (numbers.hasNext()) {
                int k = numbers.next();
                long t0 = System.nanoTime();
                try {
                    long load = 0;
                    long device = 0;
                    boolean fresh = points == null;
                    if (fresh) {
                        if (c.common.backend == Backend.TORNADO) { // the device's start and plan beside the reading
                            session = DeviceSession.open(options.execution());
                            warm = background(c, session, source.guess(k, parts));
                        }
                        HullParts.Loaded l = source.load(k, parts);
                        points = l.points();
                        how = l.how();
                        load = System.nanoTime() - t0;
                        join(warm);
                        warm = null;
                        device = System.nanoTime() - t0 - load;
                    }
                    long check = 0;
                    if (fresh) {
                        long c0 = System.nanoTime();
                        bad = source.check(points); // once: the part is kept for --repeat
                        check = System.nanoTime() - c0;
                    }
                    Stages w = hullPart(points, bad, k == 0, PartFiles.file(dir, k), options, session);
                    Stages s = new Stages(w.count(), ready, load, device, check + w.hull(), w.write(), how);
                    WorkerProcesses.reply(k, 0, s.format(), "", System.nanoTime() - t0);
                } catch (ParameterException e) {
                    WorkerProcesses.reply(k, 2, "", e.getMessage(), System.nanoTime() - t0);
                } catch (AccelGeomException e) {
                    WorkerProcesses.reply(k, 1, "", String.valueOf(e.getMessage()), System.nanoTime() - t0);
                } catch (Exception | OutOfMemoryError | StackOverflowError e) {
                    WorkerProcesses.reply(k, 3, "", Batch.message(e), System.nanoTime() - t0);
                }
                ready = System.currentTimeMillis();
            }
            if (warm != null) {
                warm.exceptionally(e -> null).join(); // a part that failed before its device was waited for
            }
            long plans = session != null ? session.planBuilds() : 0;
            WorkerProcesses.end(plans);
        } finally {
            if (session != null) {
                session.close();
            }
        }
        return 0;
    }

    /**
     * A part's work in its worker process: the one-device run's checks, the part's hull (unless a point is not
     * finite) and its file; the stages' count, hull and write times.
     */
    static Stages hullPart(HullParts source, PointCloud points, boolean seed, Path file, HullOptions options,
            DeviceSession session) {
        long t1 = System.nanoTime();
        int bad = source.check(points);
        long check = System.nanoTime() - t1;
        Stages s = hullPart(points, bad, seed, file, options, session);
        return new Stages(s.count(), 0, 0, 0, check + s.hull(), s.write(), "");
    }

    /**
     * {@link #hullPart(HullParts, PointCloud, boolean, Path, HullOptions, DeviceSession)} with the part's check already
     * made ({@code bad}: its first non-finite point, or -1): a child that keeps its part for --repeat checks it once. With
     * --timings the part's own phase table goes beside its file ({@link PartFiles#phases}). {@code seed}: the part
     * whose QuickHull history seeds the merge (part 0; with {@link PartitionedHull#SEEDED}).
     */
    static Stages hullPart(PointCloud points, int bad, boolean seed, Path file, HullOptions options,
            DeviceSession session) {
        long t1 = System.nanoTime();
        Hull.Traced h = bad >= 0 ? null : hull(points, options, session);
        long t2 = System.nanoTime();
        PartFiles.write(file, points, h, seed, bad);
        if (h != null && h.result().timings().level() == org.accelgeom.engine.Timings.DEVICE) {
            PartFiles.writePhases(file, h.result().timings().format());
        }
        return new Stages(points.size(), 0, 0, 0, t2 - t1, System.nanoTime() - t2, "");
    }

    /**
     * The device check and, where the part's size is known ahead, the compile of its plan, on a thread of their own
     * while the part is read; {@link #join} waits for them and throws the check's failure (a device TornadoVM lacks).
     */
    private static java.util.concurrent.CompletableFuture<Void> background(HullCommand c, DeviceSession session,
            long points) {
        java.util.concurrent.CompletableFuture<Void> f = new java.util.concurrent.CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                MultiDevice.check(c.common.devices, c.common.deviceList);
            } catch (RuntimeException | Error e) {
                f.completeExceptionally(e);
                return;
            }
            if (points > 0 && org.accelgeom.engine.Tuning.PREWARM_PLAN.booleanValue()) {
                try {
                    int n = (int) Math.min(points, org.accelgeom.engine.Capacity.MAX / 2);
                    session.tornado(org.accelgeom.hull.HullBackend.Factory.class).prepare(session, n);
                } catch (RuntimeException | LinkageError e) {
                    // the hull meets the same problem and reports it in one line
                }
            }
            f.complete(null);
        }, "accelgeom-split-device");
        t.setDaemon(true);
        t.start();
        return f;
    }

    private static void join(java.util.concurrent.CompletableFuture<Void> f) {
        if (f == null) {
            return;
        }
        try {
            f.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /** A part's hull: on the device, or on the JVM for a tiny part (every backend gives the same hull). */
    private static Hull.Traced hull(PointCloud points, HullOptions options, DeviceSession session) {
        if (points.dimension() != 3) {
            throw new AccelGeomException("the convex hull needs 3D points; these have dimension " + points.dimension());
        }
        if (session == null || points.size() < PartitionedHull.MIN_POINTS_PER_PART) {
            HullOptions jvm = options.execution().backend() == Backend.TORNADO
                    ? options.withExecution(options.execution().withBackend(Backend.JVM_PARALLEL)) : options;
            try (DeviceSession own = DeviceSession.open(jvm.execution())) {
                return PartitionedHull.hullOfPart(points.x(), points.y(), points.z(), jvm, own);
            }
        }
        return PartitionedHull.hullOfPart(points.x(), points.y(), points.z(), options, session);
    }
}
