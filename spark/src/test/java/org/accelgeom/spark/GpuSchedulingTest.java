package org.accelgeom.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.accelgeom.engine.TornadoSupport;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark's GPU scheduling reaching the job: two GPUs found by spark/bin/discover-gpus.sh (told the addresses through
 * ACCELGEOM_GPUS, as no GPU is here), one per task; each task learns its address from TaskContext.resources().
 * Tagged {@code cluster}: it starts executor JVMs (tens of seconds on two cores), so the normal suite leaves it out;
 * {@code ./mvnw -f spark/pom.xml test -Dspark.test.groups=} runs it.
 */
@Tag("cluster")
class GpuSchedulingTest {

    static JavaSparkContext sc;

    @TempDir
    Path dir;

    static Path script;

    @BeforeAll
    static void start() throws IOException {
        script = Files.createTempFile("discover-two-gpus", ".sh");
        Files.writeString(script, "#!/bin/sh\nACCELGEOM_GPUS='0 1' exec "
                + Path.of("bin", "discover-gpus.sh").toAbsolutePath() + "\n");
        script.toFile().setExecutable(true);
        // local mode offers its tasks no resources (a task asking for a GPU would wait for ever): local-cluster,
        // whose executors are JVMs of their own, started with the test's class path (Spark's testing mode)
        System.setProperty("spark.testing", "true");
        // the executors' launcher looks for the build directories of a Spark checkout (the classes come from the class path)
        Path home = Path.of("target", "spark-test-home").toAbsolutePath();
        Files.createDirectories(home.resolve(Path.of("launcher", "target", "scala-2.13")));
        Files.createDirectories(home.resolve(Path.of("assembly", "target", "scala-2.13", "jars")));
        System.setProperty("spark.test.home", home.toString());
        sc = new JavaSparkContext(AccelGeomJobTest.local("local-cluster[2,1,1024]")
                .set("spark.worker.resource.gpu.amount", "2")
                .set("spark.worker.resource.gpu.discoveryScript", script.toString())
                .set("spark.executor.resource.gpu.amount", "1")
                .set("spark.task.resource.gpu.amount", "1"));
    }

    @AfterAll
    static void stop() throws IOException {
        sc.stop();
        SessionPool.closeAll();
        Files.deleteIfExists(script);
    }

    @Test
    void eachTaskGetsOneGpuAddress() throws IOException {
        Path in = AccelGeomJobTest.copy(dir.resolve("in"), "hull/grid6.txt", "hull/sphere500.txt", "hull/cube2000.txt",
                "hull/ball2000.txt");
        AccelGeomJobTest.Run j = AccelGeomJobTest.job(sc, "hull", "--input", in.toString(), "--output",
                dir.resolve("out").toString(), "--backend", "jvm-parallel", "--partitions", "4");
        assertEquals(0, j.exit(), j.err());
        // four tasks, two GPUs: each task had one of them
        assertTrue(j.out().matches("(?s).*ran on jvm-parallel \\(gpu [01]\\): [1-4](, jvm-parallel \\(gpu [01]\\): [1-3])?\\R"),
                j.out());
        assertEquals(4, AccelGeomJobTest.names(dir.resolve("out")).size());
    }

    /** --backend auto on a task given a GPU needs TornadoVM in the executor: without it each input fails, saying so. */
    @Test
    void aGpuWithoutTornadoVmFailsEachInputInOneLine() throws IOException {
        if (TornadoSupport.available()) {
            return; // this JVM runs TornadoVM: the GPU path would run, not fail
        }
        Path in = AccelGeomJobTest.copy(dir.resolve("in"), "hull/grid6.txt", "hull/sphere500.txt");
        AccelGeomJobTest.Run j = AccelGeomJobTest.job(sc, "hull", "--input", in.toString(), "--output",
                dir.resolve("out").toString());
        assertEquals(1, j.exit(), j.out());
        List<String> err = j.err().lines().toList();
        assertEquals(2, err.size(), j.err());
        assertTrue(err.stream().allMatch(l -> l.matches("accelgeom-spark: error: .*: the task was given GPU [01] but this "
                + "executor cannot run TornadoVM: .*")), j.err());
        assertEquals(List.of(), AccelGeomJobTest.names(dir.resolve("out")));
    }
}
