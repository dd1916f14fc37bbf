package org.accelgeom.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The profiler request of --timings and benchmarks: it turns TornadoVM's profiler on unless the user chose, and the
 * OpenCL driver's event timers (which the argfile turns off) with it.
 */
class TornadoSupportTest {

    private final String saved = System.getProperty(TornadoSupport.PROFILER_PROPERTY);
    private final String savedTimers = System.getProperty(TornadoSupport.DRIVER_TIMERS_PROPERTY);

    @AfterEach
    void restore() {
        restore(TornadoSupport.PROFILER_PROPERTY, saved);
        restore(TornadoSupport.DRIVER_TIMERS_PROPERTY, savedTimers);
    }

    private static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
        }
    }

    /** Requests the profiler with the profiler property at {@code profiler} (null: unset), the driver's timers off. */
    private static void request(String profiler) {
        restore(TornadoSupport.PROFILER_PROPERTY, profiler);
        System.setProperty(TornadoSupport.DRIVER_TIMERS_PROPERTY, "False");
        TornadoSupport.requestProfiler();
    }

    @Test
    void aRequestTurnsTheProfilerOn() {
        request(null);
        assertEquals("true", System.getProperty(TornadoSupport.PROFILER_PROPERTY));
        assertEquals("True", System.getProperty(TornadoSupport.DRIVER_TIMERS_PROPERTY), "the profiler reads the driver's timers");
    }

    @Test
    void theUsersChoiceWins() {
        request("false");
        assertEquals("false", System.getProperty(TornadoSupport.PROFILER_PROPERTY));
        assertEquals("False", System.getProperty(TornadoSupport.DRIVER_TIMERS_PROPERTY), "no profiler, no timers");
    }

    @Test
    void aProfilerTurnedOnByTheUserGetsTheDriversTimers() {
        System.setProperty(TornadoSupport.PROFILER_PROPERTY, "true");
        System.setProperty(TornadoSupport.DRIVER_TIMERS_PROPERTY, "False");
        TornadoSupport.timersForProfiler();
        assertEquals("True", System.getProperty(TornadoSupport.DRIVER_TIMERS_PROPERTY));
    }
}
