package org.accelgeom.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** A session's plans: one per (family, step), reused while the input fits, rebuilt when not, released on close. */
class DeviceSessionTest {

    /** A stand-in plan of a capacity. */
    record Plan(int capacity) {
    }

    @Test
    void aPlanThatFitsIsReusedALargerInputGrowsIt() {
        List<Plan> released = new ArrayList<>();
        try (DeviceSession s = DeviceSession.open(Execution.jvm())) {
            Plan a = plan(s, 100, released);
            assertSame(a, plan(s, 80, released), "an input that fits reuses the plan");
            assertEquals(1, s.planBuilds());
            Plan b = plan(s, 300, released);
            assertEquals(300, b.capacity());
            assertEquals(List.of(a), released, "the smaller plan is released when it is replaced");
            assertSame(b, plan(s, 300, released));
            assertEquals(2, s.planBuilds());
            assertEquals(List.of("test/step"), s.heldPlans());
        }
        assertEquals(2, released.size(), "closing releases the plan held");
    }

    @Test
    void takeAndKeepHandAPlanOut() {
        List<Plan> released = new ArrayList<>();
        DeviceSession s = DeviceSession.open(Execution.jvm());
        assertNull(s.take("f", "s", Plan.class, p -> true));
        Plan p = new Plan(1);
        s.planBuilt();
        s.keep("f", "s", p, released::add);
        assertNull(s.take("f", "s", Plan.class, q -> q.capacity() > 1), "a plan that does not fit is released");
        assertEquals(List.of(p), released);
        s.keep("f", "s", p, released::add);
        assertSame(p, s.take("f", "s", Plan.class, q -> true));
        assertEquals(List.of(), s.heldPlans(), "a taken plan is out of the session");
        s.close();
        s.keep("f", "s", p, released::add); // a call that outlived its session
        assertEquals(2, released.size());
        assertThrows(IllegalStateException.class, () -> s.take("f", "s", Plan.class, q -> true));
        assertTrue(s.isClosed());
    }

    @Test
    void closingShutsThePool() {
        DeviceSession s = DeviceSession.open(Execution.parallel(3));
        ParallelLoops loops = s.loops();
        assertSame(loops, s.loops(), "one pool per session");
        assertEquals(3, loops.threads());
        int[] sum = new int[1];
        loops.forRange(1 << 16, 1024, (a, b) -> {
            synchronized (sum) {
                sum[0] += b - a;
            }
        });
        assertEquals(1 << 16, sum[0]);
        s.close();
        assertTrue(loops.pool().isTerminated(), "the session's pool ended with it");
        s.close(); // twice is fine
    }

    private static Plan plan(DeviceSession s, int need, List<Plan> released) {
        return s.plan("test", "step", Plan.class, p -> p.capacity() >= need, () -> new Plan(need), released::add);
    }
}
