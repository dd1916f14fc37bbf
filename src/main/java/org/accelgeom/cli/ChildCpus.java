package org.accelgeom.cli;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The CPUs of a batch's worker processes ({@code accelgeom.devices.childCpus}): this process's CPUs (its affinity, as
 * {@code /proc/self/status} lists them) cut into one contiguous share per worker. Worker k runs under
 * {@code taskset -c SHARE} ('pin', where {@code taskset} is on the PATH) and its JVM is sized for its share
 * ({@code -XX:ActiveProcessorCount}: its GC and JIT compiler threads and its loops' common pool, which a JVM sizes
 * for every CPU it sees); 'count' sizes the JVM only. Without a share (mode 'off', fewer than 2 CPUs per worker, the
 * affinity unreadable, or the JVM flags setting ActiveProcessorCount already) a worker sees every CPU, as before.
 */
final class ChildCpus {

    /** Each worker's CPUs (null: every CPU). */
    private final List<List<Integer>> shares;
    /** The taskset executable (null: the workers are not pinned). */
    private final String taskset;

    private ChildCpus(List<List<Integer>> shares, String taskset) {
        this.shares = shares;
        this.taskset = taskset;
    }

    /** Every worker on every CPU. */
    static ChildCpus none(int workers) {
        return new ChildCpus(Collections.nCopies(workers, null), null);
    }

    /** The shares for {@code workers} workers in {@code mode} ('pin', 'count' or 'off'), given the parent's JVM flags. */
    static ChildCpus of(String mode, int workers, List<String> jvmFlags) {
        return of(mode, workers, jvmFlags, allowed(Path.of("/proc/self/status")), onPath("taskset"));
    }

    /** {@link #of(String, int, List)} for the CPUs {@code cpus} and the taskset executable {@code taskset} (may be null). */
    static ChildCpus of(String mode, int workers, List<String> jvmFlags, List<Integer> cpus, String taskset) {
        String m = mode.trim().toLowerCase(Locale.ROOT);
        boolean sized = jvmFlags.stream().anyMatch(f -> f.startsWith("-XX:ActiveProcessorCount"));
        if (!(m.equals("pin") || m.equals("count")) || sized || cpus.size() < 2 * workers) {
            return none(workers);
        }
        return new ChildCpus(shares(cpus, workers), m.equals("pin") ? taskset : null);
    }

    /**
     * The command of worker {@code w}: {@code jvm} (the java executable, then its flags, class path and main class),
     * run under taskset on the worker's share where pinned, with {@code -XX:ActiveProcessorCount} where it has one.
     */
    List<String> command(int w, List<String> jvm) {
        List<Integer> share = shares.get(w);
        List<String> cmd = new ArrayList<>();
        if (share != null && taskset != null) {
            cmd.add(taskset);
            cmd.add("-c");
            cmd.add(list(share));
        }
        cmd.add(jvm.get(0));
        if (share != null) {
            cmd.add("-XX:ActiveProcessorCount=" + share.size());
        }
        cmd.addAll(jvm.subList(1, jvm.size()));
        return cmd;
    }

    /** Worker {@code w}'s CPUs as the timeline shows them: {@code 0-15 (pinned)}, {@code 16 (JVM sized)} or {@code all}. */
    String describe(int w) {
        List<Integer> share = shares.get(w);
        if (share == null) {
            return "all";
        }
        return taskset != null ? list(share) + " (pinned)" : share.size() + " (JVM sized)";
    }

    /** {@code cpus} cut into {@code n} contiguous shares, of sizes that differ by at most one. */
    static List<List<Integer>> shares(List<Integer> cpus, int n) {
        List<List<Integer>> out = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            out.add(List.copyOf(cpus.subList(cpus.size() * k / n, cpus.size() * (k + 1) / n)));
        }
        return out;
    }

    /** A CPU list as taskset and the kernel write it: increasing CPUs, runs as ranges ({@code 0-15,32-47}). */
    static String list(List<Integer> cpus) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cpus.size();) {
            int j = i;
            while (j + 1 < cpus.size() && cpus.get(j + 1) == cpus.get(j) + 1) {
                j++;
            }
            b.append(b.isEmpty() ? "" : ",").append(cpus.get(i)).append(j > i ? "-" + cpus.get(j) : "");
            i = j + 1;
        }
        return b.toString();
    }

    /** The CPUs of a kernel CPU list ({@code 0-15,32-47}), in increasing order; empty where it does not parse. */
    static List<Integer> parse(String text) {
        List<Integer> out = new ArrayList<>();
        try {
            for (String part : text.trim().split(",")) {
                int dash = part.indexOf('-');
                int from = Integer.parseInt((dash < 0 ? part : part.substring(0, dash)).trim());
                int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1).trim());
                for (int c = from; c <= to; c++) {
                    out.add(c);
                }
            }
        } catch (NumberFormatException e) {
            return List.of();
        }
        return out.stream().distinct().sorted().toList();
    }

    /** The CPUs this process may run on, from its {@code status} file's {@code Cpus_allowed_list}; empty if unknown. */
    static List<Integer> allowed(Path status) {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return parse(line.substring("Cpus_allowed_list:".length()));
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // not Linux, or no /proc: no shares
        }
        return List.of();
    }

    /** The executable {@code name} on the PATH, or null. */
    static String onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            File f = new File(dir.isEmpty() ? "." : dir, name);
            if (f.isFile() && f.canExecute()) {
                return f.getPath();
            }
        }
        return null;
    }
}
