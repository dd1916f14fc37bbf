package org.accelgeom.ridge.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.Tuning;
import org.accelgeom.engine.tornado.KernelCache;
import org.accelgeom.ridge.Curve;
import org.accelgeom.ridge.Precision;
import org.accelgeom.ridge.Ridge;
import org.accelgeom.ridge.RidgeOptions;
import org.accelgeom.ridge.RidgeResult;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The evolution graph's tasks go through the kernel cache: a first run (its own plan) compiles and saves every task,
 * a second run over the same points in a new session (a new plan) builds every task from the cache, and both give the
 * JVM reference's representatives bit for bit. On an H100 the compile was 2.0-2.9 s of a 12.9-14.2 s evolve
 * phase (docs/benchmarks.md, session 12, ridge).
 */
@Tag("tornado")
class RidgeKernelCacheTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"double", "float"})
    void aSecondPlanTakesEveryTaskFromTheCache(String precision) {
        String oldDir = System.getProperty(Tuning.KERNEL_CACHE_DIR.property());
        System.setProperty(Tuning.KERNEL_CACHE_DIR.property(), dir.toString());
        try {
            double[][] p = Curve.SPIRAL2D.sample(1500, 2, 4.17, 5);
            RidgeOptions o = RidgeOptions.of(Backend.JVM, 8.34).withPrecision(Precision.parse(precision));
            RidgeResult ref = Ridge.detect(p, o);
            KernelCache.Stats s0 = KernelCache.stats();
            RidgeResult first = Ridge.detect(p, o.withBackend(Backend.TORNADO));
            KernelCache.Stats s1 = KernelCache.stats();
            long tasks = s1.misses() - s0.misses();
            assertEquals(1 + 2 * 8, tasks, "load and 8 x (closest, shift) compiled once");
            assertEquals(tasks, s1.saves() - s0.saves(), "and saved");
            RidgeResult second = Ridge.detect(p, o.withBackend(Backend.TORNADO));
            KernelCache.Stats s2 = KernelCache.stats();
            assertEquals(tasks, s2.hits() - s1.hits(), "the second plan takes every task from the cache");
            assertEquals(0, s2.misses() - s1.misses(), "and compiles none");
            for (RidgeResult r : new RidgeResult[] {first, second}) {
                assertEquals(ref.stats(), r.stats());
                assertArrayEquals(ref.representatives(), r.representatives(), 0.0);
            }
            assertTrue(ref.stats().evolveIterations() > 8, "several executions");
        } finally {
            if (oldDir == null) {
                System.clearProperty(Tuning.KERNEL_CACHE_DIR.property());
            } else {
                System.setProperty(Tuning.KERNEL_CACHE_DIR.property(), oldDir);
            }
        }
    }
}
