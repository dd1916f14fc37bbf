package org.accelgeom.engine.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.accelgeom.engine.TornadoSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Runs only under the TornadoVM runtime (tag {@code tornado}; {@code .ci/run} runs these through the
 * {@code tornado} launcher): the runtime is loaded, this build has the tornado side, and at least one device is seen.
 */
@Tag("tornado")
class TornadoDevicesTest {

    @Test
    void atLeastOneDevice() {
        assertTrue(TornadoSupport.runtimePresent(), "the TornadoVM runtime is not loaded");
        assertTrue(TornadoSupport.compiledIn(), "built without the Maven profile 'tornado'");
        List<String> devices = TornadoSupport.devices().describeDevices();
        assertFalse(devices.isEmpty(), "TornadoVM sees no device");
        assertTrue(devices.get(0).startsWith("0: "), devices.get(0));
        assertEquals(TornadoSupport.devices().deviceCount(),
                devices.stream().filter(d -> d.matches("\\d+: .*")).count(), "devices of backend 0: " + devices);
    }
}
