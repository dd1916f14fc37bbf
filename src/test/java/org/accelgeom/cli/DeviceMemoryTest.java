package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;

/** TornadoVM's device out-of-memory messages become one plain line that says what to change. */
class DeviceMemoryTest {

    private static final String YELLOW = "\u001B[33m";
    private static final String RESET = "\u001B[0m";
    private static final String HINT = YELLOW + "\n\tTo increase the maximum device memory, use -Dtornado.device.memory=<X>GB\n"
            + RESET;
    /** TornadoVM 5.2's accounting message, as the H200 run at 10^8 points printed it (TornadoBufferProvider). */
    private static final String ACCOUNTING = "Unable to allocate 9055502056 bytes of memory." + HINT;
    /** Its message for a buffer at least the device's maximum allocation. */
    private static final String MAX_ALLOCATION = "[ERROR] Unable to allocate 40000000000 bytes of memory." + HINT;

    @Test
    void colorsHintAndTagAreRemoved() {
        assertEquals("Unable to allocate 9055502056 bytes of memory.", DeviceMemory.clean(ACCOUNTING));
        assertEquals("Unable to allocate 40000000000 bytes of memory.", DeviceMemory.clean(MAX_ALLOCATION));
        assertEquals("a b", DeviceMemory.clean(YELLOW + "a\n\t b" + RESET + ";"));
        assertEquals("no message", DeviceMemory.clean(null));
        assertEquals("no message", DeviceMemory.clean(HINT));
    }

    @Test
    void theAccountingLimitNamesTheFlagThatRaisesIt() {
        assertTrue(DeviceMemory.accountingLimit(ACCOUNTING));
        assertFalse(DeviceMemory.accountingLimit(MAX_ALLOCATION));
        assertFalse(DeviceMemory.accountingLimit("Unable to allocate 17179869184 bytes of memory."));
        String line = DeviceMemory.describe(ACCOUNTING);
        assertTrue(line.contains("(Unable to allocate 9055502056 bytes of memory.;"), line);
        assertTrue(line.contains("ACCELGEOM_JAVA_OPTS=-Dtornado.device.memory="), line);
        String max = DeviceMemory.describe(MAX_ALLOCATION);
        assertTrue(max.startsWith("the device is out of memory (Unable to allocate 40000000000 bytes of memory.): "
                + "a buffer is larger than the device can allocate"), max);
        assertFalse(max.contains("tornado.device.memory"), max);
    }

    @Test
    void theCommandLinePrintsOnePlainLine() {
        for (String message : new String[] {ACCOUNTING, MAX_ALLOCATION}) {
            StringWriter err = new StringWriter();
            var cl = Main.commandLine();
            cl.setErr(new PrintWriter(err, true));
            RuntimeException wrapped = new RuntimeException(
                    new BadInputMatrixTest.TornadoOutOfMemoryException(message));
            assertEquals(1, new Main.Failures(false).handleExecutionException(wrapped, cl, null));
            String out = err.toString();
            assertEquals(1, out.lines().count(), out);
            assertTrue(out.startsWith("accelgeom: error: the device "), out);
            assertFalse(out.contains("\\x1b") || out.contains("\u001B") || out.contains("<X>"), out);
        }
    }
}
