package org.accelgeom.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.TornadoSupport;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.UsageMessageSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * The {@code accelgeom} command: the entry point of {@code target/accelgeom.jar}.
 *
 * <p>Results go to stdout, progress and diagnostics to stderr. An error a user can cause is reported as one
 * line {@code accelgeom: error: <message>} on stderr, with exit status 2 for bad usage (an unknown option, a
 * bad value) and 1 for everything else (a missing file, a malformed file, no GPU); {@code --debug} adds the
 * stack trace. Commands never compute geometry themselves: they parse, call an algorithm, and print.
 */
@Command(name = "accelgeom", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Exact computational geometry on the CPU and, through TornadoVM, on GPUs.",
        footer = {"", "Run 'accelgeom COMMAND --help' for the options of a command."})
public final class Main implements Runnable {

    /** Exit status of a usage error (picocli's convention too). */
    public static final int EXIT_USAGE = 2;
    /** Exit status of any other error. */
    public static final int EXIT_FAILURE = 1;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(),
                "missing command: choose one of hull, ridge, kdtree, render, voronoi, cbt, terrain, devices, bench");
    }

    /** Exit status when a reader closed our stdout early ({@code | head}): the shell's status of a SIGPIPE death. */
    public static final int EXIT_BROKEN_PIPE = 141;

    public static void main(String[] args) {
        Timeline.start(); // --timings: where the process's time goes, from its launch
        org.accelgeom.engine.StackSampler.startIfAsked();
        boolean timings = Arrays.asList(args).contains("--timings");
        if (Arrays.stream(args).anyMatch(a -> a.startsWith("--bench"))) {
            TornadoSupport.requestProfiler(); // a benchmark's kernel times: the profiler on every plan of the process
        } else if (timings || Arrays.asList(args).contains("--steps")) {
            // the command's Execution asks for the device's times (Timings.DEVICE: the profiler on its own plans); the
            // driver's event timers they come from are TornadoVM's per-process switch: kernel times only where a table
            // shows them, as they slow every launch
            TornadoSupport.requestDriverTimers();
        }
        TornadoSupport.timersForProfiler(); // -Daccelgeom.tornado.profiler=true: the driver's timers too
        WorkerProcesses.takeStdoutIfChild(); // a worker process of --devices answers its parent on stdout
        Stdout stdout = Stdout.install();
        StdoutGuard.install(); // TornadoVM's notices to stderr: stdout carries results only
        // hull, voronoi on tornado: TornadoVM starts beside picocli, the checks and the read; after the profiler's
        // properties (TornadoVM reads them once, when it starts) and after stdout is guarded (a worker's answers)
        Prewarm.startEarly(args);
        Timeline.markProcess("main: stdout set up");
        CommandLine cl = commandLine(args);
        Timeline.markProcess("the commands' model (picocli)");
        int code = execute(cl, args);
        if (timings && code == 0) {
            Timeline.print(cl.getOut());
        }
        System.out.flush();
        if (System.out.checkError() || stdout.failure() != null) {
            // System.out swallows write errors (a full disk, /dev/full, a closed pipe): never exit 0 with the data lost
            if (Stdout.brokenPipe(stdout.failure())) {
                code = EXIT_BROKEN_PIPE; // the reader wanted no more: quiet, as SIGPIPE ends other tools
            } else if (code == 0) {
                String why = stdout.failure() == null ? "closed, or the device is full" : stdout.failure().getMessage();
                report(cl.getErr(), "standard output: cannot write (" + why + "): the output is lost", null, false);
                code = EXIT_FAILURE;
            }
        }
        exit(code);
    }

    /**
     * Ends the process. With {@link org.accelgeom.engine.Tuning#FAST_EXIT} (the default) by {@link Runtime#halt} once
     * stdout and stderr are flushed, so that no shutdown hook runs: TornadoVM's OpenCL clean-up released every
     * context, queue, program and buffer one by one (the process's exit frees them anyway), and on an early error it
     * could release them under a compile ahead still running on {@link Prewarm}'s thread. Nothing else needs a hook
     * here: each output file was written and moved into place by the command's thread (a failed write deletes its
     * temporary itself), and the kernel cache is written as each plan first runs. {@code accelgeom.sample} (written by
     * a hook) or the switch off: {@link System#exit}.
     */
    static void exit(int code) {
        if (org.accelgeom.engine.Tuning.FAST_EXIT.booleanValue()
                && org.accelgeom.engine.Tuning.SAMPLE.stringValue("").isEmpty()) {
            System.out.flush();
            System.err.flush();
            Runtime.getRuntime().halt(code);
        }
        System.exit(code);
    }

    /**
     * Runs {@code cl} on {@code args} as {@link #main} does: also an {@link Error} that escapes the command (out of
     * memory, stack overflow) becomes the one error line, and a failed write to the command's stdout is an error.
     */
    public static int execute(CommandLine cl, String... args) {
        boolean debug = Arrays.asList(args).contains("--debug");
        int code;
        try {
            code = cl.execute(args);
        } catch (OutOfMemoryError | StackOverflowError e) {
            report(cl.getErr(), Failures.describeError(e), e, debug);
            return EXIT_FAILURE;
        }
        if (code == 0 && cl.getOut().checkError()) {
            report(cl.getErr(), "standard output: cannot write (closed, or the device is full): the output is lost",
                    null, false);
            return EXIT_FAILURE;
        }
        return code;
    }

    /**
     * The configured command line for {@code args} (the arguments are looked at only for {@code --debug}), ready
     * for {@link CommandLine#execute}. Tests call this with their own {@code setOut/setErr}.
     */
    public static CommandLine commandLine(String... args) {
        boolean debug = Arrays.asList(args).contains("--debug");
        CommandLine cl = new CommandLine(new Main());
        for (Class<?> c : commandsFor(args)) {
            cl.addSubcommand(c == CommandLine.HelpCommand.class ? new CommandLine.HelpCommand() : instance(c));
        }
        cl.setParameterExceptionHandler(new UsageErrors(debug));
        cl.setExecutionExceptionHandler(new Failures(debug));
        everyVersion(cl);
        cl.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_COMMAND_LIST, help -> commandList(cl));
        return cl;
    }

    /** The commands, in the order of the help's list. */
    static final List<Class<?>> COMMANDS = List.of(HullCommand.class, RidgeCommand.class, KdTreeCommand.class,
            RenderCommand.class, VoronoiCommand.class, CbtCommand.class, TerrainCommand.class, DevicesCommand.class,
            BenchCommand.class, CommandLine.HelpCommand.class);

    /**
     * The commands {@code args} can reach: only the one it names first, when it names one other than help (picocli
     * reads every command's annotations when it is added: 0.1-0.3 s of a cold start for the eight that do not run),
     * else all of them (the top-level help, an unknown command's message, {@code help COMMAND}).
     */
    static List<Class<?>> commandsFor(String... args) {
        if (args.length > 0 && !args[0].equals("help")) {
            for (Class<?> c : COMMANDS) {
                Command a = c.getAnnotation(Command.class);
                if (a != null && a.name().equals(args[0])) {
                    return List.of(c);
                }
            }
        }
        return COMMANDS;
    }

    private static Object instance(Class<?> c) {
        try {
            var k = c.getDeclaredConstructor();
            k.setAccessible(true);
            return k.newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(c.getName(), e);
        }
    }

    /**
     * For every command: {@code -V}/{@code --version} prints the same as {@code accelgeom --version}, and the
     * examples of its help are never wrapped mid-command by picocli (long ones are split with a shell continuation).
     */
    private static void everyVersion(CommandLine cl) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            CommandSpec spec = sub.getCommandSpec();
            if (spec.versionProvider() == null) {
                spec.versionProvider(new Version());
            }
            int width = spec.usageMessage().width();
            List<String> footer = new java.util.ArrayList<>(Arrays.stream(spec.usageMessage().footer())
                    .flatMap(line -> continued(line, width - 2).stream()).toList());
            if (footer.stream().anyMatch(line -> line.contains(" data/"))) {
                footer.add("Files under data/ come from scripts/fetch-datasets.sh (see its --list).");
            }
            spec.usageMessage().footer(footer.toArray(String[]::new));
            everyVersion(sub);
        }
    }

    /**
     * An example command line of at most {@code width} characters as it is, a longer one split at spaces into lines
     * ending in {@code " \\"} (the next indented by four more), so that it can be copied into a shell whole.
     */
    static List<String> continued(String line, int width) {
        if (line.length() <= width || !line.stripLeading().startsWith("accelgeom ")) {
            return List.of(line);
        }
        String indent = line.substring(0, line.length() - line.stripLeading().length());
        List<String> out = new java.util.ArrayList<>();
        StringBuilder cur = new StringBuilder(indent);
        List<String> words = new java.util.ArrayList<>();
        for (String w : line.strip().split(" +")) { // an option stays on the line of its value
            int last = words.size() - 1;
            if (last >= 0 && words.get(last).startsWith("--") && !words.get(last).contains(" ") && !w.startsWith("-")) {
                words.set(last, words.get(last) + " " + w);
            } else {
                words.add(w);
            }
        }
        for (String word : words) {
            boolean fresh = cur.length() == indent.length() || cur.toString().isBlank();
            if (!fresh && cur.length() + 1 + word.length() + 2 > width) {
                out.add(cur + " \\");
                cur = new StringBuilder(indent + "    ");
                fresh = true;
            }
            cur.append(fresh ? "" : " ").append(word);
        }
        out.add(cur.toString());
        return out;
    }

    /**
     * The command list of the top-level help: each command with the first whole sentence of its description, wrapped
     * at word boundaries (picocli's own list shows only the first line of a description, cut mid-sentence).
     */
    static String commandList(CommandLine cl) {
        StringBuilder b = new StringBuilder();
        int width = 0;
        for (String name : cl.getSubcommands().keySet()) {
            width = Math.max(width, name.length());
        }
        for (var e : cl.getSubcommands().entrySet()) {
            UsageMessageSpec u = e.getValue().getCommandSpec().usageMessage();
            String[] d = u.header().length > 0 ? u.header() : u.description();
            String text = String.join(" ", d).replace("%n", " ").replaceAll("\\s+", " ").strip();
            int end = text.indexOf(". ");
            String sentence = end < 0 ? text : text.substring(0, end + 1);
            String pad = " ".repeat(width + 4);
            StringBuilder line = new StringBuilder("  " + e.getKey() + " ".repeat(width - e.getKey().length() + 2));
            for (String word : sentence.split(" ")) {
                if (line.length() + word.length() + 1 > 100 && line.length() > pad.length()) {
                    b.append(line.toString().stripTrailing()).append('\n');
                    line = new StringBuilder(pad);
                }
                line.append(word).append(' ');
            }
            b.append(line.toString().stripTrailing()).append('\n');
        }
        return b.toString();
    }

    /** Writes the one error line, and with {@code --debug} the stack trace. */
    static void report(PrintWriter err, String message, Throwable t, boolean debug) {
        err.println("accelgeom: error: " + oneLine(message));
        if (debug && t != null) {
            t.printStackTrace(err);
        }
        err.flush();
    }

    /** One line of printable text: line breaks become "; ", other control characters a visible \\xNN escape. */
    static String oneLine(String s) {
        if (s == null) {
            return "(no message)";
        }
        String line = s.strip().replaceAll("\\s*\\R\\s*", "; ");
        StringBuilder b = new StringBuilder(line.length());
        for (int k = 0; k < line.length(); k++) {
            char c = line.charAt(k);
            if (c == '\t') {
                b.append(' ');
            } else if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029' || c == '\ufffd'
                    || Character.getType(c) == Character.FORMAT) {
                b.append(c < 0x100 ? String.format(Locale.ROOT, "\\x%02x", (int) c) : String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** Bad usage: an unknown option, a missing or malformed value. Exit status 2. */
    private record UsageErrors(boolean debug) implements IParameterExceptionHandler {
        @Override
        public int handleParseException(ParameterException ex, String[] args) {
            CommandLine cl = ex.getCommandLine();
            String help = cl.getCommandSpec().qualifiedName() + " --help";
            report(cl.getErr(), ex.getMessage() + " (see '" + help + "')", ex, debug);
            return EXIT_USAGE;
        }
    }

    /** Everything that fails while a command runs. Exit status 1. */
    record Failures(boolean debug) implements IExecutionExceptionHandler {
        @Override
        public int handleExecutionException(Exception ex, CommandLine cl, ParseResult parseResult) {
            String message;
            Throwable memory = outOfMemory(ex);
            if (memory instanceof Error e) {
                message = describeError(e);
            } else if (memory != null) {
                message = DeviceMemory.describe(memory.getMessage());
            } else if (ex instanceof AccelGeomException) {
                message = ex.getMessage();
            } else if (ex instanceof UncheckedIOException u) {
                message = describe(u.getCause());
            } else if (ex instanceof IOException io) {
                message = describe(io);
            } else {
                message = "internal error (a bug; please report it with the output of --debug): " + ex;
            }
            report(cl.getErr(), message, ex, debug);
            return EXIT_FAILURE;
        }

        /** The OutOfMemoryError, or TornadoVM's device out-of-memory exception, in the cause chain; else null. */
        static Throwable outOfMemory(Throwable t) {
            for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
                String name = c.getClass().getSimpleName();
                String m = c.getMessage() == null ? "" : c.getMessage().toLowerCase(Locale.ROOT);
                if (c instanceof OutOfMemoryError || name.equals("TornadoOutOfMemoryException")
                        || name.equals("TornadoMemoryException") || (name.startsWith("Tornado")
                        && (m.contains("unable to allocate") || m.contains("out of memory")))) {
                    return c;
                }
            }
            return null;
        }

        /** Out of memory (or stack) on the JVM: what was needed where known, and how to give the JVM more. */
        static String describeError(Error e) {
            if (e instanceof StackOverflowError) {
                return "out of stack space (the input is nested too deeply): give the JVM more, e.g. "
                        + "ACCELGEOM_JAVA_OPTS=-Xss64m";
            }
            long max = Runtime.getRuntime().maxMemory();
            String m = e.getMessage() == null ? "" : e.getMessage();
            if (m.contains("exceeds VM limit")) {
                return "out of memory: an array of more than 2^31 - 1 elements was needed (Java's limit, whatever the "
                        + "heap): the input is too large for one run";
            }
            long suggest = Math.max(1, (long) Math.ceil(4.0 * max / (1L << 30)));
            return String.format(Locale.ROOT, "out of memory (%s) with at most %d MiB of Java heap: give the JVM more, "
                    + "e.g. ACCELGEOM_JAVA_OPTS=-Xmx%dg", m.isEmpty() ? "Java heap space" : m, max >> 20, suggest);
        }

        private static String describe(IOException e) {
            if (e instanceof java.nio.file.NoSuchFileException) {
                return e.getMessage() + ": no such file";
            }
            if (e instanceof java.nio.file.AccessDeniedException) {
                return e.getMessage() + ": permission denied";
            }
            return e.getMessage() == null ? e.toString() : e.getMessage();
        }
    }

    /** {@code --version}: our version, the JVM, and whether TornadoVM is usable. */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = "unknown";
            try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    Properties p = new Properties();
                    p.load(in);
                    v = p.getProperty("version", v);
                }
            } catch (IOException e) {
                // keep "unknown"
            }
            return List.of("accelgeom " + v,
                    "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + "), "
                            + System.getProperty("os.name") + " " + System.getProperty("os.arch"),
                    "TornadoVM runtime " + (TornadoSupport.runtimePresent() ? "loaded" : "not loaded")
                            + "; tornado backend " + (TornadoSupport.compiledIn() ? "compiled in" : "not compiled in"))
                    .toArray(String[]::new);
        }
    }
}
