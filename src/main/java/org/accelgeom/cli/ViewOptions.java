package org.accelgeom.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The size and field of view of a rendered picture, shared by {@code render} and {@code terrain} (a picocli mixin).
 * Each command gives its own defaults by initialising its mixin field; picocli shows them as the defaults.
 */
final class ViewOptions {

    /** The largest image side: a BufferedImage of MAX_SIDE^2 pixels is 1 GiB. */
    static final int MAX_SIDE = 16384;

    @Option(names = "--width", paramLabel = "PX", description = "Image width, 1.." + MAX_SIDE + " (default: ${DEFAULT-VALUE}).")
    int width;

    @Option(names = "--height", paramLabel = "PX", description = "Image height, 1.." + MAX_SIDE + " (default: ${DEFAULT-VALUE}).")
    int height;

    @Option(names = "--fov", paramLabel = "DEG", description = "Vertical field of view, in (0, 180) degrees (default: ${DEFAULT-VALUE}).")
    double fov;

    ViewOptions(int width, int height, double fov) {
        this.width = width;
        this.height = height;
        this.fov = fov;
    }

    /** Every value in range (usage errors). */
    void validate(CommandSpec spec) {
        Check.range(spec, "--width", width, 1, MAX_SIDE);
        Check.range(spec, "--height", height, 1, MAX_SIDE);
        Check.interval(spec, "--fov", fov, 0, false, 180, false);
    }
}
