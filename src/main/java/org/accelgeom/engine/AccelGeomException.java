package org.accelgeom.engine;

/**
 * An error the user can cause and fix: a malformed file, an impossible parameter, a missing GPU.
 * Its message is one clear line; the CLI prints it and exits with a non-zero status, without a stack trace.
 */
public class AccelGeomException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public AccelGeomException(String message) {
        super(message);
    }

    public AccelGeomException(String message, Throwable cause) {
        super(message, cause);
    }
}
