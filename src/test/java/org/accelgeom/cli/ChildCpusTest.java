package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ChildCpus}: the parent's CPUs cut into one contiguous share per worker process, pinned or only counted. */
class ChildCpusTest {

    private static final List<String> JAVA = List.of("/jdk/bin/java", "-Xmx1g", "-cp", "a.jar", "Main");

    private static List<Integer> range(int from, int to) {
        return IntStream.range(from, to).boxed().toList();
    }

    @Test
    void cpuListsParseAndPrintAsTheKernelWritesThem() {
        assertEquals(range(0, 16), ChildCpus.parse("0-15"));
        assertEquals(List.of(0, 1, 2, 5, 8, 9), ChildCpus.parse(" 8-9,0-2,5 "), "sorted");
        assertEquals(List.of(), ChildCpus.parse("0-x"), "unparsable: no CPUs");
        assertEquals("0-15", ChildCpus.list(range(0, 16)));
        assertEquals("0-2,5,8-9", ChildCpus.list(List.of(0, 1, 2, 5, 8, 9)));
        assertEquals("3", ChildCpus.list(List.of(3)));
    }

    @Test
    void sharesAreContiguousAndCoverEveryCpuOnce() {
        List<List<Integer>> s = ChildCpus.shares(range(0, 64), 4);
        assertEquals(List.of(range(0, 16), range(16, 32), range(32, 48), range(48, 64)), s);
        List<List<Integer>> odd = ChildCpus.shares(ChildCpus.parse("0-5,32-36"), 3); // 11 CPUs
        assertEquals(List.of(List.of(0, 1, 2), List.of(3, 4, 5, 32), List.of(33, 34, 35, 36)), odd);
    }

    @Test
    void pinnedWorkersRunUnderTasksetWithTheirJvmSizedForTheirShare() {
        ChildCpus c = ChildCpus.of("pin", 2, List.of("-Xmx1g"), range(0, 32), "/usr/bin/taskset");
        assertEquals(List.of("/usr/bin/taskset", "-c", "16-31", "/jdk/bin/java", "-XX:ActiveProcessorCount=16", "-Xmx1g", "-cp",
                "a.jar", "Main"), c.command(1, JAVA));
        assertEquals("0-15 (pinned)", c.describe(0));
        ChildCpus noTaskset = ChildCpus.of("pin", 2, List.of(), range(0, 32), null);
        assertEquals("/jdk/bin/java", noTaskset.command(0, JAVA).get(0), "no taskset: the JVM sized only");
        assertEquals("16 (JVM sized)", noTaskset.describe(0));
        ChildCpus count = ChildCpus.of("count", 4, List.of(), range(0, 64), "/usr/bin/taskset");
        assertEquals(List.of("/jdk/bin/java", "-XX:ActiveProcessorCount=16", "-Xmx1g", "-cp", "a.jar", "Main"), count.command(3, JAVA));
    }

    @Test
    void everyCpuForEveryWorkerWhereASharePaysNot() {
        List<ChildCpus> none = List.of(ChildCpus.of("off", 2, List.of(), range(0, 32), "taskset"),
                ChildCpus.of("pin", 4, List.of(), range(0, 7), "taskset"), // under 2 CPUs a worker (tests on 2 cores)
                ChildCpus.of("pin", 2, List.of("-XX:ActiveProcessorCount=256"), range(0, 32), "taskset"), // the user's count
                ChildCpus.of("pin", 2, List.of(), List.of(), "taskset"), // affinity unknown
                ChildCpus.of("sometimes", 2, List.of(), range(0, 32), "taskset"),
                ChildCpus.none(2));
        for (ChildCpus c : none) {
            assertEquals(JAVA, c.command(1, JAVA));
            assertEquals("all", c.describe(1));
        }
    }

    @Test
    void theAffinityComesFromTheStatusFile(@TempDir Path dir) throws Exception {
        Path status = dir.resolve("status");
        Files.writeString(status, "Name:\tjava\nCpus_allowed:\tffff\nCpus_allowed_list:\t0-3,8-11\nMems_allowed:\t1\n");
        assertEquals(List.of(0, 1, 2, 3, 8, 9, 10, 11), ChildCpus.allowed(status));
        assertEquals(List.of(), ChildCpus.allowed(dir.resolve("missing")));
        if (Files.isReadable(Path.of("/proc/self/status"))) {
            assertEquals(Runtime.getRuntime().availableProcessors(), ChildCpus.allowed(Path.of("/proc/self/status")).size(),
                    "this JVM's CPUs");
        }
    }
}
