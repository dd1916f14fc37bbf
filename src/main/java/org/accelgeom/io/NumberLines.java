package org.accelgeom.io;

import java.util.Arrays;
import java.util.List;

/**
 * The numbers of one block of text lines, for formats whose lines are read by position after a header
 * (OFF's vertex and face lines, ASCII PLY's element records): every token of every content line as a
 * finite double, how many each line has and its line number. Blank lines are skipped; with a comment
 * character, a line ends at its first occurrence. {@link Cursor} then walks the blocks in file order.
 */
final class NumberLines extends TextBlocks.Lines {
    private final byte comment;
    double[] values = new double[256];
    int nValues;
    /** Per content line: the index of its first value, and its local line number. */
    int[] lineStart = new int[64];
    long[] lineNumber = new long[64];
    int nLines;

    NumberLines(char comment) {
        this.comment = (byte) comment;
    }

    @Override
    void line(byte[] b, int ls, int le, long line) {
        if (comment != 0) {
            for (int k = ls; k < le; k++) {
                if (b[k] == comment) {
                    le = k;
                    break;
                }
            }
        }
        int i = TextBlocks.skipBlanks(b, ls, le);
        if (i == le) {
            return;
        }
        if (nLines == lineStart.length) {
            lineStart = Arrays.copyOf(lineStart, 2 * nLines);
            lineNumber = Arrays.copyOf(lineNumber, 2 * nLines);
        }
        lineStart[nLines] = nValues;
        lineNumber[nLines] = line;
        nLines++;
        while (i < le) {
            int te = TextBlocks.tokenEnd(b, i, le);
            if (nValues == values.length) {
                if (nValues >= Integer.MAX_VALUE - 16) {
                    throw new TextBlocks.LineError(line, "more than " + nValues + " values in one block");
                }
                values = Arrays.copyOf(values, (int) Math.min(Integer.MAX_VALUE - 16L, 2L * nValues));
            }
            values[nValues++] = TextPointReader.coordinate(b, i, te, line, "a number");
            i = TextBlocks.skipBlanks(b, te, le);
        }
    }

    /** The content lines of the blocks in file order; an error of a block is thrown when the walk reaches it. */
    static final class Cursor {
        private final String name;
        private final List<TextBlocks.Block<NumberLines>> blocks;
        private int block;
        private int line = -1;   // content line within the block
        private int token;       // next value of the current line
        private long lastLine;   // the file's line of the current line, for errors

        Cursor(String name, List<TextBlocks.Block<NumberLines>> blocks, long firstLine) {
            this.name = name;
            this.blocks = blocks;
            this.lastLine = firstLine;
        }

        /** Moves to the next content line; false at the end of the data. */
        boolean nextLine() {
            while (block < blocks.size()) {
                TextBlocks.Block<NumberLines> b = blocks.get(block);
                if (line + 1 < b.lines.nLines) {
                    line++;
                    token = 0;
                    lastLine = b.fileLine(b.lines.lineNumber[line]);
                    return true;
                }
                if (b.error != null) {
                    TextBlocks.throwFirst(name, List.of(b));
                }
                if (b.newlines > 0) {
                    lastLine = b.firstLine + b.newlines - 1;
                }
                block++;
                line = -1;
            }
            return false;
        }

        /** The number of values on the current line. */
        int count() {
            NumberLines p = blocks.get(block).lines;
            return (line + 1 < p.nLines ? p.lineStart[line + 1] : p.nValues) - p.lineStart[line];
        }

        /** Values left on the current line. */
        int left() {
            return count() - token;
        }

        /** The next value of the current line (check {@link #left()} first). */
        double next() {
            NumberLines p = blocks.get(block).lines;
            return p.values[p.lineStart[line] + token++];
        }

        /** The next value of the data, going on to later lines; an error naming {@code what} at the end. */
        double nextAnyLine(String what) {
            return nextAnyLine(what, -1, "");
        }

        /** As {@link #nextAnyLine(String)}, naming {@code before + n + after} (built only for the error). */
        double nextAnyLine(String before, long n, String after) {
            while (line < 0 || left() == 0) {
                if (!nextLine()) {
                    throw error("the data ends early: expected " + before + (n >= 0 ? n + after : ""));
                }
            }
            return next();
        }

        /** The next value as an int, or an error naming {@code what}. */
        int nextInt(String what, boolean anyLine) {
            return toInt(anyLine ? nextAnyLine(what) : next(), what, -1);
        }

        /** The next value of the data as an int; errors name {@code before + n}. */
        int nextIntAnyLine(String before, long n) {
            return toInt(nextAnyLine(before, n, ""), before, n);
        }

        private int toInt(double v, String before, long n) {
            if (v != Math.rint(v) || Math.abs(v) > Integer.MAX_VALUE) {
                throw error("expected " + before + (n >= 0 ? n : "") + " (an integer), found " + v);
            }
            return (int) v;
        }

        /** An error at the current line. */
        FormatException error(String what) {
            return FormatException.at(name, lastLine, what);
        }
    }
}
