package org.accelgeom.engine.tornado;

import java.util.concurrent.atomic.AtomicInteger;

import org.accelgeom.engine.LaunchProbe;

import uk.ac.manchester.tornado.api.ImmutableTaskGraph;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.IntArray;

/**
 * {@link LaunchProbe} on TornadoVM: a task graph of {@code tasks} tiny kernels on one resident int array, with the
 * algorithms' per-execution traffic around it (small parameter arrays uploaded every execution, the first
 * {@code downloads} kernels' int[4] flag arrays read back after it). Each kernel adds the first parameter to
 * {@code work} entries and writes its flag array; the empty kernel (work 0) runs one work-item that writes nothing.
 */
public final class TornadoLaunchProbe implements LaunchProbe {

    private static final AtomicInteger PLANS = new AtomicInteger();

    private final TornadoExecutionPlan plan;
    private final TornadoDevice device;
    private final IntArray data;
    private final IntArray[] up;
    private final IntArray[] down;
    private final boolean profiler;
    private TornadoExecutionResult last;

    /** The probe factory the core finds as a service ({@link LaunchProbe#create}). */
    public static final class Factory implements LaunchProbe.Factory {
        @Override
        public LaunchProbe create(int tasks, int work, int uploads, int downloads, boolean profiler) {
            return new TornadoLaunchProbe(tasks, work, uploads, downloads, profiler);
        }
    }

    TornadoLaunchProbe(int tasks, int work, int uploads, int downloads, boolean profiler) {
        if (tasks < 1 || downloads > tasks || work < 0 || uploads < 1) {
            throw new IllegalArgumentException("a launch probe needs 1 <= downloads <= tasks, work >= 0, uploads >= 1");
        }
        data = new IntArray(Math.max(1, work));
        up = new IntArray[uploads];
        for (int i = 0; i < up.length; i++) {
            up[i] = new IntArray(4);
            up[i].set(0, 1);
        }
        IntArray[] out = new IntArray[tasks];
        for (int i = 0; i < out.length; i++) {
            out[i] = new IntArray(4);
        }
        down = java.util.Arrays.copyOf(out, downloads);
        this.profiler = profiler;
        TaskGraph g = new TaskGraph("launch" + PLANS.incrementAndGet())
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, data)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, (Object[]) out)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, (Object[]) up);
        for (int t = 0; t < tasks; t++) {
            if (work == 0) {
                g.task("t" + t, TornadoLaunchProbe::empty, up[0], out[t]);
            } else {
                g.task("t" + t, TornadoLaunchProbe::tiny, up[0], data, out[t]);
            }
        }
        if (downloads > 0) {
            g.transferToHost(DataTransferMode.UNDER_DEMAND, (Object[]) down);
        }
        ImmutableTaskGraph frozen = g.snapshot();
        device = TornadoDevices.device(-1);
        plan = new TornadoExecutionPlan(frozen);
        plan.withDevice(device);
        if (profiler) {
            Plans.profiled(plan);
        } else {
            plan.withoutProfiler();
        }
        execute(); // compiles every kernel
    }

    /** The empty kernel: one work-item that writes nothing unless the parameter says so (it never does). */
    public static void empty(IntArray params, IntArray out) {
        for (@Parallel int i = 0; i < 1; i++) {
            if (params.get(0) == Integer.MIN_VALUE) {
                out.set(0, i);
            }
        }
    }

    /** The tiny kernel: one add per entry of {@code data}; the first work-items write the flag array. */
    public static void tiny(IntArray params, IntArray data, IntArray out) {
        for (@Parallel int i = 0; i < data.getSize(); i++) {
            int v = data.get(i) + params.get(0);
            data.set(i, v);
            if (i < 4) {
                out.set(i, v);
            }
        }
    }

    @Override
    public int execute() {
        last = Plans.execute(plan, device);
        if (down.length > 0) {
            last.transferToHost((Object[]) down);
            return down[down.length - 1].get(0);
        }
        return 0;
    }

    @Override
    public void close() {
        if (profiler && !Plans.PROFILE) {
            plan.withoutProfiler(); // TornadoVM applies it at the plan's next execution (there is none): only tidy
        }
        Plans.release(plan);
    }
}
