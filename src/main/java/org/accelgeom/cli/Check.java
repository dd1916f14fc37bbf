package org.accelgeom.cli;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.io.AtomicOutput;
import org.accelgeom.io.Molecule;
import org.accelgeom.io.PointCloud;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The checks of option values every command makes before any work: a value out of range is a usage error (exit
 * 2) whose one line names the option, its range and the value given; an output that cannot be written is found
 * before the computation (exit 1, as every file-system error).
 */
final class Check {
    /** ForkJoinPool's limit on parallelism, the most threads {@code --threads} can ask for. */
    static final int MAX_THREADS = 0x7fff;

    private Check() {
    }

    static ParameterException usage(CommandSpec spec, String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** {@code lo <= v <= hi}. */
    static void range(CommandSpec spec, String option, long v, long lo, long hi) {
        if (v < lo || v > hi) {
            throw usage(spec, option + " must be " + (hi == Long.MAX_VALUE || hi == Integer.MAX_VALUE ? ">= " + lo
                    : "in " + lo + ".." + hi) + ", got " + v);
        }
    }

    /** {@code v >= lo}. */
    static void atLeast(CommandSpec spec, String option, long v, long lo) {
        range(spec, option, v, lo, Long.MAX_VALUE);
    }

    /**
     * A finite {@code v} in the interval from {@code lo} to {@code hi}, each end open or closed as given; the
     * message writes the interval, e.g. {@code (0, 1]}.
     */
    static void interval(CommandSpec spec, String option, double v, double lo, boolean loClosed, double hi,
            boolean hiClosed) {
        boolean ok = Double.isFinite(v) && (loClosed ? v >= lo : v > lo) && (hiClosed ? v <= hi : v < hi);
        if (!ok) {
            String range = lo == Double.NEGATIVE_INFINITY && hi == Double.POSITIVE_INFINITY ? "a finite number"
                    : hi == Double.POSITIVE_INFINITY ? "a finite number " + (loClosed ? ">= " : "> ") + num(lo)
                    : (loClosed ? "[" : "(") + num(lo) + ", " + num(hi) + (hiClosed ? "]" : ")");
            throw usage(spec, option + " must be " + (range.startsWith("a ") ? range : "in " + range) + ", got " + num(v));
        }
    }

    /** Options that mean something only with {@code needed}: given without it, they would do nothing silently. */
    static void onlyWith(CommandSpec spec, boolean present, String needed, String... options) {
        if (present) {
            return;
        }
        for (String o : options) {
            if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                throw usage(spec, o + " needs " + needed + " (without it, it would do nothing)");
            }
        }
    }

    /** One of the names given (compared without case); returns it in lower case. */
    static String oneOf(CommandSpec spec, String option, String value, String... names) {
        String v = value.toLowerCase(Locale.ROOT);
        if (!Arrays.asList(names).contains(v)) {
            throw usage(spec, "unknown " + option + " '" + value + "': expected " + String.join(", ", names));
        }
        return v;
    }

    /** The file name ends in one of the extensions (a trailing .gz allowed when {@code gz}); "-" passes. */
    static void extension(CommandSpec spec, String option, Path file, boolean gz, String what, String... exts) {
        if (file == null || file.toString().equals("-")) {
            return;
        }
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (gz && name.endsWith(".gz")) {
            name = name.substring(0, name.length() - 3);
        }
        for (String e : exts) {
            if (name.endsWith(e)) {
                return;
            }
        }
        throw usage(spec, option + " " + file + ": " + what + " is written as " + String.join(", ", exts)
                + (gz ? " (optionally .gz)" : "") + ", not '" + (name.lastIndexOf('.') >= 0 ? name.substring(name.lastIndexOf('.'))
                : name) + "'");
    }

    /** Every given output (nulls skipped) can be created; checked before the computation. */
    static void writable(Path... outputs) {
        for (Path p : outputs) {
            if (p != null) {
                AtomicOutput.checkWritable(p);
            }
        }
    }

    /** Runs a library constructor that validates its arguments; its one-line error becomes a usage error. */
    static <T> T asUsage(CommandSpec spec, Supplier<T> make) {
        try {
            return make.get();
        } catch (AccelGeomException | IllegalArgumentException e) {
            throw usage(spec, e.getMessage());
        }
    }

    /**
     * Every coordinate finite (and, when {@code floats}, within float range), else one line naming the input and the
     * point, counted from 1 as a person counts the points of a file.
     */
    static void finitePoints(String source, PointCloud p, boolean floats, String what) {
        double[][] c = p.coords();
        int i = firstNonFinite(c, p.size(), floats);
        if (i < 0) {
            return;
        }
        StringBuilder xs = new StringBuilder();
        boolean finite = true;
        for (double[] col : c) {
            xs.append(xs.length() > 0 ? ", " : "").append(col[i]);
            finite &= Double.isFinite(col[i]);
        }
        throw new AccelGeomException(source + ": point " + (i + 1) + " of " + p.size() + " (" + xs + ") has "
                + (finite ? "a coordinate beyond float range: use --precision double"
                : "a non-finite coordinate: " + what + " needs finite coordinates"));
    }

    /** Points per chunk of the finiteness check's parallel scan. */
    static final int FINITE_CHUNK = 1 << 14;

    /**
     * The first point (index) with a coordinate that is not finite, or with {@code floats} not finite as a float; -1
     * if none. Chunks of the columns are scanned on the common pool, the smallest index found wins (the answer of the
     * sequential scan). A short run executes this mostly in the interpreter, before the JIT has compiled it (the
     * whole scan of 10^7 points took 0.25 s on 16 cores with {@code Double.isFinite}, an interpreted call per
     * coordinate): so the chunks are small (the method is compiled after a few hundred), and the first pass over a
     * chunk is call-free arithmetic ({@code v * 0.0} is 0 for a finite {@code v}, NaN for NaN and the infinities).
     */
    static int firstNonFinite(double[][] c, int n, boolean floats) {
        int chunks = (int) ((n + (long) FINITE_CHUNK - 1) / FINITE_CHUNK);
        java.util.stream.IntStream s = java.util.stream.IntStream.range(0, chunks);
        return (chunks > 1 ? s.parallel() : s)
                .map(j -> firstNonFinite(c, j * FINITE_CHUNK, (int) Math.min(n, (long) (j + 1) * FINITE_CHUNK), floats))
                .filter(i -> i >= 0).min().orElse(-1);
    }

    private static int firstNonFinite(double[][] c, int from, int to, boolean floats) {
        double limit = floats ? Float.MAX_VALUE : Double.MAX_VALUE;
        double zero = 0.0;
        double big = 0.0;
        for (double[] col : c) {
            for (int i = from; i < to; i++) {
                double v = col[i];
                zero += v * 0.0;
                big = v > big ? v : (-v > big ? -v : big);
            }
        }
        if (zero == 0.0 && big <= limit) {
            return -1; // every coordinate finite (and, for floats, at most Float.MAX_VALUE: within float range)
        }
        int first = -1;
        for (double[] col : c) { // the exact test, on this chunk only
            int end = first < 0 ? to : first; // a later column need only look before the first found
            for (int i = from; i < end; i++) {
                double v = col[i];
                if (!Double.isFinite(v) || (floats && !Float.isFinite((float) v))) {
                    first = i;
                    break;
                }
            }
        }
        return first;
    }

    /** The atoms of a molecule file: finite centres, and finite radii >= 0 where the file's radii are used. */
    static void finiteAtoms(String source, Molecule m, boolean fileRadii) {
        for (int i = 0; i < m.size(); i++) {
            boolean centre = Double.isFinite(m.x()[i]) && Double.isFinite(m.y()[i]) && Double.isFinite(m.z()[i]);
            double r = m.radius()[i];
            if (!centre || (fileRadii && !(Double.isFinite(r) && r >= 0))) {
                throw new AccelGeomException(source + ": atom " + (i + 1) + " of " + m.size() + " (serial " + m.serial()[i]
                        + ") has " + (!centre ? "a non-finite centre (" + m.x()[i] + ", " + m.y()[i] + ", " + m.z()[i] + ")"
                        : "the radius " + r) + ": the Voronoi diagram needs finite balls of radius >= 0");
            }
        }
    }

    /**
     * A number as a person writes it: up to 6 significant digits, no trailing zeros, an exponent where needed
     * (1e+10, not the 1e+1 a naive trailing-zero strip gives).
     */
    static String num(double v) {
        if (!Double.isFinite(v)) {
            return Double.toString(v);
        }
        String f = String.format(Locale.ROOT, "%.6g", v);
        int e = f.indexOf('e');
        String mantissa = e < 0 ? f : f.substring(0, e);
        String exponent = e < 0 ? "" : f.substring(e);
        if (mantissa.contains(".")) {
            mantissa = mantissa.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return mantissa + exponent;
    }
}
