package org.accelgeom.hull;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The CLI's JIT warm-up computes real hulls: every sphere point a vertex (2n - 4 triangles), the grid a cube's 6 squares. */
class HullWarmUpTest {

    @Test
    void warmsUpOnRealHulls() {
        assertEquals(2 * 3000 - 4 + 6, HullWarmUp.run());
    }
}
