package org.accelgeom.engine.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link NativeExit}: once linked, the process ends with the status given and no shutdown hook runs; without native
 * access nothing is linked and the caller's own exit runs (the hook with it). Each case in a JVM of its own.
 */
@Tag("tornado")
class NativeExitTest {

    /** The child: a hook that prints, then link and exit with status 3; printing "returned" if exit came back. */
    public static void main(String[] args) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("hook")));
        NativeExit.link();
        System.out.println("linked");
        System.out.flush();
        NativeExit.exit(3);
        System.out.println("returned");
        System.exit(4);
    }

    private static String[] child(boolean nativeAccess) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new java.util.ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path")));
        if (nativeAccess) {
            cmd.add("--enable-native-access=ALL-UNNAMED");
        }
        cmd.add(NativeExitTest.class.getName());
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(new File("/dev/null")).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        return new String[] {Integer.toString(p.waitFor()), out};
    }

    @Test
    void endsAtOnceWithTheStatusAndNoHook() throws Exception {
        String[] r = child(true);
        assertEquals("3", r[0], r[1]);
        assertEquals("linked", r[1]);
    }

    @Test
    void withoutNativeAccessTheCallerExitsItsOwnWay() throws Exception {
        String[] r = child(false);
        assertEquals("4", r[0], r[1]);
        assertEquals(List.of("linked", "returned", "hook"), r[1].lines().toList());
    }
}
