package org.accelgeom.engine;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Several devices of one host: one worker per device entry, each with its own {@link DeviceSession} (its plans,
 * device buffers and threads), as the design says ("several GPUs = several sessions, one per device").
 *
 * <pre>{@code
 * try (DevicePool pool = DevicePool.open(Execution.tornado(-1).withResident(true), 0, 1)) {
 *     pool.run(inputs.iterator(),
 *             (worker, p) -> Hull.compute(PointReaders.read(p), HullOptions.of(Backend.TORNADO), worker.session()),
 *             done -> write(done.input(), done.result()));       // in input order, on this thread
 * }   // every session closed
 * }</pre>
 *
 * <p>{@link #run} hands the inputs out dynamically (the next input to the first free worker) and gives the outcomes
 * to its consumer in input order, on the calling thread; a failing input is an outcome with its exception, and the
 * run goes on. A device may appear twice ({@code 0, 0}): two workers, two sessions, one device (how the tests run
 * the multi-device path on POCL's one device). The sessions are opened by the first input of each worker, for the
 * execution that input asks for ({@link Worker#session(Execution)}) on the worker's device, and stay open until
 * {@link #close()}: an input that fits a worker's plans reuses them.
 */
public final class DevicePool implements AutoCloseable {

    /** How many outcomes may wait for an earlier, slower input, per worker (bounds the memory held for ordering). */
    static final int WINDOW_PER_WORKER = 4;

    private final Execution base;
    private final int[] devices;
    private final DeviceSession[] sessions;
    private final long[] inputs;
    private long closedPlanBuilds;
    private boolean closed;
    /** Host threads of each worker's session where its execution leaves them to the default (0: the default). */
    private int hostThreads;

    private DevicePool(Execution base, int[] devices) {
        this.base = Objects.requireNonNull(base, "execution");
        this.devices = devices.clone();
        this.sessions = new DeviceSession[devices.length];
        this.inputs = new long[devices.length];
    }

    /**
     * A pool of one worker per entry of {@code devices} (TornadoVM device indices of the default backend, as
     * {@code accelgeom devices} numbers them; an index may repeat). For {@code tornado} this checks first that
     * TornadoVM can run here; the device indices are checked by the first session that uses them.
     */
    public static DevicePool open(Execution base, int... devices) {
        if (devices.length == 0) {
            throw new IllegalArgumentException("a device pool needs at least one device");
        }
        for (int d : devices) {
            if (d < 0) {
                throw new IllegalArgumentException("device indices must be >= 0, got " + d);
            }
        }
        if (base.backend() == Backend.TORNADO) {
            TornadoSupport.require();
        }
        return new DevicePool(base, devices);
    }

    /**
     * Gives each worker's session {@code perWorker} host threads of its own (a pool per worker) where the execution
     * a session is opened for leaves the threads to the default (0: every core, the common pool, which the workers
     * then share); {@code perWorker} 0 keeps the default. Call before the sessions open. Returns this pool.
     */
    public synchronized DevicePool hostThreadsPerWorker(int perWorker) {
        if (perWorker < 0) {
            throw new IllegalArgumentException("host threads must be >= 0, got " + perWorker);
        }
        hostThreads = perWorker;
        return this;
    }

    /** The number of workers (entries of the device list). */
    public int size() {
        return devices.length;
    }

    /** The device of worker {@code w}. */
    public int device(int w) {
        return devices[w];
    }

    /**
     * The session of worker {@code w}: opened on first use for {@code e} on the worker's device, then kept (a
     * later call returns it whatever {@code e} says, as a batch's session does).
     */
    public synchronized DeviceSession session(int w, Execution e) {
        if (closed) {
            throw new IllegalStateException("the device pool is closed");
        }
        if (sessions[w] == null || sessions[w].isClosed()) {
            Execution x = e.withDevice(devices[w]);
            sessions[w] = DeviceSession.open(x.threads() == 0 && hostThreads > 0 ? x.withThreads(hostThreads) : x);
        }
        return sessions[w];
    }

    /** How many inputs each worker computed so far (failed ones included), by worker. */
    public synchronized long[] inputsPerWorker() {
        return inputs.clone();
    }

    /** The device plans built by the workers' sessions so far (see {@link DeviceSession#planBuilds()}). */
    public synchronized long planBuilds() {
        long n = closedPlanBuilds;
        for (DeviceSession s : sessions) {
            n += s == null ? 0 : s.planBuilds();
        }
        return n;
    }

    /**
     * One line: the devices and the inputs each worker computed, e.g. {@code 2 devices (device 0: 51 inputs, device 1:
     * 49 inputs)}, or {@code 2 workers (device 0: 3 inputs, device 0: 3 inputs)} when a device repeats.
     */
    public synchronized String describe() {
        boolean repeats = Arrays.stream(devices).distinct().count() < devices.length;
        StringBuilder b = new StringBuilder();
        for (int w = 0; w < devices.length; w++) {
            b.append(w == 0 ? "" : ", ").append("device ").append(devices[w]).append(": ").append(inputs[w])
                    .append(inputs[w] == 1 ? " input" : " inputs");
        }
        String what = repeats ? " worker" : " device";
        return devices.length + what + (devices.length == 1 ? "" : "s") + " (" + b + ")";
    }

    /** What a worker offers the work of one input. */
    public interface Worker {
        /** The worker's number, 0 .. size-1. */
        int index();

        /** The worker's device. */
        int device();

        /** The worker's session, opened for {@code e} on the worker's device by its first input. */
        DeviceSession session(Execution e);

        /** The worker's session for the pool's execution. */
        default DeviceSession session() {
            return session(null);
        }

        /**
         * The lock of the work that the worker's inputs in flight do one at a time in its session (a family whose
         * plans serve one call at a time): the same object for every slot of the worker.
         */
        default Object deviceWork() {
            return this;
        }
    }

    /** Told of each input as worker {@code worker} takes it (see {@link #run(Iterator, Work, Consumer, int, int, OnTake)}). */
    @FunctionalInterface
    public interface OnTake<T> {
        void taken(int worker, T input);
    }

    /** The work of one input on a worker (any exception makes it a failed outcome). */
    @FunctionalInterface
    public interface Work<T, R> {
        R apply(Worker worker, T input) throws Exception;
    }

    /**
     * The outcome of input {@code index}: its result, or the failure that ended it.
     *
     * @param device the device that computed it
     */
    public record Outcome<T, R>(int index, T input, R result, Throwable failure, int device) {
        public boolean failed() {
            return failure != null;
        }
    }

    /**
     * Runs {@code work} on every input of {@code source}, each on the first free worker, and hands the outcomes to
     * {@code inOrder} in input order on the calling thread while the others compute. The source is read under a
     * lock by the workers (an exception from it ends the run: the inputs taken before it are finished and handed
     * on, then it is rethrown). An exception from {@code inOrder} ends the run too: the workers finish the inputs
     * they hold, no new input is taken, and it is rethrown.
     */
    public <T, R> void run(Iterator<? extends T> source, Work<? super T, ? extends R> work,
            Consumer<? super Outcome<T, R>> inOrder) {
        run(source, work, inOrder, WINDOW_PER_WORKER);
    }

    /**
     * {@link #run(Iterator, Work, Consumer)} with {@code windowPerWorker} outcomes per worker allowed to wait for an
     * earlier, slower input before the workers stop taking inputs (at least 1): small outcomes (a report's text) can
     * afford a wide window, so that no worker idles behind one slow input or one late worker.
     */
    public <T, R> void run(Iterator<? extends T> source, Work<? super T, ? extends R> work,
            Consumer<? super Outcome<T, R>> inOrder, int windowPerWorker) {
        run(source, work, inOrder, windowPerWorker, 1);
    }

    /**
     * {@link #run(Iterator, Work, Consumer, int)} with {@code slotsPerWorker} inputs in flight on each worker at once
     * (at least 1): that many threads per worker take inputs, all sharing the worker's session (its plans serve the
     * work of one input at a time where the family says so: a voronoi diagram's device steps, a hull's device work
     * under {@link Worker#deviceWork}), so one input's host work runs beside another's device work, as in a one-device
     * batch in flight. The window grows by the slots: {@code windowPerWorker + slotsPerWorker - 1} outcomes per worker.
     */
    public <T, R> void run(Iterator<? extends T> source, Work<? super T, ? extends R> work,
            Consumer<? super Outcome<T, R>> inOrder, int windowPerWorker, int slotsPerWorker) {
        run(source, work, inOrder, windowPerWorker, slotsPerWorker, null);
    }

    /**
     * {@link #run(Iterator, Work, Consumer, int, int)} with {@code onTake} (may be null) told of each input as a worker
     * takes it, under the lock the inputs are taken under: each worker's inputs reach it in input order (a worker
     * process that reads its items in turn from one stream is sent each number there; its slots then only wait for
     * the answers). It must not block, and what it throws is the input's failure.
     */
    public <T, R> void run(Iterator<? extends T> source, Work<? super T, ? extends R> work,
            Consumer<? super Outcome<T, R>> inOrder, int windowPerWorker, int slotsPerWorker, OnTake<? super T> onTake) {
        int n = devices.length;
        int slots = Math.max(1, slotsPerWorker);
        Shared<T, R> shared = new Shared<>(source, (Math.max(1, windowPerWorker) + slots - 1) * n, n, onTake);
        Thread[] threads = new Thread[n * slots];
        for (int w = 0; w < n; w++) {
            final int wi = w;
            Worker worker = new Worker() {
                @Override
                public int index() {
                    return wi;
                }

                @Override
                public int device() {
                    return devices[wi];
                }

                @Override
                public DeviceSession session(Execution e) {
                    return DevicePool.this.session(wi, e == null ? base : e);
                }
            };
            for (int slot = 0; slot < slots; slot++) {
                Thread t = new Thread(() -> loop(worker, shared, work), "accelgeom-device-" + devices[w] + "-worker-" + w
                        + (slots > 1 ? "-slot-" + slot : ""));
                t.setDaemon(true);
                threads[w * slots + slot] = t;
                t.start();
            }
        }
        Throwable consumerFailure = null;
        try {
            for (int next = 0;; next++) {
                Outcome<T, R> o = shared.await(next);
                if (o == null) {
                    break;
                }
                inOrder.accept(o);
                shared.emitted();
            }
        } catch (RuntimeException | Error e) {
            consumerFailure = e;
            shared.stop();
        } finally {
            for (Thread t : threads) {
                joinUninterruptibly(t);
            }
        }
        if (consumerFailure instanceof RuntimeException r) {
            throw r;
        }
        if (consumerFailure instanceof Error e) {
            throw e;
        }
        if (shared.sourceFailure != null) {
            if (shared.sourceFailure instanceof RuntimeException r) {
                throw r;
            }
            if (shared.sourceFailure instanceof Error e) {
                throw e;
            }
            throw new AccelGeomException(String.valueOf(shared.sourceFailure.getMessage()), shared.sourceFailure);
        }
    }

    private <T, R> void loop(Worker worker, Shared<T, R> shared, Work<? super T, ? extends R> work) {
        try {
            for (;;) {
                Shared.Taken<T> taken = shared.take(worker.index());
                if (taken == null) {
                    return;
                }
                R result = null;
                Throwable failure = taken.failure();
                try {
                    result = failure != null ? null : work.apply(worker, taken.input());
                } catch (Throwable t) { // reported with its input; the batch goes on
                    failure = t;
                }
                synchronized (this) {
                    inputs[worker.index()]++;
                }
                shared.done(worker.index(), new Outcome<>(taken.index(), taken.input(), result, failure, worker.device()));
            }
        } finally {
            shared.workerEnded();
        }
    }

    private static void joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The state the workers and the ordering thread share: the source, the window, the finished outcomes. */
    private static final class Shared<T, R> {
        /** An input taken, and what {@link OnTake} threw for it (null: nothing). */
        record Taken<T>(int index, T input, Throwable failure) {
        }

        private final Iterator<? extends T> source;
        private final int window;
        private final Map<Integer, Outcome<T, R>> finished = new HashMap<>();
        private int taken;
        private int emitted;
        private int running;
        /** Inputs each worker holds (its busy slots). */
        private final int[] busy;
        private boolean stopped;
        private boolean exhausted;
        Throwable sourceFailure;

        private final OnTake<? super T> onTake;

        Shared(Iterator<? extends T> source, int window, int workers, OnTake<? super T> onTake) {
            this.busy = new int[workers];
            this.onTake = onTake;
            this.source = source;
            this.window = window;
        }

        /**
         * The next input for a slot of worker {@code w}, or null when there is none (or the run stops); waits for the
         * window, and while another worker holds fewer inputs (its free slot takes first: the inputs are dealt
         * round the workers, the largest first to each, not to the first worker's slots).
         */
        synchronized Taken<T> take(int w) {
            while (!stopped && !exhausted && (taken - emitted >= window || busy[w] > Arrays.stream(busy).min().orElse(0))) {
                waitHere();
            }
            if (stopped || exhausted) {
                return null;
            }
            try {
                if (!source.hasNext()) {
                    exhausted = true;
                    notifyAll();
                    return null;
                }
                T input = source.next();
                running++;
                busy[w]++;
                notifyAll(); // the others' least may have risen
                Throwable failure = null;
                try {
                    if (onTake != null) {
                        onTake.taken(w, input);
                    }
                } catch (RuntimeException | Error e) {
                    failure = e;
                }
                return new Taken<>(taken++, input, failure);
            } catch (RuntimeException | Error e) {
                sourceFailure = e;
                exhausted = true;
                notifyAll();
                return null;
            }
        }

        synchronized void done(int w, Outcome<T, R> o) {
            running--;
            busy[w]--;
            finished.put(o.index(), o);
            notifyAll();
        }

        synchronized void workerEnded() {
            notifyAll();
        }

        /** Outcome {@code index} once finished, or null when no input of that index will come. */
        synchronized Outcome<T, R> await(int index) {
            while (true) {
                Outcome<T, R> o = finished.remove(index);
                if (o != null) {
                    return o;
                }
                if ((exhausted || stopped) && running == 0 && index >= taken) {
                    return null;
                }
                waitHere();
            }
        }

        synchronized void emitted() {
            emitted++;
            notifyAll();
        }

        synchronized void stop() {
            stopped = true;
            notifyAll();
        }

        private void waitHere() {
            try {
                wait(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stopped = true;
            }
        }
    }

    /** Closes every worker's session (their plans and device memory); a second call does nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        Releases.each(Arrays.asList(sessions), s -> {
            closedPlanBuilds += s.planBuilds();
            s.close();
        }, () -> Arrays.fill(sessions, null));
    }

    @Override
    public String toString() {
        return "DevicePool" + Arrays.toString(devices);
    }
}
