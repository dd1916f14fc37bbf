package org.accelgeom.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.stream.IntStream;

import org.accelgeom.engine.Tuning;

/**
 * The order in which a batch of files is dealt to several device workers ({@code accelgeom.devices.order}) and the
 * buffer that puts the outcomes back in input order.
 *
 * <p>{@code size} (the default with several workers): the largest inputs first, ties in input order, their sizes
 * read before any work, beside the workers' start ({@link #weight}: a structure's atom records, a point file's
 * points, else its bytes). Each worker's first input is then the largest it will get, so the plans it sizes by that
 * input seldom grow mid-batch (a size the kernel cache has not seen is compiled, one at a time in a JVM; the weight is
 * a proxy: a Voronoi plan also holds the grid's cells, which follow a structure's extent), no worker
 * needs a warm-up input to size them, and the small inputs come last, where they even out the workers' ends. The
 * reports are still printed in input order ({@link InputOrder}) and every result file is the one the one-device run
 * writes. {@code input}: the input order (a worker process not dealt input 0 then warms up on it,
 * {@code accelgeom.devices.warmup}).
 */
final class Dealing {

    private Dealing() {
    }

    /** Whether the batch is dealt largest first ({@code accelgeom.devices.order}: {@code size}, the default). */
    static boolean bySize() {
        return !"input".equalsIgnoreCase(Tuning.DEVICE_ORDER.stringValue("size").trim());
    }

    /**
     * The input numbers in the order they are dealt to {@code workers} workers: by {@link #weight}, largest first,
     * ties in input order, where {@link #bySize()} and there are several workers; else in input order.
     */
    static int[] order(List<Path> inputs, int workers) {
        if (workers < 2 || !bySize()) {
            return IntStream.range(0, inputs.size()).toArray();
        }
        long[] size = IntStream.range(0, inputs.size()).parallel().mapToLong(k -> weight(inputs.get(k))).toArray();
        return largestFirst(size);
    }

    /**
     * {@link #order} computed on a thread of its own, from now (beside the workers' start: a batch of 126 PDB files of
     * 1-2.6 MB reads its atom records in well under the 2 s a worker process takes to start), handed out as the
     * workers ask for inputs.
     */
    static java.util.Iterator<Integer> orderSoon(List<Path> inputs, int workers) {
        Soon<int[]> order = Soon.start("accelgeom-dealing", () -> order(inputs, workers));
        return new java.util.Iterator<>() {
            private java.util.PrimitiveIterator.OfInt it;

            private java.util.PrimitiveIterator.OfInt it() {
                if (it == null) {
                    int[] ks;
                    try {
                        ks = order.join("ordering the batch");
                    } catch (org.accelgeom.engine.AccelGeomException e) {
                        throw e; // interrupted
                    } catch (RuntimeException e) {
                        ks = IntStream.range(0, inputs.size()).toArray(); // not expected: order catches its own
                    }
                    it = IntStream.of(ks).iterator();
                }
                return it;
            }

            @Override
            public boolean hasNext() {
                return it().hasNext();
            }

            @Override
            public Integer next() {
                return it().next();
            }
        };
    }

    /**
     * How large an input is, for the dealing, read before any work: the ATOM records of a PDB or mmCIF file (gzipped
     * or not; the balls voronoi takes by default, no hydrogen aside), the points of a point file as
     * {@link PointCountGuess} guesses them, else the file's size in bytes (a file's size alone misleads for
     * structures: 3V2U's PDB file is 2.6 MB for 14,697 atoms, 4JSV's 1.9 MB for 22,128).
     */
    static long weight(Path p) {
        String name = p.getFileName() == null ? "" : p.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        boolean gz = name.endsWith(".gz");
        String base = gz ? name.substring(0, name.length() - 3) : name;
        if (base.endsWith(".pdb") || base.endsWith(".ent") || base.endsWith(".cif") || base.endsWith(".mmcif")) {
            try (java.io.InputStream raw = Files.newInputStream(p);
                    java.io.InputStream in = gz ? new java.util.zip.GZIPInputStream(raw, 1 << 16) : raw) {
                return atomRecords(in);
            } catch (java.io.IOException | RuntimeException e) {
                return Batch.size(p);
            }
        }
        long points = gz ? -1 : PointCountGuess.points(p.toString());
        return points >= 0 ? points : Batch.size(p);
    }

    /** The lines of {@code in} that start with {@code ATOM}. */
    static long atomRecords(java.io.InputStream in) throws java.io.IOException {
        byte[] buf = new byte[1 << 16];
        byte[] atom = {'A', 'T', 'O', 'M'};
        long count = 0;
        int col = 0; // the position in the line of the next byte
        boolean match = true;
        for (int n; (n = in.read(buf)) > 0;) {
            for (int i = 0; i < n; i++) {
                byte b = buf[i];
                if (b == '\n') {
                    col = 0;
                    match = true;
                    continue;
                }
                if (col < 4) {
                    match &= b == atom[col];
                    if (col == 3 && match) {
                        count++;
                    }
                }
                col++;
            }
        }
        return count;
    }

    /** The indices of {@code size} by size, largest first, ties by index (a stable sort). */
    static int[] largestFirst(long[] size) {
        return IntStream.range(0, size.length).boxed()
                .sorted(Comparator.<Integer>comparingLong(k -> -size[k]).thenComparingInt(k -> k))
                .mapToInt(Integer::intValue).toArray();
    }

    /**
     * Outcomes that arrive in dealing order, handed on in input order: {@link #add} keeps outcome {@code k} and hands
     * on every outcome from the next one due as far as they have arrived. Holds at most the batch's outcomes (a
     * report's text each).
     */
    static final class InputOrder<T> {
        private final Map<Integer, T> waiting = new HashMap<>();
        private final BiConsumer<Integer, T> next;
        private int due;

        InputOrder(BiConsumer<Integer, T> next) {
            this.next = next;
        }

        void add(int k, T outcome) {
            waiting.put(k, outcome);
            for (T o; (o = waiting.remove(due)) != null; due++) {
                next.accept(due, o);
            }
        }

        /** Outcomes kept, waiting for an earlier one. */
        int waiting() {
            return waiting.size();
        }
    }
}
