package org.accelgeom.io;

import java.io.IOException;
import java.io.OutputStream;

/** The text writers: whitespace points, CSV points, OBJ and OFF meshes (doubles as Double.toString). */
final class TextWriters {
    private TextWriters() {
    }

    /** One point per line, coordinates separated by a space. */
    static void writeXyz(OutputStream out, PointCloud p) throws IOException {
        writeRows(new TextOutput(out), p, ' ');
    }

    /** A header {@code x,y,z} (or {@code x1,...,xd} beyond 3 dimensions), then one point per line. */
    static void writeCsv(OutputStream out, PointCloud p) throws IOException {
        TextOutput t = new TextOutput(out);
        for (int k = 0; k < p.dimension(); k++) {
            t.text(k > 0 ? "," : "").text(p.dimension() <= 3 ? String.valueOf("xyz".charAt(k)) : "x" + (k + 1));
        }
        t.nl();
        writeRows(t, p, ',');
    }

    private static void writeRows(TextOutput t, PointCloud p, char sep) throws IOException {
        double[][] c = p.coords();
        for (int i = 0; i < p.size(); i++) {
            for (int k = 0; k < c.length; k++) {
                if (k > 0) {
                    t.ch(sep);
                }
                t.num(c[k][i]);
            }
            t.nl();
        }
        t.flush();
    }

    /** {@code v x y z} lines, then {@code f} lines with 1-based indices. */
    static void writeObj(OutputStream out, Mesh m) throws IOException {
        TextOutput t = new TextOutput(out);
        t.text("# written by accelgeom: ").num(m.vertexCount()).text(" vertices, ").num(m.faceCount()).text(" faces\n");
        for (int i = 0; i < m.vertexCount(); i++) {
            t.text("v ").num(m.x()[i]).ch(' ').num(m.y()[i]).ch(' ').num(m.z()[i]).nl();
        }
        for (int f = 0; f < m.faceCount(); f++) {
            t.ch('f');
            for (int k = m.faceStart()[f]; k < m.faceStart()[f + 1]; k++) {
                t.ch(' ').num(m.faceIndex()[k] + 1L);
            }
            t.nl();
        }
        t.flush();
    }

    /** {@code OFF}, the counts (edges 0), vertex lines and face lines. */
    static void writeOff(OutputStream out, Mesh m) throws IOException {
        TextOutput t = new TextOutput(out);
        t.text("OFF\n").num(m.vertexCount()).ch(' ').num(m.faceCount()).text(" 0\n");
        for (int i = 0; i < m.vertexCount(); i++) {
            t.num(m.x()[i]).ch(' ').num(m.y()[i]).ch(' ').num(m.z()[i]).nl();
        }
        for (int f = 0; f < m.faceCount(); f++) {
            t.num(m.faceSize(f));
            for (int k = m.faceStart()[f]; k < m.faceStart()[f + 1]; k++) {
                t.ch(' ').num(m.faceIndex()[k]);
            }
            t.nl();
        }
        t.flush();
    }
}
