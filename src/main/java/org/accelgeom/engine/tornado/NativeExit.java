package org.accelgeom.engine.tornado;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The C library's {@code _exit(2)} through the JDK's foreign function API: the process ends at once, without the
 * JVM's exit sequence (its shutdown hooks, its wait for compiler threads to reach a safepoint) and without the C
 * library's {@code atexit} handlers (the OpenCL drivers' context teardown); the kernel closes the files and frees the
 * memory and the GPU's contexts as for any process. Linking the call generates classes (0.1-1 s in a cold JVM), so
 * {@link #link} runs on a background thread early in the run and {@link #exit} only calls what it linked. Only where
 * this code has native access ({@code --enable-native-access=ALL-UNNAMED}, in {@code tornado-config/accelgeom.argfile}),
 * so that the JVM prints no warning; compiled for the TornadoVM JDK (the API is final since Java 22).
 */
public final class NativeExit {

    /** {@code _exit}, once {@link #link} has made it (null before, or where it cannot be made). */
    private static volatile MethodHandle exit;

    private NativeExit() {
    }

    /** Links {@code _exit} (call it off the critical path); does nothing without native access or on failure. */
    public static void link() {
        if (exit != null || !NativeExit.class.getModule().isNativeAccessEnabled()) {
            return;
        }
        try {
            Linker linker = Linker.nativeLinker();
            exit = linker.downcallHandle(linker.defaultLookup().find("_exit").orElseThrow(),
                    FunctionDescriptor.ofVoid(ValueLayout.JAVA_INT));
        } catch (RuntimeException e) {
            // another C library: the caller ends the JVM its own way
        }
    }

    /** Ends the process with {@code status} when {@link #link} has linked {@code _exit}; else returns at once. */
    public static void exit(int status) {
        MethodHandle h = exit;
        if (h == null) {
            return;
        }
        try {
            h.invokeExact(status);
        } catch (Throwable e) {
            // not reached: _exit does not return
        }
    }
}
