package org.accelgeom.io;

import java.io.IOException;

import org.accelgeom.engine.IntList;

/**
 * Geomview OFF: a keyword line {@code [ST][C][N][4][n]OFF} (the counts may follow on the same line), then
 * {@code nv nf [ne]}, nv vertex lines and nf face lines {@code k i1 .. ik [colour]}. Extra vertex columns
 * (colours, normals, texture coordinates) are ignored. {@code #} starts a comment. {@code 4OFF} and
 * {@code nOFF} give points of dimension 4 or n (meshes must be 3D); {@code OFF BINARY} is rejected. The
 * header is read on one thread, the vertex and face lines in parallel blocks ({@link NumberLines}).
 */
final class OffReader {
    private OffReader() {
    }

    static PointCloud readPoints(Input in) throws IOException {
        return read(in, false).vertices();
    }

    static Mesh readMesh(Input in) throws IOException {
        PlyReader.Data d = read(in, true);
        if (d.vertices().dimension() != 3) {
            throw new FormatException(in.name + ":1: expected 3D vertices for a mesh, found dimension "
                    + d.vertices().dimension());
        }
        return d.mesh();
    }

    static PlyReader.Data read(Input in, boolean wantFaces) throws IOException {
        if (!nextLine(in) || !in.nextToken()) {
            throw in.error("expected 'OFF', found the end of the file");
        }
        String key = in.token();
        int off = key.indexOf("OFF");
        if (off < 0) {
            throw in.error("expected 'OFF' (or COFF, NOFF, 4OFF, nOFF ...), found '" + key + "'");
        }
        String prefix = key.substring(0, off);
        String glued = key.substring(off + 3); // some files write "OFF8 6 0"
        if (!prefix.matches("(ST)?C?N?4?n?")) {
            throw in.error("expected 'OFF' (or COFF, NOFF, 4OFF, nOFF ...), found '" + key + "'");
        }
        int dim = prefix.contains("4") ? 4 : 3;
        long[] counts = new long[3];
        int have = 0;
        if (!glued.isEmpty()) {
            counts[have++] = parseCount(in, glued);
        }
        if (prefix.endsWith("n")) {
            dim = (int) nextNumber(in, "the dimension after nOFF") + (prefix.contains("4") ? 1 : 0);
            if (dim < 1) {
                throw in.error("expected a positive dimension after nOFF, found " + dim);
            }
        }
        while (have < 2) {
            if (!in.nextToken()) {
                if (!nextLine(in)) {
                    throw in.error("expected the vertex and face counts, found the end of the file");
                }
                continue;
            }
            if (in.tokenIs("BINARY")) {
                throw in.error("binary OFF is not supported; convert it to ASCII OFF or PLY");
            }
            counts[have++] = in.tokenInt("the vertex and face counts");
        }
        long countsLine = in.line;
        if (counts[0] < 0 || counts[1] < 0 || counts[0] > Integer.MAX_VALUE - 16 || counts[1] > Integer.MAX_VALUE - 16) {
            throw in.error("expected non-negative vertex and face counts, found " + counts[0] + " " + counts[1]);
        }
        int nv = (int) counts[0];
        int nf = (int) counts[1];
        in.capacityFor(nv + (long) nf, 2, "vertices and faces (" + nv + " + " + nf + ")", countsLine);
        double[][] coords = new double[dim][in.capacityFor(nv, 2L * dim, "vertices", countsLine)];
        // the vertex and face lines, in parallel blocks; walked in order below
        NumberLines.Cursor cur = new NumberLines.Cursor(in.name,
                TextBlocks.parse(in, in.offset(), countsLine + 1, () -> new NumberLines('#')), countsLine + 1);
        for (int i = 0; i < nv; i++) {
            if (!cur.nextLine()) {
                throw FormatException.at(in.name, countsLine, "the header says " + nv + " vertices, found " + i);
            }
            coords = Input.grown(coords, i, nv);
            if (cur.left() < dim) {
                throw cur.error("expected coordinate " + (cur.left() + 1) + " of vertex " + i + ", found the end of the line");
            }
            for (int k = 0; k < dim; k++) {
                coords[k][i] = cur.next();
            }
        }
        if (!wantFaces) {
            return new PlyReader.Data(new PointCloud(coords), new int[1], new int[0]);
        }
        IntList faceStart = new IntList(Math.min(nf, 1 << 16) + 1);
        faceStart.add(0);
        IntList faceIndex = new IntList(3 * Math.min(nf, 1 << 16));
        for (int f = 0; f < nf; f++) {
            if (!cur.nextLine()) {
                throw FormatException.at(in.name, countsLine, "the header says " + nf + " faces, found " + f);
            }
            int k = index(cur, cur.next(), -1, f);
            if (k < 0) {
                throw cur.error("expected the vertex count of face " + f + ", found " + k);
            }
            if (cur.left() < k) {
                throw cur.error("expected vertex " + cur.left() + " of face " + f + ", found the end of the line");
            }
            for (int j = 0; j < k; j++) {
                int v = index(cur, cur.next(), j, f);
                if (v < 0 || v >= nv) {
                    throw cur.error("face " + f + " has vertex index " + v + ", expected 0.." + (nv - 1));
                }
                faceIndex.add(v);
            }
            faceStart.add(faceIndex.size());
        }
        return new PlyReader.Data(new PointCloud(coords), faceStart.toArray(), faceIndex.toArray());
    }

    /** An integer value of face f: its vertex count (j &lt; 0) or vertex j; else an error at the line. */
    private static int index(NumberLines.Cursor cur, double v, int j, int f) {
        if (v != Math.rint(v) || Math.abs(v) > Integer.MAX_VALUE) {
            throw cur.error("expected " + (j < 0 ? "the vertex count" : "vertex " + j) + " of face " + f
                    + " (an integer), found " + v);
        }
        return (int) v;
    }

    /** The next line with content, cut at a {@code #} comment. */
    private static boolean nextLine(Input in) throws IOException {
        if (!in.nextContentLine('#')) {
            return false;
        }
        in.cutComment('#');
        return true;
    }

    private static double nextNumber(Input in, String what) throws IOException {
        while (!in.nextToken()) {
            if (!nextLine(in)) {
                throw in.error("expected " + what + ", found the end of the file");
            }
        }
        return in.tokenInt(what);
    }

    private static long parseCount(Input in, String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw in.error("expected the vertex count after OFF, found '" + s + "'");
        }
    }
}
