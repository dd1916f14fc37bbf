package org.accelgeom.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.TornadoSupport;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
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
        subcommands = {HullCommand.class, RidgeCommand.class, KdTreeCommand.class, RenderCommand.class,
            VoronoiCommand.class, CbtCommand.class, TerrainCommand.class, DevicesCommand.class, BenchCommand.class,
            CommandLine.HelpCommand.class},
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

    public static void main(String[] args) {
        org.accelgeom.engine.StackSampler.startIfAsked();
        StdoutGuard.install(); // TornadoVM's notices to stderr: stdout carries results only
        System.exit(commandLine(args).execute(args));
    }

    /**
     * The configured command line for {@code args} (the arguments are looked at only for {@code --debug}), ready
     * for {@link CommandLine#execute}. Tests call this with their own {@code setOut/setErr}.
     */
    public static CommandLine commandLine(String... args) {
        boolean debug = Arrays.asList(args).contains("--debug");
        CommandLine cl = new CommandLine(new Main());
        cl.setParameterExceptionHandler(new UsageErrors(debug));
        cl.setExecutionExceptionHandler(new Failures(debug));
        return cl;
    }

    /** Writes the one error line, and with {@code --debug} the stack trace. */
    static void report(PrintWriter err, String message, Throwable t, boolean debug) {
        err.println("accelgeom: error: " + oneLine(message));
        if (debug && t != null) {
            t.printStackTrace(err);
        }
        err.flush();
    }

    private static String oneLine(String s) {
        return s == null ? "(no message)" : s.strip().replaceAll("\\s*\\R\\s*", "; ");
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
    private record Failures(boolean debug) implements IExecutionExceptionHandler {
        @Override
        public int handleExecutionException(Exception ex, CommandLine cl, ParseResult parseResult) {
            String message;
            if (ex instanceof AccelGeomException) {
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
