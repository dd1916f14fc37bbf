package org.accelgeom.engine.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.accelgeom.engine.LaunchProbe;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The launch probe of {@code LaunchBenchmark} really runs its kernels: every tiny kernel adds the uploaded 1 to the
 * resident data, and the first kernel's flag array, read back after each execution, shows the sum so far.
 */
@Tag("tornado")
class TornadoLaunchProbeTest {

    @Test
    void everyKernelRunsOncePerExecution() {
        // 3 kernels: the constructor's execution leaves data[0] = 3; the k-th execute() then finds data[0] = 3k + 1
        // after its first kernel, which is what that kernel writes to the flag array read back
        try (LaunchProbe p = LaunchProbe.create(3, 64, 2, 1, false)) {
            assertEquals(4, p.execute());
            assertEquals(7, p.execute());
            assertEquals(10, p.execute());
        }
    }

    @Test
    void theEmptyKernelAndTheProfilerRun() {
        try (LaunchProbe p = LaunchProbe.create(1, 0, 1, 0, true)) {
            assertEquals(0, p.execute()); // nothing read back
        }
    }

    @Test
    void moreDownloadsThanKernelsIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> LaunchProbe.create(1, 8, 1, 2, false));
    }
}
