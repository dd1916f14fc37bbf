package org.accelgeom.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Part k of K of a point file, read alone: what a worker process of a split hull reads, so that the processes read
 * the file in parallel and none holds all of it. The parts, one after the other, are the points
 * {@link Formats#readPoints} reads, bit for bit:
 * <ul>
 *   <li>binary PLY whose first element is {@code vertex} with fixed-size properties: records
 *   {@code n·k/K .. n·(k+1)/K - 1}, read at their byte offsets;</li>
 *   <li>whitespace text ({@code .xyz .txt .pts .dat}) without a header line (its first point line has two or more
 *   numbers): the lines that start in bytes {@code size·k/K .. size·(k+1)/K - 1} (each line in the part where it
 *   starts), parsed by the same reader;</li>
 *   <li>anything else (other formats, gzip, standard input, text with a header, an error in a part): the whole
 *   file, read as {@link Formats#readPoints} reads it (so its errors are the one-process read's), less the
 *   points of the other parts ({@code n·k/K ..}).</li>
 * </ul>
 * A part's points are numbered from its first; its place in the whole input is the sum of the earlier parts'
 * counts.
 */
public final class PointParts {

    private PointParts() {
    }

    /** How a part was read: by its byte range ({@code true}) or from the whole file. */
    public record Part(PointCloud points, boolean ranged) {
    }

    /** Part {@code k} of {@code parts} of {@code file}; see the class comment. */
    public static Part read(String file, int k, int parts) {
        if (k < 0 || k >= parts) {
            throw new IllegalArgumentException("part " + k + " of " + parts);
        }
        if (parts > 1 && !file.equals("-") && !file.toLowerCase(Locale.ROOT).endsWith(".gz")
                && Files.isRegularFile(Path.of(file))) {
            // the way of reading is the file's (every part reads it the same way), not the part's
            String ext = Formats.extension(file);
            try {
                PlyLayout ply = ext.equals("ply") ? plyLayout(file) : null;
                if (ply != null) {
                    return new Part(plyPart(file, ply, k, parts), true);
                }
                if (TEXT.contains(ext) && startsWithPoint(Path.of(file))) {
                    return new Part(textPart(file, k, parts), true);
                }
            } catch (IOException e) {
                throw new org.accelgeom.engine.AccelGeomException(file + ": cannot read: " + e.getMessage(), e);
            }
        }
        PointCloud all = Formats.readPoints(file);
        int n = all.size();
        int from = (int) ((long) n * k / parts);
        int to = (int) ((long) n * (k + 1) / parts);
        double[][] c = all.coords();
        double[][] out = new double[c.length][];
        for (int d = 0; d < c.length; d++) {
            out[d] = Arrays.copyOfRange(c[d], from, to);
        }
        return new Part(new PointCloud(out), false);
    }

    private static final List<String> TEXT = List.of("xyz", "txt", "pts", "dat");

    /** Where a binary PLY file's vertex records are: its byte order, body offset, record size, count, coordinates. */
    private record PlyLayout(java.nio.ByteOrder order, long body, int record, long count, int[] at,
            PlyReader.Type[] type) {
    }

    /** The layout of a binary PLY file whose first element is {@code vertex} with fixed-size x, y, z; else null. */
    private static PlyLayout plyLayout(String file) {
        PlyReader.Header h;
        long body;
        try (Input in = Input.open(file)) {
            h = PlyReader.header(in);
            body = in.offset();
        } catch (IOException | RuntimeException e) {
            return null; // the whole read names the error
        }
        if (h.order() == null || h.elements().isEmpty() || !h.elements().get(0).name().equals("vertex")) {
            return null;
        }
        PlyReader.Element ve = h.elements().get(0);
        List<PlyReader.Property> props = ve.properties();
        int[] at = new int[3];
        PlyReader.Type[] type = new PlyReader.Type[3];
        int[] prop = {ve.indexOf("x"), ve.indexOf("y"), ve.indexOf("z")};
        int record = 0;
        for (int p = 0; p < props.size(); p++) {
            if (props.get(p).countType() != null) {
                return null;
            }
            for (int d = 0; d < 3; d++) {
                if (prop[d] == p) {
                    at[d] = record;
                    type[d] = props.get(p).type();
                }
            }
            record += props.get(p).type().size;
        }
        if (prop[0] < 0 || prop[1] < 0 || prop[2] < 0) {
            return null;
        }
        long n = ve.count();
        long least = 0; // what every element takes at least, as the whole read checks it
        for (PlyReader.Element e : h.elements()) {
            long r = 0;
            for (PlyReader.Property q : e.properties()) {
                r += q.countType() == null ? q.type().size : q.countType().size;
            }
            least += e.count() * Math.max(1, r);
        }
        try {
            long size = Files.size(Path.of(file));
            if (size < body + n * record || least > size - body + 1) {
                return null; // truncated: the whole read names the record
            }
        } catch (IOException e) {
            return null;
        }
        return new PlyLayout(h.order(), body, record, n, at, type);
    }

    /** Binary PLY records n·k/K .. n·(k+1)/K - 1 of a file of layout {@code l}. */
    private static PointCloud plyPart(String file, PlyLayout l, int k, int parts) throws IOException {
        long n = l.count();
        int record = l.record();
        int[] at = l.at();
        PlyReader.Type[] type = l.type();
        long body = l.body();
        long from = n * k / parts;
        int m = (int) (n * (k + 1) / parts - from);
        double[][] c = new double[3][m];
        int batch = Math.max(1, (1 << 24) / record);
        ByteBuffer b = ByteBuffer.allocate(batch * record).order(l.order());
        try (FileChannel ch = FileChannel.open(Path.of(file), StandardOpenOption.READ)) {
            for (int r = 0; r < m; r += batch) {
                int count = Math.min(batch, m - r);
                b.clear().limit(count * record);
                long pos = body + (from + r) * record;
                while (b.hasRemaining()) {
                    if (ch.read(b, pos + b.position()) < 0) {
                        throw new java.io.EOFException("the file ended at byte " + (pos + b.position()));
                    }
                }
                for (int d = 0; d < 3; d++) {
                    double[] col = c[d];
                    PlyReader.Type t = type[d];
                    for (int j = 0, o = at[d]; j < count; j++, o += record) {
                        col[r + j] = t == PlyReader.Type.FLOAT64 ? b.getDouble(o)
                                : t == PlyReader.Type.FLOAT32 ? b.getFloat(o) : t.get(b, o);
                    }
                }
            }
        }
        return new PointCloud(c);
    }

    /**
     * The text lines that start in part k's bytes. A part that does not read alone (a bad line) is read from the
     * whole file, whose reader names the error; a part of only blank and comment lines has no points.
     */
    private static PointCloud textPart(String file, int k, int parts) throws IOException {
        Path path = Path.of(file);
        MappedText text = new MappedText(path);
        long size = text.size;
        long from = text.lineStartAtOrAfter(size * k / parts, 0);
        long to = k == parts - 1 ? size : text.lineStartAtOrAfter(size * (k + 1) / parts, 0);
        if (to <= from) {
            return new PointCloud(new double[3][0]);
        }
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            ch.position(from);
            InputStream slice = new java.io.BufferedInputStream(
                    new BoundedStream(Channels.newInputStream(ch), to - from), 1 << 20);
            try (Input in = Input.of(file, slice)) {
                PointCloud p = TextPointReader.read(in);
                if (p.dimension() == 3) {
                    return p;
                }
                Formats.readPoints(file); // another dimension: the whole file's error where the parts differ
                return p; // the whole file has it: the hull's check names it
            } catch (FormatException e) {
                if (!hasContent(text, from, to)) {
                    return new PointCloud(new double[3][0]);
                }
            }
        }
        Formats.readPoints(file); // the whole file's error (a bad line, another dimension), as one process reads it
        throw new org.accelgeom.engine.AccelGeomException(file + ": part " + (k + 1) + " of " + parts
                + " does not read alone (a line of it looks like a header): run it on one device");
    }

    /** Whether bytes from..to-1 hold a line that is neither blank nor a {@code #} comment. */
    private static boolean hasContent(MappedText text, long from, long to) {
        boolean lineStart = true;
        for (long p = from; p < to; p++) {
            byte b = text.at(p);
            if (b == '\n') {
                lineStart = true;
            } else if (b != ' ' && b != '\t' && b != '\r') {
                if (!lineStart || b != '#') {
                    return true;
                }
                while (p < to && text.at(p) != '\n') {
                    p++; // the comment
                }
                lineStart = true;
            }
        }
        return false;
    }

    /** Whether the first line that is neither blank nor a {@code #} comment holds two or more numbers and only numbers. */
    static boolean startsWithPoint(Path file) throws IOException {
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(1 << 16);
        }
        for (String line : new String(head, java.nio.charset.StandardCharsets.ISO_8859_1).split("\n", -1)) {
            String s = line.strip();
            if (s.isEmpty() || s.startsWith("#")) {
                continue;
            }
            String[] tokens = s.split("\\s+");
            if (tokens.length < 2) {
                return false;
            }
            for (String t : tokens) {
                try {
                    Double.parseDouble(t);
                } catch (NumberFormatException e) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    /** At most {@code left} bytes of a stream. */
    private static final class BoundedStream extends java.io.FilterInputStream {
        private long left;

        BoundedStream(InputStream in, long left) {
            super(in);
            this.left = left;
        }

        @Override
        public int read() throws IOException {
            if (left <= 0) {
                return -1;
            }
            int b = super.read();
            left -= b >= 0 ? 1 : 0;
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left <= 0) {
                return -1;
            }
            int r = super.read(b, off, (int) Math.min(len, left));
            left -= Math.max(r, 0);
            return r;
        }
    }
}
