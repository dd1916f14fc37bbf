package org.accelgeom.io;

import org.accelgeom.engine.AccelGeomException;

/**
 * A malformed input file: the message names the file, the line (or byte offset for binary data) and what
 * was expected, in one line.
 */
public class FormatException extends AccelGeomException {
    private static final long serialVersionUID = 1L;

    public FormatException(String message) {
        super(message);
    }

    /** {@code file:line: what} */
    public static FormatException at(String file, long line, String what) {
        return new FormatException(file + ":" + line + ": " + what);
    }
}
