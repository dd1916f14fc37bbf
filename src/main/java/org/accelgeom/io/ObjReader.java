package org.accelgeom.io;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Wavefront OBJ: {@code v x y z [w | r g b]} and {@code f} lines whose vertices are written {@code v},
 * {@code v/vt}, {@code v//vn} or {@code v/vt/vn}; indices count from 1, negative ones from the end of the
 * vertices read so far. Polygons stay polygons. Every other statement (vt, vn, l, o, g, s, usemtl, mtllib)
 * is ignored. An index of 0, or outside the vertices, is an error naming the line; so is a file without a
 * vertex and without a face (empty, or not OBJ) and a line that is not text (control bytes).
 *
 * <p>The file is parsed in parallel blocks ({@link TextBlocks}); a block keeps its relative (negative)
 * indices apart, and they are resolved when the blocks are joined, as the vertices before each block are
 * then counted.
 */
final class ObjReader {
    private ObjReader() {
    }

    static Mesh read(Input in) throws IOException {
        List<TextBlocks.Block<ObjLines>> blocks = TextBlocks.parse(in, 0, 1, ObjLines::new);
        List<PointColumns> vertices = new ArrayList<>();
        long vertexBase = 0;
        long faces = 0;
        long indices = 0;
        int maxIndex = -1;
        long maxIndexLine = 0;
        long lastLine = 0;
        for (TextBlocks.Block<ObjLines> b : blocks) {
            ObjLines p = b.lines;
            for (int j = 0; j < p.relV.size(); j++) {
                long index = vertexBase + p.relNv.get(j) + p.relV.get(j);
                if (index < 0 && (b.error == null || p.relLine.get(j) < b.error.line)) {
                    throw TextBlocks.error(in.name, b, p.relLine.get(j), "relative vertex index " + p.relV.get(j)
                            + " points before the first vertex (" + (vertexBase + p.relNv.get(j)) + " read so far)");
                }
            }
            if (b.error != null) {
                TextBlocks.throwFirst(in.name, List.of(b));
            }
            for (int j = 0; j < p.relV.size(); j++) {
                int at = p.relAt.get(j);
                p.faceIndex.a[at] = (int) (vertexBase + p.faceIndex.a[at]);
            }
            if (p.maxIndex > maxIndex) {
                maxIndex = p.maxIndex;
                maxIndexLine = b.fileLine(p.maxIndexLine);
            }
            vertexBase += p.vertices.size();
            faces += p.faceSizes.size();
            indices += p.faceIndex.size();
            vertices.add(p.vertices);
            lastLine = b.firstLine + b.newlines - 1;
        }
        if (vertexBase == 0 && faces == 0) {
            throw FormatException.at(in.name, Math.max(1, lastLine),
                    "expected OBJ vertices ('v x y z') or faces ('f ...'), found none");
        }
        if (maxIndex >= vertexBase) {
            throw FormatException.at(in.name, maxIndexLine,
                    "face vertex index " + (maxIndex + 1) + " is out of range: the file has " + vertexBase + " vertices");
        }
        if (faces > Integer.MAX_VALUE - 16 || indices > Integer.MAX_VALUE - 16) {
            throw new FormatException(in.name + ": " + faces + " faces of " + indices + " indices: too many for one array");
        }
        PointCloud v = PointColumns.join(3, vertices);
        int[] faceStart = new int[(int) faces + 1];
        int[] faceIndex = new int[(int) indices];
        int f = 0;
        int at = 0;
        for (TextBlocks.Block<ObjLines> b : blocks) {
            ObjLines p = b.lines;
            for (int j = 0; j < p.faceSizes.size(); j++, f++) {
                faceStart[f + 1] = faceStart[f] + p.faceSizes.get(j);
            }
            System.arraycopy(p.faceIndex.a, 0, faceIndex, at, p.faceIndex.size());
            at += p.faceIndex.size();
        }
        return new Mesh(v.x(), v.y(), v.z(), faceStart, faceIndex);
    }

    /** The vertices and faces of one block; relative indices kept apart until the blocks are joined. */
    static final class ObjLines extends TextBlocks.Lines {
        final PointColumns vertices = new PointColumns(3, 64);
        final Ints faceSizes = new Ints();
        /** Absolute indices (from 0), and for relative ones the block's vertex count plus the index. */
        final Ints faceIndex = new Ints();
        /** For each relative index: where it is in faceIndex, the index, the block's vertex count, the line. */
        final Ints relAt = new Ints();
        final Ints relV = new Ints();
        final Ints relNv = new Ints();
        final Ints relLine = new Ints();
        int maxIndex = -1;
        long maxIndexLine;
        private final double[] row = new double[3];
        private static final String[] WHAT = {"the x coordinate of a vertex", "the y coordinate of a vertex",
            "the z coordinate of a vertex"};

        @Override
        void line(byte[] b, int ls, int le, long line) {
            int i = TextBlocks.skipBlanks(b, ls, le);
            if (i >= le || i + 1 < le && !TextBlocks.blank(b[i + 1])) {
                return; // a blank line, or not "v" or "f": another statement
            }
            if (b[i] == 'v') {
                i = TextBlocks.skipBlanks(b, i + 1, le);
                for (int k = 0; k < 3; k++) {
                    String what = WHAT[k];
                    if (i >= le) {
                        throw new TextBlocks.LineError(line, "expected " + what + ", found the end of the line");
                    }
                    int te = TextBlocks.tokenEnd(b, i, le);
                    row[k] = TextPointReader.coordinate(b, i, te, line, what);
                    i = TextBlocks.skipBlanks(b, te, le);
                }
                vertices.add(row);
            } else if (b[i] == 'f') {
                int n = 0;
                int nv = vertices.size();
                i = TextBlocks.skipBlanks(b, i + 1, le);
                while (i < le) {
                    int te = TextBlocks.tokenEnd(b, i, le);
                    int e = i;
                    while (e < te && b[e] != '/') {
                        e++;
                    }
                    int v;
                    try {
                        v = Numbers.parseInt(b, i, e);
                    } catch (NumberFormatException ex) {
                        throw new TextBlocks.LineError(line, "expected a vertex index (v, v/vt, v//vn or v/vt/vn), found '"
                                + TextBlocks.shown(b, i, te) + "'");
                    }
                    if (v == 0) {
                        throw new TextBlocks.LineError(line, "expected a vertex index, found 0 (OBJ counts from 1)");
                    }
                    if (v > 0) {
                        if (v - 1 > maxIndex) {
                            maxIndex = v - 1;
                            maxIndexLine = line;
                        }
                        faceIndex.add(v - 1);
                    } else {
                        relAt.add(faceIndex.size());
                        relV.add(v);
                        relNv.add(nv);
                        relLine.add((int) line);
                        faceIndex.add(nv + v);
                    }
                    n++;
                    i = TextBlocks.skipBlanks(b, te, le);
                }
                if (n < 3) {
                    throw new TextBlocks.LineError(line, "expected at least 3 vertices in a face, found " + n);
                }
                faceSizes.add(n);
            }
        }
    }

    /** A growable int array whose storage the join reads directly. */
    static final class Ints {
        int[] a = new int[16];
        private int n;

        void add(int v) {
            if (n == a.length) {
                if (n >= Integer.MAX_VALUE - 16) {
                    throw new FormatException("more than " + n + " face indices in one block");
                }
                a = java.util.Arrays.copyOf(a, (int) Math.min(Integer.MAX_VALUE - 16L, n + (n >> 1) + 16L));
            }
            a[n++] = v;
        }

        int get(int i) {
            return a[i];
        }

        int size() {
            return n;
        }
    }
}
