package org.accelgeom.io;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

import org.accelgeom.engine.AccelGeomException;

/**
 * Every output file is written through this class, so that no target is ever left half-written: the bytes go to
 * a hidden temporary file in the target's directory ({@code .NAME.HEX.tmp}), which is renamed over the target
 * ({@link StandardCopyOption#ATOMIC_MOVE}) only once it is complete and closed. On any failure the temporary is
 * deleted and the previous target, if any, is left as it was. A shutdown hook deletes the temporaries in flight
 * when the JVM is stopped (SIGTERM, SIGINT); {@code kill -9} can leave only a hidden temporary, never a truncated
 * target.
 *
 * <p>Errors are {@link AccelGeomException}s of one line: {@code FILE: cannot write: REASON}.
 */
public final class AtomicOutput {

    /** What writes the content; the stream is buffered and closed by {@link #write}. */
    public interface Body {
        void write(OutputStream out) throws IOException;
    }

    /** The temporaries being written now (deleted by the shutdown hook). */
    private static final Set<Path> IN_FLIGHT = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(AtomicOutput::deleteInFlight, "accelgeom-output-cleanup"));
    }

    private AtomicOutput() {
    }

    /** Writes {@code target} atomically: all of {@code body}'s bytes, or nothing (the old file stays). */
    public static void write(Path target, Body body) {
        Path tmp = null;
        boolean moved = false;
        try {
            refuseDirectory(target);
            tmp = temporary(target);
            IN_FLIGHT.add(tmp);
            try (OutputStream out = new BufferedOutputStream(
                    Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), 1 << 16)) {
                body.write(out);
            }
            move(tmp, target);
            moved = true;
        } catch (IOException e) {
            throw failure(target, e);
        } finally {
            if (tmp != null) {
                if (!moved) {
                    deleteQuietly(tmp);
                }
                IN_FLIGHT.remove(tmp);
            }
        }
    }

    /**
     * Checks, before any computation, that {@code target} can be written: its directory exists and a file can be
     * created there, and the target is not a directory. {@code "-"} (standard output) always passes.
     */
    public static void checkWritable(Path target) {
        if (target.toString().equals("-")) {
            return;
        }
        Path tmp = null;
        try {
            refuseDirectory(target);
            tmp = temporary(target);
            IN_FLIGHT.add(tmp);
            Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
        } catch (IOException e) {
            throw failure(target, e);
        } finally {
            if (tmp != null) {
                deleteQuietly(tmp);
                IN_FLIGHT.remove(tmp);
            }
        }
    }

    /** The one-line error for an {@link IOException} while writing {@code target}. */
    public static AccelGeomException failure(Path target, IOException e) {
        return new AccelGeomException(target + ": cannot write: " + reason(e), e);
    }

    /** Why an I/O operation failed, in words (never just the file name, as some exceptions' messages are). */
    static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }

    private static void refuseDirectory(Path target) throws IOException {
        if (Files.isDirectory(target)) {
            throw new FileSystemException(target.toString(), null, "is a directory");
        }
        Path dir = target.toAbsolutePath().getParent();
        if (dir != null && Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new FileSystemException(target.toString(), null, dir + " is not a directory");
        }
    }

    /** {@code .NAME.HEX.tmp} beside the target (same file system, so the rename is atomic). */
    static Path temporary(Path target) {
        String hex = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        return target.toAbsolutePath().resolveSibling("." + target.getFileName() + "." + hex + ".tmp");
    }

    private static void move(Path tmp, Path target) throws IOException {
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException | SecurityException e) {
            // nothing more can be done; the name is hidden and marked .tmp
        }
    }

    private static void deleteInFlight() {
        for (Path p : IN_FLIGHT) {
            deleteQuietly(p);
        }
    }

    /** Number of temporaries being written now (for tests). */
    static int inFlight() {
        return IN_FLIGHT.size();
    }
}
