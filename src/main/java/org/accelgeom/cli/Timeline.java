package org.accelgeom.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The process's timeline for {@code --timings} (issue 14, "where each second goes"): consecutive rows from the
 * launch to the table, so that they sum to the time since the launch. The first rows come before {@code main}: the
 * launch (from {@code scripts/accelgeom}'s start, which it passes as {@value #LAUNCH_ENV} in nanoseconds since the
 * epoch, to the JVM's start as {@link java.lang.management.RuntimeMXBean#getStartTime()} gives it) and the JVM's own
 * start (to {@code main}); then each {@link #mark} closes a row named by what ran since the previous mark. Rows of
 * the same name (a batch) add up. Without the launch time (the jar run with {@code java -jar}, a test) the
 * timeline starts at the JVM's start. The end of the process (TornadoVM's and the JVM's shutdown) comes after the
 * table: {@code scripts/accelgeom} adds it as the last rows, from the time written to the file {@value #END_ENV}
 * names ({@link #writeEnd}).
 */
final class Timeline {

    /** Environment: the launch, in nanoseconds since the epoch (set by scripts/accelgeom). */
    static final String LAUNCH_ENV = "ACCELGEOM_LAUNCH_NS";
    /** Environment: a file to write the table's time to, in nanoseconds since the epoch (set by scripts/accelgeom). */
    static final String END_ENV = "ACCELGEOM_TIMELINE_END";

    /** One row: what ran, its nanoseconds, how many times (a batch), and a note. */
    record Row(String name, long nanos, int count, String note) {
    }

    private static final Timeline PROCESS = fromEnvironment();

    /** Epoch nanoseconds of {@link System#nanoTime()}'s zero (as seen when the timeline was made). */
    private final long epochOfNanoZero;
    private final Map<String, Row> rows = new LinkedHashMap<>();
    private long last;

    /**
     * A timeline whose clock reads {@code nowNano} at the epoch time {@code nowEpochNanos}; {@code launchEpochNanos}
     * (0: unknown) and {@code jvmStartEpochNanos} give the rows before now.
     */
    Timeline(long launchEpochNanos, long jvmStartEpochNanos, long nowEpochNanos, long nowNano) {
        epochOfNanoZero = nowEpochNanos - nowNano;
        long jvmStart = jvmStartEpochNanos - epochOfNanoZero;
        if (launchEpochNanos > 0 && launchEpochNanos <= jvmStartEpochNanos) {
            last = launchEpochNanos - epochOfNanoZero;
            mark("launch: scripts/accelgeom and the tornado launcher, until the JVM starts", jvmStart);
        } else {
            last = jvmStart;
        }
        mark("JVM start, until main", nowNano);
    }

    private static Timeline fromEnvironment() {
        long nano = System.nanoTime();
        Instant now = Instant.now();
        long nowEpoch = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime() * 1_000_000L;
        long launch = 0;
        try {
            String env = System.getenv(LAUNCH_ENV);
            launch = env == null ? 0 : Long.parseLong(env.strip());
        } catch (NumberFormatException e) {
            // no launch row
        }
        return new Timeline(launch, Math.min(jvmStart, nowEpoch), nowEpoch, nano);
    }

    /** The process's timeline (made at the first call: call {@link #start()} first thing in main). */
    static Timeline process() {
        return PROCESS;
    }

    /** Makes the process's timeline (its clock starts at the JVM's start). */
    static void start() {
        process();
    }

    /** Closes a row: {@code name} is what ran since the previous mark. */
    static void markProcess(String name) {
        PROCESS.mark(name, System.nanoTime());
    }

    /** Closes a row with a note (e.g. how much of it the command's phase table accounts for). */
    static void markProcess(String name, String note) {
        PROCESS.mark(name, System.nanoTime(), note);
    }

    synchronized void mark(String name, long nano) {
        mark(name, nano, "");
    }

    synchronized void mark(String name, long nano, String note) {
        long d = Math.max(0, nano - last);
        last = Math.max(last, nano);
        rows.merge(name, new Row(name, d, 1, note),
                (a, b) -> new Row(a.name(), a.nanos() + b.nanos(), a.count() + b.count(), b.note()));
    }

    synchronized List<Row> rows() {
        return new ArrayList<>(rows.values());
    }

    /** Nanoseconds from the timeline's start to its last mark: the sum of the rows. */
    synchronized long total() {
        long t = 0;
        for (Row r : rows.values()) {
            t += r.nanos();
        }
        return t;
    }

    /** Epoch nanoseconds of the last mark. */
    synchronized long lastEpochNanos() {
        return epochOfNanoZero + last;
    }

    /** The table: one row per line, then the sum; milliseconds. */
    synchronized String format() {
        List<String[]> lines = new ArrayList<>();
        for (Row r : rows.values()) {
            String note = (r.count() > 1 ? "(x" + r.count() + ")" : "") + (r.note().isEmpty() ? "" : (r.count() > 1 ? " " : "") + r.note());
            lines.add(new String[] {r.name(), ms(r.nanos()), note});
        }
        lines.add(new String[] {"total, until this table", ms(total()), ""});
        int w0 = 0;
        int w1 = 0;
        for (String[] l : lines) {
            w0 = Math.max(w0, l[0].length());
            w1 = Math.max(w1, l[1].length());
        }
        StringBuilder b = new StringBuilder();
        for (String[] l : lines) {
            String line = "  " + l[0] + " ".repeat(w0 - l[0].length()) + "  " + " ".repeat(w1 - l[1].length()) + l[1] + " ms"
                    + (l[2].isEmpty() ? "" : "  " + l[2]);
            b.append(line.stripTrailing()).append(System.lineSeparator());
        }
        return b.toString();
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e6);
    }

    /**
     * Prints the process's timeline under a heading, closing a last row first, and writes the
     * table's time for scripts/accelgeom, which adds the exit.
     */
    static void print(PrintWriter out) {
        markProcess("the rest: the command's end (closing), until this table");
        out.println("timeline (from the launch; the rows sum to the total):");
        out.print(PROCESS.format());
        out.flush();
        writeEnd(PROCESS.lastEpochNanos());
    }

    /** Writes {@code epochNanos} to the file {@value #END_ENV} names, if it names one (failures ignored). */
    static void writeEnd(long epochNanos) {
        writeEnd(System.getenv(END_ENV), epochNanos);
    }

    /** Writes {@code epochNanos} to {@code file}, if not null or blank (failures ignored). */
    static void writeEnd(String file, long epochNanos) {
        if (file == null || file.isBlank()) {
            return;
        }
        try {
            Files.writeString(Path.of(file), Long.toString(epochNanos), StandardCharsets.US_ASCII);
        } catch (IOException | RuntimeException e) {
            // the script then prints no exit row
        }
    }
}
