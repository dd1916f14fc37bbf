package org.accelgeom.cli;

import java.io.PrintStream;

/**
 * Keeps stdout for results: TornadoVM 5.2 prints notices with {@code System.out.println}, e.g. "[TornadoVM] Warning:
 * The loop bounds will be configured by the GridScheduler..." from its task specialization phase
 * ({@code TornadoTaskSpecialization.printWarningMessageForDynamicLoopBounds}, printed once per compilation whenever
 * a GridScheduler sets a kernel's loop bound at run time, which is how every accelgeom task graph launches; no
 * TornadoVM option turns it off). This stream sends each line that starts with {@code [TornadoVM]} to stderr and
 * everything else to stdout.
 */
final class StdoutGuard extends PrintStream {

    static final String PREFIX = "[TornadoVM]";

    private final PrintStream err;

    StdoutGuard(PrintStream out, PrintStream err) {
        super(out, true);
        this.err = err;
    }

    /** Puts the guard on {@code System.out} (once; the original stream keeps carrying the results). */
    static void install() {
        if (!(System.out instanceof StdoutGuard)) {
            System.setOut(new StdoutGuard(System.out, System.err));
        }
    }

    @Override
    public void println(String x) {
        if (x != null && x.startsWith(PREFIX)) {
            err.println(x);
        } else {
            super.println(x);
        }
    }

    @Override
    public void println(Object x) {
        println(String.valueOf(x));
    }

    @Override
    public void print(String s) {
        if (s != null && s.startsWith(PREFIX)) {
            err.print(s);
        } else {
            super.print(s);
        }
    }
}
