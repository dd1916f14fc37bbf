package org.accelgeom.engine;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Progress of a long run. Algorithms report through this interface and never print; the CLI decides
 * where it goes ({@link #stderr(boolean)} writes a single updating line to stderr when it is a terminal).
 */
public interface Progress {

    /** A progress sink that ignores everything. */
    Progress NONE = new Progress() {
        @Override
        public void begin(String task, long total) {
        }

        @Override
        public void update(long done) {
        }

        @Override
        public void end() {
        }
    };

    /** A new task with {@code total} units of work ({@code total <= 0}: unknown). */
    void begin(String task, long total);

    /** {@code done} units of the current task are complete. */
    void update(long done);

    /** The current task is complete. */
    void end();

    /**
     * Progress on stderr, redrawn in place at most ten times a second, only when stderr is a terminal
     * (so logs and pipes stay clean) and {@code quiet} is false.
     */
    static Progress stderr(boolean quiet) {
        if (quiet || System.console() == null) {
            return NONE;
        }
        return new TerminalProgress(System.err);
    }

    /** The terminal implementation of {@link #stderr(boolean)}. */
    final class TerminalProgress implements Progress {
        private final PrintStream out;
        private String task = "";
        private long total;
        private long lastDraw;
        private long start;

        TerminalProgress(PrintStream out) {
            this.out = out;
        }

        @Override
        public void begin(String task, long total) {
            this.task = task;
            this.total = total;
            this.start = System.nanoTime();
            this.lastDraw = 0;
            update(0);
        }

        @Override
        public void update(long done) {
            long now = System.nanoTime();
            if (now - lastDraw < 100_000_000L && done != total) {
                return;
            }
            lastDraw = now;
            double secs = (now - start) / 1e9;
            if (total > 0) {
                out.printf(Locale.ROOT, "\r%s: %d/%d (%.0f%%) %.1fs   ", task, done, total, 100.0 * done / total, secs);
            } else {
                out.printf(Locale.ROOT, "\r%s: %d %.1fs   ", task, done, secs);
            }
            out.flush();
        }

        @Override
        public void end() {
            out.print("\r\033[K");
            out.flush();
        }
    }
}
