package org.accelgeom.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * One input file as a window of bytes over a stream, read either as text lines split into whitespace
 * tokens, or as binary records, or first one and then the other (PLY and PCD headers are text, their data
 * may be binary). Gzip is undone transparently when the stream starts with the magic bytes 1f 8b.
 *
 * <p>Text: {@link #nextLine()} moves to the next line ({@link #line} counts them from 1); the line is
 * {@code buf[ls..le)} without its end-of-line bytes, and {@link #nextToken()} walks its tokens
 * ({@code buf[ts..te)}). Binary: {@link #need(int, String)} makes n bytes available from {@link #pos()},
 * read them with {@link #bytes()} at absolute indices, then {@link #skip(int)}.
 * Errors name the file and the line, or the byte offset for binary data.
 */
final class Input implements Closeable {
    /** The name used in error messages. */
    final String name;
    private final InputStream in;
    private byte[] buf = new byte[1 << 18];
    private ByteBuffer bb = ByteBuffer.wrap(buf);
    private int pos;
    private int lim;
    private long base;
    private boolean eof;

    /** Number of the current line, from 1; 0 before the first. */
    long line;
    /** The current line is {@code buf[ls..le)}; the current token is {@code buf[ts..te)}. */
    int ls;
    int le;
    int ts;
    int te;
    private int tp;

    private boolean keepOpen;
    /** The file when it can be memory-mapped (a plain file, not compressed); null otherwise. */
    private Path mappable;
    /** The size of the (uncompressed) input in bytes, or -1 when unknown (gzip, standard input). */
    private long size = -1;

    private Input(String name, InputStream in) {
        this.name = name;
        this.in = in;
    }

    /** Opens a file, or standard input for {@code "-"}, undoing gzip if the content is gzip. */
    static Input open(String file) throws IOException {
        if (file.equals("-")) {
            Input in = of("<stdin>", System.in);
            in.keepOpen = true;
            return in;
        }
        Path path = Path.of(file);
        Input in = of(file, Files.newInputStream(path));
        if (!in.compressed && Files.isRegularFile(path)) {
            in.mappable = path;
            in.size = Files.size(path);
        }
        return in;
    }

    /** Wraps a stream, undoing gzip if its first two bytes are 1f 8b. */
    static Input of(String name, InputStream raw) throws IOException {
        PushbackInputStream p = new PushbackInputStream(raw, 2);
        byte[] magic = new byte[2];
        int n = p.readNBytes(magic, 0, 2);
        if (n > 0) {
            p.unread(magic, 0, n);
        }
        boolean gzip = n == 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b;
        Input in = new Input(name, gzip ? new GZIPInputStream(p, 1 << 16) : p);
        in.compressed = gzip;
        return in;
    }

    private boolean compressed;

    /** The plain file under this input when it can be memory-mapped; null for gzip or standard input. */
    Path mappable() {
        return mappable;
    }

    /** The bytes left after {@link #offset()}, or -1 when the size is unknown (gzip, standard input). */
    long remainingBytes() {
        return size < 0 ? -1 : size - offset();
    }

    /**
     * Checks a header's element count against the size of the input before anything is allocated: when the
     * size is known, {@code count} items of at least {@code minBytes} bytes each must fit in the bytes left,
     * else an error at {@code headerLine} (at the byte offset when it is negative). Returns the capacity to allocate first: {@code count} when the
     * size is known, at most 2^16 otherwise (gzip, standard input: arrays then grow with {@link #grown}).
     */
    int capacityFor(long count, long minBytes, String what, long headerLine) {
        long left = remainingBytes();
        if (left >= 0) {
            if (count > 0 && (double) count * minBytes > left + 1) {
                String m = "the header says " + count + " " + what + ", but only " + left + " bytes follow (at least "
                        + minBytes + " per item)";
                throw headerLine < 0 ? errorAtByte(m) : FormatException.at(name, headerLine, m);
            }
            return (int) count;
        }
        return (int) Math.min(count, 1 << 16);
    }

    /** Columns grown to hold index {@code i} (by half again, at most {@code count} long). */
    static double[][] grown(double[][] c, int i, long count) {
        if (i < c[0].length) {
            return c;
        }
        int n = (int) Math.min(count, Math.max(i + 1L, c[0].length + (c[0].length >> 1) + 16L));
        for (int k = 0; k < c.length; k++) {
            c[k] = java.util.Arrays.copyOf(c[k], n);
        }
        return c;
    }

    /** Absolute offset of the start of the current line. */
    long lineStart() {
        return base + ls;
    }

    /**
     * The rest of the input from {@code offset} (at least the start of the current line) as a stream; this
     * Input must not be read any more afterwards.
     */
    InputStream streamFrom(long offset) {
        int from = (int) (offset - base);
        if (from < 0 || from > lim) {
            throw new IllegalStateException("offset " + offset + " is no longer buffered");
        }
        return new java.io.SequenceInputStream(new java.io.ByteArrayInputStream(buf, from, lim - from), in);
    }

    /** All the unread (decompressed) content. */
    static byte[] readAll(Input in) throws IOException {
        byte[] rest = in.in.readAllBytes();
        byte[] all = new byte[in.lim - in.pos + rest.length];
        System.arraycopy(in.buf, in.pos, all, 0, in.lim - in.pos);
        System.arraycopy(rest, 0, all, in.lim - in.pos, rest.length);
        in.pos = in.lim;
        return all;
    }

    @Override
    public void close() throws IOException {
        if (!keepOpen) {
            in.close();
        }
    }

    /** Reads more bytes after {@code lim}; moves the unread bytes to the front first. False at the end. */
    private boolean fill() throws IOException {
        if (eof) {
            return false;
        }
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, lim - pos);
            base += pos;
            lim -= pos;
            pos = 0;
        }
        if (lim == buf.length) {
            buf = java.util.Arrays.copyOf(buf, buf.length * 2);
            bb = ByteBuffer.wrap(buf).order(bb.order());
        }
        int r = in.read(buf, lim, buf.length - lim);
        if (r < 0) {
            eof = true;
            return false;
        }
        lim += r;
        return true;
    }

    /** True when the unread input starts with the given ASCII text (used to sniff a format). */
    boolean startsWith(String prefix) throws IOException {
        while (lim - pos < prefix.length() && fill()) {
            // keep filling
        }
        if (lim - pos < prefix.length()) {
            return false;
        }
        for (int k = 0; k < prefix.length(); k++) {
            if (buf[pos + k] != prefix.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** Up to n bytes of the unread input as text, without consuming them (to sniff a format). */
    String peek(int n) throws IOException {
        while (lim - pos < n && fill()) {
            // keep filling
        }
        return new String(buf, pos, Math.min(n, lim - pos), StandardCharsets.ISO_8859_1);
    }

    // ---------------------------------------------------------------- text

    /** Moves to the next line; false at the end of the input. */
    boolean nextLine() throws IOException {
        int scanned = pos;
        while (true) {
            int nl = -1;
            for (int k = scanned; k < lim; k++) {
                if (buf[k] == '\n') {
                    nl = k;
                    break;
                }
            }
            if (nl >= 0) {
                setLine(pos, nl, nl + 1);
                return true;
            }
            int done = lim - pos;
            if (!fill()) {
                if (pos == lim) {
                    return false;
                }
                setLine(pos, lim, lim);
                return true;
            }
            scanned = pos + done;
        }
    }

    private void setLine(int start, int end, int next) {
        for (int k = start; k < end; k++) {
            if (!TextBlocks.isText(buf[k])) {
                line++;
                throw error(TextBlocks.notText(buf[k]));
            }
        }
        ls = start;
        le = end > start && buf[end - 1] == '\r' ? end - 1 : end;
        pos = next;
        tp = ls;
        ts = te = ls;
        line++;
    }

    /** Moves to the next token of the current line; false when the line has no more. */
    boolean nextToken() {
        int i = tp;
        while (i < le && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\f' || buf[i] == 0x0b)) {
            i++;
        }
        if (i >= le) {
            tp = le;
            return false;
        }
        ts = i;
        while (i < le && buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\f' && buf[i] != 0x0b) {
            i++;
        }
        te = i;
        tp = i;
        return true;
    }

    /** Moves to the next token, going on to later lines when needed; false at the end of the input. */
    boolean nextTokenAnyLine() throws IOException {
        while (!nextToken()) {
            if (!nextLine()) {
                return false;
            }
        }
        return true;
    }

    /** True when the current line is empty, blank, or its first non-blank character is {@code comment}. */
    boolean blankOrComment(char comment) {
        int i = ls;
        while (i < le && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\f')) {
            i++;
        }
        return i == le || buf[i] == comment;
    }

    /** Moves to the next line that is neither blank nor a {@code comment} line; false at the end. */
    boolean nextContentLine(char comment) throws IOException {
        while (nextLine()) {
            if (!blankOrComment(comment)) {
                return true;
            }
        }
        return false;
    }

    /** Ends the current line at the first {@code comment} character (for formats with trailing comments). */
    void cutComment(char comment) {
        for (int k = tp; k < le; k++) {
            if (buf[k] == comment) {
                le = k;
                return;
            }
        }
    }

    /** Goes back to the first token of the current line. */
    void restartTokens() {
        tp = ls;
        ts = te = ls;
    }

    /** The number of tokens left on the current line (does not move). */
    int tokensLeft() {
        int save = tp;
        int saveTs = ts;
        int saveTe = te;
        int n = 0;
        while (nextToken()) {
            n++;
        }
        tp = save;
        ts = saveTs;
        te = saveTe;
        return n;
    }

    String token() {
        return new String(buf, ts, te - ts, StandardCharsets.ISO_8859_1);
    }

    String lineText() {
        return new String(buf, ls, le - ls, StandardCharsets.ISO_8859_1);
    }

    /** True when the current token is exactly {@code s}. */
    boolean tokenIs(String s) {
        if (te - ts != s.length()) {
            return false;
        }
        for (int k = 0; k < s.length(); k++) {
            if (buf[ts + k] != s.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** The current token as a finite double; otherwise an error saying {@code what} was expected. */
    double tokenDouble(String what) {
        double v;
        try {
            v = Numbers.parseDouble(buf, ts, te);
        } catch (NumberFormatException e) {
            throw error("expected " + what + ", found '" + shortToken() + "'");
        }
        if (!Double.isFinite(v)) {
            throw error("expected " + what + ", found '" + shortToken() + "' (beyond the range of a double)");
        }
        return v;
    }

    /** The current token as a double, NaN and infinities (C spellings) included. */
    double tokenDoubleOrNonFinite(String what) {
        try {
            return Numbers.parseDoubleOrNonFinite(buf, ts, te);
        } catch (NumberFormatException e) {
            throw error("expected " + what + ", found '" + shortToken() + "'");
        }
    }

    /** The current token as an int; otherwise an error saying {@code what} was expected. */
    int tokenInt(String what) {
        try {
            return Numbers.parseInt(buf, ts, te);
        } catch (NumberFormatException e) {
            throw error("expected " + what + " (an integer), found '" + shortToken() + "'");
        }
    }

    /** True when the current token spells a number. */
    boolean tokenIsNumber() {
        try {
            Numbers.parseDouble(buf, ts, te);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The next token of the line as a double, or an error naming what was expected. */
    double nextDouble(String what) {
        if (!nextToken()) {
            throw error("expected " + what + ", found the end of the line");
        }
        return tokenDouble(what);
    }

    /** The next token of the line as an int, or an error naming what was expected. */
    int nextInt(String what) {
        if (!nextToken()) {
            throw error("expected " + what + ", found the end of the line");
        }
        return tokenInt(what);
    }

    private String shortToken() {
        return TextBlocks.shown(buf, ts, te);
    }

    /** An error at the current line: {@code file:line: what}. */
    FormatException error(String what) {
        return FormatException.at(name, line, what);
    }

    // ---------------------------------------------------------------- binary

    /** Sets the byte order for binary reads through {@link #bytes()}. */
    void order(ByteOrder order) {
        bb.order(order);
    }

    /** The buffer as a ByteBuffer (absolute gets only); valid until the next {@link #need}. */
    ByteBuffer bytes() {
        return bb;
    }

    /** Index in {@link #bytes()} of the next unread byte. */
    int pos() {
        return pos;
    }

    void skip(int n) {
        pos += n;
    }

    /** Offset of the next unread byte from the start of the (decompressed) input. */
    long offset() {
        return base + pos;
    }

    /** Makes n bytes available from {@link #pos()}; an error naming {@code what} if the input ends first. */
    void need(int n, String what) throws IOException {
        while (lim - pos < n) {
            if (buf.length - (lim - pos) < n) {
                // make room for a record larger than the buffer
                byte[] bigger = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, n + (lim - pos)));
                buf = bigger;
                bb = ByteBuffer.wrap(buf).order(bb.order());
            }
            if (!fill()) {
                throw errorAtByte("the data ends early: expected " + what + " (" + n + " bytes), found "
                        + (lim - pos));
            }
        }
    }

    /** True when no byte is left. */
    boolean atEnd() throws IOException {
        return pos == lim && !fill() && pos == lim;
    }

    /** An error at the current byte offset: {@code file: byte N: what}. */
    FormatException errorAtByte(String what) {
        return new FormatException(name + ": byte " + offset() + ": " + what);
    }
}
