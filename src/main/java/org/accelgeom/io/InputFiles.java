package org.accelgeom.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Stream;

import org.accelgeom.engine.AccelGeomException;

/**
 * The inputs of a batch and the names of their results, as the CLI's batches and the Spark job both name them:
 * files, directories (their visible files) and globs with wildcards in the file name expand to files in the order
 * given (a directory's and a glob's files sorted); each result is {@code DIR/<stem>.<ext>}, a second input of the
 * same stem keeping its whole name.
 */
public final class InputFiles {
    private InputFiles() {
    }

    /** Files, directories and globs to files; a spec that names nothing goes to {@code unmatched}. */
    public static List<Path> expand(List<String> specs, List<String> unmatched) {
        List<Path> files = new ArrayList<>();
        for (String s : specs) {
            if (isGlob(s)) {
                List<Path> m = glob(s);
                if (m.isEmpty()) {
                    unmatched.add(s);
                }
                files.addAll(m);
            } else if (Files.isDirectory(Path.of(s))) {
                files.addAll(list(Path.of(s), "*"));
            } else if (Files.exists(Path.of(s))) {
                files.add(Path.of(s));
            } else {
                unmatched.add(s);
            }
        }
        return files;
    }

    /** Whether {@code s} is a glob: wildcards in a valid pattern, and no file of that very name. */
    public static boolean isGlob(String s) {
        if (s.indexOf('*') < 0 && s.indexOf('?') < 0 && s.indexOf('[') < 0 && s.indexOf('{') < 0) {
            return false;
        }
        try {
            if (Files.exists(Path.of(s))) {
                return false;
            }
            FileSystems.getDefault().getPathMatcher("glob:" + s.substring(s.lastIndexOf('/') + 1));
            return true;
        } catch (PatternSyntaxException | InvalidPathException e) {
            return false;
        }
    }

    private static List<Path> glob(String s) {
        int slash = s.lastIndexOf('/');
        String dir = slash < 0 ? "." : slash == 0 ? "/" : s.substring(0, slash);
        if (isGlob(dir)) {
            throw new AccelGeomException("--input " + s + ": wildcards only in the file name, not in the directories");
        }
        Path d = Path.of(dir);
        if (!Files.isDirectory(d)) {
            return List.of();
        }
        List<Path> files = list(d, s.substring(slash + 1));
        if (slash < 0) {
            files.replaceAll(Path::getFileName); // "*.xyz" names the files as the user would
        }
        return files;
    }

    /** The visible regular files of {@code dir} matching {@code pattern}, sorted. */
    private static List<Path> list(Path dir, String pattern) {
        PathMatcher matcher = dir.getFileSystem().getPathMatcher("glob:" + pattern);
        try (Stream<Path> s = Files.list(dir)) {
            return new ArrayList<>(s.filter(p -> Files.isRegularFile(p) && !p.getFileName().toString().startsWith(".")
                    && matcher.matches(p.getFileName())).sorted().toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code dir/<stem>.<ext>}; a second input of the same stem keeps its whole name ({@code a.cif.<ext>}). */
    public static Path outputFor(Path dir, Path input, String ext, Set<Path> used) {
        String name = input.getFileName().toString();
        Path p = dir.resolve(stem(name) + "." + ext);
        if (!used.add(p)) {
            p = dir.resolve(name + "." + ext);
            used.add(p);
        }
        return p;
    }

    /** The file name without its extension (and without a trailing .gz first). */
    public static String stem(String name) {
        String s = name.toLowerCase(Locale.ROOT).endsWith(".gz") ? name.substring(0, name.length() - 3) : name;
        int dot = s.lastIndexOf('.');
        return dot > 0 ? s.substring(0, dot) : s;
    }
}
