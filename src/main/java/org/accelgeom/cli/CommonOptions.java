package org.accelgeom.cli;

import java.nio.file.Path;
import java.util.List;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.Progress;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/** The options every algorithm command shares (a picocli mixin). */
public final class CommonOptions {

    /** The input of the current run: the only one, or in a batch the one being computed (see {@link Batch}). */
    String input;

    /** Every {@code --input} value as given: files, directories, globs (null without --input). */
    List<String> inputs;

    @Option(names = "--input", paramLabel = "FILE", arity = "1..*",
            description = "Input file ('-' for standard input); several files, a directory or a quoted glob make a batch.")
    void inputs(List<String> values) {
        inputs = values;
        input = values == null || values.isEmpty() ? null : values.get(0);
    }

    @Option(names = "--output", paramLabel = "FILE|DIR", description = "Output file; its extension picks the format. "
            + "For a batch, a directory: one result per input, named after it.")
    Path output;

    @Option(names = "--format", paramLabel = "EXT",
            description = "Format (extension) of the results a batch writes into the --output directory (default: the command's).")
    String format;

    @Option(names = "--backend", paramLabel = "NAME", defaultValue = "jvm-parallel", converter = BackendConverter.class,
            description = "jvm, jvm-parallel or tornado (default: ${DEFAULT-VALUE}).")
    Backend backend;

    @Option(names = "--device", paramLabel = "N", defaultValue = "-1",
            description = "TornadoVM device, as 'accelgeom devices' numbers them (default: TornadoVM's default device).")
    int device;

    @Option(names = "--devices", paramLabel = "all|N,M,...",
            description = "tornado: spread a batch (several inputs, --all-models, trajectory frames) over these devices, "
                    + "one worker each ('all': every device; an index may repeat); one input split across them where "
                    + "the command can (hull; ridge --tiled, by tiles). See docs/scale-out.md.")
    String devices;

    /** {@code --devices} checked and resolved ({@link #devices(CommandSpec)}), set by {@link Batch#run}; null without it. */
    int[] deviceList;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "0",
            description = "Threads of the jvm-parallel backend, 0.." + Check.MAX_THREADS + " (default 0: one per core).")
    int threads;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42", description = "Seed of random inputs (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = {"-q", "--quiet"}, description = "No progress on stderr.")
    boolean quiet;

    @Option(names = "--debug", description = "Print the stack trace of an error.")
    boolean debug;

    /** Rejects impossible values (a usage error). */
    void validate(CommandSpec spec) {
        Check.range(spec, "--threads", threads, 0, Check.MAX_THREADS);
        if (devices != null && deviceList == null && !Batch.active()) { // a command without batches (terrain)
            throw new ParameterException(spec.commandLine(), "--devices spreads a batch over devices: "
                    + spec.qualifiedName() + " takes none; use --device N");
        }
        if (device < -1) {
            throw new ParameterException(spec.commandLine(), "--device must be >= 0, got " + device);
        }
    }

    /**
     * The devices of {@code --devices}, checked (null without it): usage errors for a non-tornado backend, a
     * malformed list or {@code --device} beside it; one {@link AccelGeomException} for an index TornadoVM lacks.
     */
    int[] devices(CommandSpec spec) {
        if (devices == null) {
            return null;
        }
        if (backend != Backend.TORNADO) {
            throw new ParameterException(spec.commandLine(), "--devices spreads work over TornadoVM devices: it needs "
                    + "--backend tornado (" + backend.id() + " runs on the CPU cores, which --threads sets)");
        }
        if (spec.commandLine().getParseResult() != null && spec.commandLine().getParseResult().hasMatchedOption("--device")) {
            throw new ParameterException(spec.commandLine(), "give either --device N or --devices LIST, not both");
        }
        return MultiDevice.parseDevices(spec, devices);
    }

    /** Progress on stderr, unless {@code --quiet}. */
    Progress progress() {
        return Progress.stderr(quiet);
    }

    /** The backend with its parameters, as the summary shows it. */
    String describeBackend() {
        return switch (backend) {
            case JVM -> "jvm (1 thread)";
            case JVM_PARALLEL -> "jvm-parallel (" + (threads > 0 ? threads : Runtime.getRuntime().availableProcessors()) + " threads)";
            case TORNADO -> "tornado (" + (deviceList != null && deviceList.length > 1 && !Batch.active()
                    ? "devices " + MultiDevice.describe(deviceList) : device >= 0 ? "device " + WorkerProcesses.shownDevice(device)
                    : "default device") + ")";
        };
    }

    /** {@code --backend NAME} through {@link Backend#parse}, whose message lists the valid names. */
    static final class BackendConverter implements ITypeConverter<Backend> {
        @Override
        public Backend convert(String value) {
            try {
                return Backend.parse(value);
            } catch (AccelGeomException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
