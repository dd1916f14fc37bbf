package org.accelgeom.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

class CapacityTest {

    @Test
    void aRungHoldsTheNeedWithinAQuarterAndIsItsOwnRung() {
        Random r = new Random(7);
        for (int k = 0; k < 100_000; k++) {
            long need = 1 + (r.nextLong() >>> (1 + r.nextInt(62)));
            int c = Capacity.rung(need);
            assertTrue(c >= Math.min(need, Capacity.MAX), need + " -> " + c);
            assertTrue(need <= 64 || c <= need * 1.25, need + " -> " + c);
            assertEquals(c, Capacity.rung(c), "a rung maps to itself");
        }
    }

    @Test
    void nearbySizesShareARung() {
        // the ladder has four rungs an octave: all sizes between 10^6 and 2*10^6 fall on at most five
        TreeSet<Integer> rungs = new TreeSet<>();
        for (int n = 1_000_000; n <= 2_000_000; n += 997) {
            rungs.add(Capacity.rung(n));
        }
        assertTrue(rungs.size() <= 5, rungs.toString());
        assertEquals(1 << 20, Capacity.rung((1 << 20) - 5));
        assertEquals((1 << 20) + (1 << 18), Capacity.rung((1 << 20) + 1));
        assertEquals(64, Capacity.rung(0));
        assertEquals(Capacity.MAX, Capacity.rung(Long.MAX_VALUE));
    }
}
