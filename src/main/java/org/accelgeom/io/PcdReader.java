package org.accelgeom.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * PCL's PCD (v0.6/v0.7): a text header ({@code FIELDS SIZE TYPE COUNT WIDTH HEIGHT POINTS DATA}) then the
 * data as {@code ascii}, {@code binary} (little-endian records) or {@code binary_compressed} (LZF, one block per
 * field). Reads the fields {@code x y} and optional {@code z} of any numeric type; every other field
 * (intensity, rgb, normals, descriptors with COUNT &gt; 1) is skipped. NaN points (organised clouds) are kept:
 * {@link PointCloud#withoutNonFinite()} removes them.
 */
final class PcdReader {
    private PcdReader() {
    }

    private record Field(String name, int size, char type, int count) {
        PlyReader.Type plyType() {
            return switch (type) {
                case 'F' -> size == 8 ? PlyReader.Type.FLOAT64 : PlyReader.Type.FLOAT32;
                case 'U' -> size == 1 ? PlyReader.Type.UINT8 : size == 2 ? PlyReader.Type.UINT16 : PlyReader.Type.UINT32;
                default -> size == 1 ? PlyReader.Type.INT8 : size == 2 ? PlyReader.Type.INT16 : PlyReader.Type.INT32;
            };
        }
    }

    static PointCloud read(Input in) throws IOException {
        List<String> names = null;
        int[] sizes = null;
        char[] types = null;
        int[] counts = null;
        long width = -1;
        long height = 1;
        long points = -1;
        String data = null;
        while (data == null) {
            if (!in.nextContentLine('#')) {
                throw in.error("expected a PCD header ending with a DATA line, found the end of the file");
            }
            in.nextToken();
            String key = in.token().toUpperCase(java.util.Locale.ROOT);
            List<String> values = new ArrayList<>();
            while (in.nextToken()) {
                values.add(in.token());
            }
            switch (key) {
                case "VERSION", "VIEWPOINT" -> {
                }
                case "FIELDS", "COLUMNS" -> names = values;
                case "SIZE" -> {
                    sizes = new int[values.size()];
                    for (int k = 0; k < sizes.length; k++) {
                        sizes[k] = parse(in, values.get(k), "a field size");
                        if (sizes[k] != 1 && sizes[k] != 2 && sizes[k] != 4 && sizes[k] != 8) {
                            throw in.error("expected a field size of 1, 2, 4 or 8, found " + sizes[k]);
                        }
                    }
                }
                case "TYPE" -> {
                    types = new char[values.size()];
                    for (int k = 0; k < types.length; k++) {
                        String t = values.get(k);
                        if (!t.equals("F") && !t.equals("I") && !t.equals("U")) {
                            throw in.error("expected a field type F, I or U, found '" + t + "'");
                        }
                        types[k] = t.charAt(0);
                    }
                }
                case "COUNT" -> {
                    counts = new int[values.size()];
                    for (int k = 0; k < counts.length; k++) {
                        counts[k] = parse(in, values.get(k), "a field count");
                    }
                }
                case "WIDTH" -> width = parse(in, values.isEmpty() ? "" : values.get(0), "the width");
                case "HEIGHT" -> height = parse(in, values.isEmpty() ? "" : values.get(0), "the height");
                case "POINTS" -> points = parse(in, values.isEmpty() ? "" : values.get(0), "the number of points");
                case "DATA" -> data = values.isEmpty() ? "" : values.get(0);
                default -> throw in.error("expected a PCD header keyword, found '" + key + "'");
            }
        }
        if (names == null || sizes == null || types == null) {
            throw in.error("expected FIELDS, SIZE and TYPE lines before DATA");
        }
        if (counts == null) {
            counts = new int[names.size()];
            java.util.Arrays.fill(counts, 1);
        }
        if (sizes.length != names.size() || types.length != names.size() || counts.length != names.size()) {
            throw in.error("expected as many SIZE, TYPE and COUNT values as FIELDS (" + names.size() + ")");
        }
        List<Field> fields = new ArrayList<>();
        for (int k = 0; k < names.size(); k++) {
            fields.add(new Field(names.get(k), sizes[k], types[k], counts[k]));
        }
        if (points < 0) {
            points = width * height;
        }
        if (points < 0 || points > Integer.MAX_VALUE - 16) {
            throw in.error("expected a POINTS or WIDTH line with the number of points");
        }
        int x = names.indexOf("x");
        int y = names.indexOf("y");
        int z = names.indexOf("z");
        if (x < 0 || y < 0) {
            throw in.error("expected fields x and y, found " + names);
        }
        int[] want = z < 0 ? new int[] {x, y} : new int[] {x, y, z};
        for (int w : want) {
            if (counts[w] != 1) {
                throw in.error("expected COUNT 1 for field " + names.get(w) + ", found " + counts[w]);
            }
        }
        int n = (int) points;
        int record = 0;
        int columns = 0;
        for (Field f : fields) {
            record += f.size * f.count;
            columns += f.count;
        }
        long minBytes = switch (data) {
            case "ascii" -> 2L * columns;
            case "binary" -> record;
            default -> 0;
        };
        double[][] c = new double[want.length][in.capacityFor(n, minBytes, "points", in.line)];
        switch (data) {
            case "ascii" -> readAscii(in, fields, want, c, n);
            case "binary" -> readBinary(in, fields, want, c, n);
            case "binary_compressed" -> readCompressed(in, fields, want, c, n);
            default -> throw in.error("expected DATA ascii, binary or binary_compressed, found '" + data + "'");
        }
        return new PointCloud(c);
    }

    private static int parse(Input in, String s, String what) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw in.error("expected " + what + ", found '" + s + "'");
        }
    }

    private static void readAscii(Input in, List<Field> fields, int[] want, double[][] c, int n) throws IOException {
        int[] tokenOf = new int[want.length];
        int columns = 0;
        for (int k = 0; k < fields.size(); k++) {
            for (int w = 0; w < want.length; w++) {
                if (want[w] == k) {
                    tokenOf[w] = columns;
                }
            }
            columns += fields.get(k).count;
        }
        for (int i = 0; i < n; i++) {
            Input.grown(c, i, n);
            if (!in.nextContentLine('#')) {
                throw in.error("the data ends early: expected point " + i + " of " + n);
            }
            int t = 0;
            while (in.nextToken()) {
                for (int w = 0; w < want.length; w++) {
                    if (tokenOf[w] == t) {
                        c[w][i] = in.tokenDoubleOrNonFinite("field " + fields.get(want[w]).name);
                    }
                }
                t++;
            }
            if (t != columns) {
                throw in.error("expected " + columns + " values (the fields' counts), found " + t);
            }
        }
    }

    private static void readBinary(Input in, List<Field> fields, int[] want, double[][] c, int n) throws IOException {
        in.order(ByteOrder.LITTLE_ENDIAN);
        int record = 0;
        int[] offset = new int[fields.size()];
        for (int k = 0; k < fields.size(); k++) {
            offset[k] = record;
            record += fields.get(k).size * fields.get(k).count;
        }
        PlyReader.Type[] type = new PlyReader.Type[want.length];
        int[] at = new int[want.length];
        for (int w = 0; w < want.length; w++) {
            type[w] = fields.get(want[w]).plyType();
            at[w] = offset[want[w]];
        }
        for (int i = 0; i < n; i++) {
            Input.grown(c, i, n);
            in.need(record, "point " + i + " of " + n);
            ByteBuffer b = in.bytes();
            int p = in.pos();
            for (int w = 0; w < want.length; w++) {
                c[w][i] = type[w].get(b, p + at[w]);
            }
            in.skip(record);
        }
    }

    private static void readCompressed(Input in, List<Field> fields, int[] want, double[][] c, int n) throws IOException {
        in.order(ByteOrder.LITTLE_ENDIAN);
        in.need(8, "the compressed and uncompressed sizes");
        long packed = in.bytes().getInt(in.pos()) & 0xffffffffL;
        long unpacked = in.bytes().getInt(in.pos() + 4) & 0xffffffffL;
        in.skip(8);
        long expected = 0;
        for (Field f : fields) {
            expected += (long) f.size * f.count * n;
        }
        if (unpacked != expected) {
            throw in.errorAtByte("expected an uncompressed size of " + expected + " bytes (POINTS x record size), found "
                    + unpacked);
        }
        if (packed > Integer.MAX_VALUE - 16 || unpacked > Integer.MAX_VALUE - 16) {
            throw in.errorAtByte("compressed block too large (" + unpacked + " bytes)");
        }
        long left = in.remainingBytes();
        if (left >= 0 && packed > left) {
            throw in.errorAtByte("the data ends early: expected a compressed block of " + packed + " bytes, found " + left);
        }
        if (unpacked > 100 * packed + 1024) {
            throw in.errorAtByte("expected at most 100 times the compressed size (" + packed + " bytes) from LZF, "
                    + "found an uncompressed size of " + unpacked);
        }
        in.need((int) packed, "the compressed block");
        byte[] out = new byte[(int) unpacked];
        long start = in.offset();
        byte[] src = java.util.Arrays.copyOfRange(in.bytes().array(), in.pos(), in.pos() + (int) packed);
        in.skip((int) packed);
        int got = Lzf.decompress(src, out);
        if (got != out.length) {
            throw new FormatException(in.name + ": byte " + start + ": corrupt LZF data: expected " + out.length
                    + " bytes, decoded " + got);
        }
        Input.grown(c, Math.max(0, n - 1), n);
        ByteBuffer b = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
        long blockStart = 0;
        for (int k = 0; k < fields.size(); k++) {
            Field f = fields.get(k);
            for (int w = 0; w < want.length; w++) {
                if (want[w] == k) {
                    PlyReader.Type t = f.plyType();
                    for (int i = 0; i < n; i++) {
                        c[w][i] = t.get(b, (int) blockStart + i * f.size);
                    }
                }
            }
            blockStart += (long) f.size * f.count * n;
        }
    }
}
