package org.accelgeom.engine.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.accelgeom.engine.AccelGeomException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The named-slot heartbeat check: a slot left behind names its task in one line; slots are found by name. */
@Tag("tornado")
class LaunchCheckTest {

    @Test
    void aStaleSlotNamesItsTask() {
        LaunchCheck c = new LaunchCheck("hull", "init", "farthest", "reduce");
        c.beat[0] = 7;
        c.beat[1] = 7;
        c.beat[2] = 6;
        c.verify(7, "dev", "round", 0, 1);
        AccelGeomException e = assertThrows(AccelGeomException.class, () -> c.verifyRange(7, "dev", "round", 0, 3));
        assertTrue(e.getMessage().contains("'reduce' of the hull did not run on dev during 'round'"), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }

    @Test
    void slotsByName() {
        LaunchCheck c = new LaunchCheck("cbt", "cycle", "decode");
        assertEquals(2, c.size());
        assertEquals(1, c.slot("decode"));
        assertEquals("cycle", c.name(0));
        assertThrows(IllegalArgumentException.class, () -> c.slot("reduce"));
        assertThrows(AccelGeomException.class, () -> c.verify(0, "dev", null, 0), "fresh slots hold no number");
    }
}
