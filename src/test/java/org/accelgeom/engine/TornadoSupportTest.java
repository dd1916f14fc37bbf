package org.accelgeom.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The profiler request of --timings and benchmarks: it turns TornadoVM's profiler on unless the user chose. */
class TornadoSupportTest {

    private final String saved = System.getProperty(TornadoSupport.PROFILER_PROPERTY);

    @AfterEach
    void restore() {
        if (saved == null) {
            System.clearProperty(TornadoSupport.PROFILER_PROPERTY);
        } else {
            System.setProperty(TornadoSupport.PROFILER_PROPERTY, saved);
        }
    }

    @Test
    void aRequestTurnsTheProfilerOn() {
        System.clearProperty(TornadoSupport.PROFILER_PROPERTY);
        TornadoSupport.requestProfiler();
        assertEquals("true", System.getProperty(TornadoSupport.PROFILER_PROPERTY));
    }

    @Test
    void theUsersChoiceWins() {
        System.setProperty(TornadoSupport.PROFILER_PROPERTY, "false");
        TornadoSupport.requestProfiler();
        assertEquals("false", System.getProperty(TornadoSupport.PROFILER_PROPERTY));
    }
}
