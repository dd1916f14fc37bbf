package org.accelgeom.cli;

import org.accelgeom.engine.Timings;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** {@code --repeat} and {@code --timings}, the same for every command that times a computation (a picocli mixin). */
final class RepeatOptions {

    @Option(names = "--repeat", paramLabel = "R", defaultValue = "1",
            description = "Compute R times and report each time (the later runs are warm).")
    int repeat;

    @Option(names = "--timings", description = "Print the time of each phase.")
    boolean timings;

    /**
     * The execution's timings for a command's {@code --timings}: the device's split of each tornado execution too
     * (TornadoVM's profiler on, for this command's plans), else the host phases only.
     */
    static Timings level(boolean timings) {
        return timings ? Timings.DEVICE : Timings.PHASES;
    }

    /** The execution's timings for {@code --timings} ({@link #level(boolean)}). */
    Timings level() {
        return level(timings);
    }

    /** {@code --repeat} at least 1 (a usage error). */
    void validate(CommandSpec spec) {
        Check.atLeast(spec, "--repeat", repeat, 1);
    }
}
