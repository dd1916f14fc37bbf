package org.accelgeom.io;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.function.Executable;

/** The small files under src/test/resources/io and a check of error messages. */
final class TestFiles {
    private TestFiles() {
    }

    static Path file(String name) {
        try {
            return Path.of(TestFiles.class.getResource("/io/" + name).toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("missing test resource " + name, e);
        }
    }

    /** Asserts a FormatException whose message names the file and contains {@code where} (e.g. ":3:"). */
    static FormatException assertFormatError(String fileName, String where, Executable read) {
        FormatException e = assertThrows(FormatException.class, read);
        assertTrue(e.getMessage().contains(fileName), () -> "no file name in: " + e.getMessage());
        assertTrue(e.getMessage().contains(where), () -> "no '" + where + "' in: " + e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), () -> "not one line: " + e.getMessage());
        return e;
    }
}
