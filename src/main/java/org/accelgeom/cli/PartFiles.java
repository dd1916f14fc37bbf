package org.accelgeom.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.hull.HullResult;
import org.accelgeom.hull.PartitionedHull;
import org.accelgeom.io.PointCloud;

/**
 * The file in which a worker process of a split hull ({@link SplitHull}) hands its part's hull to its parent: the
 * part's point count, its hull's counts, its vertices (indices in the part) and their coordinates as exact doubles
 * (big-endian); or, where the part has a non-finite coordinate, that point's index in the
 * part and its coordinates (the parent names it in the whole input).
 */
final class PartFiles {

    private static final int MAGIC = 0x41475056; // "AGPV"

    private PartFiles() {
    }

    /** The file of part {@code k} in {@code dir}. */
    static Path file(Path dir, int k) {
        return dir.resolve("part-" + k + ".bin");
    }

    /** What a part file holds: the part, or the index of its first non-finite point (-1 if none) and its coordinates. */
    record Read(PartitionedHull.Part part, int bad, String badCoordinates) {
    }

    /**
     * Writes part {@code points}' hull {@code h} (null when {@code bad}, the first non-finite point, is not -1): built in
     * one buffer by bulk copies and written at once.
     */
    static void write(Path file, PointCloud points, HullResult h, int bad) {
        ByteBuffer out;
        if (bad >= 0) {
            StringBuilder xs = new StringBuilder();
            for (double[] col : points.coords()) {
                xs.append(xs.length() > 0 ? ", " : "").append(col[bad]);
            }
            byte[] utf = xs.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8); // ASCII: numbers, NaN, Infinity
            out = ByteBuffer.allocate(14 + utf.length);
            out.putInt(MAGIC).putInt(points.size()).putInt(bad).putShort((short) utf.length).put(utf);
        } else {
            PartitionedHull.Part p = PartitionedHull.Part.of(points.size(), h, points.x(), points.y(), points.z(), 0);
            HullResult.Stats s = p.stats();
            int v = p.vertices().length;
            out = ByteBuffer.allocate(36 + 28 * v);
            out.putInt(MAGIC).putInt(points.size()).putInt(bad);
            out.putInt(s.culled()).putInt(s.rounds()).putInt(s.insertions()).putLong(s.exactFallbacks()).putInt(v);
            out.asIntBuffer().put(p.vertices());
            out.position(out.position() + 4 * v);
            for (double[] col : new double[][] {p.x(), p.y(), p.z()}) {
                out.asDoubleBuffer().put(col);
                out.position(out.position() + 8 * v);
            }
        }
        try {
            Files.write(file, out.array());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file beside part file {@code file} with the part's phase table (--timings). */
    static Path phasesFile(Path file) {
        return file.resolveSibling(file.getFileName() + ".phases");
    }

    /** Writes the part's phase table beside its file. */
    static void writePhases(Path file, String table) {
        try {
            Files.writeString(phasesFile(file), table);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The part's phase table written beside its file, or null. */
    static String phases(Path file) {
        try {
            return Files.exists(phasesFile(file)) ? Files.readString(phasesFile(file)) : null;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Reads a part file: in one read and bulk copies out of a buffer (a stream of per-value reads took 13-14 ms for the
     * 4 parts of a 10^8-point hull on an H200 host, as long as a tenth of the merge).
     */
    static Read read(Path file) {
        ByteBuffer in;
        try {
            in = ByteBuffer.wrap(Files.readAllBytes(file)); // big-endian, as written
        } catch (IOException e) {
            throw new AccelGeomException(file + ": cannot read a part of the split hull: " + e.getMessage(), e);
        }
        try {
            if (in.getInt() != MAGIC) {
                throw new AccelGeomException(file + ": not a part file of a split hull");
            }
            int count = in.getInt();
            int bad = in.getInt();
            if (bad >= 0) {
                byte[] utf = new byte[in.getShort() & 0xffff];
                in.get(utf);
                return new Read(null, bad, new String(utf, java.nio.charset.StandardCharsets.UTF_8));
            }
            int culled = in.getInt();
            int rounds = in.getInt();
            int insertions = in.getInt();
            long fallbacks = in.getLong();
            int v = in.getInt();
            int[] vertices = new int[v];
            in.asIntBuffer().get(vertices);
            in.position(in.position() + 4 * v);
            double[][] c = new double[3][v];
            for (double[] col : c) {
                in.asDoubleBuffer().get(col);
                in.position(in.position() + 8 * v);
            }
            HullResult.Stats stats = new HullResult.Stats(count, culled, rounds, insertions, fallbacks);
            return new Read(new PartitionedHull.Part(count, vertices, c[0], c[1], c[2], stats), -1, "");
        } catch (java.nio.BufferUnderflowException | IllegalArgumentException e) {
            throw new AccelGeomException(file + ": cannot read a part of the split hull: the file ends early", e);
        }
    }

    /** Deletes what {@code dir} holds, then it. */
    static void delete(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // left in the temporary directory
        }
    }
}
