package org.accelgeom.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.UnaryOperator;

import org.accelgeom.engine.PhaseTimings.Kind;
import org.junit.jupiter.api.Test;

/** The execution's timings: a value component like the others, and what the phase timings of a call record. */
class ExecutionTest {

    @Test
    void timingsDefaultToTheHostPhases() {
        assertEquals(Timings.PHASES, Execution.of(Backend.JVM).timings());
        assertEquals(Timings.PHASES, new Execution(Backend.TORNADO, 2, 0, true, Progress.NONE).timings());
        assertEquals(Timings.PHASES, new Execution(Backend.JVM, 0, -1, false, null, null).timings());
        assertEquals(Execution.of(Backend.JVM), new Execution(Backend.JVM, 0, -1, false, Progress.NONE));
    }

    @Test
    void everyWitherKeepsTheOtherComponents() {
        Execution e = Execution.tornado(1).withThreads(3).withResident(true).withTimings(Timings.OFF);
        assertEquals(new Execution(Backend.TORNADO, 3, 1, true, Progress.NONE, Timings.OFF), e);
        assertNotEquals(e, e.withTimings(Timings.DEVICE));
        assertEquals(e, e.withTimings(Timings.DEVICE).withTimings(Timings.OFF));
        List<UnaryOperator<Execution>> others = List.of(x -> x.withBackend(Backend.JVM), x -> x.withThreads(5),
                x -> x.withDevice(0), x -> x.withResident(false), x -> x.withProgress(Progress.stderr(true)));
        for (UnaryOperator<Execution> w : others) {
            assertEquals(Timings.OFF, w.apply(e).timings());
        }
        Execution d = e.withTimings(Timings.DEVICE);
        assertEquals(e.backend(), d.backend());
        assertEquals(e.threads(), d.threads());
        assertEquals(e.device(), d.device());
        assertEquals(e.resident(), d.resident());
        assertSame(e.progress(), d.progress());
    }

    @Test
    void newTimingsRecordWhatTheExecutionSays() {
        for (Timings level : Timings.values()) {
            PhaseTimings t = Execution.jvm().withTimings(level).newTimings();
            assertEquals(level, t.level());
            assertEquals(level != Timings.OFF, t.recorded());
            assertEquals(level == Timings.DEVICE, t.device());
            t.add("read", Kind.HOST, 5);
            assertEquals(level == Timings.OFF ? 0 : 5, t.total());
        }
    }

    @Test
    void timingsOffRecordNothingAndStillRunEveryBody() {
        PhaseTimings t = new PhaseTimings(Timings.OFF);
        int[] ran = new int[1];
        t.time("host", Kind.HOST, () -> {
            ran[0]++;
        });
        assertEquals(7, t.time("value", Kind.KERNEL, () -> 7));
        try (PhaseTimings.Region r = t.enclose("region", Kind.HOST)) {
            t.add("part", Kind.UPLOAD, 3);
        }
        PhaseTimings other = new PhaseTimings();
        other.add("worker", Kind.KERNEL, 11);
        t.addAll(other);
        assertEquals(1, ran[0]);
        assertTrue(t.phases().isEmpty());
        assertEquals(0, t.total());
        assertEquals(1, t.format().lines().count(), t.format());
        assertTrue(t.format().contains("off"), t.format());
        assertFalse(t.recorded());
    }
}
