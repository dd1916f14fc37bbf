package org.accelgeom.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Wall-clock time per phase of one run, so users see where time goes: host work, uploads to the device,
 * kernels, downloads. Phases with the same name are accumulated (an iterative algorithm reports one line
 * per phase, with the number of times it ran). A phase that encloses others ({@link #enclose}) lists them as its
 * parts, indented below it: they are not counted again in the total, which is the sum of the top-level rows.
 * Not thread-safe: one run, one instance (worker threads collect their own and {@link #addAll} them under a lock).
 *
 * <p>What is recorded is the {@link Timings} of the call's {@link Execution} ({@link Execution#newTimings()}): with
 * {@link Timings#OFF} nothing is (every method returns at once, {@link #time} runs its body without reading the
 * clock, the table is empty); with {@link Timings#DEVICE} the tornado backends also switch TornadoVM's profiler on for
 * the executions charged here ({@link #device()}).
 */
public final class PhaseTimings {

    /** What kind of work a phase is. */
    public enum Kind { HOST, UPLOAD, KERNEL, DOWNLOAD }

    /** One accumulated phase. */
    public record Phase(String name, Kind kind, long nanos, int count) {
        public double millis() {
            return nanos / 1e6;
        }
    }

    /**
     * An open enclosing phase: every phase added until {@link #close} is one of its parts. Its name may be given
     * only at the end (e.g. with the number of levels built).
     */
    public final class Region implements AutoCloseable {
        private final Kind kind;
        private final long t0 = recorded() ? System.nanoTime() : 0;
        private String name;
        private boolean closed;

        private Region(String name, Kind kind) {
            this.name = name;
            this.kind = kind;
        }

        /** Closes the region under the name given at its start. */
        @Override
        public void close() {
            close(name);
        }

        /** Closes the region under {@code finalName}: its wall time since {@link #enclose}, its parts below it. */
        public void close(String finalName) {
            if (closed || !recorded()) {
                return;
            }
            closed = true;
            name = finalName;
            open.remove(this);
            add(finalName, kind, System.nanoTime() - t0);
            for (Map.Entry<String, Region> e : parentOf.entrySet()) {
                if (e.getValue() == this) {
                    parents.put(e.getKey(), finalName);
                }
            }
            parentOf.values().removeIf(r -> r == this);
        }
    }

    private final Timings level;
    private final Map<String, Phase> phases = new LinkedHashMap<>();
    /** The enclosing phase of each part (by name). */
    private final Map<String, String> parents = new HashMap<>();
    /** Parts of regions still open. */
    private final Map<String, Region> parentOf = new HashMap<>();
    private final Deque<Region> open = new ArrayDeque<>();

    /** Timings that record the host phases ({@link Timings#PHASES}). */
    public PhaseTimings() {
        this(Timings.PHASES);
    }

    /** Timings that record what {@code level} says (null: {@link Timings#PHASES}). */
    public PhaseTimings(Timings level) {
        this.level = level == null ? Timings.PHASES : level;
    }

    /** What these timings record. */
    public Timings level() {
        return level;
    }

    /** Whether phases are recorded (not {@link Timings#OFF}). */
    public boolean recorded() {
        return level != Timings.OFF;
    }

    /** Whether the device's own times are asked for ({@link Timings#DEVICE}): TornadoVM's profiler on. */
    public boolean device() {
        return level == Timings.DEVICE;
    }

    /**
     * Opens an enclosing phase: the phases added until the region is closed are its parts (shown indented below it,
     * not counted again in the total); regions nest.
     */
    public Region enclose(String name, Kind kind) {
        Region r = new Region(name, kind);
        if (recorded()) {
            open.push(r);
        }
        return r;
    }

    /** Adds {@code nanos} to the phase {@code name}. */
    public void add(String name, Kind kind, long nanos) {
        if (!recorded()) {
            return;
        }
        Region in = open.peek();
        if (in != null && !parents.containsKey(name) && !phases.containsKey(name)) {
            parentOf.put(name, in);
        }
        phases.merge(name, new Phase(name, kind, nanos, 1),
                (a, b) -> new Phase(a.name(), a.kind(), a.nanos() + b.nanos(), a.count() + b.count()));
    }
    /**
     * Adds a phase as another process recorded it: {@code count} runs taking {@code nanos} in all, a part of the phase
     * {@code parent} (null: of none, or of the region open here); e.g. a worker process's phases sent to its parent.
     */
    public void add(String name, Kind kind, long nanos, int count, String parent) {
        if (!recorded()) {
            return;
        }
        if (parent != null && !phases.containsKey(name)) {
            parents.put(name, parent);
        } else if (parent == null && open.peek() != null && !parents.containsKey(name) && !phases.containsKey(name)) {
            parentOf.put(name, open.peek());
        }
        phases.merge(name, new Phase(name, kind, nanos, count),
                (a, b) -> new Phase(a.name(), a.kind(), a.nanos() + b.nanos(), a.count() + b.count()));
    }

    /** Runs {@code body} and charges its time to the phase. */
    public void time(String name, Kind kind, Runnable body) {
        if (!recorded()) {
            body.run();
            return;
        }
        long t0 = System.nanoTime();
        try {
            body.run();
        } finally {
            add(name, kind, System.nanoTime() - t0);
        }
    }

    /** Runs {@code body}, charges its time to the phase and returns its value. */
    public <T> T time(String name, Kind kind, Supplier<T> body) {
        if (!recorded()) {
            return body.get();
        }
        long t0 = System.nanoTime();
        try {
            return body.get();
        } finally {
            add(name, kind, System.nanoTime() - t0);
        }
    }

    /** Merges all phases of {@code other} into this one. */
    public void addAll(PhaseTimings other) {
        addAll(other, "");
    }

    /**
     * Merges all phases of {@code other} into this one, each name (and its enclosing phase's) preceded by
     * {@code prefix}: the phases of one worker among several (e.g. {@code "device 1: "}).
     */
    public void addAll(PhaseTimings other, String prefix) {
        if (!recorded()) {
            return;
        }
        for (Phase o : other.phases.values()) {
            Phase p = new Phase(prefix + o.name(), o.kind(), o.nanos(), o.count());
            String op = other.parents.get(o.name());
            String parent = op == null ? null : prefix + op;
            if (parent != null && !phases.containsKey(p.name())) {
                parents.put(p.name(), parent);
            }
            Region in = open.peek();
            if (parent == null && in != null && !parents.containsKey(p.name()) && !phases.containsKey(p.name())) {
                parentOf.put(p.name(), in);
            }
            phases.merge(p.name(), p,
                    (a, b) -> new Phase(a.name(), a.kind(), a.nanos() + b.nanos(), a.count() + b.count()));
        }
    }

    /** The enclosing phase of {@code name}, or null for a top-level phase (or a part of a region still open). */
    public String parent(String name) {
        return parents.get(name);
    }

    private boolean topLevel(Phase p) {
        return !parents.containsKey(p.name()) && !parentOf.containsKey(p.name());
    }

    private List<Phase> partsOf(String name) {
        List<Phase> parts = new ArrayList<>();
        for (Phase p : phases.values()) {
            if (name.equals(parents.get(p.name()))) {
                parts.add(p);
            }
        }
        return parts;
    }

    public List<Phase> phases() {
        return new ArrayList<>(phases.values());
    }

    /**
     * Nanoseconds of one kind of work in the {@link #total()}: a top-level phase counts as its kind, except that an
     * enclosing phase whose parts fit in it (they ran one after the other, not on several threads) counts as its
     * parts' kinds and the rest as its own.
     */
    public long total(Kind kind) {
        long[] t = new long[Kind.values().length];
        for (Phase p : phases.values()) {
            if (topLevel(p)) {
                split(p, t);
            }
        }
        return t[kind.ordinal()];
    }

    private void split(Phase p, long[] t) {
        List<Phase> parts = partsOf(p.name());
        long sum = 0;
        for (Phase q : parts) {
            sum += q.nanos();
        }
        if (parts.isEmpty() || sum > p.nanos()) {
            t[p.kind().ordinal()] += p.nanos();
            return;
        }
        for (Phase q : parts) {
            split(q, t);
        }
        t[p.kind().ordinal()] += p.nanos() - sum;
    }

    /** Total nanoseconds: the sum of the top-level phases (the parts of an enclosing phase are in it already). */
    public long total() {
        long t = 0;
        for (Phase p : phases.values()) {
            if (topLevel(p)) {
                t += p.nanos();
            }
        }
        return t;
    }

    /**
     * An aligned table: one phase per line (its parts indented below it), then the total, which is the sum of the
     * top-level lines, and its split by kind; with {@link Timings#OFF} one line saying that nothing was recorded.
     */
    public String format() {
        if (!recorded()) {
            return "  (no phase timings: the execution's timings are off)" + System.lineSeparator();
        }
        List<String[]> rows = new ArrayList<>();
        for (Phase p : phases.values()) {
            if (topLevel(p)) {
                rows(p, 0, rows);
            }
        }
        rows.add(new String[] {"total", "", ms(total()), String.format(Locale.ROOT, "(host %.3f, upload %.3f, kernels %.3f, download %.3f)",
                total(Kind.HOST) / 1e6, total(Kind.UPLOAD) / 1e6, total(Kind.KERNEL) / 1e6, total(Kind.DOWNLOAD) / 1e6)});
        int[] w = new int[3];
        for (String[] r : rows) {
            for (int c = 0; c < 3; c++) {
                w[c] = Math.max(w[c], r[c].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] r : rows) {
            String line = "  " + pad(r[0], w[0], false) + "  " + pad(r[1], w[1], false) + "  " + pad(r[2], w[2], true) + " ms"
                    + (r[3].isEmpty() ? "" : "  " + r[3]);
            sb.append(line.stripTrailing()).append(System.lineSeparator());
        }
        return sb.toString();
    }

    private void rows(Phase p, int depth, List<String[]> rows) {
        List<Phase> parts = partsOf(p.name());
        String note = p.count() > 1 ? "(x" + p.count() + ")" : "";
        rows.add(new String[] {"  ".repeat(depth) + p.name().strip(), p.kind().name().toLowerCase(Locale.ROOT), ms(p.nanos()),
                parts.isEmpty() ? note : (note + (note.isEmpty() ? "" : " ") + "(its parts below, not again in the total)")});
        for (Phase q : parts) {
            rows(q, depth + 1, rows);
        }
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }

    private static String pad(String s, int width, boolean right) {
        String fill = " ".repeat(Math.max(0, width - s.length()));
        return right ? fill + s : s + fill;
    }

    @Override
    public String toString() {
        return format();
    }
}
