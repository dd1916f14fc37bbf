package org.accelgeom.engine.tornado;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Ends the process by the C library's {@code _exit(2)}: no shutdown hook, and none of what {@link Runtime#halt} still
 * does after the hooks: the JVM's own exit (a safepoint, waiting for threads in native code) and the C library's
 * {@code exit}, which runs every loaded library's destructors and {@code atexit} handlers (the OpenCL drivers' clean-up
 * of their contexts, queues and programs, which the kernel frees with the process anyway). Here, because only the
 * tornado side is compiled for a JDK with the foreign function API (final in Java 22) and only its launcher line grants
 * native access ({@code --enable-native-access=ALL-UNNAMED}, tornado-config/accelgeom.argfile).
 *
 * <p>For the CLI's last step only ({@code cli.Main.exit}), once every output is committed and stdout and stderr are
 * flushed: whatever the JVM or a library keeps in a buffer of its own is lost.
 */
public final class NativeExit {

    private NativeExit() {
    }

    /**
     * Calls {@code _exit(status)} and does not return; returns (doing nothing) where this module has no native access
     * (no warning is printed then) or the C library has no {@code _exit}.
     */
    public static void exit(int status) throws Throwable {
        if (!NativeExit.class.getModule().isNativeAccessEnabled()) {
            return;
        }
        Linker linker = Linker.nativeLinker();
        var symbol = linker.defaultLookup().find("_exit");
        if (symbol.isEmpty()) {
            return;
        }
        MethodHandle exit = linker.downcallHandle(symbol.get(), FunctionDescriptor.ofVoid(ValueLayout.JAVA_INT));
        exit.invokeExact(status);
    }
}
