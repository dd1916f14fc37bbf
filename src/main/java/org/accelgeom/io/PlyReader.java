package org.accelgeom.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import org.accelgeom.engine.IntList;

/**
 * PLY (Turk 1994), in {@code ascii}, {@code binary_little_endian} and {@code binary_big_endian}.
 *
 * <p>Reads the {@code vertex} element's {@code x y} and optional {@code z} properties (any numeric type) and,
 * for meshes, the {@code face} element's {@code vertex_indices} (or {@code vertex_index}) list, whatever its
 * count and index types. Every other property and element, list properties included, is skipped. Errors
 * name the line (ASCII) or the byte offset (binary): a truncated body, a missing property, a face index
 * outside [0, vertex count).
 */
final class PlyReader {
    private PlyReader() {
    }

    enum Type {
        INT8(1), UINT8(1), INT16(2), UINT16(2), INT32(4), UINT32(4), FLOAT32(4), FLOAT64(8);

        final int size;

        Type(int size) {
            this.size = size;
        }

        static Type of(String s) {
            return switch (s) {
                case "char", "int8" -> INT8;
                case "uchar", "uint8" -> UINT8;
                case "short", "int16" -> INT16;
                case "ushort", "uint16" -> UINT16;
                case "int", "int32" -> INT32;
                case "uint", "uint32" -> UINT32;
                case "float", "float32" -> FLOAT32;
                case "double", "float64" -> FLOAT64;
                default -> null;
            };
        }

        double get(ByteBuffer b, int at) {
            return switch (this) {
                case INT8 -> b.get(at);
                case UINT8 -> b.get(at) & 0xff;
                case INT16 -> b.getShort(at);
                case UINT16 -> b.getShort(at) & 0xffff;
                case INT32 -> b.getInt(at);
                case UINT32 -> b.getInt(at) & 0xffffffffL;
                case FLOAT32 -> b.getFloat(at);
                case FLOAT64 -> b.getDouble(at);
            };
        }

        /** The value as a long: every integer type here has at most 32 bits, so {@link #get} holds it exactly. */
        long getLong(ByteBuffer b, int at) {
            return (long) get(b, at);
        }
    }

    /** A property; {@code countType} is null unless it is a list. */
    record Property(String name, Type type, Type countType) {
    }

    record Element(String name, long count, List<Property> properties, long line) {
        int indexOf(String... names) {
            for (String n : names) {
                for (int k = 0; k < properties.size(); k++) {
                    if (properties.get(k).name.equals(n)) {
                        return k;
                    }
                }
            }
            return -1;
        }
    }

    /** The header: {@code order} is null for ASCII. */
    record Header(ByteOrder order, List<Element> elements) {
        Element element(String name) {
            for (Element e : elements) {
                if (e.name.equals(name)) {
                    return e;
                }
            }
            return null;
        }
    }

    static Header header(Input in) throws IOException {
        if (!in.nextLine() || !in.nextToken() || !in.tokenIs("ply")) {
            throw in.error("expected 'ply' on the first line of a PLY file");
        }
        ByteOrder order = null;
        boolean format = false;
        List<Element> elements = new ArrayList<>();
        List<Property> props = null;
        while (true) {
            if (!in.nextLine()) {
                throw in.error("expected 'end_header', found the end of the file");
            }
            if (!in.nextToken()) {
                continue;
            }
            String key = in.token();
            switch (key) {
                case "format" -> {
                    String f = in.nextToken() ? in.token() : "";
                    switch (f) {
                        case "ascii" -> order = null;
                        case "binary_little_endian" -> order = ByteOrder.LITTLE_ENDIAN;
                        case "binary_big_endian" -> order = ByteOrder.BIG_ENDIAN;
                        default -> throw in.error(
                                "expected format ascii, binary_little_endian or binary_big_endian, found '" + f + "'");
                    }
                    format = true;
                }
                case "element" -> {
                    if (!in.nextToken()) {
                        throw in.error("expected an element name");
                    }
                    String name = in.token();
                    long count;
                    if (!in.nextToken()) {
                        throw in.error("expected the count of element '" + name + "'");
                    }
                    try {
                        count = Long.parseLong(in.token());
                    } catch (NumberFormatException e) {
                        throw in.error("expected the count of element '" + name + "', found '" + in.token() + "'");
                    }
                    if (count < 0 || count > Integer.MAX_VALUE - 16) {
                        throw in.error("element '" + name + "' has an unsupported count " + count);
                    }
                    props = new ArrayList<>();
                    elements.add(new Element(name, count, props, in.line));
                }
                case "property" -> {
                    if (props == null) {
                        throw in.error("expected 'element' before 'property'");
                    }
                    String t = in.nextToken() ? in.token() : "";
                    if (t.equals("list")) {
                        Type ct = type(in, in.nextToken() ? in.token() : "");
                        Type it = type(in, in.nextToken() ? in.token() : "");
                        if (ct == Type.FLOAT32 || ct == Type.FLOAT64) {
                            throw in.error("expected an integer list count type, found '" + in.token() + "'");
                        }
                        props.add(new Property(name(in), it, ct));
                    } else {
                        props.add(new Property(name(in), type(in, t), null));
                    }
                }
                case "end_header" -> {
                    if (!format) {
                        throw in.error("expected a 'format' line before 'end_header'");
                    }
                    return new Header(order, elements);
                }
                case "comment", "obj_info" -> {
                }
                default -> throw in.error("expected a PLY header keyword, found '" + key + "'");
            }
        }
    }

    private static Type type(Input in, String t) {
        Type type = Type.of(t);
        if (type == null) {
            throw in.error("expected a PLY property type (char uchar short ushort int uint float double), found '" + t + "'");
        }
        return type;
    }

    private static String name(Input in) {
        if (!in.nextToken()) {
            throw in.error("expected a property name");
        }
        return in.token();
    }

    /** Vertices (dimension 2 when there is no z) and, when {@code wantFaces}, faces. */
    record Data(PointCloud vertices, int[] faceStart, int[] faceIndex) {
        Mesh mesh() {
            double[] z = vertices.dimension() > 2 ? vertices.z() : new double[vertices.size()];
            return new Mesh(vertices.x(), vertices.y(), z, faceStart, faceIndex);
        }
    }

    static PointCloud readPoints(Input in) throws IOException {
        return read(in, false).vertices;
    }

    static Mesh readMesh(Input in) throws IOException {
        return read(in, true).mesh();
    }

    static Data read(Input in, boolean wantFaces) throws IOException {
        Header h = header(in);
        Element ve = h.element("vertex");
        if (ve == null) {
            throw in.error("expected a 'vertex' element in the PLY header");
        }
        int[] coordProp = {ve.indexOf("x"), ve.indexOf("y"), ve.indexOf("z")};
        if (coordProp[0] < 0 || coordProp[1] < 0) {
            throw FormatException.at(in.name, ve.line, "expected properties x and y in element 'vertex'");
        }
        int dim = coordProp[2] < 0 ? 2 : 3;
        for (int k = 0; k < dim; k++) {
            if (ve.properties.get(coordProp[k]).countType != null) {
                throw FormatException.at(in.name, ve.line, "expected a scalar property '" + "xyz".charAt(k) + "', found a list");
            }
        }
        Element fe = wantFaces ? h.element("face") : null;
        int faceProp = -1;
        if (fe != null) {
            faceProp = fe.indexOf("vertex_indices", "vertex_index");
            if (faceProp < 0 || fe.properties.get(faceProp).countType == null) {
                throw FormatException.at(in.name, fe.line, "expected a list property 'vertex_indices' in element 'face'");
            }
        }
        int nv = (int) ve.count;
        long minBytes = 0; // what the elements take at least: the header's counts must fit in the file
        for (Element e : h.elements) {
            long record = 0;
            for (Property p : e.properties) {
                record += h.order == null ? 2 : p.countType == null ? p.type.size : p.countType.size;
            }
            minBytes += e.count * Math.max(1, record);
        }
        long left = in.remainingBytes();
        if (left >= 0 && minBytes > left + 1) {
            throw FormatException.at(in.name, ve.line, "the header's elements (" + describe(h) + ") need at least "
                    + minBytes + " bytes, but only " + left + " follow the header");
        }
        double[][] coords = new double[dim][in.capacityFor(nv, 1, "vertices", ve.line)];
        int faces = fe == null ? 0 : in.capacityFor(fe.count, 1, "faces", fe.line);
        IntList faceStart = new IntList(faces + 1);
        faceStart.add(0);
        IntList faceIndex = new IntList((int) Math.min(3L * faces, Integer.MAX_VALUE - 16));
        if (h.order != null) {
            in.order(h.order);
        }
        NumberLines.Cursor ascii = null;
        boolean vertexDone = false;
        boolean faceDone = fe == null;
        for (Element e : h.elements) {
            if (vertexDone && faceDone) {
                break; // what follows is not needed
            }
            int[] role = new int[e.properties.size()]; // 0 skip, 1..3 coordinate k+1, 4 face list
            if (e == ve) {
                for (int k = 0; k < dim; k++) {
                    role[coordProp[k]] = k + 1;
                }
            } else if (e == fe) {
                role[faceProp] = 4;
            }
            if (h.order == null) {
                if (ascii == null) { // the body in parallel blocks, walked in order
                    ascii = new NumberLines.Cursor(in.name, TextBlocks.parse(in, in.offset(), in.line + 1,
                            () -> new NumberLines((char) 0)), in.line + 1);
                }
                readAscii(ascii, e, role, coords, faceStart, faceIndex, nv);
            } else {
                readBinary(in, e, role, coords, faceStart, faceIndex, nv);
            }
            vertexDone |= e == ve;
            faceDone |= e == fe;
        }
        return new Data(new PointCloud(coords), faceStart.toArray(), faceIndex.toArray());
    }

    private static String describe(Header h) {
        StringBuilder sb = new StringBuilder();
        for (Element e : h.elements) {
            sb.append(sb.length() == 0 ? "" : ", ").append(e.count).append(' ').append(e.name);
        }
        return sb.toString();
    }

    /**
     * How one record's values are read, ASCII or binary: {@link #readRecords} walks the records and properties
     * once for both.
     */
    private interface Fields {
        /** The scalar property {@code prop} of record {@code r}. */
        double scalar(Property prop, int r) throws IOException;

        /** The list property {@code prop} of record {@code r}; with {@code indices}, its values go to the faces. */
        void list(Property prop, int r, boolean indices) throws IOException;
    }

    /** Every record of {@code e}: its coordinates into {@code coords}, its face lists into the face arrays. */
    private static void readRecords(Element e, int[] role, double[][] coords, IntList faceStart, IntList faceIndex,
            int nv, Fields in) throws IOException {
        boolean vertex = isVertex(role);
        boolean face = roleHasFace(role);
        for (int r = 0; r < e.count; r++) {
            if (vertex) {
                Input.grown(coords, r, nv);
            }
            for (int p = 0; p < role.length; p++) {
                Property prop = e.properties.get(p);
                if (prop.countType != null) {
                    in.list(prop, r, role[p] == 4);
                    continue;
                }
                double v = in.scalar(prop, r);
                if (role[p] > 0) {
                    coords[role[p] - 1][r] = v;
                }
            }
            if (face) {
                faceStart.add(faceIndex.size());
            }
        }
    }

    private static void readAscii(NumberLines.Cursor in, Element e, int[] role, double[][] coords, IntList faceStart,
            IntList faceIndex, int nv) throws IOException {
        String listLength = "a list length in " + e.name + " ";
        String listValues = "the list values of " + e.name + " ";
        readRecords(e, role, coords, faceStart, faceIndex, nv, new Fields() {
            @Override
            public double scalar(Property prop, int r) {
                return in.nextAnyLine(e.name + " ", r, " of " + e.count);
            }

            @Override
            public void list(Property prop, int r, boolean indices) {
                int n = in.nextIntAnyLine(listLength, r);
                if (n < 0) {
                    throw in.error("expected a list length in " + e.name + " " + r + ", found " + n);
                }
                for (int j = 0; j < n; j++) {
                    double d = in.nextAnyLine(listValues, r, "");
                    if (indices) {
                        long v = (long) d;
                        if (v < 0 || v >= nv) {
                            throw in.error("face " + r + " has vertex index " + v + ", expected 0.." + (nv - 1));
                        }
                        faceIndex.add((int) v);
                    }
                }
            }
        });
    }

    private static boolean isVertex(int[] role) {
        for (int r : role) {
            if (r >= 1 && r <= 3) {
                return true;
            }
        }
        return false;
    }

    private static boolean roleHasFace(int[] role) {
        for (int r : role) {
            if (r == 4) {
                return true;
            }
        }
        return false;
    }

    private static void readBinary(Input in, Element e, int[] role, double[][] coords, IntList faceStart,
            IntList faceIndex, int nv) throws IOException {
        List<Property> props = e.properties;
        boolean fixed = true;
        int recordSize = 0;
        int[] offset = new int[props.size()];
        for (int p = 0; p < props.size(); p++) {
            offset[p] = recordSize;
            fixed &= props.get(p).countType == null;
            recordSize += props.get(p).type.size;
        }
        boolean vertex = isVertex(role);
        if (fixed) {
            // many records per read, each coordinate decoded by its type: at the speed of the disk
            int batch = Math.max(1, (1 << 20) / Math.max(1, recordSize));
            int[] at = new int[3];
            Type[] type = new Type[3];
            int roles = 0;
            for (int p = 0; p < role.length; p++) {
                if (role[p] > 0) {
                    at[role[p] - 1] = offset[p];
                    type[role[p] - 1] = props.get(p).type;
                    roles++;
                }
            }
            int count = (int) e.count;
            for (int r = 0; r < count; r += batch) {
                int m = Math.min(batch, count - r);
                try {
                    in.need(m * recordSize, e.name + " " + r + " of " + e.count);
                } catch (FormatException ex) {
                    for (int j = 0; j < m; j++) { // name the first record that is cut short
                        in.need(recordSize, e.name + " " + (r + j) + " of " + e.count);
                        in.skip(recordSize);
                    }
                    throw ex;
                }
                if (vertex) {
                    Input.grown(coords, r + m - 1, nv);
                }
                ByteBuffer b = in.bytes();
                int base = in.pos();
                for (int k = 0; k < roles; k++) {
                    double[] c = coords[k];
                    Type t = type[k];
                    int o = base + at[k];
                    if (t == Type.FLOAT32) {
                        for (int j = 0; j < m; j++, o += recordSize) {
                            c[r + j] = b.getFloat(o);
                        }
                    } else if (t == Type.FLOAT64) {
                        for (int j = 0; j < m; j++, o += recordSize) {
                            c[r + j] = b.getDouble(o);
                        }
                    } else {
                        for (int j = 0; j < m; j++, o += recordSize) {
                            c[r + j] = t.get(b, o);
                        }
                    }
                }
                in.skip(m * recordSize);
            }
            return;
        }
        readRecords(e, role, coords, faceStart, faceIndex, nv, new Fields() {
            @Override
            public double scalar(Property prop, int r) throws IOException {
                in.need(prop.type.size, e.name + " " + r + " of " + e.count);
                double v = prop.type.get(in.bytes(), in.pos());
                in.skip(prop.type.size);
                return v;
            }

            @Override
            public void list(Property prop, int r, boolean indices) throws IOException {
                in.need(prop.countType.size, "the list length of " + e.name + " " + r + " of " + e.count);
                long n = prop.countType.getLong(in.bytes(), in.pos());
                if (n < 0 || n > Integer.MAX_VALUE / 8) {
                    throw in.errorAtByte("expected a list length in " + e.name + " " + r + ", found " + n);
                }
                in.skip(prop.countType.size);
                int bytes = (int) n * prop.type.size;
                in.need(bytes, n + " list values of " + e.name + " " + r);
                if (indices) {
                    ByteBuffer b = in.bytes();
                    for (int j = 0; j < n; j++) {
                        long v = prop.type.getLong(b, in.pos() + j * prop.type.size);
                        if (v < 0 || v >= nv) {
                            throw in.errorAtByte("face " + r + " has vertex index " + v + ", expected 0.." + (nv - 1));
                        }
                        faceIndex.add((int) v);
                    }
                }
                in.skip(bytes);
            }
        });
    }
}
