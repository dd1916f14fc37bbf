package org.accelgeom.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.IntStream;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.ridge.EvolutionLayout;
import org.accelgeom.ridge.Precision;
import org.accelgeom.ridge.RidgeBackend;

/**
 * A split ridge's part file ({@link SplitRidge#writeLayout}) opened by its worker process: the header and the points'
 * tiles read at once, the coordinates into the layout's array by positional reads of any range of points, from any
 * thread ({@link RidgeBackend.Arriving}: the tornado backend reads each tile as it computes its device order). The
 * file is checked to hold the whole layout when opened.
 */
final class RidgeLayoutFile implements RidgeBackend.Arriving, AutoCloseable {

    /** Bytes before the coordinates: 7 ints and R1. */
    private static final long COORDS_AT = 4 * 7 + 8;
    /** Bytes a read goes through at a time (a direct buffer of each call). */
    private static final int BUFFER = 1 << 20;

    private final Path file;
    private final FileChannel ch;
    private final RidgeBackend.Parameters prm;
    private final int capacity;
    private final EvolutionLayout layout;
    private final int cores;

    private RidgeLayoutFile(Path file, FileChannel ch, RidgeBackend.Parameters prm, int capacity, EvolutionLayout layout,
            int cores) {
        this.file = file;
        this.ch = ch;
        this.prm = prm;
        this.capacity = capacity;
        this.layout = layout;
        this.cores = cores;
    }

    /** Opens the file: its header and points' tiles read, its coordinates not yet; {@code cores} for {@link #cores}. */
    static RidgeLayoutFile open(Path file, int cores) {
        FileChannel ch;
        try {
            ch = FileChannel.open(file, StandardOpenOption.READ);
        } catch (IOException e) {
            throw new AccelGeomException("cannot read " + file + ": " + e.getMessage(), e);
        }
        try {
            ByteBuffer h = ByteBuffer.allocate((int) COORDS_AT).order(ByteOrder.nativeOrder());
            read(ch, h, 0, file);
            int d = h.getInt(0);
            int n = h.getInt(4);
            var prm = new RidgeBackend.Parameters(d, h.getDouble(28), Precision.values()[h.getInt(16)], h.getInt(20),
                    h.getInt(24));
            long size = COORDS_AT + 8L * d * n + 4L * n;
            long has = size(ch, file);
            if (has != size) {
                throw new AccelGeomException(file + ": " + has + " bytes where its header says " + size
                        + " (a worker process's file is incomplete)");
            }
            int[] pointTile = new int[n];
            long tilesAt = COORDS_AT + 8L * d * n;
            int block = BUFFER / 4;
            IntStream.range(0, (n + block - 1) / block).parallel().forEach(k -> {
                int from = k * block;
                int len = Math.min(n - from, block);
                ByteBuffer b = ByteBuffer.allocateDirect(4 * len).order(ByteOrder.nativeOrder());
                read(ch, b, tilesAt + 4L * from, file);
                b.asIntBuffer().get(pointTile, from, len);
            });
            var layout = new EvolutionLayout(d, n, new double[Math.multiplyExact(d, n)], pointTile, h.getInt(8));
            return new RidgeLayoutFile(file, ch, prm, h.getInt(12), layout, Math.max(1, cores));
        } catch (RuntimeException e) {
            close(ch);
            throw e;
        }
    }

    RidgeBackend.Parameters parameters() {
        return prm;
    }

    int capacity() {
        return capacity;
    }

    @Override
    public EvolutionLayout layout() {
        return layout;
    }

    @Override
    public int cores() {
        return cores;
    }

    @Override
    public void fill(int from, int to) {
        int n = layout.n();
        double[] coords = layout.coords();
        ByteBuffer b = ByteBuffer.allocateDirect(Math.min(BUFFER, 8 * Math.max(1, to - from)))
                .order(ByteOrder.nativeOrder());
        for (int c = 0; c < layout.d(); c++) {
            for (int i = from; i < to;) {
                int k = Math.min(to - i, b.capacity() / 8);
                b.clear().limit(8 * k);
                read(ch, b, COORDS_AT + 8L * ((long) c * n + i), file);
                b.asDoubleBuffer().get(coords, c * n + i, k);
                i += k;
            }
        }
    }

    /** Fills {@code b} (cleared, its limit the bytes wanted) from {@code at}, flipped; a short file is one error. */
    private static void read(FileChannel ch, ByteBuffer b, long at, Path file) {
        try {
            while (b.hasRemaining()) {
                int r = ch.read(b, at);
                if (r < 0) {
                    throw new AccelGeomException(file + ": ends early (a worker process's file is incomplete)");
                }
                at += r;
            }
        } catch (IOException e) {
            throw new AccelGeomException("cannot read " + file + ": " + e.getMessage(), e);
        }
        b.flip();
    }

    private static long size(FileChannel ch, Path file) {
        try {
            return ch.size();
        } catch (IOException e) {
            throw new AccelGeomException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        close(ch);
    }

    private static void close(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // read-only: nothing lost
        }
    }
}
