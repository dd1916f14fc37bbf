package org.accelgeom.io;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A CHARMM/NAMD DCD trajectory, read frame by frame. The file is a sequence of Fortran unformatted records (a
 * 4-byte length before and after each record), little- or big-endian (told by the first length, 84):
 * <ol>
 * <li>the header: "CORD" and 20 ints ICNTRL: [0] frames, [8] fixed atoms, [10] unit cell present, [11] 4D,
 * [19] CHARMM version (0: X-PLOR layout, without unit cell or 4D records);</li>
 * <li>the title: an int count and that many 80-character lines;</li>
 * <li>the atom count N;</li>
 * <li>per frame: the unit cell (6 doubles, when present), then X, Y and Z as N floats each (and W when 4D,
 * skipped).</li>
 * </ol>
 * Fixed atoms (ICNTRL[8] &gt; 0: later frames hold only the free atoms) are not supported. Errors name the file,
 * the byte offset and what was expected, in one line ({@link FormatException}).
 */
public final class DcdReader implements AutoCloseable {
    private final String name;
    private final InputStream in;
    private final ByteOrder order;
    private final int atoms;
    private final int framesInHeader;
    private final boolean unitCell, fourD;
    private long offset;
    private int frame;

    private DcdReader(String name, InputStream in) throws IOException {
        this.name = name;
        this.in = in;
        byte[] first = readFully(4, "the header record length");
        ByteBuffer lb = ByteBuffer.wrap(first);
        int le = lb.order(ByteOrder.LITTLE_ENDIAN).getInt(0), be = lb.order(ByteOrder.BIG_ENDIAN).getInt(0);
        if (le == 84) {
            order = ByteOrder.LITTLE_ENDIAN;
        } else if (be == 84) {
            order = ByteOrder.BIG_ENDIAN;
        } else {
            throw error("not a DCD file: the first record must be the 84-byte CORD header");
        }
        ByteBuffer h = body(84, "the CORD header");
        byte[] magic = new byte[4];
        h.get(magic);
        if (!new String(magic, StandardCharsets.US_ASCII).equals("CORD")) {
            throw error("not a DCD file: the header starts with '" + new String(magic, StandardCharsets.ISO_8859_1)
                    + "', expected CORD");
        }
        int[] icntrl = new int[20];
        for (int i = 0; i < 20; i++) {
            icntrl[i] = h.getInt();
        }
        framesInHeader = icntrl[0];
        boolean charmm = icntrl[19] != 0;
        unitCell = charmm && icntrl[10] != 0;
        fourD = charmm && icntrl[11] != 0;
        if (icntrl[8] > 0) {
            throw error("fixed atoms (" + icntrl[8] + ") are not supported: write the trajectory with all atoms free");
        }
        ByteBuffer title = record("the title");
        if (title.remaining() < 4) {
            throw error("the title record is shorter than 4 bytes");
        }
        int lines = title.getInt();
        if (lines < 0 || title.remaining() != 80L * lines) {
            throw error("the title record has " + (title.remaining() + 4) + " bytes for " + lines + " lines of 80");
        }
        ByteBuffer n = body(4, "the atom count");
        atoms = n.getInt();
        if (atoms <= 0) {
            throw error("the atom count is " + atoms);
        }
    }

    /** Opens a DCD file and reads its header. */
    public static DcdReader open(Path file) {
        InputStream in = null;
        try {
            in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
            return new DcdReader(file.toString(), in);
        } catch (NoSuchFileException e) {
            throw new FormatException(file + ": no such file");
        } catch (IOException e) {
            closeQuietly(in);
            throw new FormatException(file + ": cannot read: " + e.getMessage());
        } catch (RuntimeException e) {
            closeQuietly(in);
            throw e;
        }
    }

    private static void closeQuietly(InputStream in) {
        try {
            if (in != null) {
                in.close();
            }
        } catch (IOException e) {
            // already failing
        }
    }

    /** Atoms per frame. */
    public int atoms() {
        return atoms;
    }

    /** The frame count the header states (writers that were stopped may leave it short or 0). */
    public int framesInHeader() {
        return framesInHeader;
    }

    /** Frames read so far. */
    public int framesRead() {
        return frame;
    }

    /**
     * Reads the next frame's coordinates into x, y, z (length at least {@link #atoms()}); false at the end of
     * the file (a file that ends inside a frame is an error).
     */
    public boolean next(double[] x, double[] y, double[] z) {
        try {
            int b = in.read();
            if (b < 0) {
                return false;
            }
            byte[] len = new byte[4];
            len[0] = (byte) b;
            readInto(len, 1, 3, "frame " + (frame + 1));
            offset += 4;
            int first = ByteBuffer.wrap(len).order(order).getInt();
            if (unitCell) {
                if (first != 48) {
                    throw error("frame " + (frame + 1) + ": the unit cell record has " + first + " bytes, expected 48");
                }
                readFully(48, "frame " + (frame + 1) + " unit cell");
                trailer(48, "frame " + (frame + 1) + " unit cell");
                first = ByteBuffer.wrap(readFully(4, "frame " + (frame + 1))).order(order).getInt();
            }
            coordinates(first, x, "X");
            coordinates(ByteBuffer.wrap(readFully(4, "frame " + (frame + 1))).order(order).getInt(), y, "Y");
            coordinates(ByteBuffer.wrap(readFully(4, "frame " + (frame + 1))).order(order).getInt(), z, "Z");
            if (fourD) {
                int w = ByteBuffer.wrap(readFully(4, "frame " + (frame + 1))).order(order).getInt();
                readFully(w, "frame " + (frame + 1) + " W");
                trailer(w, "frame " + (frame + 1) + " W");
            }
            frame++;
            return true;
        } catch (IOException e) {
            throw new FormatException(name + ": cannot read: " + e.getMessage());
        }
    }

    private void coordinates(int length, double[] v, String axis) throws IOException {
        String what = "frame " + (frame + 1) + " " + axis;
        if (length != 4 * atoms) {
            throw error(what + ": the record has " + length + " bytes, expected " + 4 * atoms + " (" + atoms + " floats)");
        }
        ByteBuffer bb = ByteBuffer.wrap(readFully(length, what)).order(order);
        for (int i = 0; i < atoms; i++) {
            v[i] = bb.getFloat();
        }
        trailer(length, what);
    }

    /** A record of any length: its body. */
    private ByteBuffer record(String what) throws IOException {
        int len = ByteBuffer.wrap(readFully(4, what)).order(order).getInt();
        if (len < 0 || len > (1 << 24)) {
            throw error(what + ": a record of " + len + " bytes");
        }
        ByteBuffer b = ByteBuffer.wrap(readFully(len, what)).order(order);
        trailer(len, what);
        return b;
    }

    /** A record that must have {@code len} bytes (its leading length already read for the header only). */
    private ByteBuffer body(int len, String what) throws IOException {
        if (!what.equals("the CORD header")) {
            int got = ByteBuffer.wrap(readFully(4, what)).order(order).getInt();
            if (got != len) {
                throw error(what + ": the record has " + got + " bytes, expected " + len);
            }
        }
        ByteBuffer b = ByteBuffer.wrap(readFully(len, what)).order(order);
        trailer(len, what);
        return b;
    }

    private void trailer(int len, String what) throws IOException {
        int end = ByteBuffer.wrap(readFully(4, what + " (record end)")).order(order).getInt();
        if (end != len) {
            throw error(what + ": the record ends with length " + end + ", it began with " + len + " (corrupt file)");
        }
    }

    private byte[] readFully(int n, String what) throws IOException {
        byte[] b = new byte[n];
        readInto(b, 0, n, what);
        offset += n;
        return b;
    }

    private void readInto(byte[] b, int off, int n, String what) throws IOException {
        try {
            int done = 0;
            while (done < n) {
                int r = in.read(b, off + done, n - done);
                if (r < 0) {
                    throw new EOFException();
                }
                done += r;
            }
        } catch (EOFException e) {
            throw error("the file ends inside " + what + " (truncated)");
        }
    }

    private FormatException error(String what) {
        return new FormatException(name + ": byte " + offset + ": " + what);
    }

    @Override
    public void close() {
        closeQuietly(in);
    }
}
