package org.accelgeom.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * Standard output that remembers why it failed. {@link PrintStream} swallows write errors and only reports that
 * one happened ({@link PrintStream#checkError()}); this stream keeps the first {@link IOException}, so that a full
 * disk ({@code > /dev/full}) is an error with its reason, while a reader that stopped early ({@code | head}) ends
 * the run quietly, as SIGPIPE ends other command-line tools.
 */
final class Stdout extends OutputStream {
    private final OutputStream out = new FileOutputStream(FileDescriptor.out);
    private volatile IOException failure;

    /** Installs it as {@link System#out}; returns it to ask {@link #failure()} at the end. */
    static Stdout install() {
        Stdout s = new Stdout();
        System.setOut(new PrintStream(new BufferedOutputStream(s, 1 << 13), false, System.out.charset()));
        return s;
    }

    @Override
    public void write(int b) throws IOException {
        try {
            out.write(b);
        } catch (IOException e) {
            throw remember(e);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw remember(e);
        }
    }

    private IOException remember(IOException e) {
        if (failure == null) {
            failure = e;
        }
        return e;
    }

    /** The first write error, or null. */
    IOException failure() {
        return failure;
    }

    /** The reader closed its end of the pipe (EPIPE). */
    static boolean brokenPipe(IOException e) {
        return e != null && e.getMessage() != null && e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("broken pipe");
    }
}
