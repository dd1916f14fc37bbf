package org.accelgeom.voronoi.tornado;

import org.accelgeom.engine.Tuning;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Every tracing level of a test class's diagrams on the device: the size rule ({@code accelgeom.voronoi.hostBelow},
 * {@code voronoi.HybridSearch}) would search these small inputs on the host cores.
 */
public final class EveryLevelOnTheDevice implements BeforeAllCallback, AfterAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) {
        System.setProperty(Tuning.VORONOI_HOST_BELOW.property(), "0");
    }

    @Override
    public void afterAll(ExtensionContext context) {
        System.clearProperty(Tuning.VORONOI_HOST_BELOW.property());
    }
}
