package org.accelgeom.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

/** {@link DevicePool}: outcomes in input order whatever the finishing order, dynamic hand-out, a session per worker. */
class DevicePoolTest {

    private static Iterator<Integer> upTo(int n) {
        return IntStream.range(0, n).iterator();
    }

    @Test
    void outcomesComeInInputOrderAndEveryWorkerTakesInputs() {
        List<Integer> order = new ArrayList<>();
        List<Integer> results = new ArrayList<>();
        try (DevicePool pool = DevicePool.open(Execution.jvm(), 0, 1, 1)) {
            pool.run(upTo(60), (w, k) -> {
                Thread.sleep((k * 7) % 5); // later inputs often finish first
                return k * k;
            }, o -> {
                order.add(o.input());
                results.add(o.result());
            });
            assertEquals(IntStream.range(0, 60).boxed().toList(), order);
            assertEquals(IntStream.range(0, 60).map(k -> k * k).boxed().toList(), results);
            long[] per = pool.inputsPerWorker();
            assertEquals(60, per[0] + per[1] + per[2]);
            for (long p : per) {
                assertTrue(p > 0, "every worker took inputs: " + pool.describe());
            }
            assertTrue(pool.describe().startsWith("3 workers (device 0: "), pool.describe());
        }
    }

    @Test
    void eachWorkerKeepsOneSessionOnItsDevice() {
        Map<Integer, DeviceSession> byWorker = new ConcurrentHashMap<>();
        AtomicInteger reused = new AtomicInteger();
        try (DevicePool pool = DevicePool.open(Execution.jvm(), 3, 5)) {
            pool.run(upTo(20), (w, k) -> {
                DeviceSession s = w.session(Execution.parallel(2));
                assertEquals(w.device(), s.execution().device());
                assertEquals(2, s.execution().threads(), "opened for the execution the first input asked for");
                DeviceSession before = byWorker.putIfAbsent(w.index(), s);
                if (before != null) {
                    assertSame(before, s);
                    reused.incrementAndGet();
                }
                return null;
            }, o -> assertNull(o.failure()));
            assertEquals(20 - byWorker.size(), reused.get());
            assertEquals("2 devices", pool.describe().substring(0, 9));
        }
        byWorker.values().forEach(s -> assertTrue(s.isClosed(), "closed with the pool"));
    }

    @Test
    void hostThreadsPerWorkerGiveEachSessionAPoolOfItsOwnWhereTheExecutionLeavesTheThreads() {
        try (DevicePool pool = DevicePool.open(Execution.jvm(), 0, 1, 2).hostThreadsPerWorker(3)) {
            ParallelLoops a = pool.session(0, Execution.parallel(0)).loops();
            ParallelLoops b = pool.session(1, Execution.parallel(0)).loops();
            assertEquals(3, a.threads(), "the pool's share");
            assertEquals(3, pool.session(0, Execution.parallel(0)).execution().threads());
            assertTrue(a.pool() != b.pool() && a.pool() != java.util.concurrent.ForkJoinPool.commonPool(), "a pool per worker");
            assertEquals(2, pool.session(2, Execution.parallel(2)).loops().threads(), "a count the execution gives wins");
        }
        try (DevicePool pool = DevicePool.open(Execution.jvm(), 0).hostThreadsPerWorker(0)) {
            assertEquals(0, pool.session(0, Execution.parallel(0)).execution().threads(), "0: the default (every core)");
        }
        assertThrows(IllegalArgumentException.class, () -> DevicePool.open(Execution.jvm(), 0).hostThreadsPerWorker(-1));
    }

    @Test
    void aFailingInputIsAnOutcomeAndTheOthersGoOn() {
        List<String> seen = new ArrayList<>();
        try (DevicePool pool = DevicePool.open(Execution.jvm(), 0, 0)) {
            pool.run(upTo(7), (w, k) -> {
                if (k == 3) {
                    throw new AccelGeomException("input 3 is bad");
                }
                return "ok" + k;
            }, o -> seen.add(o.failed() ? o.failure().getMessage() : o.result()));
        }
        assertEquals(List.of("ok0", "ok1", "ok2", "input 3 is bad", "ok4", "ok5", "ok6"), seen);
    }

    @Test
    void aFailingConsumerOrSourceEndsTheRunAndIsRethrown() {
        AtomicInteger computed = new AtomicInteger();
        try (DevicePool pool = DevicePool.open(Execution.jvm(), 0, 0)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> pool.run(upTo(1000), (w, k) -> {
                computed.incrementAndGet();
                return k;
            }, o -> {
                if (o.input() == 2) {
                    throw new IllegalStateException("stop at 2");
                }
            }));
            assertEquals("stop at 2", e.getMessage());
            assertTrue(computed.get() < 1000, "no new input after the failure: " + computed.get());
        }
        List<Integer> seen = new ArrayList<>();
        Iterator<Integer> broken = new Iterator<>() {
            int k;

            @Override
            public boolean hasNext() {
                return true;
            }

            @Override
            public Integer next() {
                if (k == 5) {
                    throw new AccelGeomException("truncated at 5");
                }
                return k++;
            }
        };
        try (DevicePool pool = DevicePool.open(Execution.jvm(), 0, 1)) {
            AccelGeomException e = assertThrows(AccelGeomException.class, () -> pool.run(broken, (w, k) -> k, o -> seen.add(o.input())));
            assertEquals("truncated at 5", e.getMessage());
        }
        assertEquals(List.of(0, 1, 2, 3, 4), seen, "the inputs read before the failure are handed on first");
    }

    @Test
    void aSlowInputHoldsBackAtMostTheWindow() {
        int workers = 2;
        int window = DevicePool.WINDOW_PER_WORKER * workers;
        AtomicInteger started = new AtomicInteger();
        int[] seenWhileBlocked = new int[1];
        try (DevicePool pool = DevicePool.open(Execution.jvm(), 0, 1)) {
            pool.run(upTo(100), (w, k) -> {
                started.incrementAndGet();
                if (k == 0) {
                    long end = System.nanoTime() + 5_000_000_000L;
                    while (started.get() < window && System.nanoTime() < end) {
                        Thread.sleep(5);
                    }
                    Thread.sleep(300); // time for the other worker to run past the window, were there none
                    seenWhileBlocked[0] = started.get();
                }
                return k;
            }, o -> assertNotNull(o.result()));
        }
        assertEquals(window, seenWhileBlocked[0], "inputs taken while input 0 was computed");
    }

    @Test
    void slotsKeepSeveralInputsInFlightPerWorkerSharingItsSessionAndOneSlotIsOneAtATime() {
        for (int slots : new int[] {1, 3}) {
            int[] busy = new int[2];
            int[] most = new int[2];
            Map<Integer, java.util.Set<DeviceSession>> sessions = new ConcurrentHashMap<>();
            List<Integer> order = new ArrayList<>();
            try (DevicePool pool = DevicePool.open(Execution.jvm(), 0, 1)) {
                pool.run(upTo(40), (w, k) -> {
                    synchronized (busy) {
                        most[w.index()] = Math.max(most[w.index()], ++busy[w.index()]);
                    }
                    sessions.computeIfAbsent(w.index(), i -> ConcurrentHashMap.newKeySet()).add(w.session());
                    Thread.sleep(5 + (k * 7) % 5);
                    synchronized (busy) {
                        busy[w.index()]--;
                    }
                    return k;
                }, o -> order.add(o.result()), DevicePool.WINDOW_PER_WORKER, slots);
                long[] per = pool.inputsPerWorker();
                assertEquals(40, per[0] + per[1]);
            }
            assertEquals(IntStream.range(0, 40).boxed().toList(), order, "input order");
            for (int w = 0; w < 2; w++) {
                assertEquals(slots, most[w], "inputs at once on worker " + w + " with " + slots + " slots");
                assertEquals(1, sessions.get(w).size(), "one session per worker");
            }
        }
    }

    @Test
    void inputsAreDealtRoundTheWorkersNotToTheFirstWorkersSlots() {
        try (DevicePool pool = DevicePool.open(Execution.jvm(), 0, 1)) {
            pool.run(upTo(4), (w, k) -> {
                Thread.sleep(100); // all four in flight at once: each worker's slots hold two
                return k;
            }, o -> assertNull(o.failure()), 4, 8);
            assertEquals("[2, 2]", java.util.Arrays.toString(pool.inputsPerWorker()), pool.describe());
        }
    }

    @Test
    void onTakeSeesEachWorkersInputsInInputOrderAndItsFailureIsTheInputs() {
        Map<Integer, List<Integer>> byWorker = new ConcurrentHashMap<>();
        List<String> seen = new ArrayList<>();
        try (DevicePool pool = DevicePool.open(Execution.jvm(), 0, 1)) {
            pool.run(upTo(200), (w, k) -> {
                Thread.sleep(k % 3);
                return "ok" + k;
            }, o -> seen.add(o.failed() ? o.failure().getMessage() : o.result()), 4, 5, (w, k) -> {
                byWorker.computeIfAbsent(w, x -> new ArrayList<>()).add(k); // under the pool's lock
                if (k == 7) {
                    throw new AccelGeomException("cannot send 7");
                }
            });
        }
        for (List<Integer> ks : byWorker.values()) {
            assertEquals(ks.stream().sorted().toList(), ks, "a worker's inputs taken in input order");
        }
        assertEquals(200, byWorker.values().stream().mapToInt(List::size).sum());
        assertEquals("cannot send 7", seen.get(7));
        assertEquals("ok8", seen.get(8));
    }

    @Test
    void aWorkersSlotsShareOneDeviceWorkLock() {
        java.util.Set<Object> locks = ConcurrentHashMap.newKeySet();
        try (DevicePool pool = DevicePool.open(Execution.jvm(), 0)) {
            pool.run(upTo(12), (w, k) -> {
                locks.add(w.deviceWork());
                Thread.sleep(2);
                return k;
            }, o -> assertNull(o.failure()), 4, 3);
        }
        assertEquals(1, locks.size());
    }

    @Test
    void badArgumentsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> DevicePool.open(Execution.jvm()));
        assertThrows(IllegalArgumentException.class, () -> DevicePool.open(Execution.jvm(), 0, -1));
    }
}
