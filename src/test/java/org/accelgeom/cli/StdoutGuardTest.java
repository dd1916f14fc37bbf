package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;

import org.junit.jupiter.api.Test;

/** TornadoVM's notices printed on System.out end up on stderr; results stay on stdout. */
class StdoutGuardTest {

    @Test
    void tornadoNoticesGoToStderr() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream guard = new StdoutGuard(new PrintStream(out, true), new PrintStream(err, true));
        guard.println("[TornadoVM] Warning: The loop bounds will be configured by the GridScheduler. Check the grid by using the flag --threadInfo.");
        guard.println("hull vertices:    186");
        PrintWriter results = new PrintWriter(guard, true); // how picocli writes the results
        results.println("facets:           368");
        guard.print("[TornadoVM] note\n");
        assertEquals("hull vertices:    186\nfacets:           368\n", out.toString().replace(System.lineSeparator(), "\n"));
        assertEquals("[TornadoVM] Warning: The loop bounds will be configured by the GridScheduler. Check the grid by using "
                + "the flag --threadInfo.\n[TornadoVM] note\n", err.toString().replace(System.lineSeparator(), "\n"));
    }
}
