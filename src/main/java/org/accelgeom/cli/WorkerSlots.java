package org.accelgeom.cli;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Tuning;

/**
 * Several inputs in flight on each device worker of a {@code --devices} batch ({@link MultiDevice}): how many
 * ({@link #perWorker}), the heap they may hold at once ({@link Heap}), and a worker process's side of it
 * ({@link #serve}: each number its parent sends computed at once, beside the others it holds).
 */
final class WorkerSlots {

    private WorkerSlots() {
    }

    /**
     * Inputs in flight per device worker ({@code accelgeom.devices.inFlight}; 0: what the command's one-device batch
     * keeps in flight on one worker's share of this process's cores, {@link Batch.InFlight#inFlight(int)}; 1 for a
     * command whose batch computes one input at a time).
     */
    static int perWorker(Batch.Body body, int workers) {
        int set = Tuning.DEVICE_IN_FLIGHT.intValue();
        if (set > 0) {
            return set;
        }
        return body instanceof Batch.InFlight f ? Math.max(1, f.inFlight(coresPerWorker(workers))) : 1;
    }

    /**
     * Items in flight per device worker ({@link MultiDevice#items}: voronoi's trajectory frames and models, whose
     * work, a diagram in the worker's session and its files, runs beside another's as a voronoi batch's inputs do):
     * {@code accelgeom.devices.inFlight}, or by default voronoi's in-flight count on one worker's share of the cores
     * (half the share, 2 to 8); items computed each alone on its slot's thread ({@code alone}: small frames, whose
     * levels stay on the host) as many as the share's cores (at most 64), as one device computes them.
     */
    static int forItems(int workers, boolean alone) {
        int set = Tuning.DEVICE_IN_FLIGHT.intValue();
        if (set > 0) {
            return set;
        }
        int share = coresPerWorker(workers);
        return alone && share >= 2 ? Math.min(64, share) : VoronoiCommand.halfTheCores(share);
    }

    /** One worker's share of this process's cores. */
    private static int coresPerWorker(int workers) {
        return Math.max(1, Runtime.getRuntime().availableProcessors() / Math.max(1, workers));
    }

    /**
     * The heap of the inputs in flight in one JVM: an input starts beside others only while their {@link
     * Batch.InFlight#footprint}s stay within half the heap (-Xmx), as in a one-device batch; one input alone always
     * starts.
     */
    static final class Heap {
        private final Batch.Body body;
        private final long budget = Runtime.getRuntime().maxMemory() / 2;
        private long used;
        private int running;

        Heap(Batch.Body body) {
            this.body = body;
        }

        /** Runs {@code work} for {@code input} once its footprint fits beside the inputs in flight. */
        <R> R run(Path input, java.util.function.Supplier<R> work) {
            long footprint = footprint(input);
            synchronized (this) {
                while (running > 0 && used + footprint > budget) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new AccelGeomException("interrupted while waiting for heap for " + input);
                    }
                }
                running++;
                used += footprint;
            }
            try {
                return work.get();
            } finally {
                synchronized (this) {
                    running--;
                    used -= footprint;
                    notifyAll();
                }
            }
        }

        private long footprint(Path input) {
            try {
                return body instanceof Batch.InFlight f ? Math.max(0, f.footprint(input)) : 0;
            } catch (RuntimeException e) {
                return 0; // the input's own work reports what is wrong
            }
        }
    }

    /** An event of {@link #serve}: the next number, the end of the numbers, an input done, or a failure. */
    private sealed interface Event {
    }

    private record Next<T>(T value) implements Event {
    }

    /** A failure: of a task ({@code task}), else of the source. */
    private record Failed(Throwable failure, boolean task) implements Event {
    }

    private enum Mark implements Event {
        END, DONE
    }

    /**
     * In a worker process: {@code task} on each element of {@code source} as soon as it is read (the parent's
     * numbers, read on a thread of their own), each on a thread of its own, beside the others in flight (the parent
     * sends no more than the worker's slots). Returns once the source has ended and every task has. A failure of
     * the source or of a task (beyond its input: a missing device, the parent gone) is thrown here as thrown, once
     * the tasks in flight have ended, and no further element is started.
     */
    static <T> void serve(Iterator<T> source, String name, Consumer<? super T> task) {
        BlockingQueue<Event> events = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try {
                while (source.hasNext()) {
                    events.add(new Next<>(source.next()));
                }
                events.add(Mark.END);
            } catch (RuntimeException | Error e) {
                events.add(new Failed(e, false));
            }
        }, name + "-numbers");
        reader.setDaemon(true);
        reader.start();
        ExecutorService slots = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        int running = 0;
        boolean ended = false;
        Throwable failure = null;
        try {
            while (running > 0 || !ended && failure == null) {
                Event e = events.take();
                if (e instanceof Next<?> n && failure == null) {
                    running++;
                    @SuppressWarnings("unchecked")
                    T value = (T) n.value();
                    slots.execute(() -> {
                        Event end = Mark.DONE;
                        try {
                            task.accept(value);
                        } catch (RuntimeException | Error x) {
                            end = new Failed(x, true);
                        } finally {
                            events.add(end); // whatever happened: the loop counts every task's end
                        }
                    });
                } else if (e == Mark.END) {
                    ended = true;
                } else if (e == Mark.DONE) {
                    running--;
                } else if (e instanceof Failed f) {
                    if (f.task()) {
                        running--;
                    } else {
                        ended = true;
                    }
                    failure = failure == null ? f.failure() : failure;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = new AccelGeomException("worker process: interrupted");
        } finally {
            slots.shutdown();
        }
        if (failure instanceof RuntimeException r) {
            throw r;
        }
        if (failure instanceof Error r) {
            throw r;
        }
    }
}
