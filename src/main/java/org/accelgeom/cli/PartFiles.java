package org.accelgeom.cli;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.hull.HullResult;
import org.accelgeom.hull.PartitionedHull;
import org.accelgeom.io.PointCloud;

/**
 * The file in which a worker process of a split hull ({@link SplitHull}) hands its part's hull to its parent: the
 * part's point count, its hull's counts, its vertices (indices in the part) and their coordinates as exact doubles
 * (big-endian, {@link DataOutputStream}); or, where the part has a non-finite coordinate, that point's index in the
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

    /** Writes part {@code points}' hull {@code h} (null when {@code bad}, the first non-finite point, is not -1). */
    static void write(Path file, PointCloud points, HullResult h, int bad) {
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 20))) {
            out.writeInt(MAGIC);
            out.writeInt(points.size());
            out.writeInt(bad);
            if (bad >= 0) {
                StringBuilder xs = new StringBuilder();
                for (double[] col : points.coords()) {
                    xs.append(xs.length() > 0 ? ", " : "").append(col[bad]);
                }
                out.writeUTF(xs.toString());
                return;
            }
            PartitionedHull.Part p = PartitionedHull.Part.of(points.size(), h, points.x(), points.y(), points.z(), 0);
            HullResult.Stats s = p.stats();
            out.writeInt(s.culled());
            out.writeInt(s.rounds());
            out.writeInt(s.insertions());
            out.writeLong(s.exactFallbacks());
            int v = p.vertices().length;
            out.writeInt(v);
            for (int i : p.vertices()) {
                out.writeInt(i);
            }
            for (double[] col : new double[][] {p.x(), p.y(), p.z()}) {
                for (double d : col) {
                    out.writeDouble(d);
                }
            }
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

    /** Reads a part file. */
    static Read read(Path file) {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 20))) {
            if (in.readInt() != MAGIC) {
                throw new AccelGeomException(file + ": not a part file of a split hull");
            }
            int count = in.readInt();
            int bad = in.readInt();
            if (bad >= 0) {
                return new Read(null, bad, in.readUTF());
            }
            int culled = in.readInt();
            int rounds = in.readInt();
            int insertions = in.readInt();
            long fallbacks = in.readLong();
            int v = in.readInt();
            int[] vertices = new int[v];
            for (int i = 0; i < v; i++) {
                vertices[i] = in.readInt();
            }
            double[][] c = new double[3][v];
            for (double[] col : c) {
                for (int i = 0; i < v; i++) {
                    col[i] = in.readDouble();
                }
            }
            HullResult.Stats stats = new HullResult.Stats(count, culled, rounds, insertions, fallbacks);
            return new Read(new PartitionedHull.Part(count, vertices, c[0], c[1], c[2], stats), -1, "");
        } catch (IOException e) {
            throw new AccelGeomException(file + ": cannot read a part of the split hull: " + e.getMessage(), e);
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
