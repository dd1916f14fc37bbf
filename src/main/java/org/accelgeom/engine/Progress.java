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

    /** {@code done} units complete, with a short note after the count (e.g. "81 points inserted"). */
    default void update(long done, String note) {
        update(done);
    }

    /**
     * Elapsed time of a step that reports no progress of its own (reading a file, a Voronoi diagram, a kd-tree
     * build): from one second on, while no other progress line was drawn for a second, the line {@code task: 3.2s}
     * is redrawn on stderr ten times a second, by a daemon thread, when stderr is a terminal and {@code quiet} is
     * false. Close it before printing results.
     */
    static Ticker ticker(boolean quiet, String task) {
        return new Ticker(quiet || System.console() == null ? null : System.err, task, 1_000_000_000L);
    }

    /** See {@link #ticker}. */
    final class Ticker implements AutoCloseable {
        private final PrintStream out;
        private final Thread thread;
        private volatile boolean stop;
        private volatile boolean drew;

        Ticker(PrintStream out, String task, long delayNanos) {
            this.out = out;
            if (out == null) {
                thread = null;
                return;
            }
            long start = System.nanoTime();
            thread = new Thread(() -> {
                while (!stop) {
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException e) {
                        return;
                    }
                    long now = System.nanoTime();
                    synchronized (out) {
                        if (!stop && now - start >= delayNanos && now - TerminalProgress.lastDraw0 > 1_000_000_000L) {
                            out.printf(Locale.ROOT, "\r%s: %.1fs   ", task, (now - start) / 1e9);
                            out.flush();
                            drew = true;
                        }
                    }
                }
            }, "accelgeom-progress");
            thread.setDaemon(true);
            thread.start();
        }

        /** True once it has drawn its line. */
        boolean drew() {
            return drew;
        }

        /** Stops the ticker and clears its line. */
        @Override
        public void close() {
            if (thread == null) {
                return;
            }
            stop = true;
            thread.interrupt();
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (drew) {
                synchronized (out) {
                    out.print("\r\033[K");
                    out.flush();
                }
            }
        }
    }

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
        /** When any progress line was last drawn (a {@link Ticker} stays silent while others draw). */
        static volatile long lastDraw0;
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
            update(done, null);
        }

        @Override
        public void update(long done, String note) {
            long now = System.nanoTime();
            if (now - lastDraw < 100_000_000L && done != total) {
                return;
            }
            lastDraw = now;
            lastDraw0 = now;
            double secs = (now - start) / 1e9;
            String n = note == null ? "" : " (" + note + ")";
            if (total > 0) {
                out.printf(Locale.ROOT, "\r%s: %d/%d (%.0f%%)%s %.1fs   ", task, done, total, 100.0 * done / total, n, secs);
            } else {
                out.printf(Locale.ROOT, "\r%s: %d%s %.1fs   ", task, done, n, secs);
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
