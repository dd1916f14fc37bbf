package org.accelgeom.engine;

import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Finds out at run time whether TornadoVM can be used: the TornadoVM runtime must be on the module path
 * (the {@code tornado} launcher puts it there) and this build of accelgeom must contain the
 * {@code **}{@code /tornado/**} packages (compiled by the Maven profile {@code tornado}). Nothing here needs
 * TornadoVM at compile time: the tornado side is reached through services ({@link #factory}).
 */
public final class TornadoSupport {

    /** What the tornado side of accelgeom offers the engine. Implemented in {@code engine.tornado}. */
    public interface DeviceBridge {
        /** One line per device: {@code index: name (backend, memory)}; index is what {@code --device} takes. */
        List<String> describeDevices();

        /** The number of devices of the default backend. */
        int deviceCount();
    }

    static final String RUNTIME_CLASS = "uk.ac.manchester.tornado.runtime.TornadoCoreRuntime";
    static final String BRIDGE_CLASS = "org.accelgeom.engine.tornado.TornadoDevices";

    /** The one line that tells a user how to get a working {@code tornado} backend. */
    public static final String HOW_TO = "run accelgeom under the TornadoVM launcher: scripts/accelgeom does so when a "
            + "TornadoVM SDK is installed at $TORNADOVM_HOME (default /opt/tornadovm); see README.md, 'Running on a GPU'";

    private TornadoSupport() {
    }

    /**
     * The system property that turns TornadoVM's profiler on for every execution plan of accelgeom in the process
     * ({@code true}: benchmarks, diagnostics), whatever the calls' {@link Execution#timings()}; off by default, as it
     * costs every execution a blocking wait per operation (docs/benchmarks.md, "Launch floor"). A call asks for it on
     * its own plans with {@link Timings#DEVICE}.
     */
    public static final String PROFILER_PROPERTY = Tuning.TORNADO_PROFILER.property();

    /**
     * Asks for TornadoVM's profiler (kernel times in {@code --timings} tables and benchmarks) unless the user set
     * {@link #PROFILER_PROPERTY} already; takes effect only before the first tornado backend is created.
     */
    public static void requestProfiler() {
        if (System.getProperty(PROFILER_PROPERTY) == null) {
            System.setProperty(PROFILER_PROPERTY, "true");
        }
        timersForProfiler();
    }

    /**
     * The process-wide lock of plan builds that must not run side by side: building a plan sketches its kernels in
     * TornadoVM (Graal graphs of the task methods, cached per method and shared by later plans), which a cold run on 4
     * GPUs with parts built at once ended once in a ConcurrentModificationException (the ridge split, session 16).
     */
    public static final Object PLAN_BUILDS = new Object();

    /**
     * TornadoVM's switch of the OpenCL driver's event timers ({@code CL_QUEUE_PROFILING_ENABLE} on its command queues,
     * read once when TornadoVM starts). With them, every execution of a one-kernel graph took 58 instead of 31 µs on an
     * H200, and each further kernel 35 instead of 19 µs (docs/benchmarks.md, session 10), so
     * {@code tornado-config/accelgeom.argfile} turns them off. TornadoVM's profiler reads its kernel and transfer times
     * from them, so {@link #timersForProfiler} turns them on again where the profiler is on.
     */
    public static final String DRIVER_TIMERS_PROPERTY = "tornado.opencl.profiling.enable";

    /**
     * Turns the OpenCL driver's event timers on ({@link #DRIVER_TIMERS_PROPERTY}), so that the kernel times of a call
     * with {@link Timings#DEVICE} are not zero; takes effect only before TornadoVM starts.
     */
    public static void requestDriverTimers() {
        System.setProperty(DRIVER_TIMERS_PROPERTY, "True");
    }

    /**
     * Turns the OpenCL driver's event timers on ({@link #DRIVER_TIMERS_PROPERTY}) when {@link #PROFILER_PROPERTY} is
     * true, so that the profiler's times are not zero; takes effect only before TornadoVM starts.
     */
    public static void timersForProfiler() {
        if (Boolean.parseBoolean(System.getProperty(PROFILER_PROPERTY))) {
            System.setProperty(DRIVER_TIMERS_PROPERTY, "True");
        }
    }


    /** True when the TornadoVM runtime classes can be loaded. */
    public static boolean runtimePresent() {
        return loadable(RUNTIME_CLASS);
    }

    /** True when this jar was built with the {@code tornado} profile. */
    public static boolean compiledIn() {
        return loadable(BRIDGE_CLASS);
    }

    /** True when the {@code tornado} backend can run here. */
    public static boolean available() {
        return runtimePresent() && compiledIn();
    }

    /**
     * Checks that the {@code tornado} backend can run and throws a one-line {@link AccelGeomException}
     * saying how to fix it if not.
     */
    public static void require() {
        if (!runtimePresent()) {
            throw new AccelGeomException("backend 'tornado' needs the TornadoVM runtime, which is not loaded: " + HOW_TO);
        }
        if (!compiledIn()) {
            throw new AccelGeomException("backend 'tornado': this accelgeom jar was built without the Maven profile "
                    + "'tornado'; rebuild it with scripts/build (it enables the profile when a TornadoVM SDK is found)");
        }
    }

    /** The device bridge; call {@link #require()} first. */
    public static DeviceBridge devices() {
        return factory(DeviceBridge.class);
    }

    /**
     * The tornado implementation of a backend factory interface {@code type}, after {@link #require()}. The
     * implementations are services ({@link ServiceLoader}) listed in {@code META-INF/services} of the build with the
     * Maven profile {@code tornado} only ({@code src/tornado/resources}), so nothing compiled without the profile
     * names a TornadoVM type or a tornado class.
     */
    public static <F> F factory(Class<F> type) {
        require();
        try {
            return ServiceLoader.load(type, type.getClassLoader()).findFirst().orElseThrow(() -> new AccelGeomException(
                    "backend 'tornado': this accelgeom build has no " + type.getName() + " service; rebuild it with "
                            + "scripts/build (Maven profile 'tornado')"));
        } catch (ServiceConfigurationError | LinkageError e) {
            throw new AccelGeomException("TornadoVM backend failed to start (" + e + "): " + HOW_TO, e);
        }
    }

    private static boolean loadable(String name) {
        try {
            Class.forName(name, false, TornadoSupport.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
