package org.accelgeom.io;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file mapped into memory read-only, as several mappings of at most {@link #WINDOW} bytes each (one
 * {@link MappedByteBuffer} cannot exceed 2 GiB), so files of any size are addressed by a {@code long} offset.
 * The mappings stay valid after the channel is closed; they are released when no longer referenced.
 */
final class MappedText {
    /** Bytes per mapping: 1 GiB (a test may map smaller windows to cross window ends). */
    static final long WINDOW = 1L << 30;

    private final MappedByteBuffer[] windows;
    private final long window;
    final long size;

    MappedText(Path file) throws IOException {
        this(file, WINDOW);
    }

    MappedText(Path file, long window) throws IOException {
        this.window = window;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            size = ch.size();
            int n = (int) ((size + window - 1) / window);
            windows = new MappedByteBuffer[n];
            for (int w = 0; w < n; w++) {
                long start = w * window;
                windows[w] = ch.map(FileChannel.MapMode.READ_ONLY, start, Math.min(window, size - start));
            }
        }
    }

    /** The byte at {@code p} (0 &le; p &lt; size). */
    byte at(long p) {
        return windows[(int) (p / window)].get((int) (p % window));
    }

    /** Copies {@code len} bytes from {@code p} into {@code dst[off..)}, across mapping ends when needed. */
    void get(long p, byte[] dst, int off, int len) {
        while (len > 0) {
            int w = (int) (p / window);
            int at = (int) (p % window);
            int n = (int) Math.min(len, windows[w].limit() - at);
            windows[w].get(at, dst, off, n);
            p += n;
            off += n;
            len -= n;
        }
    }

    /**
     * The smallest position &ge; p that starts a line: p itself when p is {@code from} or follows a
     * {@code '\n'}, the end of the file when no line starts later.
     */
    long lineStartAtOrAfter(long p, long from) {
        if (p <= from) {
            return from;
        }
        while (p < size && at(p - 1) != '\n') {
            p++;
        }
        return Math.min(p, size);
    }
}
