package org.accelgeom.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.accelgeom.engine.AccelGeomException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code accelgeom bench}: JMH, with the benchmarks packaged in this jar. Everything after {@code --} goes to
 * JMH unchanged, e.g. {@code accelgeom bench -- -l} lists the benchmarks and {@code accelgeom bench -- -h}
 * shows JMH's options.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Runs the JMH benchmarks packaged in this jar. Arguments after -- go to JMH unchanged.",
            "Examples: accelgeom bench -- -l    accelgeom bench -- -f 1 -wi 3 -i 5 Hull"})
final class BenchCommand implements Callable<Integer> {

    @Parameters(paramLabel = "JMH_ARG", arity = "0..*", description = "Arguments for JMH (after --).")
    List<String> jmhArgs = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        if (BenchCommand.class.getResource("/META-INF/BenchmarkList") == null) {
            throw new AccelGeomException("this accelgeom jar contains no JMH benchmarks (no META-INF/BenchmarkList); "
                    + "benchmarks under src/jmh/java are compiled into it by scripts/build");
        }
        org.openjdk.jmh.Main.main(jmhArgs.toArray(String[]::new));
        return 0;
    }
}
