package org.accelgeom.engine.tornado;

import org.accelgeom.engine.Tuning;
import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;

import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.TornadoProfilerResult;
import uk.ac.manchester.tornado.api.common.TornadoDevice;

/**
 * What every tornado backend does with its execution plans: run one execution (a TornadoVM failure becomes one
 * clear line naming the device), charge its time to the phase timings, and release the plan.
 */
public final class Plans {

    /**
     * TornadoVM's profiler splits an execution into upload, kernel and compile time, but it costs time of its own: with
     * it on, TornadoVM 5.2 waits on every transfer's and kernel's event as it is enqueued (one blocking round trip per
     * operation) and builds a profile per execution. So it is off unless asked for: by the call's timings
     * ({@link org.accelgeom.engine.Timings#DEVICE}, which the CLI's {@code --timings} sets; see
     * {@link #execute(TornadoExecutionPlan, TornadoDevice, PhaseTimings)}), or for every plan of the process by
     * {@code -Daccelgeom.tornado.profiler=true}, which the CLI sets for its benchmarks ({@code --bench}; see
     * {@link org.accelgeom.engine.TornadoSupport#PROFILER_PROPERTY}). Off, an execution's wall time is reported as
     * one "device" phase. Read once, when the first tornado backend loads this class.
     *
     * <p>TornadoVM 5.2 keeps the profiler mode per plan ({@code withProfiler}/{@code withoutProfiler} set it in the
     * plan's execution frame) and applies it at each {@code execute()}, by setting its process-wide profiler flag, which
     * also governs the result's later {@code transferToHost}: plans with different modes may take turns on one thread,
     * but should not run at once on several.
     */
    public static final boolean PROFILE = Tuning.TORNADO_PROFILER.booleanValue();

    /**
     * Diagnostics: with {@code -Daccelgeom.tornado.profileLog=N} (N &gt; 0), every N-th profiled execution prints
     * TornadoVM's per-task profile (JSON: each task's kernel time, dispatch time, transfers) to stderr.
     */
    private static final int PROFILE_LOG = Tuning.TORNADO_PROFILE_LOG.intValue();

    private static final java.util.concurrent.atomic.AtomicLong EXECUTIONS = new java.util.concurrent.atomic.AtomicLong();

    private Plans() {
    }

    /**
     * The profiler's figures of the last execution on this thread, read as soon as it returned: TornadoVM 5.2 clears
     * its profiler on every {@code transferToHost} of the result, so figures read after a download are zeros.
     */
    private static final ThreadLocal<Profile> LAST = new ThreadLocal<>();

    /** Profiler figures of one execution, in nanoseconds. */
    private record Profile(TornadoExecutionResult result, long kernel, long upload, long compile) {
    }

    /** Plans whose profiler is on (reading a plan's figures without one prints a warning on every call). */
    private static final java.util.Set<TornadoExecutionPlan> PROFILED =
            java.util.Collections.synchronizedSet(java.util.Collections.newSetFromMap(new java.util.WeakHashMap<>()));

    /** Turns the plan's profiler on (silently) so that {@link #charge} can split its executions. */
    public static void profiled(TornadoExecutionPlan plan) {
        plan.withProfiler(uk.ac.manchester.tornado.api.enums.ProfilerMode.SILENT);
        PROFILED.add(plan);
    }

    /**
     * Switches the plan's profiler on (silently) or off; nothing when it is so already (TornadoVM applies it at the
     * plan's next execution).
     */
    public static void profiler(TornadoExecutionPlan plan, boolean on) {
        if (on == PROFILED.contains(plan)) {
            return;
        }
        if (on) {
            profiled(plan);
        } else {
            plan.withoutProfiler();
            PROFILED.remove(plan);
        }
    }

    /**
     * One execution of {@code plan} on {@code device} charged to {@code timings}: the plan's profiler is on for it when
     * the timings ask for the device's times ({@link PhaseTimings#device()}) or {@link #PROFILE} is set, off
     * otherwise, so a plan kept in a session follows the timings of each call.
     */
    public static TornadoExecutionResult execute(TornadoExecutionPlan plan, TornadoDevice device, PhaseTimings timings) {
        profiler(plan, PROFILE || timings.device());
        return execute(plan, device);
    }

    /** One execution of {@code plan} on {@code device}, with the profiler as the plan has it. */
    public static TornadoExecutionResult execute(TornadoExecutionPlan plan, TornadoDevice device) {
        try {
            TornadoExecutionResult r = plan.execute();
            KernelCache.collect(plan, device);
            if (PROFILED.contains(plan)) {
                TornadoProfilerResult pr = r.getProfilerResult();
                LAST.set(new Profile(r, Math.max(0, pr.getDeviceKernelTime()), Math.max(0, pr.getDeviceWriteTime()),
                        Math.max(0, pr.getCompileTime())));
                if (PROFILE_LOG > 0 && EXECUTIONS.incrementAndGet() % PROFILE_LOG == 0) {
                    System.err.println(pr.getProfileLog());
                }
            }
            return r;
        } catch (RuntimeException e) {
            throw new AccelGeomException("TornadoVM execution failed on " + device.getPhysicalDevice().getDeviceName()
                    + " (" + e.getMessage() + ")", e);
        }
    }

    /**
     * Charges an execution that took {@code wallNanos}: with the profiler, its kernels under {@code phase + "
     * (kernels)"}, its uploads, TornadoVM's JIT compilation and the rest as launch overhead; without, the wall time
     * under {@code phase + " (device, wall)"}. Returns the kernel nanoseconds, or -1 without the profiler (an
     * execution of a plan whose profiler was off).
     */
    public static long charge(PhaseTimings timings, String phase, TornadoExecutionResult result, long wallNanos) {
        if (!wasProfiled(result)) {
            timings.add(phase + " (device, wall)", Kind.KERNEL, wallNanos);
            return -1;
        }
        Profile p = profileOf(result);
        long kernel = p.kernel();
        long upload = p.upload();
        long compile = p.compile();
        timings.add(phase + " (kernels)", Kind.KERNEL, kernel);
        timings.add("upload", Kind.UPLOAD, upload);
        if (compile > 0) {
            timings.add("JIT compile (TornadoVM)", Kind.HOST, compile);
        }
        timings.add("launch overhead", Kind.HOST, Math.max(0, wallNanos - kernel - upload - compile));
        return kernel;
    }

    /** Kernel nanoseconds of an execution (as read right after it), 0 without the profiler. */
    public static long kernelNanos(TornadoExecutionResult result) {
        return profileOf(result).kernel();
    }

    /** Whether {@code result} is the last execution on this thread and its plan's profiler was on. */
    public static boolean wasProfiled(TornadoExecutionResult result) {
        Profile p = LAST.get();
        return p != null && p.result() == result;
    }

    /**
     * The figures read right after {@code result}'s execution by {@link #execute}; zeros for an execution of an
     * unprofiled plan (0 is also what the OpenCL driver gives without kernel timers).
     */
    private static Profile profileOf(TornadoExecutionResult result) {
        Profile p = LAST.get();
        return p != null && p.result() == result ? p : new Profile(result, 0, 0, 0);
    }

    /** Frees the plan's device memory and closes it; a plan that is already gone is fine. */
    public static void release(TornadoExecutionPlan plan) {
        if (plan == null) {
            return;
        }
        try {
            plan.freeDeviceMemory();
            plan.close();
        } catch (Exception e) {
            // the plan is gone either way: nothing a user could act on
        }
    }
}
