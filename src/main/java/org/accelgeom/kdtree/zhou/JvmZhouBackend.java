package org.accelgeom.kdtree.zhou;

import static org.accelgeom.kdtree.zhou.LevelBuffers.CHUNK;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.kdtree.SahBuilder;
import org.accelgeom.kdtree.TreeArrays;
import org.accelgeom.kdtree.Triangles;

/**
 * The large-node stage's kernels as plain loops: {@code jvm} (one thread, the reference) or {@code jvm-parallel}
 * (the loops split over cores; histogram increments atomic, as on the device).
 */
final class JvmZhouBackend implements ZhouBackend {

    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
    private static final int GRAIN = 8192;

    private final LevelBuffers b;
    private final ParallelLoops loops;

    /** @param loops the fork/join loops, or null for one thread */
    JvmZhouBackend(LevelBuffers b, ParallelLoops loops) {
        this.b = b;
        this.loops = loops;
    }

    private void forRange(int n, int grain, ParallelLoops.RangeBody body) {
        if (loops == null) {
            body.run(0, n);
        } else {
            loops.forRange(n, grain, body);
        }
    }

    @Override
    public LevelBuffers buffers() {
        return b;
    }

    @Override
    public void load(Triangles tris, PhaseTimings t) {
        b.v = tris.v();
        b.rootBox = t.time("root references", Kind.HOST, () -> SahBuilder.root(tris).box);
    }

    @Override
    public void level(PhaseTimings t) {
        int[] st = b.state;
        int r = st[LevelBuffers.P_R];
        int m = st[LevelBuffers.P_M];
        int chunks = st[LevelBuffers.P_CHUNKS];
        t.time("level: bins", Kind.HOST, () -> {
            if (st[LevelBuffers.P_MODE] == LevelBuffers.MODE_LOAD) { // work-item 0's root node first (the device's race-free order)
                LevelKernels.binRef(st, b.rootBounds, b.rootBox, b.refInt, b.refBox, b.vox, b.g, 0, new int[6], 0);
            }
            forRange(r, GRAIN, (from, to) -> {
                int[] slots = new int[6];
                for (int i = from; i < to; i++) {
                    LevelKernels.binRef(st, b.rootBounds, b.rootBox, b.refInt, b.refBox, b.vox, b.g, i, slots, 0);
                    for (int q = 0; q < 6; q++) {
                        if (slots[q] >= 0) {
                            if (loops == null) {
                                b.bins[slots[q]]++;
                            } else {
                                INTS.getAndAdd(b.bins, slots[q], 1);
                            }
                        }
                    }
                }
            });
        });
        t.time("level: split", Kind.HOST, () -> forRange(m, 64, (from, to) -> {
            for (int i = from; i < to; i++) {
                LevelKernels.splitNode(st, b.c, b.bins, b.vox, i, b.nodeInt, b.nodePos, b.gVox, b.gDepth);
            }
        }));
        t.time("level: count", Kind.HOST, () -> forRange(chunks, 16, (from, to) -> {
            for (int ch = from; ch < to; ch++) {
                LevelKernels.countChunk(st, b.refInt, b.refBox, b.nodeInt, b.nodePos, ch, b.side, b.chunk);
            }
        }));
        t.time("level: scan", Kind.HOST, () -> LevelKernels.scan(st, b.nodeInt, b.chunk));
        t.time("level: scatter", Kind.HOST, () -> forRange(Math.max(chunks, m), 16, (from, to) -> {
            for (int i = from; i < to; i++) {
                if (i < chunks) {
                    LevelKernels.scatterChunk(st, i, b.v, b.refInt, b.refBox, b.side, b.nodeInt, b.nodePos, b.g, b.chunk,
                            b.doneInt, b.doneBox);
                }
                if (i < m) {
                    LevelKernels.scatterNode(st, i, b.nodeInt, b.nodePos, b.vox, b.g, b.gInt, b.gPos);
                }
            }
        }));
        LevelKernels.advance(st);
    }

    @Override
    public void download(PhaseTimings t) {
    }

    /** The stage on the host's loops; the host lays the tree out (returns -1). */
    @Override
    public long subtrees(PhaseTimings t) {
        int[] st = b.state;
        SmallBuffers s = b.small;
        int g = st[SmallKernels.S_G];
        int d = st[SmallKernels.S_D];
        t.time("small nodes: runs", Kind.HOST, () -> {
            forRange(g, GRAIN, (from, to) -> {
                for (int i = from; i < to; i++) {
                    SmallKernels.clear(st, i, s.gFirst, s.gEnd);
                }
            });
            forRange(d, GRAIN, (from, to) -> {
                for (int r = from; r < to; r++) {
                    SmallKernels.bounds(st, r, b.doneInt, s.gFirst, s.gEnd);
                }
            });
        });
        if (s.masks) {
            t.time("small nodes: candidates and masks", Kind.HOST, () -> forRange(d, 256, (from, to) -> {
                for (int r = from; r < to; r++) {
                    SmallKernels.candidates(st, r, b.doneInt, b.doneBox, s.gFirst, s.gEnd, s.cPos, s.cMask);
                }
            }));
        }
        t.time("small nodes: subtrees", Kind.HOST, () -> forRange(g, 16, (from, to) -> {
            SubtreeKernels.Scratch w = new SubtreeKernels.Scratch(SubtreeKernels.STACK); // as the device's
            for (int i = from; i < to; i++) {
                SubtreeKernels.root(st, b.c, i, b.v, b.gInt, b.doneInt, b.doneBox, b.gVox, b.gDepth, s.gFirst, s.gEnd,
                        s.cPos, s.cMask, s.tStatus, s.tNodes, s.tWords, s.rSplit, s.rInfo, s.rLeaf, w);
            }
        }));
        return -1;
    }

    @Override
    public void place(TreeArrays arrays, PhaseTimings t) {
        SmallBuffers s = b.small;
        float[] split = arrays.split();
        int[] info = arrays.info();
        int[] leaf = arrays.leaf();
        int g = b.state[SmallKernels.S_G];
        t.time("place: records and regions", Kind.HOST, () -> forRange(g, 64, (from, to) -> {
            for (int i = from; i < to; i++) {
                SubtreeKernels.place(i, b.gInt, b.gPos, s.gFirst, s.tStatus, s.tNodes, s.tWords, s.at, s.off, s.rSplit,
                        s.rInfo, s.rLeaf, s.factor, split, info, leaf);
            }
        }));
    }

    static int chunks(int r) {
        return (r + CHUNK - 1) / CHUNK;
    }
}
