package org.accelgeom.io;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Whitespace-separated points, one per line ({@code .xyz .txt .pts}, Qhull's rbox/qhull input).
 *
 * <p>Each line holds one point; the number of columns of the first point is the dimension and every later
 * point must have the same (a different count is an error naming the line). Blank lines and lines starting
 * with {@code #} are skipped. Two optional headers are recognised, and the count they declare is checked:
 * <ul>
 *   <li>Qhull/rbox: line 1 is the dimension d, optionally followed by a comment, line 2 is the number of
 *   points n (a single integer). Recognised when d &ge; 2 or a comment follows d (so that a one-column file
 *   of integers is read as data).</li>
 *   <li>A count line (as Leica PTS writes): line 1 is a single integer and line 2 has at least two
 *   numbers.</li>
 * </ul>
 * The header is read on one thread; the points after it in parallel blocks ({@link TextBlocks}).
 * Coordinates must be finite: NaN, infinity and decimals beyond the range of a double are errors.
 */
final class TextPointReader {
    private TextPointReader() {
    }

    static PointCloud read(Input in) throws IOException {
        return read(in, true);
    }

    /** {@link #read(Input)}, with the lines' fast path ({@link XyzLines#fastLines}) on or off (tests compare them). */
    static PointCloud read(Input in, boolean fast) throws IOException {
        if (!in.nextContentLine('#')) {
            throw in.error("expected points, found an empty file");
        }
        long declared = -1;
        long declaredLine = 0;
        int dimension = -1;
        PointColumns head = null; // one-column points read with the header
        long headLine = 0;
        int firstTokens = in.tokensLeft();
        in.nextToken();
        Integer first = intOrNull(in);
        boolean comment = false;
        if (first != null && firstTokens > 1) {
            in.nextToken();
            comment = !in.tokenIsNumber();
        }
        boolean pending = true; // the current line holds a point still to be read
        if (first != null && (firstTokens == 1 || comment)) {
            long firstLine = in.line;
            boolean more = in.nextContentLine('#');
            int secondTokens = more ? in.tokensLeft() : 0;
            Integer second = null;
            if (more && secondTokens == 1) {
                in.nextToken();
                second = intOrNull(in);
                in.restartTokens();
            }
            if (second != null && (first >= 2 || comment)) {
                if (first < 1) {
                    throw FormatException.at(in.name, firstLine, "expected a dimension of at least 1, found " + first);
                }
                dimension = first; // rbox: the dimension, then the count
                declared = second;
                declaredLine = in.line;
                if (declared < 0) {
                    throw in.error("expected a number of points, found " + declared);
                }
                pending = in.nextContentLine('#');
                if (!comment && pending && in.tokensLeft() == 1) {
                    // not rbox after all: a one-column file whose first values are integers
                    head = new PointColumns(1, 16);
                    head.add(new double[] {first});
                    head.add(new double[] {second});
                    headLine = firstLine;
                    dimension = -1;
                    declared = -1;
                }
            } else if (firstTokens == 1 && secondTokens >= 2) {
                declared = first; // a count line, then the points
                declaredLine = firstLine;
            } else if (comment) {
                throw in.error("expected the number of points (rbox format: line 1 the dimension, line 2 the count)"
                        + (more ? ", found '" + in.lineText().strip() + "'" : ", found the end of the file"));
            } else {
                head = new PointColumns(1, 16); // the first line was a one-column point
                head.add(new double[] {first});
                headLine = firstLine;
                pending = more;
            }
        }
        long bodyOffset = pending ? in.lineStart() : in.offset();
        long bodyLine = pending ? in.line : in.line + 1;
        List<TextBlocks.Block<XyzLines>> blocks = TextBlocks.parse(in, bodyOffset, bodyLine, () -> new XyzLines(fast));
        List<PointColumns> parts = new ArrayList<>();
        int dim = head != null ? 1 : -1;
        long dimLine = headLine;
        parts.add(head);
        for (TextBlocks.Block<XyzLines> b : blocks) {
            XyzLines p = b.lines;
            if (p.cols != null) {
                int d = p.cols.dimension();
                if (dim < 0 && dimension > 0 && d != dimension) {
                    throw TextBlocks.error(in.name, b, p.firstLine,
                            "expected " + dimension + " coordinates (the dimension in the header), found " + d);
                }
                if (dim < 0) {
                    dim = d;
                    dimLine = b.fileLine(p.firstLine);
                } else if (d != dim) {
                    throw TextBlocks.error(in.name, b, p.firstLine, mismatch(dim, dimLine, d));
                }
            }
            if (b.error != null) {
                String m = p.found >= 0 ? mismatch(dim, dimLine, p.found) : b.error.getMessage();
                throw TextBlocks.error(in.name, b, b.error.line, m);
            }
            parts.add(p.cols);
        }
        PointCloud cloud = PointColumns.join(dim < 0 ? Math.max(1, dimension) : dim, parts);
        if (declared >= 0 && declared != cloud.size()) {
            throw FormatException.at(in.name, declaredLine,
                    "the header says " + declared + " points, found " + cloud.size());
        }
        return cloud;
    }

    private static String mismatch(int dim, long line, int found) {
        return "expected " + dim + " coordinates like line " + line + ", found " + found;
    }

    private static Integer intOrNull(Input in) {
        try {
            return in.tokenInt("");
        } catch (FormatException e) {
            return null;
        }
    }

    /** The points of one block; the dimension is that of its first point. */
    static final class XyzLines extends TextBlocks.Lines {
        private final boolean fast;
        PointColumns cols;
        long firstLine;
        /** The column count of the line that did not match, or -1. */
        int found = -1;
        private double[] row = new double[8];
        private int blockBytes;

        XyzLines() {
            this(true);
        }

        XyzLines(boolean fast) {
            this.fast = fast;
        }

        @Override
        void block(int bytes) {
            blockBytes = bytes;
        }

        @Override
        void line(byte[] b, int ls, int le, long line) {
            int i = TextBlocks.skipBlanks(b, ls, le);
            if (i == le || b[i] == '#') {
                return;
            }
            int d = 0;
            while (i < le) {
                int te = TextBlocks.tokenEnd(b, i, le);
                if (d == row.length) {
                    row = java.util.Arrays.copyOf(row, 2 * d);
                }
                row[d++] = coordinate(b, i, te, line, "a coordinate");
                i = TextBlocks.skipBlanks(b, te, le);
            }
            if (cols == null) {
                cols = new PointColumns(d, capacity(blockBytes, le - ls + 1, d));
                firstLine = line;
            } else if (d != cols.dimension()) {
                found = d;
                throw new TextBlocks.LineError(line, "");
            }
            cols.add(row);
        }

        /**
         * Lines of as many coordinates as the block's first point, blanks between them, ending in {@code \n} or
         * {@code \r\n}, or blank: tokens are the runs of bytes above the space, so a line with any other byte (a
         * control byte, a non-ASCII one, a lone {@code \r}), a comment, a number that does not parse or another
         * count goes to {@link #line}, which then gives the error (or the comment) as it always did.
         */
        @Override
        int fastLines(byte[] b, int from, int end) {
            fastCount = 0;
            if (cols == null || !fast) {
                return from;
            }
            int dim = cols.dimension();
            long count = 0;
            int ls = from;
            int i = from;
            int d = 0;
            while (true) {
                byte c = 0;
                while (i < end && ((c = b[i]) == ' ' || c == '\t' || c == 0x0b || c == '\f')) {
                    i++;
                }
                if (i < end && c > ' ' && c != '#' && d < dim) {
                    int s = i;
                    while (i < end && b[i] > ' ') {
                        i++;
                    }
                    double v;
                    try {
                        v = Numbers.parseDouble(b, s, i);
                    } catch (NumberFormatException e) {
                        break;
                    }
                    if (!Double.isFinite(v)) {
                        break;
                    }
                    row[d++] = v;
                    continue;
                }
                int next; // the start of the next line, when this one ends here
                if (i < end && c == '\n') {
                    next = i + 1;
                } else if (i + 1 < end && c == '\r' && b[i + 1] == '\n') {
                    next = i + 2;
                } else {
                    break; // the block's last line without a line end, or a byte the fast path leaves alone
                }
                if (d == dim) {
                    cols.add(row);
                } else if (d != 0) {
                    break;
                }
                count++;
                ls = next;
                i = next;
                d = 0;
                if (i == end) {
                    break;
                }
            }
            fastCount = count;
            return ls;
        }
    }

    /**
     * Points to make room for in a block of {@code bytes} whose first point's line has {@code lineBytes}: as many
     * lines as long, one eighth more (the lines of a file differ a little: signs, exponents), and never more than
     * lines of one-digit coordinates could hold, so that arrays seldom grow (each growth copies them).
     */
    static int capacity(int bytes, int lineBytes, int dimension) {
        long lines = bytes / Math.max(1, lineBytes);
        return (int) Math.min(lines + (lines >> 3) + 16, bytes / (2L * dimension) + 16);
    }

    /** A finite double from {@code b[s..e)}, or a {@link TextBlocks.LineError} naming {@code what}. */
    static double coordinate(byte[] b, int s, int e, long line, String what) {
        double v;
        try {
            v = Numbers.parseDouble(b, s, e);
        } catch (NumberFormatException ex) {
            throw new TextBlocks.LineError(line, "expected " + what + ", found '" + TextBlocks.shown(b, s, e) + "'");
        }
        if (!Double.isFinite(v)) {
            throw new TextBlocks.LineError(line, "expected " + what + ", found '" + TextBlocks.shown(b, s, e)
                    + "' (beyond the range of a double)");
        }
        return v;
    }
}
