package org.accelgeom.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;

/**
 * ASCII text written straight to a byte buffer. Doubles are written with {@link Double#toString(double)}, the
 * shortest decimal that reads back to the same double, so text formats round-trip exactly.
 */
final class TextOutput implements Closeable {
    private final OutputStream out;
    private final byte[] buf = new byte[1 << 16];
    private int n;

    TextOutput(OutputStream out) {
        this.out = out;
    }

    TextOutput text(String s) throws IOException {
        for (int k = 0; k < s.length(); k++) {
            if (n == buf.length) {
                flushBuffer();
            }
            char c = s.charAt(k);
            buf[n++] = (byte) (c < 128 ? c : '?');
        }
        return this;
    }

    TextOutput ch(char c) throws IOException {
        if (n == buf.length) {
            flushBuffer();
        }
        buf[n++] = (byte) c;
        return this;
    }

    /** A double, as {@link Double#toString(double)}. */
    TextOutput num(double v) throws IOException {
        return text(Double.toString(v));
    }

    TextOutput num(long v) throws IOException {
        return text(Long.toString(v));
    }

    TextOutput nl() throws IOException {
        return ch('\n');
    }

    private void flushBuffer() throws IOException {
        out.write(buf, 0, n);
        n = 0;
    }

    /** Writes what is buffered; the stream stays open. */
    void flush() throws IOException {
        flushBuffer();
        out.flush();
    }

    @Override
    public void close() throws IOException {
        flush();
    }
}
