package org.accelgeom.io;

import java.io.IOException;

import org.accelgeom.engine.DoubleList;
import org.accelgeom.engine.IntList;

/** The one-thread OBJ reader (that of 304ba30 plus the empty-file check), kept to compare the parallel one against. */
final class OldObjReader {
    private OldObjReader() {
    }

    static Mesh read(Input in) throws IOException {
        DoubleList x = new DoubleList(1 << 12);
        DoubleList y = new DoubleList(1 << 12);
        DoubleList z = new DoubleList(1 << 12);
        IntList faceStart = new IntList(1 << 12);
        IntList faceIndex = new IntList(1 << 14);
        faceStart.add(0);
        int maxIndex = -1;
        long maxIndexLine = 0;
        byte[] b = in.bytes().array();
        while (in.nextLine()) {
            if (!in.nextToken()) {
                continue;
            }
            if (in.tokenIs("v")) {
                x.add(in.nextDouble("the x coordinate of a vertex"));
                y.add(in.nextDouble("the y coordinate of a vertex"));
                z.add(in.nextDouble("the z coordinate of a vertex"));
            } else if (in.tokenIs("f")) {
                int n = 0;
                int nv = x.size();
                b = in.bytes().array();
                while (in.nextToken()) {
                    int e = in.ts;
                    while (e < in.te && b[e] != '/') {
                        e++;
                    }
                    int v;
                    try {
                        v = Numbers.parseInt(b, in.ts, e);
                    } catch (NumberFormatException ex) {
                        throw in.error("expected a vertex index (v, v/vt, v//vn or v/vt/vn), found '" + in.token() + "'");
                    }
                    if (v == 0) {
                        throw in.error("expected a vertex index, found 0 (OBJ counts from 1)");
                    }
                    int index = v > 0 ? v - 1 : nv + v;
                    if (index < 0) {
                        throw in.error("relative vertex index " + v + " points before the first vertex (" + nv
                                + " read so far)");
                    }
                    if (index > maxIndex) {
                        maxIndex = index;
                        maxIndexLine = in.line;
                    }
                    faceIndex.add(index);
                    n++;
                }
                if (n < 3) {
                    throw in.error("expected at least 3 vertices in a face, found " + n);
                }
                faceStart.add(faceIndex.size());
            }
        }
        if (x.size() == 0 && faceIndex.size() == 0) {
            throw in.error("expected OBJ vertices ('v x y z') or faces ('f ...'), found none");
        }
        if (maxIndex >= x.size()) {
            throw FormatException.at(in.name, maxIndexLine,
                    "face vertex index " + (maxIndex + 1) + " is out of range: the file has " + x.size() + " vertices");
        }
        return new Mesh(x.toArray(), y.toArray(), z.toArray(), faceStart.toArray(), faceIndex.toArray());
    }
}
