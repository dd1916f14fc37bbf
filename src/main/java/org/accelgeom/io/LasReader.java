package org.accelgeom.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * ASPRS LAS 1.0-1.4 point clouds (LiDAR), point data record formats 0-10: the public header block's
 * scale factors and offsets, the offset to the point data and the record length and count (the 64-bit count
 * of LAS 1.4 when present), then each record's {@code X Y Z} (signed 32-bit integers, the first 12 bytes of
 * every format) as {@code X·scale + offset}. Variable length records, the other fields and extra bytes are
 * skipped. LAZ (compressed LAS) is refused in one line. The point count is checked against the file's size
 * before anything is allocated; errors name the byte offset.
 */
final class LasReader {
    private LasReader() {
    }

    /** The minimum record length of point data record formats 0-10 (LAS 1.4 R15, table 7 and on). */
    private static final int[] MIN_RECORD = {20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67};

    static String lazUnsupported(String file) {
        return file + ": LAZ (compressed LAS) is not supported; decompress it first, e.g. "
                + "'laszip -i f.laz -o f.las' or 'pdal translate f.laz f.las'";
    }

    static PointCloud read(Input in) throws IOException {
        if (in.atEnd()) {
            throw in.errorAtByte("expected a LAS file, found an empty file");
        }
        in.order(ByteOrder.LITTLE_ENDIAN);
        in.need(4, "the LAS signature 'LASF'");
        ByteBuffer b = in.bytes();
        int at = in.pos();
        if (b.get(at) != 'L' || b.get(at + 1) != 'A' || b.get(at + 2) != 'S' || b.get(at + 3) != 'F') {
            throw in.errorAtByte("expected the LAS signature 'LASF', found something else (not a LAS file)");
        }
        in.need(227, "the LAS public header block (227 bytes)");
        b = in.bytes();
        int major = b.get(at + 24) & 0xff;
        int minor = b.get(at + 25) & 0xff;
        if (major != 1 || minor > 4) {
            throw new FormatException(in.name + ": byte 24: expected LAS version 1.0 to 1.4, found " + major + "." + minor);
        }
        int headerSize = b.getShort(at + 94) & 0xffff;
        long pointOffset = b.getInt(at + 96) & 0xffffffffL;
        int format = b.get(at + 104) & 0xff;
        int recordLength = b.getShort(at + 105) & 0xffff;
        long count = b.getInt(at + 107) & 0xffffffffL;
        double[] scale = {b.getDouble(at + 131), b.getDouble(at + 139), b.getDouble(at + 147)};
        double[] offset = {b.getDouble(at + 155), b.getDouble(at + 163), b.getDouble(at + 171)};
        if ((format & 0xc0) != 0) {
            throw new FormatException(lazUnsupported(in.name));
        }
        if (format > 10) {
            throw new FormatException(in.name + ": byte 104: expected a point data record format 0 to 10, found " + format);
        }
        if (recordLength < MIN_RECORD[format]) {
            throw new FormatException(in.name + ": byte 105: expected a point record length of at least "
                    + MIN_RECORD[format] + " for format " + format + ", found " + recordLength);
        }
        if (headerSize < 227 || pointOffset < headerSize) {
            throw new FormatException(in.name + ": byte 94: expected a header size of at least 227 and a point data "
                    + "offset after it, found " + headerSize + " and " + pointOffset);
        }
        for (int k = 0; k < 3; k++) {
            if (!Double.isFinite(scale[k]) || scale[k] == 0 || !Double.isFinite(offset[k])) {
                throw new FormatException(in.name + ": byte " + (131 + 8 * k) + ": expected finite, non-zero scale "
                        + "factors and finite offsets, found scale " + scale[k] + " offset " + offset[k]);
            }
        }
        if (minor >= 4 && headerSize >= 375) {
            in.need(375, "the LAS 1.4 header (375 bytes)");
            long count64 = in.bytes().getLong(in.pos() + 247);
            if (count64 != 0 || count == 0) {
                count = count64;
            }
        }
        in.skip(headerSize);
        long skip = pointOffset - headerSize; // variable length records
        while (skip > 0) {
            int step = (int) Math.min(skip, 1 << 20);
            in.need(step, "the variable length records before the point data (byte " + pointOffset + ")");
            in.skip(step);
            skip -= step;
        }
        if (count < 0 || count > Integer.MAX_VALUE - 16) {
            throw new FormatException(in.name + ": byte 107: expected a point count of at most "
                    + (Integer.MAX_VALUE - 16) + ", found " + Long.toUnsignedString(count));
        }
        int n = (int) count;
        double[][] c = new double[3][in.capacityFor(n, recordLength, "points", -1)];
        int batch = Math.max(1, (1 << 20) / recordLength);
        for (int i = 0; i < n; i += batch) {
            int m = Math.min(batch, n - i);
            in.need(m * recordLength, "points " + i + ".." + (i + m - 1) + " of " + n + " (" + recordLength
                    + " bytes each)");
            Input.grown(c, i + m - 1, n);
            ByteBuffer buf = in.bytes();
            int p = in.pos();
            for (int j = 0; j < m; j++, p += recordLength) {
                c[0][i + j] = buf.getInt(p) * scale[0] + offset[0];
                c[1][i + j] = buf.getInt(p + 4) * scale[1] + offset[1];
                c[2][i + j] = buf.getInt(p + 8) * scale[2] + offset[2];
            }
            in.skip(m * recordLength);
        }
        return new PointCloud(c);
    }
}
