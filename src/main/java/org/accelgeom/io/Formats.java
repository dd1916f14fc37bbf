package org.accelgeom.io;

import java.awt.image.BufferedImage;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteOrder;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;
import javax.imageio.ImageIO;
import org.accelgeom.engine.AccelGeomException;

/**
 * Reading and writing every supported format; what the CLI calls. The format is chosen from the file's
 * extension (a trailing {@code .gz} is ignored); gzip is detected from the content (bytes 1f 8b), so a
 * compressed file without {@code .gz} reads too. The file name {@code "-"} means standard input (the format is
 * then sniffed: {@code ply}, {@code OFF}, a PCD header, else text points) or standard output (written as
 * whitespace points / binary PLY). An unknown extension is sniffed like standard input.
 *
 * <p>Errors: a malformed file throws {@link FormatException} whose one-line message names the file, the line
 * (or byte offset) and what was expected; a missing or unreadable file throws {@link AccelGeomException}. No
 * method throws a checked exception. See {@link #describe()} and {@code docs/formats.md}.
 */
public final class Formats {
    private Formats() {
    }

    private interface Reader<T> {
        T read(Input in) throws IOException;
    }

    private interface Writer {
        void write(OutputStream out) throws IOException;
    }

    /** The lower-case extension, after removing a trailing {@code .gz}; "" when there is none. */
    static String extension(String file) {
        String f = file.toLowerCase(Locale.ROOT);
        if (f.endsWith(".gz")) {
            f = f.substring(0, f.length() - 3);
        }
        int slash = Math.max(f.lastIndexOf('/'), f.lastIndexOf('\\'));
        int dot = f.lastIndexOf('.');
        return dot > slash ? f.substring(dot + 1) : "";
    }

    // ---------------------------------------------------------------- points

    /** Points from a file; see {@link #readPoints(String)}. */
    public static PointCloud readPoints(Path file) {
        return readPoints(file.toString());
    }

    /**
     * Points from {@code .xyz .txt .pts .rbox} (whitespace), {@code .csv}, {@code .ply}, {@code .off}, {@code .pcd},
     * the vertices of {@code .obj}, the atom centres of {@code .pdb .ent .cif .mmcif .pqr .xyzr}, NumPy {@code .npy},
     * LAS {@code .las}, or standard input for {@code "-"}. Text coordinates must be finite; binary ones are kept
     * as stored (PCD NaN points).
     */
    public static PointCloud readPoints(String file) {
        return read(file, in -> switch (extension(file)) {
            case "xyz", "txt", "pts", "rbox", "dat" -> TextPointReader.read(in);
            case "csv" -> CsvPointReader.read(in).points();
            case "ply" -> PlyReader.readPoints(in);
            case "off" -> OffReader.readPoints(in);
            case "pcd" -> PcdReader.read(in);
            case "obj" -> meshVertices(ObjReader.read(in));
            case "pdb", "ent", "cif", "mmcif", "pqr", "xyzr" -> moleculeOf(file, in, 1).centres();
            case "npy" -> NpyReader.read(in);
            case "las" -> LasReader.read(in);
            case "laz" -> throw new FormatException(LasReader.lazUnsupported(file));
            default -> sniffPoints(in);
        });
    }

    /** The column names of a CSV file's header (c0, c1, ... without one) and its points. */
    public static String[] readCsvColumnNames(Path file) {
        return read(file.toString(), in -> CsvPointReader.read(in).names());
    }

    private static PointCloud sniffPoints(Input in) throws IOException {
        String head = in.peek(256);
        String first = head.lines().findFirst().orElse("").strip();
        if (head.startsWith("ply")) {
            return PlyReader.readPoints(in);
        }
        if (head.startsWith("LASF")) {
            return LasReader.read(in);
        }
        if (head.startsWith("\u0093NUMPY")) {
            return NpyReader.read(in);
        }
        if (first.matches("(ST)?C?N?4?n?OFF.*")) {
            return OffReader.readPoints(in);
        }
        if (head.startsWith("# .PCD") || first.startsWith("VERSION") || first.startsWith("FIELDS")) {
            return PcdReader.read(in);
        }
        if (!first.startsWith("#") && (first.contains(",") || first.contains(";"))) {
            return CsvPointReader.read(in).points();
        }
        return TextPointReader.read(in);
    }

    private static PointCloud meshVertices(Mesh m) {
        return PointCloud.of(m.x(), m.y(), m.z());
    }

    /** Writes points to a file; see {@link #writePoints(String, PointCloud)}. */
    public static void writePoints(Path file, PointCloud p) {
        writePoints(file.toString(), p);
    }

    /**
     * Writes points as {@code .ply} (binary little endian, doubles), {@code .csv} (with a header),
     * {@code .xyz .txt .pts} (whitespace), any of them with {@code .gz}; {@code "-"} writes whitespace text to
     * standard output. Text uses the shortest decimal that reads back to the same double.
     */
    public static void writePoints(String file, PointCloud p) {
        switch (extension(file)) {
            case "ply" -> {
                if (p.dimension() != 2 && p.dimension() != 3) {
                    throw new AccelGeomException(file + ": PLY holds 2D or 3D points, these have dimension "
                            + p.dimension() + " (write .csv or .xyz)");
                }
                write(file, out -> PlyWriter.writePoints(out, p, true, null));
            }
            case "csv" -> write(file, out -> TextWriters.writeCsv(out, p));
            case "xyz", "txt", "pts", "" -> write(file, out -> TextWriters.writeXyz(out, p));
            default -> throw unknown(file, "points", ".ply .csv .xyz .txt .pts");
        }
    }

    // ---------------------------------------------------------------- meshes

    /** A mesh from a file; see {@link #readMesh(String)}. */
    public static Mesh readMesh(Path file) {
        return readMesh(file.toString());
    }

    /** A mesh from {@code .obj}, {@code .ply} or {@code .off} (with or without gzip), or standard input ({@code "-"}). */
    public static Mesh readMesh(String file) {
        return read(file, in -> switch (extension(file)) {
            case "obj" -> ObjReader.read(in);
            case "ply" -> PlyReader.readMesh(in);
            case "off" -> OffReader.readMesh(in);
            default -> {
                String head = in.peek(64);
                if (head.startsWith("ply")) {
                    yield PlyReader.readMesh(in);
                }
                if (head.strip().matches("(?s)(ST)?C?N?4?n?OFF.*")) {
                    yield OffReader.readMesh(in);
                }
                yield ObjReader.read(in);
            }
        });
    }

    /** Writes a mesh as {@code .ply} (binary little endian), {@code .obj} or {@code .off}, optionally {@code .gz}. */
    public static void writeMesh(Path file, Mesh m) {
        writeMesh(file, m, true);
    }

    /** As {@link #writeMesh(Path, Mesh)}; {@code binaryPly} false writes ASCII PLY. */
    public static void writeMesh(Path file, Mesh m, boolean binaryPly) {
        String f = file.toString();
        switch (extension(f)) {
            case "ply" -> write(f, out -> PlyWriter.writeMesh(out, m, binaryPly, null, null));
            case "obj" -> write(f, out -> TextWriters.writeObj(out, m));
            case "off" -> write(f, out -> TextWriters.writeOff(out, m));
            default -> throw unknown(f, "meshes", ".ply .obj .off");
        }
    }

    // ---------------------------------------------------------------- molecules

    /** The first model of a molecule file; see {@link #readMolecule(Path, int)}. */
    public static Molecule readMolecule(Path file) {
        return readMolecule(file, 1);
    }

    /**
     * Model {@code model} (the n-th in the file, from 1) of {@code .pdb .ent} (PDB), {@code .cif .mmcif} (mmCIF),
     * {@code .pqr} or {@code .xyzr}. PQR and XYZR files have one model.
     */
    public static Molecule readMolecule(Path file, int model) {
        String f = file.toString();
        return read(f, in -> moleculeOf(f, in, model));
    }

    private static Molecule moleculeOf(String file, Input in, int model) throws IOException {
        String ext = extension(file);
        if ((ext.equals("pqr") || ext.equals("xyzr")) && model != 1) {
            throw new NoSuchModelException(file + ": " + ext.toUpperCase(Locale.ROOT) + " files have one model, asked for model " + model);
        }
        return switch (ext) {
            case "pdb", "ent" -> PdbReader.read(in, model);
            case "cif", "mmcif" -> CifReader.read(in, model);
            case "pqr" -> PqrReader.read(in);
            case "xyzr" -> XyzrReader.read(in);
            default -> {
                String head = in.peek(4096);
                yield head.startsWith("data_") || head.contains("_atom_site.") ? CifReader.read(in, model)
                        : PdbReader.read(in, model);
            }
        };
    }

    // ---------------------------------------------------------------- grids

    /**
     * A raw float32 grid of {@code nx} columns and {@code ny} rows, row-major, in the given byte order. The
     * (decompressed) file must hold exactly {@code nx * ny * 4} bytes.
     */
    public static Grid readGrid(Path file, int nx, int ny, ByteOrder order) {
        String f = file.toString();
        return readBytes(f, data -> GridIo.readRaw(f, data, nx, ny, order));
    }

    /** Writes a grid as raw float32, row-major, in the given byte order (with {@code .gz}: compressed). */
    public static void writeGrid(Path file, Grid g, ByteOrder order) {
        write(file.toString(), out -> GridIo.writeRaw(out, g, order));
    }

    /** A grey PNG heightmap: its 16-bit (0..65535) or 8-bit (0..255) samples as they are stored. */
    public static Grid readHeightmapPng(Path file) {
        String f = file.toString();
        return readBytes(f, data -> GridIo.readPng(f, data));
    }

    /** Writes a 16-bit grey PNG of the samples rounded and clamped to 0..65535 (integer grids round-trip). */
    public static void writeHeightmapPng(Path file, Grid g) {
        writeHeightmapPng(file, g, 0, 65535);
    }

    /** Writes a 16-bit grey PNG, mapping [lo, hi] linearly to [0, 65535]. */
    public static void writeHeightmapPng(Path file, Grid g, double lo, double hi) {
        ImageIO.setUseCache(false);
        write(file.toString(), out -> GridIo.writePng16(out, g, lo, hi));
    }

    // ---------------------------------------------------------------- pictures

    /** Writes an image as PNG. */
    public static void writePng(Path file, BufferedImage image) {
        ImageIO.setUseCache(false); // no cache file, no "StreamCloser" thread that fails at exit after an error
        write(file.toString(), out -> {
            if (!ImageIO.write(image, "png", out)) {
                throw new IOException("no PNG writer for this image type");
            }
        });
    }

    // ---------------------------------------------------------------- help

    /** The supported formats, one per line, for command-line help. */
    public static String describe() {
        return """
                points  (read)  .xyz .txt .pts .dat  whitespace columns (any dimension); optional rbox or count header
                                .rbox                Qhull rbox output: dimension, count, points
                                .csv                 comma or semicolon separated, optional header line
                                .ply                 vertex x y [z], ascii / binary little / big endian
                                .off                 vertices of OFF, COFF, NOFF, 4OFF, nOFF
                                .pcd                 PCL point cloud, ascii / binary / binary_compressed
                                .npy                 NumPy float32/float64 array of shape (N, d) or (N,)
                                .las                 LAS 1.0-1.4 point formats 0-10 (x y z, scaled); not .laz
                                .obj .pdb .cif .pqr .xyzr   vertices or atom centres
                points  (write) .ply (binary) .csv .xyz .txt .pts
                meshes  (read)  .obj .ply .off       polygons kept; OBJ v/vt/vn and negative indices
                meshes  (write) .ply (binary or ascii) .obj .off
                molecules       .pdb .ent (ATOM/HETATM, MODEL), .cif .mmcif (_atom_site), .pqr, .xyzr
                grids           raw float32 (nx, ny, byte order given), .png 8/16-bit grey heightmaps
                images  (write) .png
                every reader takes gzip (detected from the content; .gz is ignored when choosing the format);
                '-' is standard input (format sniffed) or standard output
                """;
    }

    // ---------------------------------------------------------------- plumbing

    private static <T> T read(String file, Reader<T> reader) {
        try (Input in = Input.open(file)) {
            return reader.read(in);
        } catch (NoSuchFileException | FileNotFoundException e) {
            throw new AccelGeomException(file + ": no such file");
        } catch (AccessDeniedException e) {
            throw new AccelGeomException(file + ": permission denied");
        } catch (ZipException | EOFException e) {
            throw new FormatException(file + ": corrupt or truncated gzip data (" + e.getMessage() + ")");
        } catch (IOException e) {
            throw new AccelGeomException(file + ": cannot read: " + e.getMessage(), e);
        }
    }

    private interface BytesReader<T> {
        T read(byte[] data) throws IOException;
    }

    private static <T> T readBytes(String file, BytesReader<T> reader) {
        byte[] data = read(file, in -> Input.readAll(in));
        try {
            return reader.read(data);
        } catch (IOException e) {
            throw new FormatException(file + ": byte 0: cannot decode: " + e.getMessage());
        }
    }

    private static void write(String file, Writer writer) {
        if (file.equals("-")) {
            writeStdout(writer);
            return;
        }
        AtomicOutput.write(Path.of(file), raw -> {
            if (file.toLowerCase(Locale.ROOT).endsWith(".gz")) {
                GZIPOutputStream gz = new GZIPOutputStream(raw, 1 << 16);
                writer.write(gz);
                gz.finish();
            } else {
                writer.write(raw);
            }
        });
    }

    /** Standard output, whose PrintStream swallows errors: {@link java.io.PrintStream#checkError()} tells. */
    private static void writeStdout(Writer writer) {
        try {
            OutputStream out = new BufferedOutputStream(System.out, 1 << 16);
            writer.write(out);
            out.flush();
        } catch (IOException e) {
            throw new AccelGeomException("standard output: cannot write: " + AtomicOutput.reason(e), e);
        }
        if (System.out.checkError()) {
            throw new AccelGeomException("standard output: cannot write (closed, or the device is full)");
        }
    }

    private static AccelGeomException unknown(String file, String what, String known) {
        return new AccelGeomException(file + ": cannot tell the format of " + what + " from the extension '"
                + extension(file) + "' (known: " + known + ")");
    }
}
