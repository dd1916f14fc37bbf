package org.accelgeom.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.TornadoSupport;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code accelgeom devices}: what this JVM can run on. Informational: it exits 0 whether or not TornadoVM is
 * usable, and says how to make it usable when it is not.
 */
@Command(name = "devices", mixinStandardHelpOptions = true,
        description = {"Shows the TornadoVM runtime and its devices (the N of --device N), and the JVM's cores and heap.",
            "Informational: exits 0 whether or not TornadoVM is usable, and says how to enable it when it is not."})
final class DevicesCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    DebugOption debug;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        boolean runtime = TornadoSupport.runtimePresent();
        boolean compiled = TornadoSupport.compiledIn();
        out.printf("TornadoVM runtime:   %s%n", runtime ? "loaded" : "not loaded");
        out.printf("tornado backend:     %s%n", compiled ? "compiled in" : "not compiled in (jar built without the Maven profile 'tornado')");
        if (runtime && compiled) {
            try {
                List<String> devices = TornadoSupport.devices().describeDevices();
                out.printf("devices:             %d%n", devices.size());
                for (String d : devices) {
                    out.println("  " + d);
                }
            } catch (AccelGeomException | LinkageError | IllegalStateException e) {
                out.println("devices:             cannot be listed: " + e.getMessage());
            }
        } else {
            try {
                TornadoSupport.require();
            } catch (AccelGeomException e) {
                out.println("how to enable:       " + e.getMessage());
            }
        }
        Runtime rt = Runtime.getRuntime();
        out.printf(Locale.ROOT, "JVM:                 Java %s (%s), %d cores, max heap %.1f GiB%n", Runtime.version(),
                System.getProperty("java.vendor"), rt.availableProcessors(), rt.maxMemory() / 1073741824.0);
        out.flush();
        return 0;
    }
}
