package org.accelgeom.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/gpu-java-home.sh}: the JAVA_HOME whose {@code bin/java} gives an executor its GPU alone. A stand-in JDK
 * whose {@code java} prints CUDA_VISIBLE_DEVICES and its arguments shows what the real one would be run with.
 */
class GpuJavaHomeTest {

    @TempDir
    Path dir;

    @Test
    void anExecutorSeesTheGpuOfItsResourcesFileAndEverythingElseRunsAsItIs() throws Exception {
        Path jdk = Files.createDirectories(dir.resolve("jdk/bin"));
        Files.writeString(dir.resolve("jdk/release"), "JAVA_VERSION=\"25\"\n");
        Path java = jdk.resolve("java");
        Files.writeString(java, "#!/bin/sh\necho \"gpu=${CUDA_VISIBLE_DEVICES:-none} args=$*\"\n");
        assertTrue(java.toFile().setExecutable(true));
        Path home = dir.resolve("home");
        assertEquals(0, run(List.of("bash", Path.of("bin", "gpu-java-home.sh").toString(), dir.resolve("jdk").toString(),
                home.toString())).exit);
        assertTrue(Files.isSymbolicLink(home.resolve("release")), "the JDK's files are linked");
        Path resources = dir.resolve("resource-executor.json");
        Files.writeString(resources, "[{\"id\":{\"componentName\":\"spark.executor\",\"resourceName\":\"gpu\"},"
                + "\"addresses\":[\"2\"]}]");
        String java2 = home.resolve("bin/java").toString();
        assertEquals("gpu=2 args=-cp x Main --resourcesFile " + resources + "\n",
                run(List.of(java2, "-cp", "x", "Main", "--resourcesFile", resources.toString())).out);
        assertEquals("gpu=none args=-version\n", run(List.of(java2, "-version")).out, "no resources file: as it is");
    }

    private record Result(int exit, String out) {
    }

    private static Result run(List<String> cmd) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove("CUDA_VISIBLE_DEVICES");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(p.waitFor(), out);
    }
}
