package org.accelgeom.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.spark.JobSettings.BackendChoice;
import org.junit.jupiter.api.Test;

/** A task's GPU address to its backend and TornadoVM device. */
class PlacementTest {

    static final String[] NONE = {};

    @Test
    void autoIsTheTasksGpuOrTheCores() {
        Placement gpu = Placement.of(BackendChoice.AUTO, 0, new String[] {"3"}, "", true);
        assertEquals(Backend.TORNADO, gpu.backend());
        assertEquals(3, gpu.execution().device());
        assertTrue(gpu.execution().resident());
        assertEquals("tornado device 3 (gpu 3)", gpu.description());
        Placement cores = Placement.of(BackendChoice.AUTO, 4, NONE, "", true);
        assertEquals(Backend.JVM_PARALLEL, cores.backend());
        assertEquals(4, cores.execution().threads());
        assertEquals("jvm-parallel", cores.description());
    }

    @Test
    void theMapTurnsAddressesIntoDevices() {
        assertEquals(1, Placement.of(BackendChoice.TORNADO, 0, new String[] {"0"}, "0=1,1=0", true).execution().device());
        assertEquals(0, Placement.device("1", "0=1, 1=0"));
        assertEquals(2, Placement.device("GPU-abc", "GPU-abc=2"));
        assertEquals(5, Placement.device("5", "0=1"));
        AccelGeomException e = assertThrows(AccelGeomException.class, () -> Placement.device("GPU-x", ""));
        assertTrue(e.getMessage().contains("spark.accelgeom.gpuDevices"), e.getMessage());
        assertThrows(JobSettings.UsageException.class, () -> Placement.parseDeviceMap("0:1"));
        assertThrows(JobSettings.UsageException.class, () -> Placement.parseDeviceMap("0=-1"));
    }

    @Test
    void tornadoWithoutAGpuIsTheDefaultDevice() {
        Placement p = Placement.of(BackendChoice.TORNADO, 0, NONE, "", true);
        assertEquals(-1, p.execution().device());
        assertEquals("tornado default device", p.description());
        Placement two = Placement.of(BackendChoice.TORNADO, 0, 2, NONE, "", true); // --device 2 (local mode)
        assertEquals(2, two.execution().device());
        assertEquals("tornado device 2", two.description());
        assertEquals(0, Placement.of(BackendChoice.TORNADO, 0, 2, new String[] {"0"}, "", true).execution().device());
    }

    @Test
    void aGpuWithoutTornadoVmIsAnErrorUnlessTheBackendIsJvm() {
        AccelGeomException e = assertThrows(AccelGeomException.class,
                () -> Placement.of(BackendChoice.AUTO, 0, new String[] {"0"}, "", false));
        assertTrue(e.getMessage().startsWith("the task was given GPU 0 but this executor cannot run TornadoVM"), e.getMessage());
        Placement p = Placement.of(BackendChoice.JVM, 0, new String[] {"0"}, "", false);
        assertEquals(Backend.JVM, p.backend());
        assertEquals("jvm (gpu 0)", p.description());
    }
}
