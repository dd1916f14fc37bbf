package org.accelgeom.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
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

        private final long parallelBytes;

        Out(Path file) {
            this(file, PARALLEL_BYTES);
        }

        /** A writer that writes a double array of more than {@code parallelBytes} in parallel chunks. */
        Out(Path file, long parallelBytes) {
            this.file = file;
            this.parallelBytes = parallelBytes;
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
            if (8L * len > parallelBytes) {
                int o = off;
                return parallel(len, 8, (from, to, b) -> b.asDoubleBuffer().put(a, o + from, to - from));
            }
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

        /**
         * The doubles {@code a[from[i] .. from[i] + len[i])} of every i, one after another: the bytes of
         * {@link #doubles(double[], int, int)} on a gathered copy of the ranges, without the copy; in parallel chunks
         * when they are more than the parallel threshold.
         */
        Out doubles(double[] a, int[] from, int[] len) {
            long total = 0;
            for (int l : len) {
                total += l;
            }
            if (8L * total <= parallelBytes) {
                for (int i = 0; i < len.length; i++) {
                    doubles(a, from[i], len[i]);
                }
                return this;
            }
            long[] at = prefix(len); // where range i starts in the output
            return parallel(Math.toIntExact(total), 8, (lo, hi, b) -> {
                DoubleBuffer db = b.asDoubleBuffer();
                for (int r = range(at, lo); lo < hi; r++) {
                    int skip = (int) (lo - at[r]);
                    int k = (int) Math.min(hi - lo, len[r] - skip);
                    db.put(a, from[r] + skip, k);
                    lo += k;
                }
            });
        }

        /**
         * The value i, {@code len[i]} times, for every i, as ints ({@link #ints(int[], int, int)} of the array so
         * filled): a layout's {@code pointTile} of tiles numbered from 0, in parallel chunks when over the threshold.
         */
        Out runs(int[] len) {
            long total = 0;
            for (int l : len) {
                total += l;
            }
            if (4L * total <= parallelBytes) {
                for (int i = 0; i < len.length; i++) {
                    for (int left = len[i]; left > 0;) {
                        room();
                        int k = Math.min(left, buf.remaining() / 4);
                        for (int j = 0; j < k; j++) {
                            buf.putInt(i);
                        }
                        left -= k;
                    }
                }
                return this;
            }
            long[] at = prefix(len);
            return parallel(Math.toIntExact(total), 4, (lo, hi, b) -> {
                for (int r = range(at, lo); lo < hi; r++) {
                    int k = (int) Math.min(hi - lo, at[r + 1] - lo);
                    for (int j = 0; j < k; j++) {
                        b.putInt(r);
                    }
                    lo += k;
                }
            });
        }

        /**
         * {@code total} values of {@code size} bytes written at the channel's position in parallel chunks: {@code fill}
         * puts values [from, to) into the cleared chunk buffer from its start (relative puts or a view); what is
         * written is then set from the count.
         */
        private Out parallel(int total, int size, ChunkIo fill) {
            flush();
            try {
                long base = ch.position();
                inParallel(total, (from, to, b) -> {
                    b.clear();
                    fill.run(from, to, b);
                    b.position(0).limit(size * (to - from));
                    long p = base + (long) size * from;
                    while (b.hasRemaining()) {
                        p += ch.write(b, p);
                    }
                });
                ch.position(base + (long) size * total);
            } catch (IOException e) {
                throw failure("cannot write", file, e);
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

        private final long parallelBytes;

        In(Path file) {
            this(file, PARALLEL_BYTES);
        }

        /** A reader that reads a double array of more than {@code parallelBytes} in parallel chunks. */
        In(Path file, long parallelBytes) {
            this.file = file;
            this.parallelBytes = parallelBytes;
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
            if (8L * len > parallelBytes) {
                int k = Math.min(len, buf.remaining() / 8); // what the buffer holds already
                buf.asDoubleBuffer().get(a, off, k);
                buf.position(buf.position() + 8 * k);
                int from0 = off + k;
                int rest = len - k;
                if (rest == 0) {
                    return; // the buffer held them all
                }
                try {
                    long base = ch.position() - buf.remaining(); // a partial double left in the buffer is read again
                    buf.clear().flip(); // empty
                    if (ch.size() - base < 8L * rest) {
                        throw new AccelGeomException(file + ": ends early (a worker process's file is incomplete)");
                    }
                    inParallel(rest, (from, to, b) -> {
                        b.clear();
                        b.limit(8 * (to - from));
                        long at = base + 8L * from;
                        while (b.hasRemaining()) {
                            int r = ch.read(b, at);
                            if (r < 0) {
                                throw new IOException("ends early");
                            }
                            at += r;
                        }
                        b.flip();
                        b.asDoubleBuffer().get(a, from0 + from, to - from);
                    });
                    ch.position(base + 8L * rest);
                } catch (IOException e) {
                    throw failure("cannot read", file, e);
                }
                return;
            }
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

    /** The first output index of every range of lengths {@code len}, and their total. */
    private static long[] prefix(int[] len) {
        long[] at = new long[len.length + 1];
        for (int i = 0; i < len.length; i++) {
            at[i + 1] = at[i] + len[i];
        }
        return at;
    }

    /** The range holding output index {@code i} (the last of equal starts: empty ranges skipped). */
    private static int range(long[] at, long i) {
        int lo = 0;
        int hi = at.length - 2;
        while (lo < hi) { // the largest r with at[r] <= i
            int mid = (lo + hi + 1) >>> 1;
            if (at[mid] <= i) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** Double arrays larger than this go in parallel chunks (a part's layout: 2.7 GB at 10^8 points over 4 parts). */
    static final long PARALLEL_BYTES = 64L << 20;
    /** Doubles per chunk of a parallel transfer (each thread's buffer: 8 MB). */
    private static final int CHUNK = BUFFER / 8;

    /** One chunk's transfer: doubles [from, to) of the array, through the thread's buffer {@code b}. */
    @FunctionalInterface
    private interface ChunkIo {
        void run(int from, int to, ByteBuffer b) throws IOException;
    }

    /**
     * Runs {@code io} over the chunks of {@code len} doubles on up to 8 threads of their own (positional reads and
     * writes of one channel may run at once), each thread with its own buffer; the first failure is thrown.
     */
    private static void inParallel(int len, ChunkIo io) throws IOException {
        int chunks = (len + CHUNK - 1) / CHUNK;
        int threads = Math.max(1, Math.min(Math.min(8, Runtime.getRuntime().availableProcessors()), chunks));
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        IOException[] failed = new IOException[1];
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            ts[t] = new Thread(() -> {
                ByteBuffer b = ByteBuffer.allocateDirect(BUFFER).order(ByteOrder.nativeOrder());
                for (int c = next.getAndIncrement(); c < chunks; c = next.getAndIncrement()) {
                    try {
                        io.run(c * CHUNK, (int) Math.min(len, (long) (c + 1) * CHUNK), b);
                    } catch (IOException | RuntimeException e) {
                        synchronized (failed) {
                            failed[0] = failed[0] != null ? failed[0]
                                    : e instanceof IOException io2 ? io2 : new IOException(e.getMessage(), e);
                        }
                        next.set(chunks);
                    }
                }
            }, "accelgeom-array-file-" + t);
            ts[t].start();
        }
        for (Thread t : ts) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
        }
        if (failed[0] != null) {
            throw failed[0];
        }
    }

    private static AccelGeomException failure(String what, Path file, IOException e) {
        return new AccelGeomException(what + " " + file + ": " + e.getMessage(), e);
    }
}
