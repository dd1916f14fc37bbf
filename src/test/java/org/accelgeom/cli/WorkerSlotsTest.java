package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.accelgeom.engine.AccelGeomException;
import org.junit.jupiter.api.Test;

/** {@link WorkerSlots}: the inputs in flight per device worker, their heap, and a worker process's side. */
class WorkerSlotsTest {

    /** A body in flight as a command's: {@code inFlight(cores)} half the cores, footprints by file name. */
    private static Batch.InFlight body(long footprint) {
        return new Batch.InFlight() {
            @Override
            public int inFlight() {
                return inFlight(Runtime.getRuntime().availableProcessors());
            }

            @Override
            public int inFlight(int cores) {
                return Math.max(2, Math.min(8, cores / 2));
            }

            @Override
            public long footprint(Path input) {
                return footprint;
            }

            @Override
            public java.util.concurrent.Callable<Batch.Body> start() {
                return () -> () -> 0;
            }
        };
    }

    @Test
    void perWorkerIsTheCommandsInFlightOnItsShareOfTheCoresOrTheProperty() {
        String before = System.getProperty("accelgeom.devices.inFlight");
        int cores = Runtime.getRuntime().availableProcessors();
        try {
            System.clearProperty("accelgeom.devices.inFlight");
            assertEquals(Math.max(2, Math.min(8, cores / 2 / 2)), WorkerSlots.perWorker(body(0), 2), "half of the share");
            assertEquals(Math.max(2, Math.min(8, cores / 2)), WorkerSlots.perWorker(body(0), 1));
            assertEquals(1, WorkerSlots.perWorker(() -> 0, 2), "a body that is not in flight: one at a time");
            assertEquals(Math.max(2, Math.min(8, cores / 2 / 2)), WorkerSlots.forItems(2, false), "items: voronoi's count");
            int share = Math.max(1, cores / 2);
            assertEquals(share >= 2 ? Math.min(64, share) : Math.max(2, Math.min(8, share / 2)), WorkerSlots.forItems(2, true),
                    "items each alone on a slot's thread: one per core of the share");
            System.setProperty("accelgeom.devices.inFlight", "1");
            assertEquals(1, WorkerSlots.perWorker(body(0), 2), "1: as before");
            System.setProperty("accelgeom.devices.inFlight", "5");
            assertEquals(5, WorkerSlots.perWorker(() -> 0, 2));
            assertEquals(5, WorkerSlots.forItems(2, false));
            assertEquals(5, WorkerSlots.forItems(2, true), "the property wins for items alone too");
        } finally {
            if (before == null) {
                System.clearProperty("accelgeom.devices.inFlight");
            } else {
                System.setProperty("accelgeom.devices.inFlight", before);
            }
        }
    }

    @Test
    void serveRunsTheElementsSideBySideAndReturnsWhenAllHaveEnded() {
        CyclicBarrier three = new CyclicBarrier(3); // the first three only pass together
        Set<Integer> done = ConcurrentHashMap.newKeySet();
        WorkerSlots.serve(IntStream.range(0, 7).iterator(), "t", k -> {
            if (k < 3) {
                try {
                    three.await(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new AccelGeomException("not in flight together: " + e);
                }
            }
            done.add(k);
        });
        assertEquals(Set.of(0, 1, 2, 3, 4, 5, 6), done);
    }

    @Test
    void aFailureIsThrownOnceTheTasksInFlightHaveEndedAndNothingNewStarts() {
        AtomicInteger started = new AtomicInteger();
        AtomicInteger slowEnded = new AtomicInteger();
        java.util.concurrent.CountDownLatch slowRunning = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.BlockingQueue<Integer> numbers = new java.util.concurrent.LinkedBlockingQueue<>(List.of(0, 1));
        Iterator<Integer> source = new Iterator<>() { // 0 and 1, then numbers only after the failure (never, here)
            @Override
            public boolean hasNext() {
                return true;
            }

            @Override
            public Integer next() {
                try {
                    return numbers.take();
                } catch (InterruptedException e) {
                    throw new AccelGeomException("interrupted");
                }
            }
        };
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> WorkerSlots.serve(source, "t", k -> {
            started.incrementAndGet();
            if (k == 0) {
                slowRunning.countDown();
                sleep(300);
                slowEnded.incrementAndGet();
                return;
            }
            await(slowRunning);
            throw new IllegalStateException("device gone");
        }));
        assertEquals("device gone", e.getMessage());
        assertEquals(1, slowEnded.get(), "the input in flight ended first");
        assertEquals(2, started.get());

        AccelGeomException broken = assertThrows(AccelGeomException.class, () -> WorkerSlots.serve(new Iterator<Integer>() {
            @Override
            public boolean hasNext() {
                return true;
            }

            @Override
            public Integer next() {
                throw new AccelGeomException("worker process: input 3 is x here, y in the parent");
            }
        }, "t", k -> { }));
        assertTrue(broken.getMessage().startsWith("worker process: input 3"), broken.getMessage());
    }

    @Test
    void theHeapLetsAnInputBesideOthersOnlyWhileTheirFootprintsFitHalfTheHeap() throws Exception {
        long half = Runtime.getRuntime().maxMemory() / 2;
        WorkerSlots.Heap heap = new WorkerSlots.Heap(body(half / 2 + 1)); // two never fit at once
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        Runnable one = () -> heap.run(Path.of("x"), () -> {
            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
            sleep(50);
            inside.decrementAndGet();
            return null;
        });
        List<Thread> ts = IntStream.range(0, 4).mapToObj(k -> new Thread(one)).toList();
        ts.forEach(Thread::start);
        for (Thread t : ts) {
            t.join();
        }
        assertEquals(1, most.get(), "one at a time");
        WorkerSlots.Heap small = new WorkerSlots.Heap(body(1));
        CyclicBarrier both = new CyclicBarrier(2);
        Runnable two = () -> small.run(Path.of("y"), () -> {
            try {
                return both.await(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AccelGeomException("not side by side: " + e);
            }
        });
        Thread a = new Thread(two);
        a.start();
        two.run();
        a.join();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(java.util.concurrent.CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
