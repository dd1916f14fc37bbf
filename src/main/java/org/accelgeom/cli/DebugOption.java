package org.accelgeom.cli;

import picocli.CommandLine.Option;

/**
 * {@code --debug}, accepted by the commands without {@link CommonOptions} (a picocli mixin). {@link Main} reads it
 * from the arguments, before picocli parses them, so that a usage error can show its stack trace too.
 */
final class DebugOption {

    @Option(names = "--debug", description = "Print the stack trace of an error.")
    boolean debug;
}
