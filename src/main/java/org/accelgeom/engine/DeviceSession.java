package org.accelgeom.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * What is open for an {@link Execution}: the TornadoVM execution plans with their device buffers, and the thread
 * pool of the host loops. Opened once, reused across calls and inputs, closed deterministically (like a JDBC
 * {@code Connection}, or TornadoVM's own {@code TornadoExecutionPlan}):
 *
 * <pre>{@code
 * try (DeviceSession session = DeviceSession.open(Execution.tornado(0))) {
 *     for (Path p : inputs) {
 *         HullResult h = Hull.compute(PointReaders.read(p), HullOptions.of(Backend.TORNADO), session);
 *     }
 * }   // plans freed, pools shut
 * }</pre>
 *
 * <p>A session keeps at most one plan per (family, step), together with the capacity it was built for: a call
 * whose input fits reuses it, a larger one replaces it (the old plan is released first). {@link #planBuilds()}
 * counts the plans built, so a test can tell reuse from rebuilding. Several devices are several sessions. A
 * session serves one call at a time (calls from several threads are serialised by its plans, not run together).
 */
public final class DeviceSession implements AutoCloseable {

    /** A family's step: the key of one plan. */
    private record Key(String family, String step) {
    }

    /** A held plan and how to release it. */
    private record Held(Object plan, Consumer<Object> release) {
    }

    private final Execution execution;
    private final Map<Key, Held> plans = new LinkedHashMap<>();
    private ParallelLoops loops;
    private long planBuilds;
    private boolean closed;

    private DeviceSession(Execution execution) {
        this.execution = Objects.requireNonNull(execution, "execution");
    }

    /**
     * Opens a session for {@code execution}. For {@code tornado} this checks first that TornadoVM can run here
     * (one clear {@link AccelGeomException} if not); plans are built by the calls that need them.
     */
    public static DeviceSession open(Execution execution) {
        if (execution.backend() == Backend.TORNADO) {
            TornadoSupport.require();
        }
        return new DeviceSession(execution);
    }

    /** What this session runs on. */
    public Execution execution() {
        return execution;
    }

    /**
     * The host loops of this session: {@link Execution#threads()} workers (0: the common pool), made on first use
     * and shut by {@link #close()}.
     */
    public synchronized ParallelLoops loops() {
        ensureOpen();
        if (loops == null) {
            loops = new ParallelLoops(execution.threads());
        }
        return loops;
    }

    /**
     * The tornado implementation of a family's backend factory {@code type} (a service of this build, see
     * {@link TornadoSupport#factory}).
     */
    public <F> F tornado(Class<F> type) {
        ensureOpen();
        return TornadoSupport.factory(type);
    }

    /**
     * The plan of ({@code family}, {@code step}): the one held when {@code fits} accepts it, else a new one from
     * {@code build} (counted; the held one, if any, is released first). The plan stays in the session.
     */
    public synchronized <T> T plan(String family, String step, Class<T> type, Predicate<? super T> fits,
            Supplier<? extends T> build, Consumer<? super T> release) {
        T held = take(family, step, type, fits);
        if (held == null) {
            held = build.get();
            planBuilds++;
        }
        keep(family, step, held, release);
        return held;
    }

    /**
     * Takes the plan of ({@code family}, {@code step}) out of the session for the caller's exclusive use when
     * {@code fits} accepts it; a held plan that does not fit is released. Null when there is none that fits: the
     * caller builds one (and calls {@link #planBuilt()}) and gives it back with {@link #keep} when done.
     */
    public synchronized <T> T take(String family, String step, Class<T> type, Predicate<? super T> fits) {
        ensureOpen();
        Key key = new Key(family, step);
        Held h = plans.remove(key);
        if (h == null) {
            return null;
        }
        if (type.isInstance(h.plan()) && fits.test(type.cast(h.plan()))) {
            return type.cast(h.plan());
        }
        h.release().accept(h.plan());
        return null;
    }

    /** Keeps {@code plan} as the plan of ({@code family}, {@code step}), releasing the one held before (if another). */
    @SuppressWarnings("unchecked")
    public synchronized <T> void keep(String family, String step, T plan, Consumer<? super T> release) {
        if (closed) { // a call that outlived its session: nothing keeps the plan
            release.accept(plan);
            return;
        }
        Held old = plans.put(new Key(family, step), new Held(plan, (Consumer<Object>) release));
        if (old != null && old.plan() != plan) {
            old.release().accept(old.plan());
        }
    }

    /** Releases the plan of ({@code family}, {@code step}), if one is held. */
    public synchronized void drop(String family, String step) {
        Held h = plans.remove(new Key(family, step));
        if (h != null) {
            h.release().accept(h.plan());
        }
    }

    /** Records that a plan was built for this session (by a caller of {@link #take}). */
    public synchronized void planBuilt() {
        planBuilds++;
    }

    /** How many plans were built in this session so far (reused plans are not counted again). */
    public synchronized long planBuilds() {
        return planBuilds;
    }

    /** The (family, step) pairs of the plans held now, in the order they were kept. */
    public synchronized List<String> heldPlans() {
        List<String> out = new ArrayList<>();
        for (Key k : plans.keySet()) {
            out.add(k.family() + "/" + k.step());
        }
        return Collections.unmodifiableList(out);
    }

    /** Whether {@link #close()} was called. */
    public synchronized boolean isClosed() {
        return closed;
    }

    /** Releases every plan (its device memory) and shuts the thread pool; a second call does nothing. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        Releases.each(plans.values(), h -> h.release().accept(h.plan()), () -> {
            plans.clear();
            if (loops != null) {
                loops.close();
                loops = null;
            }
        });
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the device session is closed");
        }
    }
}
