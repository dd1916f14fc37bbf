package org.accelgeom.terrain.tornado;

import org.accelgeom.cbt.CbtKernels;
import org.accelgeom.cbt.WordReduction;
import org.accelgeom.cbt.tornado.CbtTaskGraphs;
import org.accelgeom.terrain.LebKernels;
import org.accelgeom.terrain.TerrainKernels;

import uk.ac.manchester.tornado.api.KernelContext;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/**
 * TornadoVM kernels of the terrain frame and its TaskGraph: split pass (one work-item per leaf, marking flags),
 * flag application (one work-item per bitfield word, the word's only writer), a reduction (CbtTaskGraphs'
 * kernels over {@code pa}), merge pass (one work-item per leaf, atomic add of −2^b on its own bit), a second
 * reduction (over {@code pb}), emission (one work-item per leaf). Work-items read L from the heap's root, so the
 * host only bounds the grids. One execution runs the split half ({@code pa[MODE] = SPLIT | REDUCE}), the next
 * the merge half ({@code pb[MODE] = MERGE | REDUCE}).
 *
 * <p>Public, so that other TornadoVM programs can embed the frame (docs/embedding.md, "Terrain frame"): the
 * protocol of one frame, over a {@link TerrainBuffers} whose first execution ran {@code half(MODE_CLEAR, 0)}:
 * <ol>
 * <li>the camera into {@code b.cam}; {@code b.half(MODE_SPLIT | MODE_REDUCE, 0)}; execute; download {@code b.info};
 * {@code b.leaves(b.info[0])};</li>
 * <li>{@code b.half(0, MODE_MERGE | MODE_REDUCE)}; execute; download {@code b.info}: L triangles;</li>
 * <li>download (or leave on the device for the next graph) {@code b.tri} and {@code b.node}.</li>
 * </ol>
 * Every execution launches every task, so each writes its heartbeat ({@link #launchCheck}, the sequence number
 * {@code half} returned) to its slot of {@code b.info}, the array that is downloaded after each execution anyway:
 * slot k at {@code b.info[INFO_BEATS + k]}, copied into the check by {@link TerrainBuffers#verify} (no transfer of its
 * own).
 */
public final class TerrainTaskGraphs {

    public static final int MODE_SPLIT = 1 << 8;
    public static final int MODE_MERGE = 1 << 9;
    public static final int MODE_CLEAR = 1 << 10;
    /** pa[NX], pa[NY]: the height grid's size. */
    public static final int NX = CbtTaskGraphs.PARAMS;
    public static final int NY = CbtTaskGraphs.PARAMS + 1;
    public static final int PARAMS = CbtTaskGraphs.PARAMS + 2;

    /**
     * Heartbeat slots ({@link #launchCheck}); slot k is {@code info[INFO_BEATS + k]}. The split half's reduction
     * writes its slot through CbtTaskGraphs' reduceTop ({@code info[INFO_BEAT]}); the merge half's reduction writes
     * {@code infoB}, which is not downloaded, so the emission after it stands for it.
     */
    public static final int SLOT_REDUCE_A = 0;
    public static final int SLOT_SPLIT = 1;
    public static final int SLOT_APPLY = 2;
    public static final int SLOT_MERGE = 3;
    public static final int SLOT_EMIT = 4;
    /** info[INFO_BEATS + k]: heartbeat slot k (from CbtTaskGraphs' INFO_BEAT, which reduceTop writes). */
    public static final int INFO_BEATS = CbtTaskGraphs.INFO_BEAT;
    /** Length of the info arrays: L, CbtTaskGraphs' error count, the heartbeats. */
    public static final int INFO = INFO_BEATS + 5;

    private TerrainTaskGraphs() {
    }

    /** The launch check of the frame graph, its slots named after their tasks. */
    public static org.accelgeom.engine.tornado.LaunchCheck launchCheck() {
        return new org.accelgeom.engine.tornado.LaunchCheck("terrain", "topA", "split", "apply", "merge", "emit");
    }

    private static int leaves(int[] heap, int D) {
        return CbtKernels.read(heap, D, 1, 1);
    }

    public static void split(KernelContext c, int[] pa, int[] heap, int[] flags, float[] h, float[] cam, int[] info) {
        int D = pa[CbtTaskGraphs.DEPTH];
        int l = c.globalIdx;
        if (l == 0) {
            info[INFO_BEATS + SLOT_SPLIT] = pa[CbtTaskGraphs.SEQ];
        }
        if (((pa[CbtTaskGraphs.MODE] & MODE_SPLIT) != 0 ? 1 : 0) + (l < leaves(heap, D) ? 1 : 0) == 2) {
            int k = CbtKernels.decode(heap, D, 1, l);
            int want = (CbtKernels.depth(k) < D ? 1 : 0) & (TerrainKernels.pixels(h, pa[NX], pa[NY], cam, k) > cam[TerrainKernels.TARGET] ? 1 : 0);
            if (want == 1) { // TerrainKernels.wantsSplit
                TerrainKernels.markSplit(flags, D, k);
            }
        }
    }

    public static void apply(KernelContext c, int[] pa, int[] heap, int[] flags, int[] info) {
        int D = pa[CbtTaskGraphs.DEPTH];
        int j = c.globalIdx;
        if (j == 0) {
            info[INFO_BEATS + SLOT_APPLY] = pa[CbtTaskGraphs.SEQ];
        }
        int words = 1 << (D - 5);
        int mode = pa[CbtTaskGraphs.MODE];
        if (((mode & MODE_SPLIT) != 0 ? 1 : 0) + (j < words ? 1 : 0) == 2) {
            heap[(3 << (D - 5)) + j] = TerrainKernels.applyFlags(heap, flags, D, j);
        }
        if (((mode & MODE_CLEAR) != 0 ? 1 : 0) + (j < words ? 1 : 0) == 2) {
            for (int b = 0; b < 32; b++) {
                flags[32 * j + b] = 0;
            }
        }
    }

    public static void merge(KernelContext c, int[] pa, int[] pb, int[] heap, float[] h, float[] cam, int[] info) {
        int D = pa[CbtTaskGraphs.DEPTH];
        int l = c.globalIdx;
        if (l == 0) {
            info[INFO_BEATS + SLOT_MERGE] = pb[CbtTaskGraphs.SEQ];
        }
        if (((pb[CbtTaskGraphs.MODE] & MODE_MERGE) != 0 ? 1 : 0) + (l < leaves(heap, D) ? 1 : 0) == 2) {
            int k = CbtKernels.decode(heap, D, 1, l);
            if (TerrainKernels.mergeTopology(heap, D, 1, k) == 1) {
                // TerrainKernels.mergeSmall, spelled out: TornadoVM refuses to inline a callee of more than 600 nodes
                int p = k >> 1;
                int q = LebKernels.neighbour(p, LebKernels.B);
                int pSmall = TerrainKernels.pixels(h, pa[NX], pa[NY], cam, p) < cam[TerrainKernels.TARGET] ? 1 : 0;
                int qSmall = TerrainKernels.pixels(h, pa[NX], pa[NY], cam, Math.max(q, 2)) < cam[TerrainKernels.TARGET] ? 1 : 0;
                if ((pSmall & ((q == 0 ? 1 : 0) | qSmall)) == 1) {
                    int e = CbtKernels.bitElement(D, k);
                    c.atomicAdd(heap, CbtKernels.word(D, 1, e), CbtKernels.deltaLo(D, 1, e, 1, 0));
                }
            }
        }
    }

    public static void emit(KernelContext c, int[] pa, int[] pb, int[] heap, float[] h, float[] cam, float[] tri, int[] node, int[] info) {
        int D = pa[CbtTaskGraphs.DEPTH];
        int l = c.globalIdx;
        int n = leaves(heap, D);
        if (l == 0) {
            info[CbtTaskGraphs.INFO_LEAVES] = n;
            info[INFO_BEATS + SLOT_EMIT] = pb[CbtTaskGraphs.SEQ];
        }
        int cap = node.length;
        if (((pb[CbtTaskGraphs.MODE] & MODE_MERGE) != 0 ? 1 : 0) + (l < n ? 1 : 0) + (l < cap ? 1 : 0) == 3) {
            int k = CbtKernels.decode(heap, D, 1, l);
            node[l] = k;
            TerrainKernels.emit(h, pa[NX], pa[NY], cam, k, tri, 9 * l);
        }
    }

    /** Names of the reduction tasks of one half ("A" or "B"), deepest first: prepass, levels D−6..8, top. */
    public static String[] reduceTasks(int D, String half) {
        java.util.List<String> n = new java.util.ArrayList<>();
        n.add("prepass" + half);
        for (int d = D - 6; d > CbtTaskGraphs.TOP_LEVEL; d--) {
            n.add("level" + half + d);
        }
        n.add("top" + half);
        return n.toArray(String[]::new);
    }

    private static void reduction(TaskGraph g, KernelContext c, int[] p, int[] heap, int[] info, int D, String half) {
        if (WordReduction.prepass(D, 1)) {
            g.task("prepass" + half, CbtTaskGraphs::prepassWords, c, p, heap); // word ownership, D >= 10
        } else {
            g.task("prepass" + half, CbtTaskGraphs::reducePrepass, c, p, heap);
        }
        for (int d = D - 6; d > CbtTaskGraphs.TOP_LEVEL; d--) {
            g.task("level" + half + d, CbtTaskGraphs::reduceLevel, c, p, heap, info, d);
        }
        g.task("top" + half, CbtTaskGraphs::reduceTop, c, p, heap, info);
    }

    /** The frame graph over {@code b}, the heights uploaded once, the triangles downloaded on demand. */
    public static TaskGraph graph(String name, TerrainBuffers b) {
        return graph(name, b, null, false);
    }

    /**
     * The frame graph over {@code b} (packed heap of depth D ≥ 6): the heap, the flags and the heights go to the
     * device once and stay; each execution uploads pa, pb and the camera and runs the half its modes select
     * ({@link TerrainBuffers#half}); info, infoB, the triangles and their nodes come back on demand.
     *
     * @param heightsFrom   null, or the name of the user's own task graph (executed first, in the same plan) that
     *                      leaves the heights on the device ({@code persistOnDevice(b.heights)}): this graph takes
     *                      them from there ({@code consumeFromDevice}) instead of uploading them
     * @param persistOutput whether the triangles and their nodes stay on the device ({@code persistOnDevice}) for
     *                      the user's next graph ({@code consumeFromDevice(name, b.tri, b.node)})
     */
    // One graph for both halves, switched by pa[MODE] and pb[MODE] (issue 15 item 4 asks for a graph per step): every
    // execution launches all 4 + 2·(D − 4 − TOP_LEVEL) tasks, and the half that is off idles with one work-item per
    // task: at D = 22 (the benchmark's terrain flight) 9 of 18 launches per execution, 18 per frame, about 0.34 ms at
    // 19 µs per further kernel on an H200 (docs/benchmarks.md, "Session 10, launch", driver timers off), some 2 % of
    // the 15.2 ms frame measured there. A graph per half adds no execution (a frame is two either way), so no launch
    // cost forbids it; it needs the heap, the heights and the camera shared by the two graphs (consumeFromDevice) and
    // a new embedding protocol: not done yet (session 11 report).
    public static TaskGraph graph(String name, TerrainBuffers b, String heightsFrom, boolean persistOutput) {
        int D = b.D;
        KernelContext c = b.context;
        TaskGraph g = new TaskGraph(name);
        if (heightsFrom != null) {
            g.consumeFromDevice(heightsFrom, b.heights);
        } else {
            g.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.heights);
        }
        g.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.heap, b.flags)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, b.pa, b.pb, b.cam)
                .task("split", TerrainTaskGraphs::split, c, b.pa, b.heap, b.flags, b.heights, b.cam, b.info)
                .task("apply", TerrainTaskGraphs::apply, c, b.pa, b.heap, b.flags, b.info);
        reduction(g, c, b.pa, b.heap, b.info, D, "A");
        g.task("merge", TerrainTaskGraphs::merge, c, b.pa, b.pb, b.heap, b.heights, b.cam, b.info);
        reduction(g, c, b.pb, b.heap, b.infoB, D, "B");
        g.task("emit", TerrainTaskGraphs::emit, c, b.pa, b.pb, b.heap, b.heights, b.cam, b.tri, b.node, b.info);
        if (persistOutput) {
            g.persistOnDevice(b.tri, b.node);
        }
        return g.transferToHost(DataTransferMode.UNDER_DEMAND, b.info, b.infoB, b.tri, b.node);
    }
}
