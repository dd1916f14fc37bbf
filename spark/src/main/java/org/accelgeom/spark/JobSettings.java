package org.accelgeom.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.accelgeom.hull.HullOptions;

/**
 * The job's command line, parsed on the driver and shipped to every task. The options are the CLI's
 * ({@code accelgeom voronoi|hull --help}) where they mean the same; each input's result has the bytes the CLI
 * writes for it with the same options.
 *
 * <pre>
 * COMMAND --input FILE|DIR|GLOB... --output DIR [--format EXT] [--backend auto|jvm|jvm-parallel|tornado]
 *         [--threads N] [--device N] [--partitions N]
 * voronoi: [--trajectory FILE.dcd [--frames-per-task K]] [--model N] [--radii auto|voronota|bondi|file]
 *          [--hydrogens] [--waters] [--hetatm]
 * hull:    [--cull-directions K]
 * </pre>
 */
public record JobSettings(String command, List<String> inputs, String output, String format, BackendChoice backend,
        int threads, int device, int partitions, String trajectory, int framesPerTask, int model, String radii, boolean hydrogens,
        boolean waters, boolean hetatm, int cullDirections, String gpuDevices) implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The usage line of errors. */
    static final String USAGE = "usage: AccelGeomJob voronoi|hull --input FILE|DIR|GLOB... --output DIR [options] "
            + "(docs/scale-out.md, 'A cluster, through Apache Spark')";

    /** Where a task runs. */
    public enum BackendChoice {
        /** tornado on the GPU Spark gave the task; jvm-parallel where it gave none */
        AUTO,
        JVM,
        JVM_PARALLEL,
        /** tornado on the task's GPU, or TornadoVM's default device where the task has none */
        TORNADO;

        static BackendChoice parse(String s) {
            return switch (s.toLowerCase(Locale.ROOT)) {
                case "auto" -> AUTO;
                case "jvm" -> JVM;
                case "jvm-parallel" -> JVM_PARALLEL;
                case "tornado" -> TORNADO;
                default -> throw new UsageException("unknown --backend '" + s + "': expected auto, jvm, jvm-parallel or tornado");
            };
        }
    }

    /** Bad usage: a one-line message, exit status 2. */
    static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    /** The result's extension: {@code --format}, or the CLI's default for the command. */
    String extension() {
        if (format != null) {
            return format.replaceFirst("^\\.", "");
        }
        return command.equals("hull") ? "ply" : "vertices";
    }

    /**
     * Parses the job's arguments; {@code gpuDevices} is the Spark setting {@code spark.accelgeom.gpuDevices}
     * (see {@link Placement}).
     */
    static JobSettings parse(String[] args, String gpuDevices) {
        if (args.length == 0) {
            throw new UsageException("missing command: " + USAGE);
        }
        String command = args[0];
        if (!command.equals("voronoi") && !command.equals("hull")) {
            throw new UsageException("unknown command '" + command + "': voronoi or hull; " + USAGE);
        }
        List<String> inputs = new ArrayList<>();
        String output = null, format = null, trajectory = null, radii = "auto";
        BackendChoice backend = BackendChoice.AUTO;
        int threads = 0, device = -1, partitions = 0, framesPerTask = 0, model = 1;
        Integer cull = null;
        boolean hydrogens = false, waters = false, hetatm = false;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--input" -> {
                    int before = inputs.size();
                    while (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                        inputs.add(args[++i]);
                    }
                    if (inputs.size() == before) {
                        throw new UsageException("--input needs at least one FILE, DIR or GLOB");
                    }
                }
                case "--output" -> output = value(args, ++i, a);
                case "--format" -> format = value(args, ++i, a);
                case "--backend" -> backend = BackendChoice.parse(value(args, ++i, a));
                case "--threads" -> threads = number(args, ++i, a, 0, 4096);
                case "--device" -> device = number(args, ++i, a, 0, 4096);
                case "--partitions" -> partitions = number(args, ++i, a, 1, 1 << 20);
                case "--trajectory" -> trajectory = value(args, ++i, a);
                case "--frames-per-task" -> framesPerTask = number(args, ++i, a, 1, Integer.MAX_VALUE);
                case "--model" -> model = number(args, ++i, a, 1, Integer.MAX_VALUE);
                case "--radii" -> radii = value(args, ++i, a).toLowerCase(Locale.ROOT);
                case "--hydrogens" -> hydrogens = true;
                case "--waters" -> waters = true;
                case "--hetatm" -> hetatm = true;
                case "--cull-directions" -> cull = number(args, ++i, a, 0, 1024);
                default -> throw new UsageException("unknown option '" + a + "'; " + USAGE);
            }
        }
        if (inputs.isEmpty()) {
            throw new UsageException("missing --input; " + USAGE);
        }
        if (output == null) {
            throw new UsageException("missing --output DIR (one result per input is written there); " + USAGE);
        }
        boolean voronoi = command.equals("voronoi");
        if (!voronoi && (trajectory != null || hydrogens || waters || hetatm || model != 1 || !radii.equals("auto"))) {
            throw new UsageException("--trajectory, --model, --radii, --hydrogens, --waters and --hetatm are voronoi's");
        }
        if (voronoi && cull != null) {
            throw new UsageException("--cull-directions is hull's");
        }
        if (trajectory == null && framesPerTask > 0) {
            throw new UsageException("--frames-per-task needs --trajectory");
        }
        if (trajectory != null && inputs.size() != 1) {
            throw new UsageException("--trajectory needs one --input FILE, the molecule of the trajectory");
        }
        if (!List.of("auto", "voronota", "bondi", "file").contains(radii)) {
            throw new UsageException("unknown --radii '" + radii + "': expected auto, voronota, bondi or file");
        }
        JobSettings s = new JobSettings(command, List.copyOf(inputs), output, format, backend, threads, device, partitions,
                trajectory, framesPerTask, model, radii, hydrogens, waters, hetatm,
                cull != null ? cull : HullOptions.DEFAULT_CULL_DIRECTIONS, gpuDevices == null ? "" : gpuDevices);
        List<String> allowed = voronoi ? List.of("vertices", "txt") : List.of("ply", "obj", "off");
        if (!allowed.contains(s.extension().toLowerCase(Locale.ROOT))) {
            throw new UsageException("--format " + format + ": " + command + " writes " + String.join(", ", allowed));
        }
        Placement.parseDeviceMap(s.gpuDevices()); // a bad map is bad usage, before any task
        return s;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new UsageException(option + " needs a value");
        }
        return args[i];
    }

    private static int number(String[] args, int i, String option, int min, int max) {
        String v = value(args, i, option);
        try {
            int n = Integer.parseInt(v);
            if (n < min || n > max) {
                throw new UsageException(option + " must be in " + min + ".." + max + ", got " + n);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException(option + " needs a whole number, got '" + v + "'");
        }
    }
}
