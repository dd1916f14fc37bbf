package org.accelgeom.engine.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The CLI's last step: with native access, {@code _exit} ends the process with the status asked for, after what was
 * flushed and before anything else; without it, {@link NativeExit#exit} returns, silently, for {@link Runtime#halt}.
 * (Tagged tornado: the class is compiled only with the tornado profile, for the SDK's JDK.)
 */
@Tag("tornado")
class NativeExitTest {

    /** The child process: prints "before", asks for _exit(7), and prints "returned" and exits 3 if it came back. */
    public static final class Child {
        public static void main(String[] args) throws Throwable {
            System.out.print("before");
            System.out.flush();
            NativeExit.exit(7);
            System.out.print(" returned");
            System.out.flush();
            System.exit(3);
        }
    }

    private record Run(int status, String out, String err) {
    }

    private static Run child(String... flags) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.addAll(List.of(flags));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Child.class.getName()));
        Process p = new ProcessBuilder(cmd).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Run(p.waitFor(), out, err);
    }

    @Test
    void withNativeAccessTheProcessEndsThere() throws Exception {
        Run r = child("--enable-native-access=ALL-UNNAMED");
        assertEquals(7, r.status(), r.err());
        assertEquals("before", r.out());
    }

    @Test
    void withoutNativeAccessItReturnsWithoutAWarning() throws Exception {
        Run r = child();
        assertEquals(3, r.status(), r.err());
        assertEquals("before returned", r.out());
        assertFalse(r.err().contains("restricted method"), r.err());
    }
}
