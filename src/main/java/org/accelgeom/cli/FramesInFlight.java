package org.accelgeom.cli;

import java.io.PrintWriter;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;
import java.util.function.IntPredicate;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.Progress;

/**
 * The items of one input (trajectory frames, models) several at once in one session (one device, or none): a
 * pipeline as the in-flight file batch ({@link Batch#inFlight}). The items are read in order on the calling thread,
 * up to {@code inFlight} computed at once on worker threads (each computes its item and writes its files), a new one
 * read and started as soon as one ends; the report lines are printed in item order, at most
 * {@link Batch#REPORTS_AHEAD} per item in flight waiting behind a slow one, so memory holds {@code inFlight} items
 * and their results. What the items print and write is what they print and write one at a time: an item that fails
 * with an {@link AccelGeomException} is reported on one line in its turn and the others go on; any other failure,
 * or a failure reading the next item, ends the run after the reports of the items before it.
 */
final class FramesInFlight {

    /** One item's work in the session: its report line, after writing its files; {@code alone}: on its thread only. */
    @FunctionalInterface
    interface Work<T> {
        String apply(DeviceSession session, T item, boolean alone) throws Exception;
    }

    /** An item started: its work and how a failure names it. */
    private record Pending(FutureTask<String> work, String what) {
    }

    private FramesInFlight() {
    }

    /**
     * Runs every item of {@code source} in {@code session}, {@code inFlight} at once; the item at position {@code p}
     * (from 0) runs alone on its worker thread when {@code alone.test(p)} ({@link
     * org.accelgeom.voronoi.Voronoi#computeAlone}), else on the session's threads. Returns the number of failed items.
     */
    static <T> int run(Iterator<T> source, int inFlight, IntPredicate alone, DeviceSession session, Work<T> work,
            Function<T, String> what, PrintWriter out, PrintWriter err, boolean debug, Progress progress) {
        ExecutorService workers = Executors.newFixedThreadPool(inFlight,
                Thread.ofPlatform().daemon().name("accelgeom-frame-", 1).factory());
        ArrayDeque<Pending> window = new ArrayDeque<>(); // the items started and not yet reported, in order
        BlockingQueue<Pending> ended = new LinkedBlockingQueue<>();
        int failed = 0, position = 0, running = 0, done = 0;
        boolean more = true;
        RuntimeException unread = null; // the next item could not be read: reported after the items before it
        try {
            while (true) {
                while (more && running < inFlight && window.size() < inFlight * (1 + Batch.REPORTS_AHEAD)) {
                    T item;
                    try {
                        more = source.hasNext();
                        if (!more) {
                            break;
                        }
                        item = source.next();
                    } catch (RuntimeException e) {
                        unread = e;
                        more = false;
                        break;
                    }
                    window.add(start(item, alone.test(position++), session, work, what.apply(item), workers, ended));
                    running++;
                }
                while (!window.isEmpty() && window.peek().work().isDone()) {
                    progress.end(); // a terminal's progress line cleared before the report line (drawn again after)
                    failed += report(window.poll(), out, err, debug);
                    progress.update(++done);
                }
                if (window.isEmpty() && !more) {
                    break;
                }
                // an item in flight ends (the head still computes, or every slot was taken): a slot is free again
                for (Pending e = ended.take(); e != null; e = ended.poll()) {
                    running--;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AccelGeomException("interrupted while computing the frames", e);
        } finally {
            workers.shutdownNow();
        }
        if (unread != null) {
            throw unread;
        }
        return failed;
    }

    /** Starts one item's work on a worker (it tells {@code ended} when it ends). */
    private static <T> Pending start(T item, boolean alone, DeviceSession session, Work<T> work, String what,
            ExecutorService workers, BlockingQueue<Pending> ended) {
        Pending[] self = new Pending[1];
        FutureTask<String> task = new FutureTask<>(() -> work.apply(session, item, alone)) {
            @Override
            protected void done() {
                ended.add(self[0]); // after the result is set: the reading thread finds it done
            }
        };
        self[0] = new Pending(task, what);
        workers.execute(task);
        return self[0];
    }

    /**
     * Prints an ended item's report line, or reports its {@link AccelGeomException} on one line (returns 1); any other
     * failure is thrown (a checked one as an AccelGeomException), as one at a time.
     */
    private static int report(Pending p, PrintWriter out, PrintWriter err, boolean debug) throws InterruptedException {
        int failed = 0;
        try {
            out.print(p.work().get());
        } catch (ExecutionException x) {
            Throwable e = x.getCause();
            if (e instanceof AccelGeomException a) {
                failed = 1;
                out.flush();
                Main.report(err, p.what() + ": " + a.getMessage(), a, debug);
            } else if (e instanceof RuntimeException r) {
                throw r;
            } else if (e instanceof Error r) {
                throw r;
            } else {
                throw new AccelGeomException(Batch.message(e), e);
            }
        }
        out.flush();
        return failed;
    }
}
