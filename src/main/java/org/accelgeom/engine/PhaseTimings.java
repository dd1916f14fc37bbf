package org.accelgeom.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Wall-clock time per phase of one run, so users see where time goes: host work, uploads to the device,
 * kernels, downloads. Phases with the same name are accumulated (an iterative algorithm reports one line
 * per phase, with the number of times it ran). Not thread-safe: one run, one instance.
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

    private final Map<String, Phase> phases = new LinkedHashMap<>();

    /** Adds {@code nanos} to the phase {@code name}. */
    public void add(String name, Kind kind, long nanos) {
        phases.merge(name, new Phase(name, kind, nanos, 1),
                (a, b) -> new Phase(a.name(), a.kind(), a.nanos() + b.nanos(), a.count() + b.count()));
    }

    /** Runs {@code body} and charges its time to the phase. */
    public void time(String name, Kind kind, Runnable body) {
        long t0 = System.nanoTime();
        try {
            body.run();
        } finally {
            add(name, kind, System.nanoTime() - t0);
        }
    }

    /** Runs {@code body}, charges its time to the phase and returns its value. */
    public <T> T time(String name, Kind kind, Supplier<T> body) {
        long t0 = System.nanoTime();
        try {
            return body.get();
        } finally {
            add(name, kind, System.nanoTime() - t0);
        }
    }

    /** Merges all phases of {@code other} into this one. */
    public void addAll(PhaseTimings other) {
        for (Phase p : other.phases.values()) {
            phases.merge(p.name(), p,
                    (a, b) -> new Phase(a.name(), a.kind(), a.nanos() + b.nanos(), a.count() + b.count()));
        }
    }

    public List<Phase> phases() {
        return new ArrayList<>(phases.values());
    }

    /** Total nanoseconds of every phase of one kind. */
    public long total(Kind kind) {
        long t = 0;
        for (Phase p : phases.values()) {
            if (p.kind() == kind) {
                t += p.nanos();
            }
        }
        return t;
    }

    /** Total nanoseconds of all phases. */
    public long total() {
        long t = 0;
        for (Phase p : phases.values()) {
            t += p.nanos();
        }
        return t;
    }

    /** A small aligned table, one phase per line, then the totals per kind. */
    public String format() {
        StringBuilder sb = new StringBuilder();
        for (Phase p : phases.values()) {
            sb.append(String.format(Locale.ROOT, "  %-28s %-8s %10.3f ms%s%n", p.name(), p.kind().name().toLowerCase(Locale.ROOT),
                    p.millis(), p.count() > 1 ? "  (x" + p.count() + ")" : ""));
        }
        sb.append(String.format(Locale.ROOT, "  %-28s %-8s %10.3f ms  (host %.3f, upload %.3f, kernels %.3f, download %.3f)%n",
                "total", "", total() / 1e6, total(Kind.HOST) / 1e6, total(Kind.UPLOAD) / 1e6,
                total(Kind.KERNEL) / 1e6, total(Kind.DOWNLOAD) / 1e6));
        return sb.toString();
    }

    @Override
    public String toString() {
        return format();
    }
}
