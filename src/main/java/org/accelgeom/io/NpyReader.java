package org.accelgeom.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NumPy {@code .npy} arrays (format versions 1.0, 2.0 and 3.0) of points: a float32 or float64 array
 * ({@code descr} {@code <f4 <f8 >f4 >f8}) of shape {@code (N, d)} (N points of dimension d) or {@code (N,)}
 * (dimension 1), in C order (row-major) or Fortran order. The data must hold exactly {@code N·d} values:
 * the shape is checked against the file's size before anything is allocated. Errors name the byte offset.
 */
final class NpyReader {
    private NpyReader() {
    }

    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([^']*)'");
    private static final Pattern FORTRAN = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");

    static PointCloud read(Input in) throws IOException {
        if (in.atEnd()) {
            throw in.errorAtByte("expected a NumPy array, found an empty file");
        }
        in.need(10, "the NumPy magic string, version and header length");
        ByteBuffer b = in.bytes();
        int at = in.pos();
        for (int k = 0; k < MAGIC.length; k++) {
            if (b.get(at + k) != MAGIC[k]) {
                throw in.errorAtByte("expected the NumPy magic string \\x93NUMPY, found something else (not a .npy file)");
            }
        }
        int major = b.get(at + 6) & 0xff;
        if (major < 1 || major > 3) {
            throw in.errorAtByte("expected NumPy format version 1, 2 or 3, found " + major);
        }
        in.skip(8);
        in.order(ByteOrder.LITTLE_ENDIAN);
        long headerLength;
        if (major == 1) {
            headerLength = in.bytes().getShort(in.pos()) & 0xffff;
            in.skip(2);
        } else {
            in.need(4, "the header length");
            headerLength = in.bytes().getInt(in.pos()) & 0xffffffffL;
            in.skip(4);
        }
        long left = in.remainingBytes();
        if (headerLength > (1 << 20) || left >= 0 && headerLength > left) {
            throw in.errorAtByte("expected a NumPy header of at most " + Math.min(1 << 20, Math.max(0, left))
                    + " bytes, found a length of " + headerLength);
        }
        long headerAt = in.offset();
        in.need((int) headerLength, "the NumPy header");
        String header = new String(in.bytes().array(), in.pos(), (int) headerLength,
                major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        in.skip((int) headerLength);
        String descr = find(in, headerAt, DESCR, header, "'descr'");
        boolean fortran = find(in, headerAt, FORTRAN, header, "'fortran_order'").equals("True");
        String shape = find(in, headerAt, SHAPE, header, "'shape'");
        ByteOrder order;
        int size;
        switch (descr) {
            case "<f8", "=f8" -> { order = ByteOrder.LITTLE_ENDIAN; size = 8; }
            case ">f8" -> { order = ByteOrder.BIG_ENDIAN; size = 8; }
            case "<f4", "=f4" -> { order = ByteOrder.LITTLE_ENDIAN; size = 4; }
            case ">f4" -> { order = ByteOrder.BIG_ENDIAN; size = 4; }
            default -> throw new FormatException(in.name + ": byte " + headerAt + ": expected a float32 or float64 "
                    + "array (descr '<f4' or '<f8'), found '" + TextBlocks.shown(descr) + "'");
        }
        String[] dims = shape.split(",");
        long n;
        long d;
        try {
            n = dims.length >= 1 && !dims[0].isBlank() ? Long.parseLong(dims[0].strip()) : -1;
            d = dims.length == 1 || dims.length == 2 && dims[1].isBlank() ? 1 : dims.length == 2 ? Long.parseLong(dims[1].strip()) : -1;
        } catch (NumberFormatException e) {
            n = -1;
            d = -1;
        }
        if (n < 0 || d < 1 || d > 1 << 16) {
            throw new FormatException(in.name + ": byte " + headerAt + ": expected a shape (N, d) or (N,) of points, "
                    + "found (" + TextBlocks.shown(shape) + ")");
        }
        long bytes = n * d * size;
        left = in.remainingBytes();
        if (n > Integer.MAX_VALUE - 16 || left >= 0 && bytes != left) {
            throw in.errorAtByte("the shape (" + n + ", " + d + ") of " + descr + " needs " + bytes
                    + " bytes of data, found " + (left >= 0 ? left + "" : "more than fits in an array"));
        }
        int points = (int) n;
        int dim = (int) d;
        double[][] c = new double[dim][in.capacityFor(points, (long) dim * size, "points", -1)];
        in.order(order);
        long values = n * d;
        int batch = Math.max(1, (1 << 19) / (dim * size)); // rows (C order) or values (Fortran order) per read
        if (!fortran) {
            for (int i = 0; i < points; i += batch) {
                int m = Math.min(batch, points - i);
                in.need(m * dim * size, "points " + i + ".." + (i + m - 1) + " of " + points);
                Input.grown(c, i + m - 1, points);
                ByteBuffer buf = in.bytes();
                int p = in.pos();
                for (int j = 0; j < m; j++) {
                    for (int k = 0; k < dim; k++, p += size) {
                        c[k][i + j] = size == 8 ? buf.getDouble(p) : buf.getFloat(p);
                    }
                }
                in.skip(m * dim * size);
            }
        } else {
            for (int k = 0; k < dim; k++) {
                for (int i = 0; i < points; i += batch) {
                    int m = Math.min(batch, points - i);
                    in.need(m * size, "column " + k + ", points " + i + ".." + (i + m - 1) + " of " + points);
                    Input.grown(c, i + m - 1, points);
                    ByteBuffer buf = in.bytes();
                    int p = in.pos();
                    for (int j = 0; j < m; j++, p += size) {
                        c[k][i + j] = size == 8 ? buf.getDouble(p) : buf.getFloat(p);
                    }
                    in.skip(m * size);
                }
            }
        }
        if (!in.atEnd()) {
            throw in.errorAtByte("expected the end of the file after " + values + " values");
        }
        return new PointCloud(c);
    }

    private static String find(Input in, long at, Pattern p, String header, String what) {
        Matcher m = p.matcher(header);
        if (!m.find()) {
            throw new FormatException(in.name + ": byte " + at + ": expected " + what + " in the NumPy header, found '"
                    + TextBlocks.shown(header.strip()) + "'");
        }
        return m.group(1);
    }
}
