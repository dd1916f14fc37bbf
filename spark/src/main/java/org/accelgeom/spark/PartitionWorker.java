package org.accelgeom.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.TornadoSupport;
import org.apache.spark.TaskContext;
import org.apache.spark.resource.ResourceInformation;

/**
 * The executor's side: one partition of work items in one device session, on the task's GPU (or the executor's
 * cores). An item that fails is reported as an {@link Outcome} with a one-line message and the partition goes on,
 * as the CLI's batch does.
 */
final class PartitionWorker {
    private PartitionWorker() {
    }

    /** The GPU addresses Spark gave the running task (empty outside a task or without GPU scheduling). */
    static String[] taskGpus() {
        TaskContext tc = TaskContext.get();
        if (tc == null) {
            return new String[0];
        }
        ResourceInformation gpu = tc.resources().get("gpu").getOrElse(() -> null);
        return gpu == null ? new String[0] : gpu.addresses();
    }

    static Iterator<Outcome> run(JobSettings s, Iterator<WorkItem> items) {
        List<Outcome> outcomes = new ArrayList<>();
        Placement p;
        try {
            p = Placement.of(s.backend(), s.threads(), s.device(), taskGpus(), s.gpuDevices(), TornadoSupport.available());
        } catch (AccelGeomException e) { // every item of the task fails alike
            String gpus = String.join(",", taskGpus());
            items.forEachRemaining(w -> outcomes.add(Outcome.failed(w, e.getMessage(), 0, 0, gpus.isEmpty() ? "-" : "gpu " + gpus)));
            return outcomes.iterator();
        }
        DeviceSession session = SessionPool.borrow(p.execution());
        try {
            while (items.hasNext()) {
                outcomes.add(one(s, items.next(), session, p));
            }
        } finally {
            SessionPool.giveBack(session);
        }
        return outcomes.iterator();
    }

    static Outcome one(JobSettings s, WorkItem w, DeviceSession session, Placement p) {
        long t0 = System.nanoTime();
        int[] written = {0};
        try {
            int files;
            if (w.isFrames()) {
                files = VoronoiWork.frames(s, w, session, written);
            } else if (s.command().equals("hull")) {
                files = HullWork.file(s, w, session);
            } else {
                files = VoronoiWork.file(s, w, session);
            }
            return Outcome.done(w, files, System.nanoTime() - t0, p.description());
        } catch (Exception | OutOfMemoryError | StackOverflowError e) {
            return Outcome.failed(w, message(e), written[0], System.nanoTime() - t0, p.description());
        }
    }

    /** The one-line message of a failed input, as the CLI's batch words it. */
    static String message(Throwable e) {
        if (e instanceof OutOfMemoryError) {
            return "out of memory (max heap " + Runtime.getRuntime().maxMemory() / (1 << 20)
                    + " MiB): give the executors more, e.g. --executor-memory 16g";
        }
        if (e instanceof UncheckedIOException u) {
            return u.getCause().getMessage();
        }
        if (e instanceof IOException io) {
            return io instanceof java.nio.file.NoSuchFileException ? io.getMessage() + ": no such file" : String.valueOf(io.getMessage());
        }
        if (e instanceof AccelGeomException) {
            return e.getMessage();
        }
        return "internal error (a bug; please report it): " + e;
    }
}
