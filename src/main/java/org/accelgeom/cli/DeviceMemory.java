package org.accelgeom.cli;

import java.util.regex.Pattern;

/**
 * TornadoVM's device out-of-memory messages as one plain line with the way out. TornadoVM 5.2 throws
 * {@code TornadoOutOfMemoryException} with "Unable to allocate N bytes of memory." followed by a hint in ANSI yellow
 * ("To increase the maximum device memory, use -Dtornado.device.memory=&lt;X&gt;GB") in two cases
 * ({@code TornadoBufferProvider.getOrAllocateBufferWithSize}): a buffer at least the device's maximum allocation
 * (the message starts "[ERROR] "), and its own accounting: every buffer of a device counts against
 * {@code -Dtornado.device.memory}, 4 GB by default, far below a data-centre GPU's memory (a 9 GB layout failed on an
 * H200 of 141 GB). tornado-config/accelgeom.argfile raises that limit; a launch without the argfile can still meet it.
 */
final class DeviceMemory {

    /** ANSI escape sequences (CSI: ESC [ parameters intermediates final), as TornadoVM colours its hints. */
    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-?]*[ -/]*[@-~]");
    /** TornadoVM's hint, replaced by ours (it names neither where to put the flag nor when it applies). */
    private static final Pattern HINT = Pattern.compile(
            "To increase the maximum device memory,? use -Dtornado\\.device\\.memory=<X>GB\\.?");
    private static final String ACCOUNTING_FLAG = "tornado.device.memory";

    private DeviceMemory() {
    }

    /** TornadoVM's message without colours, its hint and its "[ERROR]" tag, on one line. */
    static String clean(String message) {
        if (message == null) {
            return "no message";
        }
        String s = ANSI.matcher(message).replaceAll("");
        s = HINT.matcher(s).replaceAll("");
        s = s.replaceAll("\\s+", " ").strip();
        if (s.startsWith("[ERROR]")) {
            s = s.substring("[ERROR]".length()).strip();
        }
        while (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).strip();
        }
        return s.isEmpty() ? "no message" : s;
    }

    /** Whether the message is TornadoVM's accounting limit (its hint without the "[ERROR]" of the device's maximum). */
    static boolean accountingLimit(String message) {
        if (message == null || !message.contains(ACCOUNTING_FLAG)) {
            return false;
        }
        return !ANSI.matcher(message).replaceAll("").strip().startsWith("[ERROR]");
    }

    /** The CLI's error line for a device out-of-memory exception with {@code message}. */
    static String describe(String message) {
        if (accountingLimit(message)) {
            return "the device memory TornadoVM allows is used up (" + clean(message) + "; TornadoVM counts every "
                    + "buffer against -Dtornado.device.memory, 4GB by default): raise it up to the device's memory, "
                    + "e.g. ACCELGEOM_JAVA_OPTS=-Dtornado.device.memory=64GB, or use a smaller input or "
                    + "--backend jvm-parallel";
        }
        return "the device is out of memory (" + clean(message) + "): a buffer is larger than the device can allocate "
                + "('accelgeom devices' prints its maximum allocation); use a smaller input or --backend jvm-parallel";
    }
}
