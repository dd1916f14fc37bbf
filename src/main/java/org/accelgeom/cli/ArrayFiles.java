package org.accelgeom.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.accelgeom.engine.AccelGeomException;

/**
 * Arrays of ints and doubles written to a file and read back in the same order, in the machine's byte order, through
 * one direct buffer (bulk copies, no per-value call): how a split ridge's parent and its worker processes hand each
 * other a part's points and representatives ({@link SplitRidge}). Both ends run on one machine.
 */
final class ArrayFiles {

    private static final int BUFFER = 1 << 23;

    private ArrayFiles() {
    }

    /** A file being written. */
    static final class Out implements AutoCloseable {
        private final Path file;
        private final FileChannel ch;
        private final ByteBuffer buf = ByteBuffer.allocateDirect(BUFFER).order(ByteOrder.nativeOrder());

        Out(Path file) {
            this.file = file;
            try {
                ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                        StandardOpenOption.WRITE);
            } catch (IOException e) {
                throw failure("cannot write", file, e);
            }
        }

        Out ints(int... a) {
            return ints(a, 0, a.length);
        }

        Out ints(int[] a, int off, int len) {
            while (len > 0) {
                room();
                int k = Math.min(len, buf.remaining() / 4);
                buf.asIntBuffer().put(a, off, k);
                buf.position(buf.position() + 4 * k);
                off += k;
                len -= k;
            }
            return this;
        }

        Out doubles(double[] a, int off, int len) {
            while (len > 0) {
                room();
                int k = Math.min(len, buf.remaining() / 8);
                buf.asDoubleBuffer().put(a, off, k);
                buf.position(buf.position() + 8 * k);
                off += k;
                len -= k;
            }
            return this;
        }

        private void room() {
            if (buf.remaining() < 8) {
                flush();
            }
        }

        private void flush() {
            buf.flip();
            try {
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
            } catch (IOException e) {
                throw failure("cannot write", file, e);
            }
            buf.clear();
        }

        @Override
        public void close() {
            try (ch) {
                flush();
            } catch (IOException e) {
                throw failure("cannot write", file, e);
            }
        }
    }

    /** A file being read, in the order it was written. */
    static final class In implements AutoCloseable {
        private final Path file;
        private final FileChannel ch;
        private final ByteBuffer buf = ByteBuffer.allocateDirect(BUFFER).order(ByteOrder.nativeOrder());

        In(Path file) {
            this.file = file;
            try {
                ch = FileChannel.open(file, StandardOpenOption.READ);
            } catch (IOException e) {
                throw failure("cannot read", file, e);
            }
            buf.flip(); // empty
        }

        int[] ints(int n) {
            int[] a = new int[n];
            int off = 0;
            while (off < n) {
                fill(4);
                int k = Math.min(n - off, buf.remaining() / 4);
                buf.asIntBuffer().get(a, off, k);
                buf.position(buf.position() + 4 * k);
                off += k;
            }
            return a;
        }

        double[] doubles(int n) {
            double[] a = new double[n];
            doubles(a, 0, n);
            return a;
        }

        void doubles(double[] a, int off, int len) {
            while (len > 0) {
                fill(8);
                int k = Math.min(len, buf.remaining() / 8);
                buf.asDoubleBuffer().get(a, off, k);
                buf.position(buf.position() + 8 * k);
                off += k;
                len -= k;
            }
        }

        /** At least {@code bytes} in the buffer, or a failure: the file ends early. */
        private void fill(int bytes) {
            if (buf.remaining() >= bytes) {
                return;
            }
            buf.compact();
            try {
                while (buf.position() < bytes) {
                    if (ch.read(buf) < 0) {
                        throw new AccelGeomException(file + ": ends early (a worker process's file is incomplete)");
                    }
                }
            } catch (IOException e) {
                throw failure("cannot read", file, e);
            }
            buf.flip();
        }

        @Override
        public void close() {
            try {
                ch.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static AccelGeomException failure(String what, Path file, IOException e) {
        return new AccelGeomException(what + " " + file + ": " + e.getMessage(), e);
    }
}
