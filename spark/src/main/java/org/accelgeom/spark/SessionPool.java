package org.accelgeom.spark;

import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.Execution;

/**
 * The executor's device sessions, kept from one task to the next, so that a GPU's TornadoVM plans are built once
 * per executor, not once per partition. A task borrows an idle session of its execution (or opens one) and gives it
 * back when its partition is done: tasks running at once never share a session. The sessions are closed when the
 * executor's JVM ends. Executor-wide state on purpose: an executor is one JVM that runs many tasks.
 */
final class SessionPool {
    private static final Map<Execution, Deque<DeviceSession>> IDLE = new ConcurrentHashMap<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(SessionPool::closeAll, "accelgeom-spark-sessions"));
    }

    private SessionPool() {
    }

    static DeviceSession borrow(Execution e) {
        DeviceSession s = IDLE.computeIfAbsent(e, k -> new ConcurrentLinkedDeque<>()).pollFirst();
        while (s != null && s.isClosed()) {
            s = IDLE.get(e).pollFirst();
        }
        return s != null ? s : DeviceSession.open(e);
    }

    static void giveBack(DeviceSession s) {
        if (!s.isClosed()) {
            IDLE.computeIfAbsent(s.execution(), k -> new ConcurrentLinkedDeque<>()).addFirst(s);
        }
    }

    /** Closes every idle session (the executor is ending; also for tests). */
    static void closeAll() {
        for (Deque<DeviceSession> q : IDLE.values()) {
            for (DeviceSession s; (s = q.pollFirst()) != null;) {
                try {
                    s.close();
                } catch (RuntimeException e) {
                    // ending anyway
                }
            }
        }
    }
}
