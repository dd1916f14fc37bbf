package org.accelgeom.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The number of points in a file, guessed before it is read, for the compile ahead of {@link Prewarm}: the count of a
 * PLY header ({@code element vertex N}), else, for the line-per-point text formats (XYZ, TXT, PTS, DAT, CSV), the
 * file's size over the mean length of the numeric lines among its first {@value #SAMPLE} bytes. Only a guess: a
 * wrong one costs time (the run builds its own plan), never a different result. -1 when there is no guess (another
 * format, standard input, a compressed or unreadable file).
 */
final class PointCountGuess {

    /** Bytes read from the file's start. */
    static final int SAMPLE = 1 << 16;

    private PointCountGuess() {
    }

    static long points(String file) {
        if (file == null || file.equals("-")) {
            return -1;
        }
        String name = file.toLowerCase(Locale.ROOT);
        String ext = name.substring(name.lastIndexOf('.') + 1);
        try {
            Path p = Path.of(file);
            long size = Files.size(p);
            byte[] head;
            try (InputStream in = Files.newInputStream(p)) {
                head = in.readNBytes((int) Math.min(size, SAMPLE));
            }
            return switch (ext) {
                case "ply" -> plyVertices(head);
                case "xyz", "txt", "pts", "dat", "csv" -> textLines(head, size);
                default -> -1;
            };
        } catch (IOException | RuntimeException e) {
            return -1; // the read reports it
        }
    }

    /** The vertex count of a PLY header within {@code head}, or -1. */
    static long plyVertices(byte[] head) {
        String text = new String(head, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("end_header");
        if (!text.startsWith("ply") || end < 0) {
            return -1;
        }
        for (String line : text.substring(0, end).split("\r?\n")) {
            String[] w = line.strip().split("\\s+");
            if (w.length == 3 && w[0].equals("element") && w[1].equals("vertex")) {
                try {
                    return Long.parseLong(w[2]);
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }

    /**
     * Lines that start like a number ({@code [0-9+-.]} after blanks) among {@code head}'s whole lines, scaled from the
     * bytes they took to the file's {@code size}; exact when {@code head} is the whole file.
     */
    static long textLines(byte[] head, long size) {
        int lines = 0;
        long bytes = 0;
        int start = 0;
        boolean whole = head.length == size;
        for (int i = 0; i < head.length; i++) {
            if (head[i] == '\n' || (whole && i == head.length - 1)) {
                int k = start;
                while (k <= i && (head[k] == ' ' || head[k] == '\t')) {
                    k++;
                }
                byte c = k <= i ? head[k] : (byte) '\n';
                if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.') {
                    lines++;
                    bytes += i + 1 - start;
                }
                start = i + 1;
            }
        }
        if (lines == 0) {
            return -1;
        }
        if (whole) {
            return lines;
        }
        return Math.round((double) size * lines / bytes); // a header's few bytes add a point or two
    }
}
