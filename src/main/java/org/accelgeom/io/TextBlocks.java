package org.accelgeom.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * The body of a text file (what follows its header) parsed line by line in blocks. A plain file is
 * memory-mapped ({@link MappedText}) and cut into blocks of about {@link #blockBytes()} bytes whose ends are
 * moved to the next line end; the blocks are parsed in parallel, each by its own {@link Lines} parser, and
 * the results are kept in file order. Compressed input and standard input are read block after block on
 * one thread (decompression is the bottleneck there). Every line is checked to be text (no control bytes
 * but tab, vertical tab, form feed and carriage return).
 *
 * <p>Line numbers: a parser sees line numbers local to its block; {@link Block#firstLine} turns them into
 * the file's, once the blocks before have been counted. A block stops at its first error; the caller walks
 * the blocks in order and reports the first error of the file.
 */
final class TextBlocks {
    private TextBlocks() {
    }

    /** Bytes per block: 8 MiB, or the system property {@code accelgeom.io.block} (tests use small blocks). */
    static int blockBytes() {
        return org.accelgeom.engine.Tuning.IO_BLOCK.intValue();
    }

    /** The smallest block a file is cut into for the sake of more blocks than cores. */
    static final long MIN_BLOCK = 1 << 20;

    /**
     * Bytes per block of {@code length} bytes of text: {@link #blockBytes()}, or smaller for a file that would give
     * fewer than four blocks per core (a 60 MB file made 8 blocks of 8 MiB: 8 of 16 cores busy), but at least
     * {@link #MIN_BLOCK} (or {@link #blockBytes()} if that is less).
     */
    static long blockBytes(long length) {
        long most = blockBytes();
        long even = length / (4L * Runtime.getRuntime().availableProcessors());
        return Math.min(most, Math.max(MIN_BLOCK, even));
    }

    /** A parser of the lines of one block. */
    abstract static class Lines {
        /** Bytes of the block, before its first line (a parser may size its arrays by it). */
        void block(int bytes) {
        }

        /** Parses {@code b[ls..le)}, one line without its end-of-line bytes; {@code line} counts from 1 in the block. */
        abstract void line(byte[] b, int ls, int le, long line);

        /** Lines the last {@link #fastLines} call took. */
        long fastCount;

        /**
         * An optional fast path over whole lines, each byte looked at once: parses the lines of {@code b[from..end)}
         * ({@code from} starts a line) while each is one that {@link #line} would parse the same way and has no
         * byte but text, counting them in {@link #fastCount}, and returns the start of the first line it leaves to
         * {@link #line} ({@code end} after the last). None by default.
         */
        int fastLines(byte[] b, int from, int end) {
            fastCount = 0;
            return from;
        }
    }

    /** A malformed line; {@code line} is local to its block. */
    static final class LineError extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final long line;

        LineError(long line, String message) {
            super(message, null, false, false);
            this.line = line;
        }
    }

    /** One block after parsing. */
    static final class Block<P extends Lines> {
        final P lines;
        /** The number of lines in the block (only the last block of a file may end without a newline). */
        long newlines;
        /** The first error, or null. */
        LineError error;
        /** The file's line number of the block's first line. */
        long firstLine;

        Block(P lines) {
            this.lines = lines;
        }

        /** The file's line number of a local line. */
        long fileLine(long local) {
            return firstLine + local - 1;
        }
    }

    /**
     * Parses the input from {@code offset} (the start of a line, whose number is {@code firstLine}) to its end.
     * Throws nothing for malformed lines: each block keeps its first error (see {@link #throwFirst}).
     */
    static <P extends Lines> List<Block<P>> parse(Input in, long offset, long firstLine, Supplier<P> parsers)
            throws IOException {
        Path file = in.mappable();
        List<Block<P>> blocks = file != null ? parseMapped(new MappedText(file), offset, parsers)
                : parseStream(in.streamFrom(offset), parsers);
        long line = firstLine;
        for (Block<P> b : blocks) {
            b.firstLine = line;
            if (b.error != null) {
                break;
            }
            line += b.newlines;
        }
        return blocks;
    }

    /** The mapped file from {@code from} to its end, in parallel blocks. */
    static <P extends Lines> List<Block<P>> parseMapped(MappedText text, long from, Supplier<P> parsers) {
        long length = text.size - from;
        long block = blockBytes(length);
        int n = (int) Math.max(1, (length + block - 1) / block);
        AtomicInteger failed = new AtomicInteger(Integer.MAX_VALUE);
        // each block's bytes in a buffer that the next block on a free thread reuses (a parser keeps no reference to
        // them, as parseStream's one buffer needs too): as many buffers as threads at once instead of the file's size
        // in new arrays (571 MB at 10^7 points, zeroed and paged in, and the young collections they caused)
        java.util.concurrent.ConcurrentLinkedQueue<byte[]> spare = new java.util.concurrent.ConcurrentLinkedQueue<>();
        return IntStream.range(0, n).parallel().mapToObj(k -> {
            Block<P> b = new Block<>(parsers.get());
            if (k > failed.get()) {
                return b; // an earlier block failed: this one is never looked at
            }
            long s = text.lineStartAtOrAfter(from + k * block, from);
            long e = k == n - 1 ? text.size : text.lineStartAtOrAfter(from + (k + 1) * block, from);
            if (e > s) {
                if (e - s > Integer.MAX_VALUE - 16) {
                    b.error = new LineError(1, "a line longer than 2 GB");
                } else {
                    int bytesOfBlock = (int) (e - s);
                    byte[] bytes = spare.poll();
                    if (bytes == null || bytes.length < bytesOfBlock) {
                        bytes = new byte[(int) Math.min(Integer.MAX_VALUE - 16L,
                                Math.max(bytesOfBlock, block + (block >> 3)))];
                    }
                    text.get(s, bytes, 0, bytesOfBlock);
                    run(b, bytes, bytesOfBlock);
                    spare.offer(bytes);
                }
            }
            if (b.error != null) {
                failed.accumulateAndGet(k, Math::min);
            }
            return b;
        }).toList();
    }

    /** A stream, block after block on this thread. */
    static <P extends Lines> List<Block<P>> parseStream(InputStream in, Supplier<P> parsers) throws IOException {
        List<Block<P>> blocks = new ArrayList<>();
        byte[] buf = new byte[blockBytes()];
        int have = 0;
        while (true) {
            int r = in.readNBytes(buf, have, buf.length - have);
            have += r;
            boolean end = have < buf.length;
            int cut = have;
            if (!end) {
                cut = have;
                while (cut > 0 && buf[cut - 1] != '\n') {
                    cut--;
                }
                if (cut == 0) {
                    buf = java.util.Arrays.copyOf(buf, 2 * buf.length); // a line longer than the buffer
                    continue;
                }
            }
            if (cut > 0) {
                Block<P> b = new Block<>(parsers.get());
                run(b, buf, cut);
                blocks.add(b);
                if (b.error != null) {
                    return blocks;
                }
            }
            if (end) {
                return blocks;
            }
            System.arraycopy(buf, cut, buf, 0, have - cut);
            have -= cut;
        }
    }

    /** Feeds the lines of {@code b[0..end)} to the block's parser. */
    private static void run(Block<?> block, byte[] b, int end) {
        Lines p = block.lines;
        p.block(end);
        long line = 0;
        int ls = 0;
        try {
            while (ls < end) {
                ls = p.fastLines(b, ls, end);
                line += p.fastCount;
                if (ls >= end) {
                    break;
                }
                line++;
                int i = ls;
                while (i < end) {
                    byte c = b[i];
                    if (c < 0x20 && c >= 0) { // one test for the usual byte
                        if (c == '\n') {
                            break;
                        }
                        if (!isText(c)) {
                            throw new LineError(line, notText(c));
                        }
                    }
                    i++;
                }
                int le = i > ls && b[i - 1] == '\r' ? i - 1 : i;
                p.line(b, ls, le, line);
                ls = i + 1;
            }
            block.newlines = line;
        } catch (LineError e) {
            block.error = e;
        }
    }

    /** Throws the error of the first block that has one, as the file's {@code file:line: message}. */
    static void throwFirst(String name, List<? extends Block<?>> blocks) {
        for (Block<?> b : blocks) {
            if (b.error != null) {
                throw error(name, b, b.error.line, b.error.getMessage());
            }
        }
    }

    /** An error at a block's local line. */
    static FormatException error(String name, Block<?> b, long localLine, String message) {
        return FormatException.at(name, b.fileLine(localLine), message);
    }

    /** True for a byte that may occur in a text line (control bytes other than tab, VT, FF and CR are not). */
    static boolean isText(byte c) {
        return c < 0 || c >= 0x20 || c == '\t' || c == 0x0b || c == '\f' || c == '\r';
    }

    static String notText(byte c) {
        return String.format("expected text, found the control byte 0x%02x (a binary file?)", c & 0xff);
    }

    /** {@code b[s..e)} for an error message: at most 40 characters, control bytes written as \\xNN. */
    static String shown(byte[] b, int s, int e) {
        StringBuilder sb = new StringBuilder();
        for (int i = s; i < e && i < s + 40; i++) {
            int c = b[i] & 0xff;
            if (c < 0x20 || c == 0x7f) {
                sb.append(String.format("\\x%02x", c));
            } else {
                sb.append((char) c);
            }
        }
        if (e - s > 40) {
            sb.append("...");
        }
        return sb.toString();
    }

    /** A string for an error message: at most 40 characters, control characters written as \\xNN. */
    static String shown(String s) {
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        return shown(b, 0, b.length);
    }

    /** True when {@code b[i]} is a blank (space, tab, VT, FF). */
    static boolean blank(byte c) {
        return c == ' ' || c == '\t' || c == 0x0b || c == '\f';
    }

    /** The first index in [i, e) that is not blank, or e. */
    static int skipBlanks(byte[] b, int i, int e) {
        while (i < e && blank(b[i])) {
            i++;
        }
        return i;
    }

    /** The first index in [i, e) that is blank, or e. */
    static int tokenEnd(byte[] b, int i, int e) {
        while (i < e) {
            byte c = b[i];
            if (c <= ' ' && c >= 0 && blank(c)) { // one test for the usual byte (blanks are below 0x21)
                break;
            }
            i++;
        }
        return i;
    }
}
