package org.accelgeom.kdtree;

import static org.accelgeom.kdtree.LevelBuffers.CHUNK;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;

/**
 * The large-node stage's kernels as plain loops: {@code jvm} (one thread, the reference) or {@code jvm-parallel}
 * (the loops split over cores; histogram increments atomic).
 */
final class LoopLevelSteps implements LevelSteps {

    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
    private static final int GRAIN = 8192;

    private final LevelBuffers b;
    private final ParallelLoops loops;

    /** @param loops the fork/join loops, or null for one thread */
    LoopLevelSteps(LevelBuffers b, ParallelLoops loops) {
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
    public void load(float[] v, float[] rootBox, PhaseTimings t) {
        b.v = v;
        b.rootBox = rootBox;
    }

    @Override
    public void level(PhaseTimings t) {
        int[] p = b.params;
        boolean even = p[LevelBuffers.P_PARITY] == 0;
        boolean load = p[LevelBuffers.P_MODE] == LevelBuffers.MODE_LOAD;
        int[] tri = even ? b.tri0 : b.tri1;
        int[] node = even ? b.node0 : b.node1;
        float[] box = even ? b.box0 : b.box1;
        float[] vox = even ? b.vox0 : b.vox1;
        int[] g = even ? b.g0 : b.g1;
        int r = p[LevelBuffers.P_R];
        int m = p[LevelBuffers.P_M];
        int chunks = p[LevelBuffers.P_CHUNKS];
        t.time("level: bins", Kind.HOST, () -> {
            if (load) {
                LevelKernels.loadRoot(b.rootBounds, vox, g, b.counters);
            }
            forRange(r, GRAIN, (from, to) -> {
                for (int i = from; i < to; i++) {
                    if (load) {
                        LevelKernels.loadRef(b.rootBox, i, tri, node, box);
                    }
                    for (int k = 0; k < 3; k++) {
                        for (int e = 0; e < 2; e++) {
                            int s = LevelKernels.binSlot(box, i, node[i], vox, 6 * node[i], k, e);
                            if (loops == null) {
                                b.bins[s]++;
                            } else {
                                INTS.getAndAdd(b.bins, s, 1);
                            }
                        }
                    }
                }
            });
        });
        t.time("level: split", Kind.HOST, () -> forRange(m, 64, (from, to) -> {
            for (int i = from; i < to; i++) {
                LevelKernels.splitNode(p, b.c, b.bins, vox, i, b.nodeAxis, b.nodePos, b.nodeSplit, b.gVox);
            }
        }));
        t.time("level: count", Kind.HOST, () -> forRange(chunks, 16, (from, to) -> {
            for (int ch = from; ch < to; ch++) {
                LevelKernels.countChunk(p, node, box, b.nodeAxis, b.nodePos, b.nodeSplit, ch, b.side, b.chunkCnt);
            }
        }));
        t.time("level: scan", Kind.HOST, () -> LevelKernels.scan(p, b.nodeSplit, b.nodeChild, b.chunkCnt, b.chunkOff, b.counters));
        int[] outTri = even ? b.tri1 : b.tri0;
        int[] outNode = even ? b.node1 : b.node0;
        float[] outBox = even ? b.box1 : b.box0;
        float[] outVox = even ? b.vox1 : b.vox0;
        int[] outG = even ? b.g1 : b.g0;
        t.time("level: scatter", Kind.HOST, () -> forRange(Math.max(chunks, m), 16, (from, to) -> {
            for (int i = from; i < to; i++) {
                if (i < chunks) {
                    LevelKernels.scatterChunk(p, b.counters, i, b.v, tri, node, box, b.side, b.nodeAxis, b.nodePos,
                            b.nodeChild, g, b.chunkOff, outTri, outNode, outBox, b.doneTri, b.doneNode, b.doneBox);
                }
                if (i < m) {
                    LevelKernels.scatterNode(p, b.counters, i, b.nodeAxis, b.nodePos, b.nodeSplit, b.nodeChild, vox, g,
                            outVox, outG, b.gAxis, b.gPos, b.gChild);
                }
            }
        }));
    }

    @Override
    public void download(PhaseTimings t) {
    }

    static int chunks(int r) {
        return (r + CHUNK - 1) / CHUNK;
    }
}
