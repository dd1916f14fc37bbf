package org.accelgeom.io;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Points in CSV: one point per line, fields separated by commas or semicolons (the first data line decides:
 * a semicolon makes ';' the separator and then a decimal comma is accepted, else ','; a tab is accepted
 * when neither occurs). An optional header is a first line whose fields are not all numbers; its names
 * are kept ({@link Table#names()}). Fields may be quoted with {@code "}. Blank lines and lines starting
 * with {@code #} are skipped; every line must have the header's (or the first line's) field count.
 */
final class CsvPointReader {
    private CsvPointReader() {
    }

    /** The points and the column names (generated as c0, c1, ... when there is no header). */
    record Table(String[] names, PointCloud points) {
    }

    static Table read(Input in) throws IOException {
        if (!in.nextContentLine('#')) {
            throw in.error("expected CSV points, found an empty file");
        }
        char sep = separator(in);
        List<String> fields = split(in, sep);
        boolean header = false;
        for (String f : fields) {
            if (!isNumber(f, sep)) {
                header = true;
            }
        }
        int d = fields.size();
        String[] names = new String[d];
        for (int k = 0; k < d; k++) {
            names[k] = header ? fields.get(k) : "c" + k;
        }
        long firstLine = in.line;
        long bodyOffset = header ? in.offset() : in.lineStart();
        long bodyLine = header ? in.line + 1 : in.line;
        List<TextBlocks.Block<CsvLines>> blocks = TextBlocks.parse(in, bodyOffset, bodyLine,
                () -> new CsvLines(d, sep, names, firstLine));
        TextBlocks.throwFirst(in.name, blocks);
        List<PointColumns> parts = new ArrayList<>();
        for (TextBlocks.Block<CsvLines> b : blocks) {
            parts.add(b.lines.cols);
        }
        return new Table(names, PointColumns.join(d, parts));
    }

    /** The points of one block of CSV lines. */
    private static final class CsvLines extends TextBlocks.Lines {
        final PointColumns cols;
        private final int d;
        private final char sep;
        private final String[] what;
        private final long firstLine;
        private final double[] row;
        private byte[] scratch = new byte[64];

        CsvLines(int d, char sep, String[] names, long firstLine) {
            this.d = d;
            this.sep = sep;
            this.what = new String[d];
            for (int k = 0; k < d; k++) {
                what[k] = "a number in column " + (k + 1) + " (" + names[k] + ")";
            }
            this.firstLine = firstLine;
            this.cols = new PointColumns(d, 64);
            this.row = new double[d];
        }

        @Override
        void line(byte[] b, int ls, int le, long line) {
            int i0 = TextBlocks.skipBlanks(b, ls, le);
            if (i0 == le || b[i0] == '#') {
                return;
            }
            int s = ls;
            int k = 0;
            for (int i = ls; i <= le; i++) {
                if (i == le || b[i] == sep) {
                    if (k == d) {
                        throw new TextBlocks.LineError(line, "expected " + d + " fields like line " + firstLine + ", found more");
                    }
                    int fs = s;
                    int fe = i;
                    while (fs < fe && (b[fs] == ' ' || b[fs] == '\t')) {
                        fs++;
                    }
                    while (fe > fs && (b[fe - 1] == ' ' || b[fe - 1] == '\t')) {
                        fe--;
                    }
                    if (fe - fs >= 2 && b[fs] == '"' && b[fe - 1] == '"') {
                        fs++;
                        fe--;
                    }
                    if (sep == ';') {
                        if (fe - fs > scratch.length) {
                            scratch = new byte[fe - fs];
                        }
                        for (int j = fs; j < fe; j++) {
                            scratch[j - fs] = b[j] == ',' ? (byte) '.' : b[j];
                        }
                        row[k] = number(scratch, 0, fe - fs, k, line);
                    } else {
                        row[k] = number(b, fs, fe, k, line);
                    }
                    k++;
                    s = i + 1;
                }
            }
            if (k != d) {
                throw new TextBlocks.LineError(line, "expected " + d + " fields like line " + firstLine + ", found " + k);
            }
            cols.add(row);
        }

        private double number(byte[] b, int s, int e, int k, long line) {
            return TextPointReader.coordinate(b, s, e, line, what[k]);
        }
    }

    private static byte[] lineBytes(Input in) {
        return in.bytes().array();
    }

    private static char separator(Input in) {
        byte[] b = lineBytes(in);
        boolean comma = false;
        boolean tab = false;
        for (int i = in.ls; i < in.le; i++) {
            if (b[i] == ';') {
                return ';';
            }
            comma |= b[i] == ',';
            tab |= b[i] == '\t';
        }
        return comma ? ',' : tab ? '\t' : ',';
    }

    private static List<String> split(Input in, char sep) {
        List<String> out = new ArrayList<>();
        String line = in.lineText();
        int s = 0;
        for (int i = 0; i <= line.length(); i++) {
            if (i == line.length() || line.charAt(i) == sep) {
                String f = line.substring(s, i).strip();
                if (f.length() >= 2 && f.startsWith("\"") && f.endsWith("\"")) {
                    f = f.substring(1, f.length() - 1);
                }
                out.add(f);
                s = i + 1;
            }
        }
        return out;
    }

    private static boolean isNumber(String f, char sep) {
        try {
            Numbers.parseDouble(f.replace(sep == ';' ? ',' : sep, '.').getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
                    0, f.length());
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
