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
 * part's point count, its hull's counts, its vertices or candidates (indices in the part) and their coordinates as
 * exact doubles (big-endian), and the QuickHull history of the part that seeds the merge; or, where the part has a non-finite coordinate, that point's index in the
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
        write(file, points, h == null ? null : new org.accelgeom.hull.Hull.Traced(h, null), false, bad);
    }

    /**
     * Writes part {@code points}' traced hull {@code t} (null when {@code bad} is not -1); with {@code seed} and a
     * history, the history too (after the coordinates: its face count, then fv, twin, coneFirst, coneCount), and the
     * candidates are its points ({@link PartitionedHull.Part#of(int, org.accelgeom.hull.Hull.Traced, boolean, double[],
     * double[], double[], int)}).
     */
    static void write(Path file, PointCloud points, org.accelgeom.hull.Hull.Traced t, boolean seed, int bad) {
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
            PartitionedHull.Part p = PartitionedHull.Part.of(points.size(), t, seed, points.x(), points.y(), points.z(), 0);
            HullResult.Stats s = p.stats();
            int v = p.vertices().length;
            org.accelgeom.hull.HullHistory hh = p.history();
            int faces = hh == null ? 0 : hh.faces();
            out = ByteBuffer.allocate(40 + 28 * v + 32 * faces);
            out.putInt(MAGIC).putInt(points.size()).putInt(bad);
            out.putInt(s.culled()).putInt(s.rounds()).putInt(s.insertions()).putLong(s.exactFallbacks()).putInt(v);
            out.asIntBuffer().put(p.vertices());
            out.position(out.position() + 4 * v);
            for (double[] col : new double[][] {p.x(), p.y(), p.z()}) {
                out.asDoubleBuffer().put(col);
                out.position(out.position() + 8 * v);
            }
            out.putInt(faces);
            if (hh != null) {
                for (int[] col : new int[][] {hh.fv(), hh.twin(), hh.coneFirst(), hh.coneCount()}) {
                    out.asIntBuffer().put(col);
                    out.position(out.position() + 4 * col.length);
                }
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
            int faces = in.getInt();
            org.accelgeom.hull.HullHistory history = null;
            if (faces > 0) {
                int[][] h = {new int[3 * faces], new int[3 * faces], new int[faces], new int[faces]};
                for (int[] col : h) {
                    in.asIntBuffer().get(col);
                    in.position(in.position() + 4 * col.length);
                }
                history = new org.accelgeom.hull.HullHistory(faces, h[0], h[1], h[2], h[3]);
            }
            return new Read(new PartitionedHull.Part(count, vertices, c[0], c[1], c[2], stats, history), -1, "");
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
