package org.accelgeom.engine;

import java.lang.reflect.InvocationTargetException;
import java.util.List;

/**
 * Finds out at run time whether TornadoVM can be used: the TornadoVM runtime must be on the module path
 * (the {@code tornado} launcher puts it there) and this build of accelgeom must contain the
 * {@code **}{@code /tornado/**} packages (compiled by the Maven profile {@code tornado}). Nothing here needs
 * TornadoVM at compile time: the tornado side is reached by reflection through {@link DeviceBridge}.
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
     * The system property that turns TornadoVM's profiler on for accelgeom's execution plans ({@code true}); off by
     * default, as it costs every execution a blocking wait per operation (docs/benchmarks.md, "Launch floor").
     */
    public static final String PROFILER_PROPERTY = "accelgeom.tornado.profiler";

    /**
     * Asks for TornadoVM's profiler (kernel times in {@code --timings} tables and benchmarks) unless the user set
     * {@link #PROFILER_PROPERTY} already; takes effect only before the first tornado backend is created.
     */
    public static void requestProfiler() {
        if (System.getProperty(PROFILER_PROPERTY) == null) {
            System.setProperty(PROFILER_PROPERTY, "true");
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
        require();
        return instantiate(BRIDGE_CLASS, DeviceBridge.class);
    }

    /**
     * Creates the tornado implementation {@code className} of an algorithm's backend interface, after
     * {@link #require()}. Reflection keeps TornadoVM types out of everything compiled without the profile.
     */
    public static <T> T instantiate(String className, Class<T> type, Object... args) {
        require();
        try {
            Class<?> c = Class.forName(className);
            for (var ctor : c.getConstructors()) {
                if (ctor.getParameterCount() == args.length) {
                    return type.cast(ctor.newInstance(args));
                }
            }
            throw new IllegalStateException("no public constructor with " + args.length + " arguments in " + className);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new AccelGeomException("TornadoVM backend failed to start: " + cause, cause);
        } catch (ReflectiveOperationException | LinkageError e) {
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
