package org.accelgeom.io;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * The text files of an additively weighted Voronoi diagram: balls ({@code x y z r}), vertices in Voronota's
 * {@code q1 q2 q3 q4 x y z r} format, edges as CSV or JSON, the quasi-triangulation as CSV. The arrays are those of
 * {@code voronoi.VoronoiResult} (this package does not depend on the algorithms). Every file is written atomically
 * ({@link AtomicOutput}).
 */
public final class VoronoiFiles {
    private VoronoiFiles() {
    }

    private interface Lines {
        void write(Writer w) throws IOException;
    }

    private static void text(Path file, Lines lines) {
        AtomicOutput.write(file, out -> {
            Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
            lines.write(w);
            w.flush();
        });
    }

    /** The balls as {@code x y z r} lines, full precision (what {@code voronota calculate-vertices} reads). */
    public static void writeBalls(Path file, double[] x, double[] y, double[] z, double[] r) {
        text(file, w -> {
            for (int i = 0; i < x.length; i++) {
                w.write(x[i] + " " + y[i] + " " + z[i] + " " + r[i] + "\n");
            }
        });
    }

    /** Vertices per block of the vertex file, formatted as one piece of text. */
    private static final int BLOCK = 2048;
    /** Blocks formatted at once (in parallel) before they are written: the text held in memory. */
    private static final int WINDOW = 64;

    /**
     * Voronota's vertex format: the sorted quadruple (ball indices from 0) and the tangent sphere x y z r, as
     * {@code String.format("%d %d %d %d %.15f %.15f %.15f %.15f%n", ...)} writes them (character for character, by
     * {@link #appendFixed}, several times faster). Blocks of {@link #BLOCK} vertices are formatted in parallel, up to
     * {@link #WINDOW} at a time, and written in order as ASCII bytes.
     */
    public static void writeVertices(Path file, int count, int[] quads, double[] spheres) {
        AtomicOutput.write(file, out -> writeVertices(out, count, quads, spheres));
    }

    /** {@link #writeVertices(Path, int, int[], double[])}'s bytes, to {@code out} (not closed). */
    public static void writeVertices(OutputStream out, int count, int[] quads, double[] spheres) throws IOException {
        String nl = System.lineSeparator();
        int blocks = (count + BLOCK - 1) / BLOCK;
        for (int w = 0; w < blocks; w += WINDOW) {
            byte[][] text = new byte[Math.min(WINDOW, blocks - w)][];
            int first = w;
            IntStream.range(0, text.length).parallel().forEach(k -> text[k] = vertexLines((first + k) * BLOCK,
                    Math.min(count, (first + k + 1) * BLOCK), quads, spheres, nl));
            for (byte[] t : text) {
                out.write(t);
            }
        }
    }

    /** The lines of vertices {@code from .. to-1} of the vertex file, as ASCII bytes. */
    private static byte[] vertexLines(int from, int to, int[] quads, double[] spheres, String nl) {
        StringBuilder line = new StringBuilder(128 * (to - from));
        for (int v = from; v < to; v++) {
            line.append(quads[4 * v]).append(' ').append(quads[4 * v + 1]).append(' ').append(quads[4 * v + 2])
                    .append(' ').append(quads[4 * v + 3]);
            for (int k = 0; k < 4; k++) {
                appendFixed(line.append(' '), spheres[4 * v + k], 15);
            }
            line.append(nl);
        }
        return line.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Appends {@code d} as {@code String.format(Locale.ROOT, "%.<prec>f", d)} does: since JDK 21 (JDK-8300869) the
     * Formatter rounds the shortest decimal of {@link Double#toString(double)} half up to {@code prec} fraction digits,
     * which is what this does, without the Formatter's parsing and objects (checked equal in VoronoiFilesTest).
     */
    static StringBuilder appendFixed(StringBuilder sb, double d, int prec) {
        if (!Double.isFinite(d)) {
            return sb.append(String.format(Locale.ROOT, "%." + prec + "f", d));
        }
        String s = Double.toString(d); // [-]D.DDD or [-]D.DDDE[-]X
        int len = s.length();
        char[] dig = new char[len];
        int nd = 0;
        int point = -1;
        int exp = 0;
        int i = 0;
        if (s.charAt(0) == '-') {
            sb.append('-');
            i = 1;
        }
        for (; i < len; i++) {
            char c = s.charAt(i);
            if (c == '.') {
                point = nd;
            } else if (c == 'E') {
                exp = Integer.parseInt(s, i + 1, len, 10);
                break;
            } else {
                dig[nd++] = c;
            }
        }
        int intLen = point + exp; // digits of dig before the decimal point (<= 0: the value is below 0.1)
        int intOut = Math.max(intLen, 1); // digits of the integer part written (at least "0")
        int lead = intOut - intLen; // zeros before dig[0]
        int total = intOut + prec;
        char[] res = new char[total];
        for (int r = 0; r < total; r++) {
            int k = r - lead;
            res[r] = k >= 0 && k < nd ? dig[k] : '0';
        }
        int keep = intLen + prec; // dig[keep] is the first digit dropped
        boolean carry = keep >= 0 && keep < nd && dig[keep] >= '5';
        for (int r = total - 1; carry && r >= 0; r--) {
            if (res[r] == '9') {
                res[r] = '0';
            } else {
                res[r]++;
                carry = false;
            }
        }
        if (carry) {
            sb.append('1');
        }
        sb.append(res, 0, intOut);
        return prec == 0 ? sb : sb.append('.').append(res, intOut, prec);
    }

    /** The quasi-triangulation as CSV: t,q1,q2,q3,q4,n1,n2,n3,n4 (n_i: the neighbour across the face opposite q_i). */
    public static void writeTetrahedra(Path file, int count, int[] quads, int[] neighbours) {
        int[] q = quads;
        int[] n = neighbours;
        text(file, w -> {
            w.write("t,q1,q2,q3,q4,n1,n2,n3,n4\n");
            for (int v = 0; v < count; v++) {
                w.write(String.format(Locale.ROOT, "%d,%d,%d,%d,%d,%d,%d,%d,%d%n", v, q[4 * v], q[4 * v + 1], q[4 * v + 2],
                        q[4 * v + 3], n[4 * v], n[4 * v + 1], n[4 * v + 2], n[4 * v + 3]));
            }
        });
    }

    /**
     * Edges as CSV (g1,g2,g3,from,to; to = -1: infinity; from = to = -1: a closed elliptic edge without vertex) or,
     * for a {@code .json} file, JSON (to null: infinity; "closed": true, from and to null: a closed edge). Vertex
     * numbers are lines of the vertex file (from 0); the closed edges come last.
     */
    public static void writeEdges(Path file, int vertexCount, int edgeCount, int[] triples, int[] ends, int closedCount,
            int[] closedTriples) {
        boolean json = file.toString().endsWith(".json");
        int[] t = triples;
        int[] e = ends;
        int[] c = closedTriples;
        int all = edgeCount + closedCount;
        text(file, w -> {
            w.write(json ? "{\"vertices\": " + vertexCount + ", \"edges\": [\n" : "g1,g2,g3,from,to\n");
            for (int k = 0; k < edgeCount; k++) {
                if (json) {
                    w.write(String.format(Locale.ROOT, "  {\"triple\": [%d, %d, %d], \"from\": %d, \"to\": %s}%s%n", t[3 * k],
                            t[3 * k + 1], t[3 * k + 2], e[2 * k], e[2 * k + 1] < 0 ? "null" : Integer.toString(e[2 * k + 1]),
                            k + 1 < all ? "," : ""));
                } else {
                    w.write(String.format(Locale.ROOT, "%d,%d,%d,%d,%d%n", t[3 * k], t[3 * k + 1], t[3 * k + 2], e[2 * k],
                            e[2 * k + 1]));
                }
            }
            for (int k = 0; k < closedCount; k++) {
                if (json) {
                    w.write(String.format(Locale.ROOT, "  {\"triple\": [%d, %d, %d], \"from\": null, \"to\": null, \"closed\": true}%s%n",
                            c[3 * k], c[3 * k + 1], c[3 * k + 2], edgeCount + k + 1 < all ? "," : ""));
                } else {
                    w.write(String.format(Locale.ROOT, "%d,%d,%d,-1,-1%n", c[3 * k], c[3 * k + 1], c[3 * k + 2]));
                }
            }
            if (json) {
                w.write("]}\n");
            }
        });
    }
}
