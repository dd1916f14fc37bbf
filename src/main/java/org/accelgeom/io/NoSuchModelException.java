package org.accelgeom.io;

/**
 * The model asked for is past the last model of the file (a PDB or mmCIF ensemble; PQR and XYZR hold one). A type of
 * its own so that a caller reading every model in turn ({@code voronoi --all-models}) stops at the end without
 * matching message text.
 */
public final class NoSuchModelException extends FormatException {
    private static final long serialVersionUID = 1L;

    public NoSuchModelException(String message) {
        super(message);
    }
}
