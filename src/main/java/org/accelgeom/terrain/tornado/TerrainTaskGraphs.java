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
 * TornadoVM kernels of the terrain frame and its two task graphs, one per half of a frame:
 * <ul>
 * <li>{@link #splitGraph} ({@code name + "Split"}): split pass (one work-item per leaf, marking flags), flag
 * application (one work-item per bitfield word, the word's only writer), a reduction (CbtTaskGraphs' kernels over
 * {@code pa});</li>
 * <li>{@link #mergeGraph} ({@code name + "Merge"}): merge pass (one work-item per leaf, atomic add of −2^b on its
 * own bit), a reduction (over {@code pb}), emission (one work-item per leaf); it takes the heap and the heights over
 * from the split graph ({@code consumeFromDevice}).</li>
 * </ul>
 * Work-items read L from the heap's root, so the host only bounds the grids. {@code pa[MODE]} is
 * {@code MODE_SPLIT | MODE_REDUCE} in a frame and {@link #MODE_CLEAR} in the plan's first execution (it zeroes the
 * flags on the device); the merge graph has no mode.
 *
 * <p>Public, so that other TornadoVM programs can embed the frame (docs/embedding.md, "Terrain frame"): the
 * protocol of one frame, over a {@link TerrainBuffers} whose first execution of the split graph ran
 * {@code b.split(MODE_CLEAR)}:
 * <ol>
 * <li>{@code b.camera(c)}; {@code b.split(MODE_SPLIT | MODE_REDUCE)}; execute the split graph; download {@code b.info};
 * {@code b.leaves(b.info[0])};</li>
 * <li>{@code b.merge()}; execute the merge graph; download {@code b.infoB}: {@code b.infoB[0]} triangles;</li>
 * <li>download (or leave on the device for the next graph) {@code b.tri} and {@code b.node}.</li>
 * </ol>
 * Each task writes its heartbeat ({@link #splitCheck}, {@link #mergeCheck}: the sequence number {@code split} or
 * {@code merge} returned) to its slot of its graph's info array, which is downloaded after each execution anyway:
 * slot k at {@code info[INFO_BEATS + k]}, copied into the check by {@link TerrainBuffers#verify} (no transfer of its
 * own).
 */
public final class TerrainTaskGraphs {

    public static final int MODE_SPLIT = 1 << 8;
    public static final int MODE_CLEAR = 1 << 10;
    /** pa[NX], pa[NY]: the height grid's size. */
    public static final int NX = CbtTaskGraphs.PARAMS;
    public static final int NY = CbtTaskGraphs.PARAMS + 1;
    public static final int PARAMS = CbtTaskGraphs.PARAMS + 2;
    /** Graph indices of {@link #graphs}, and the heartbeat checks' indices in {@link TerrainBuffers}. */
    public static final int G_SPLIT = 0;
    public static final int G_MERGE = 1;

    /**
     * Heartbeat slots of each graph's check; slot k is {@code info[INFO_BEATS + k]} of the graph's info array. Slot 0
     * is the reduction's, written by CbtTaskGraphs' reduceTop ({@code info[INFO_BEAT]}).
     */
    public static final int SLOT_TOP = 0;
    public static final int SLOT_SPLIT = 1;
    public static final int SLOT_APPLY = 2;
    public static final int SLOT_MERGE = 1;
    public static final int SLOT_EMIT = 2;
    /** info[INFO_BEATS + k]: heartbeat slot k (from CbtTaskGraphs' INFO_BEAT, which reduceTop writes). */
    public static final int INFO_BEATS = CbtTaskGraphs.INFO_BEAT;
    /** Length of the info arrays: L, CbtTaskGraphs' error count, the heartbeats. */
    public static final int INFO = INFO_BEATS + 3;

    private TerrainTaskGraphs() {
    }

    /** The launch check of the split graph, its slots named after their tasks. */
    public static org.accelgeom.engine.tornado.LaunchCheck splitCheck() {
        return new org.accelgeom.engine.tornado.LaunchCheck("terrain", "topA", "split", "apply");
    }

    /** The launch check of the merge graph, its slots named after their tasks. */
    public static org.accelgeom.engine.tornado.LaunchCheck mergeCheck() {
        return new org.accelgeom.engine.tornado.LaunchCheck("terrain", "topB", "merge", "emit");
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

    public static void merge(KernelContext c, int[] pb, int[] heap, float[] h, float[] cam, int[] info) {
        int D = pb[CbtTaskGraphs.DEPTH];
        int l = c.globalIdx;
        if (l == 0) {
            info[INFO_BEATS + SLOT_MERGE] = pb[CbtTaskGraphs.SEQ];
        }
        if (l < leaves(heap, D)) {
            int k = CbtKernels.decode(heap, D, 1, l);
            if (TerrainKernels.mergeTopology(heap, D, 1, k) == 1) {
                // TerrainKernels.mergeSmall, spelled out: TornadoVM refuses to inline a callee of more than 600 nodes
                int p = k >> 1;
                int q = LebKernels.neighbour(p, LebKernels.B);
                int pSmall = TerrainKernels.pixels(h, pb[NX], pb[NY], cam, p) < cam[TerrainKernels.TARGET] ? 1 : 0;
                int qSmall = TerrainKernels.pixels(h, pb[NX], pb[NY], cam, Math.max(q, 2)) < cam[TerrainKernels.TARGET] ? 1 : 0;
                if ((pSmall & ((q == 0 ? 1 : 0) | qSmall)) == 1) {
                    int e = CbtKernels.bitElement(D, k);
                    c.atomicAdd(heap, CbtKernels.word(D, 1, e), CbtKernels.deltaLo(D, 1, e, 1, 0));
                }
            }
        }
    }

    public static void emit(KernelContext c, int[] pb, int[] heap, float[] h, float[] cam, float[] tri, int[] node, int[] info) {
        int D = pb[CbtTaskGraphs.DEPTH];
        int l = c.globalIdx;
        int n = leaves(heap, D);
        if (l == 0) {
            info[CbtTaskGraphs.INFO_LEAVES] = n;
            info[INFO_BEATS + SLOT_EMIT] = pb[CbtTaskGraphs.SEQ];
        }
        int cap = node.length;
        if ((l < n ? 1 : 0) + (l < cap ? 1 : 0) == 2) {
            int k = CbtKernels.decode(heap, D, 1, l);
            node[l] = k;
            TerrainKernels.emit(h, pb[NX], pb[NY], cam, k, tri, 9 * l);
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

    /** The frame's two graphs over {@code b} (split, merge), the heights uploaded once, the triangles downloaded on demand. */
    public static TaskGraph[] graphs(String name, TerrainBuffers b) {
        return graphs(name, b, null, false);
    }

    /**
     * The frame's graphs over {@code b} (packed heap of depth D ≥ 6), {@link #G_SPLIT} then {@link #G_MERGE}: the heap,
     * the flags and the heights go to the device once and stay (the merge graph takes the heap and the heights from the
     * split graph); each execution uploads its graph's parameters and camera; the info arrays, the triangles and their
     * nodes come back on demand.
     *
     * @param heightsFrom   null, or the name of the user's own task graph (executed first, in the same plan) that
     *                      leaves the heights on the device ({@code persistOnDevice(b.heights)}): the split graph takes
     *                      them from there ({@code consumeFromDevice}) instead of uploading them
     * @param persistOutput whether the triangles and their nodes stay on the device ({@code persistOnDevice}) for
     *                      the user's next graph ({@code consumeFromDevice(mergeName(name), b.tri, b.node)})
     */
    public static TaskGraph[] graphs(String name, TerrainBuffers b, String heightsFrom, boolean persistOutput) {
        return new TaskGraph[] {splitGraph(name, b, heightsFrom), mergeGraph(name, b, persistOutput)};
    }

    /** The split graph's name in a plan whose frame is called {@code name}. */
    public static String splitName(String name) {
        return name + "Split";
    }

    /** The merge graph's name (the one that emits the triangles). */
    public static String mergeName(String name) {
        return name + "Merge";
    }

    /**
     * The split half: split pass, flag application, reduction A (see {@link #graphs}). Its {@code pa[MODE]} is kept for
     * the plan's first execution only ({@link #MODE_CLEAR}: zero the flags, split nothing), which also compiles it.
     * One graph per half (issue 15 item 4) launches 2 + (D − 4 − TOP_LEVEL) tasks per execution where the one graph
     * of both halves launched 4 + 2·(D − 4 − TOP_LEVEL), half of them idle: at D = 22, 18 launches fewer per frame,
     * about 0.34 ms at 19 µs per further kernel on an H200 (docs/benchmarks.md, "Session 10, launch"), with the same
     * two executions per frame.
     */
    public static TaskGraph splitGraph(String name, TerrainBuffers b, String heightsFrom) {
        KernelContext c = b.context;
        TaskGraph g = new TaskGraph(splitName(name));
        if (heightsFrom != null) {
            g.consumeFromDevice(heightsFrom, b.heights);
        } else {
            g.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.heights);
        }
        g.transferToDevice(DataTransferMode.FIRST_EXECUTION, b.heap, b.flags)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, b.pa, b.cam)
                .task("split", TerrainTaskGraphs::split, c, b.pa, b.heap, b.flags, b.heights, b.cam, b.info)
                .task("apply", TerrainTaskGraphs::apply, c, b.pa, b.heap, b.flags, b.info);
        reduction(g, c, b.pa, b.heap, b.info, b.D, "A");
        return g.persistOnDevice(b.heap, b.heights).transferToHost(DataTransferMode.UNDER_DEMAND, b.info);
    }

    /** The merge half: merge pass, reduction B, emission (see {@link #graphs}). */
    public static TaskGraph mergeGraph(String name, TerrainBuffers b, boolean persistOutput) {
        KernelContext c = b.context;
        TaskGraph g = new TaskGraph(mergeName(name))
                .consumeFromDevice(splitName(name), b.heap, b.heights)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, b.pb, b.camB)
                .task("merge", TerrainTaskGraphs::merge, c, b.pb, b.heap, b.heights, b.camB, b.infoB);
        reduction(g, c, b.pb, b.heap, b.infoB, b.D, "B");
        g.task("emit", TerrainTaskGraphs::emit, c, b.pb, b.heap, b.heights, b.camB, b.tri, b.node, b.infoB);
        if (persistOutput) {
            g.persistOnDevice(b.tri, b.node);
        }
        return g.transferToHost(DataTransferMode.UNDER_DEMAND, b.infoB, b.tri, b.node);
    }
}
