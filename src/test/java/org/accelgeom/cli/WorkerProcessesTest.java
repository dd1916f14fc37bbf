package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

/**
 * The parent's side of worker processes against scripted children (bash): several numbers in flight on one child,
 * each answer handed to the thread that asked for its number whatever the order, a child that dies ends every
 * asker with one message.
 */
class WorkerProcessesTest {

    /** A child that reads {@code n} numbers, then answers them in reverse order, then waits for its end of input. */
    private static Process reversing(int n) throws IOException {
        String script = "ks=(); for i in $(seq " + n + "); do read k; ks+=(\"$k\"); done; "
                + "for ((i=${#ks[@]}-1; i>=0; i--)); do o=\"report $((${ks[$i]} * 10))\"; "
                + "printf 'noise\\n\\001ag %s 0 %d 0 %d\\n%s' \"${ks[$i]}\" \"${#o}\" \"$((i + 1))\" \"$o\"; done; "
                + "cat > /dev/null; printf '\\001ag-end 7\\n'";
        return new ProcessBuilder("bash", "-c", script).start();
    }

    @Test
    void numbersInFlightGetTheirOwnAnswersInWhateverOrderTheyCome() throws Exception {
        WorkerProcesses procs = WorkerProcesses.of(List.of(reversing(3)));
        ExecutorService askers = Executors.newFixedThreadPool(3);
        try {
            List<Future<WorkerProcesses.Reply>> replies = new ArrayList<>();
            for (int k : new int[] {4, 9, 2}) {
                replies.add(askers.submit(() -> procs.ask(0, k, null)));
            }
            // the child answers only once it holds all three: one asker at a time would wait for ever
            assertEquals("report 40", replies.get(0).get().out());
            assertEquals("report 90", replies.get(1).get().out());
            assertEquals("report 20", replies.get(2).get().out());
            assertEquals(0, replies.get(0).get().status());
        } finally {
            askers.shutdownNow();
        }
        procs.close();
        assertEquals(7, procs.planBuilds(), "the end frame");
        String timeline = procs.timeline();
        assertTrue(timeline.contains("; 3 inputs, busy 0.00 s;"), timeline);
    }

    /**
     * Items: a child reads its items in turn from one stream, so it must get its numbers in increasing order, though
     * its slots ask side by side: each number is sent as a slot takes it ({@link org.accelgeom.engine.DevicePool}'s
     * onTake, under its lock), the slots only wait for the answers. The scripted child ends at a number out of order.
     */
    @Test
    void numbersSentAsTheyAreTakenReachTheChildInOrderThoughTheSlotsAskSideBySide() throws Exception {
        String script = "last=-1; while read k; do if [ \"$k\" -le \"$last\" ]; then echo \"$k after $last\" >&2; exit 1; fi; "
                + "last=$k; o=\"r$k\"; printf '\\001ag %s 0 %d 0 1\\n%s' \"$k\" \"${#o}\" \"$o\"; done; printf '\\001ag-end 0\\n'";
        WorkerProcesses procs = WorkerProcesses.of(List.of(new ProcessBuilder("bash", "-c", script).start()));
        java.util.Random random = new java.util.Random(3);
        List<String> answers = new ArrayList<>();
        try (var pool = org.accelgeom.engine.DevicePool.open(org.accelgeom.engine.Execution.jvm(), 0)) {
            pool.run(java.util.stream.IntStream.range(0, 300).iterator(), (w, k) -> {
                Thread.sleep(random.nextInt(3)); // the slots ask in any order
                return procs.ask(w.index(), k, null).out();
            }, o -> answers.add(o.failed() ? String.valueOf(o.failure()) : o.result()), 16, 8,
                    (w, k) -> procs.send(w, k, null));
        }
        assertEquals(java.util.stream.IntStream.range(0, 300).mapToObj(k -> "r" + k).toList(), answers);
        procs.close();
    }

    @Test
    void aChildThatDiesEndsEveryAskerWithItsExitStatus() throws Exception {
        Process p = new ProcessBuilder("bash", "-c", "read a; read b; exit 3").start();
        WorkerProcesses procs = WorkerProcesses.of(List.of(p));
        ExecutorService askers = Executors.newFixedThreadPool(2);
        try {
            Future<WorkerProcesses.Reply> a = askers.submit(() -> procs.ask(0, 0, null));
            Future<WorkerProcesses.Reply> b = askers.submit(() -> procs.ask(0, 1, "b.pdb"));
            for (Future<WorkerProcesses.Reply> f : List.of(a, b)) {
                var e = assertThrows(java.util.concurrent.ExecutionException.class, f::get);
                assertTrue(e.getCause() instanceof WorkerProcesses.Ended, String.valueOf(e.getCause()));
                assertEquals("the worker process of device 0 ended (exit status 3)", e.getCause().getMessage());
            }
        } finally {
            askers.shutdownNow();
        }
        WorkerProcesses.Ended late = assertThrows(WorkerProcesses.Ended.class, () -> procs.ask(0, 2, null));
        assertEquals("the worker process of device 0 ended (exit status 3)", late.getMessage(), "asked after its end");
        var end = assertThrows(org.accelgeom.engine.AccelGeomException.class, procs::close);
        assertTrue(end.getMessage().startsWith("the worker process of device 0 ended"), end.getMessage());
    }

    @Test
    void anAnswerForANumberNotAskedEndsTheChild() throws Exception {
        Process p = new ProcessBuilder("bash", "-c", "read k; printf '\\001ag 99 0 0 0 1\\n'; cat > /dev/null").start();
        WorkerProcesses procs = WorkerProcesses.of(List.of(p));
        var e = assertThrows(org.accelgeom.engine.AccelGeomException.class, () -> procs.ask(0, 5, null));
        assertEquals("worker process of device 0 answered 99, which it was not asked", e.getMessage());
        p.destroyForcibly();
    }
}
