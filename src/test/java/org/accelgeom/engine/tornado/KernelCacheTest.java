package org.accelgeom.engine.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.Tuning;
import org.accelgeom.hull.Hull;
import org.accelgeom.hull.HullOptions;
import org.accelgeom.hull.HullResult;
import org.accelgeom.hull.RandomPoints;
import org.accelgeom.io.PointCloud;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel cache on the tornado backend (POCL in CI): a first hull compiles its tasks and saves their OpenCL
 * source; a second hull of the same points (a new plan) builds every task from the cache, as pre-built tasks,
 * several in each graph (the case TornadoVM 5.2 gets wrong without {@link PrebuiltTasks}); with the cache off, a third
 * compiles again. All three equal the jvm reference bit for bit.
 */
@Tag("tornado")
class KernelCacheTest {

    @TempDir
    Path dir;

    @Test
    void aSecondPlanBuildsItsTasksFromTheCacheWithTheSameHull() throws IOException {
        String oldDir = System.getProperty(Tuning.KERNEL_CACHE_DIR.property());
        String oldOn = System.getProperty(Tuning.KERNEL_CACHE.property());
        System.setProperty(Tuning.KERNEL_CACHE_DIR.property(), dir.toString());
        System.clearProperty(Tuning.KERNEL_CACHE.property());
        try {
            PointCloud p = RandomPoints.ball(3000, 21);
            HullResult ref = Hull.compute(p, HullOptions.of(Backend.JVM));
            HullOptions o = HullOptions.of(Backend.TORNADO);

            KernelCache.Stats s0 = KernelCache.stats();
            HullResult first = Hull.compute(p, o);
            KernelCache.Stats s1 = KernelCache.stats();
            long compiled = s1.misses() - s0.misses();
            assertTrue(compiled > 0, "the first hull compiles its tasks");
            assertEquals(0, s1.hits() - s0.hits(), "nothing in a new cache directory");
            assertTrue(s1.saves() - s0.saves() > 0, "the first hull saves the sources of its tasks");
            assertEquals(s1.saves() - s0.saves(), count(".cl"), "one source file per saved task");
            assertEquals(count(".cl"), count(".meta"));

            HullResult second = Hull.compute(p, o);
            KernelCache.Stats s2 = KernelCache.stats();
            assertEquals(compiled, s2.hits() - s1.hits(), "the second hull takes every task from the cache");
            assertEquals(0, s2.misses() - s1.misses(), "and compiles none");

            System.setProperty(Tuning.KERNEL_CACHE.property(), "false");
            HullResult third = Hull.compute(p, o);
            KernelCache.Stats s3 = KernelCache.stats();
            assertEquals(s2, s3, "with the cache off, nothing is read, compiled through it or saved");

            for (HullResult r : new HullResult[] {first, second, third}) {
                assertArrayEquals(ref.vertices(), r.vertices());
                assertArrayEquals(ref.facetStart(), r.facetStart());
                assertArrayEquals(ref.facetIndex(), r.facetIndex());
            }
        } finally {
            restore(Tuning.KERNEL_CACHE_DIR.property(), oldDir);
            restore(Tuning.KERNEL_CACHE.property(), oldOn);
        }
    }

    private long count(String suffix) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(f -> f.toString().endsWith(suffix)).count();
        }
    }

    private static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
        }
    }
}
