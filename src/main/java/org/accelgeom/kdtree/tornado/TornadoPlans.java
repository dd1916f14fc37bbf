package org.accelgeom.kdtree.tornado;

import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.tornado.LaunchCheck;
import org.accelgeom.engine.tornado.Plans;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.TornadoProfilerResult;
import uk.ac.manchester.tornado.api.common.TornadoDevice;

/**
 * One execution plan of a one-task graph, its launch size, heartbeat and timings: upload, kernel and download
 * times from TornadoVM's profiler when the timings ask for them ({@link Plans#execute(TornadoExecutionPlan, TornadoDevice,
 * PhaseTimings)}; else one wall time).
 */
final class TornadoPlans implements AutoCloseable {

    private final TornadoExecutionPlan plan;
    private final uk.ac.manchester.tornado.api.WorkerGrid1D grid;
    private final TornadoDevice device;
    private final int[] params;
    private final int seq;
    private final LaunchCheck check;
    private final int beatSlot;
    private final int beats;
    private TornadoExecutionResult last;

    /** A unique graph name for a step. */
    static String name(String step) {
        return org.accelgeom.engine.tornado.GraphNames.unique(step);
    }

    TornadoPlans(TaskGraph graph, TornadoDevice device, int global, int[] params, int seq, LaunchCheck check, int beatSlot) {
        this(graph, device, global, params, seq, check, beatSlot, new String[] {"t"});
    }

    /** A plan whose tasks {@code tasks} all run over the same launch size, with heartbeats from beatSlot on, one per task. */
    TornadoPlans(TaskGraph graph, TornadoDevice device, int global, int[] params, int seq, LaunchCheck check, int beatSlot,
            String[] tasks) {
        this.beats = tasks.length;
        this.device = device;
        this.params = params;
        this.seq = seq;
        this.check = check;
        this.beatSlot = beatSlot;
        this.grid = KdTreeTaskGraphs.grid(global);
        this.plan = new TornadoExecutionPlan(graph.snapshot());
        uk.ac.manchester.tornado.api.GridScheduler gs = new uk.ac.manchester.tornado.api.GridScheduler();
        for (String task : tasks) {
            gs.addWorkerGrid(graph.getTaskGraphName() + "." + task, grid);
        }
        plan.withDevice(device).withGridScheduler(gs);
    }

    /** Runs the step over {@code global} work-items and charges its times to phases named after {@code step}. */
    TornadoExecutionResult execute(String step, int global, PhaseTimings t) {
        grid.setGlobalWork(Math.max(1, global), 1, 1);
        params[seq]++;
        long t0 = System.nanoTime();
        last = Plans.execute(plan, device, t);
        long wall = System.nanoTime() - t0;
        check.verifyRange(params[seq], device.getPhysicalDevice().getDeviceName(), step, beatSlot, beatSlot + beats);
        if (!Plans.wasProfiled(last)) {
            t.add(step + " (device, wall)", Kind.KERNEL, wall);
            return last;
        }
        TornadoProfilerResult pr = last.getProfilerResult();
        long kernel = Math.max(0, pr.getDeviceKernelTime());
        long up = Math.max(0, pr.getDeviceWriteTime());
        long down = Math.max(0, pr.getDeviceReadTime());
        long compile = Math.max(0, pr.getCompileTime());
        t.add(step + " (kernel)", Kind.KERNEL, kernel);
        t.add(step + " (upload)", Kind.UPLOAD, up);
        t.add(step + " (download)", Kind.DOWNLOAD, down);
        if (compile > 0) {
            t.add("JIT compile (TornadoVM)", Kind.HOST, compile);
        }
        t.add(step + " (launch overhead)", Kind.HOST, Math.max(0, wall - kernel - up - down - compile));
        return last;
    }

    TornadoExecutionResult last() {
        return last;
    }

    @Override
    public void close() {
        Plans.release(plan);
    }
}
