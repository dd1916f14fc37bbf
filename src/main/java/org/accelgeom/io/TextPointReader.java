package org.accelgeom.io;

import java.io.IOException;

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
 */
final class TextPointReader {
    private TextPointReader() {
    }

    static PointCloud read(Input in) throws IOException {
        if (!in.nextContentLine('#')) {
            throw in.error("expected points, found an empty file");
        }
        long declared = -1;
        long declaredLine = 0;
        int dimension = -1;
        Points pts = new Points(in);
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
                    pts.addOneColumn(first, firstLine);
                    pts.addOneColumn(second, declaredLine);
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
                pts.addOneColumn(first, firstLine); // the first line was a one-column point
                pending = more;
            }
        } else {
            in.restartTokens();
        }
        while (pending || in.nextContentLine('#')) {
            pending = false;
            pts.addLine(dimension);
        }
        if (declared >= 0 && declared != pts.size()) {
            throw FormatException.at(in.name, declaredLine,
                    "the header says " + declared + " points, found " + pts.size());
        }
        return pts.toCloud(dimension);
    }

    private static Integer intOrNull(Input in) {
        try {
            return in.tokenInt("");
        } catch (FormatException e) {
            return null;
        }
    }

    /** The points read so far, with the line of the first to name in dimension errors. */
    private static final class Points {
        private final Input in;
        private PointColumns cols;
        private long firstLine;
        private double[] row = new double[8];

        Points(Input in) {
            this.in = in;
        }

        void addOneColumn(double v, long line) {
            if (cols == null) {
                cols = new PointColumns(1, 1 << 12);
                firstLine = line;
            }
            cols.add(0, v);
        }

        void addLine(int dimension) {
            int d = 0;
            while (in.nextToken()) {
                if (d == row.length) {
                    row = java.util.Arrays.copyOf(row, 2 * d);
                }
                row[d++] = in.tokenDouble("a coordinate");
            }
            if (cols == null) {
                if (dimension > 0 && d != dimension) {
                    throw in.error("expected " + dimension + " coordinates (the dimension in the header), found " + d);
                }
                cols = new PointColumns(d, 1 << 12);
                firstLine = in.line;
            } else if (d != cols.dimension()) {
                throw in.error("expected " + cols.dimension() + " coordinates like line " + firstLine
                        + ", found " + d);
            }
            for (int k = 0; k < d; k++) {
                cols.add(k, row[k]);
            }
        }

        int size() {
            return cols == null ? 0 : cols.size();
        }

        PointCloud toCloud(int dimension) {
            return cols == null ? new PointCloud(new double[Math.max(1, dimension)][0]) : cols.toCloud();
        }
    }
}
