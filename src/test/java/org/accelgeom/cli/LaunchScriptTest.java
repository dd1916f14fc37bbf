package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/lib.sh's start-up helpers: the launcher's java command line is made once per flags and kept
 * ({@code tornado_java_command}), and the exit rows of --timings ({@code timeline_exit}) complete the JVM's timeline so
 * that the rows sum to the wall.
 */
class LaunchScriptTest {

    @TempDir
    Path dir;

    private static final Path LIB = Path.of("scripts/lib.sh").toAbsolutePath();

    private String bash(String script, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", "source " + LIB + " && " + script).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        return out;
    }

    @Test
    void theLaunchersCommandLineIsMadeOncePerFlags() throws Exception {
        Path sdk = Files.createDirectories(dir.resolve("sdk/bin"));
        Path count = dir.resolve("count");
        // a stand-in launcher: counts its runs and prints a java command line as --printJavaFlags does
        Path tornado = sdk.resolve("tornado");
        Files.writeString(tornado, "#!/usr/bin/env bash\necho x >> '" + count + "'\n"
                + "for a in \"$@\"; do case $a in --jvm=*) jvm=${a#--jvm=};; esac; done\n"
                + "echo \"/jdk/bin/java -server $jvm  -cp $4 \"\n");
        Files.setPosixFilePermissions(tornado, PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<String, String> env = Map.of("TORNADOVM_HOME", sdk.getParent().toString(), "JAVA_HOME", "/nonexistent");
        String root = "ACCELGEOM_ROOT=" + dir + " ACCELGEOM_JAR=/x/accelgeom.jar; ";
        String a1 = bash(root + "tornado_java_command '-Da=1'", env);
        String a2 = bash(root + "tornado_java_command '-Da=1'", env);
        String b = bash(root + "tornado_java_command '-Da=2'", env);
        assertEquals("/jdk/bin/java -server -Da=1  -cp '/x/accelgeom.jar' ", a1);
        assertEquals(a1, a2, "the kept line");
        assertTrue(b.contains("-Da=2"), b);
        assertEquals(2, Files.readAllLines(count).size(), "the launcher ran once per flags");
        try (var files = Files.list(dir.resolve("target/launch"))) {
            assertEquals(2, files.filter(f -> f.getFileName().toString().endsWith(".cmd")).count());
        }
    }

    /**
     * The kept line leaves the working directory off the module path; where the runtime has no jdk.graal.compiler
     * module of its own, the upgrade path's jars go first on the module path and their modules into --add-modules (the
     * same modules then resolve, and the JVM's AOT cache is allowed: tornado_aot_file names one, unless the flags choose
     * class-data sharing themselves); where it has one, the upgrade path stays and no AOT cache is named.
     */
    @Test
    void theModulePathLeavesTheWorkingDirectoryOutAndTheUpgradePathWhereNothingIsUpgraded() throws Exception {
        Path sdk = Files.createDirectories(dir.resolve("sdk/bin"));
        Path tornado = sdk.resolve("tornado");
        Files.writeString(tornado, "#!/usr/bin/env bash\n"
                + "echo \"/jdk/bin/java -server --module-path .:/sdk/tornado -Dx=1 --upgrade-module-path /sdk/graal"
                + " --add-modules ALL-SYSTEM,tornado.runtime -cp $4 \"\n");
        Files.setPosixFilePermissions(tornado, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (boolean graal : new boolean[] {false, true}) {
            Path jdk = Files.createDirectories(dir.resolve("jdk-" + graal + "/bin"));
            Files.writeString(jdk.getParent().resolve("release"), "JAVA_VERSION=\"25.0.3\"\nMODULES=\"java.base "
                    + (graal ? "jdk.graal.compiler " : "") + "jdk.internal.vm.ci\"\n");
            Path java = jdk.resolve("java"); // the modules of --module-path, as --list-modules prints them
            Files.writeString(java, "#!/usr/bin/env bash\necho 'java.base@25.0.3'\n"
                    + "echo 'jdk.graal.compiler file:///sdk/graal/compiler.jar'\necho 'org.graalvm.word file:///sdk/graal/w.jar'\n");
            Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
            Map<String, String> env = Map.of("TORNADOVM_HOME", sdk.getParent().toString(), "JAVA_HOME",
                    jdk.getParent().toString());
            String root = "ACCELGEOM_ROOT=" + dir + " ACCELGEOM_JAR=" + java + "; ";
            String line = bash(root + "tornado_java_command '-Da=1'", env);
            String aot = bash(root + "c=$(tornado_java_command '-Da=1'); tornado_aot_file \"$c\" || echo none; echo;"
                    + " ACCELGEOM_AOT=0 tornado_aot_file \"$c\" || echo none;"
                    + " tornado_aot_file \"$c -Xshare:off\" || echo none", env);
            if (graal) {
                assertEquals("/jdk/bin/java -server --module-path /sdk/tornado -Dx=1 --upgrade-module-path /sdk/graal"
                        + " --add-modules ALL-SYSTEM,tornado.runtime -cp '" + java + "' ", line);
                assertEquals("none\n\nnone\nnone\n", aot);
            } else {
                assertEquals("/jdk/bin/java -server --module-path /sdk/graal:/sdk/tornado -Dx=1"
                        + " --add-modules ALL-SYSTEM,tornado.runtime,jdk.graal.compiler,org.graalvm.word -cp '" + java
                        + "' ", line);
                assertTrue(aot.startsWith(dir.resolve("target/launch/aot-").toString()) && aot.endsWith(".aot\nnone\nnone\n"),
                        aot);
            }
        }
    }

    @Test
    void theExitRowsMakeTheTimelineSumToTheWall() throws Exception {
        Path end = dir.resolve("end");
        // the launch 5 s ago, the table 1 s ago: exit about 1,000 ms, wall about 5,000 ms, wall - exit exactly 4,000
        String out = bash("now=${EPOCHREALTIME/[.,]/}000; echo $((now - 1000000000)) > " + end
                + "; timeline_exit $((now - 5000000000))", Map.of("ACCELGEOM_TIMELINE_END", end.toString()));
        List<String> lines = out.lines().toList();
        assertEquals(2, lines.size(), out);
        double exit = millis(lines.get(0));
        double wall = millis(lines.get(1));
        assertTrue(lines.get(0).contains("exit") && lines.get(1).contains("wall"), out);
        assertTrue(exit >= 1000 && exit < 3000, out);
        assertEquals(4000.0, wall - exit, 0.11, out);
        assertEquals("", bash("timeline_exit 1", Map.of("ACCELGEOM_TIMELINE_END", dir.resolve("none").toString())),
                "no table time (the JVM failed before its table): no rows");
    }

    private static double millis(String line) {
        String[] w = line.trim().split("\\s+");
        return Double.parseDouble(w[w.length - 2]);
    }
}
