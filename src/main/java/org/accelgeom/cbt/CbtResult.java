package org.accelgeom.cbt;

import java.util.Locale;

/** One measurement of a CBT experiment ({@link CbtBench}). Times in milliseconds; kernelMs and idleMs are NaN where there is no device. */
public record CbtResult(String experiment, int D, boolean packed, String backend, long leaves, int reps, double wallMs,
        double kernelMs, double idleMs, double pairedMs, double idleKernelMs) {

    /** Leaves per second of wall time (decode and update), else NaN. */
    public double leavesPerSecond() {
        return experiment.equals("decode") || experiment.equals("update") ? leaves / (wallMs / 1e3) : Double.NaN;
    }

    public static String header() {
        return "| experiment | D | layout | backend | leaves | reps | wall ms (median) | kernel ms (profiler, median) | launch overhead ms "
                + "(wall − kernel) | empty pass ms | wall − empty pass ms (paired median) | empty pass kernel ms (profiler) | leaves/s |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|---|";
    }

    public String markdown() {
        return String.format(Locale.ROOT, "| %s | %d | %s | %s | %d | %d | %s | %s | %s | %s | %s | %s | %s |", experiment, D,
                packed ? "packed" : "unpacked", backend, leaves, reps, num(wallMs), num(kernelMs),
                Double.isNaN(kernelMs) ? "" : num(wallMs - kernelMs), num(idleMs), num(pairedMs), num(idleKernelMs),
                sci(leavesPerSecond()));
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, v < 0.1 ? "%.4f" : v < 10 ? "%.3f" : "%.1f", v);
    }

    private static String sci(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.2e", v);
    }
}
