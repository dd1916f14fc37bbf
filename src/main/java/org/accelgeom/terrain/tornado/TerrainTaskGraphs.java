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
 */
public final class TerrainTaskGraphs {

    public static final int MODE_SPLIT = 1 << 8;
    public static final int MODE_MERGE = 1 << 9;
    public static final int MODE_CLEAR = 1 << 10;
    /** pa[NX], pa[NY]: the height grid's size. */
    public static final int NX = CbtTaskGraphs.PARAMS;
    public static final int NY = CbtTaskGraphs.PARAMS + 1;
    public static final int PARAMS = CbtTaskGraphs.PARAMS + 2;

    private TerrainTaskGraphs() {
    }

    private static int leaves(int[] heap, int D) {
        return CbtKernels.read(heap, D, 1, 1);
    }

    public static void split(KernelContext c, int[] pa, int[] heap, int[] flags, float[] h, float[] cam) {
        int D = pa[CbtTaskGraphs.DEPTH];
        int l = c.globalIdx;
        if (((pa[CbtTaskGraphs.MODE] & MODE_SPLIT) != 0 ? 1 : 0) + (l < leaves(heap, D) ? 1 : 0) == 2) {
            int k = CbtKernels.decode(heap, D, 1, l);
            int want = (CbtKernels.depth(k) < D ? 1 : 0) & (TerrainKernels.pixels(h, pa[NX], pa[NY], cam, k) > cam[TerrainKernels.TARGET] ? 1 : 0);
            if (want == 1) { // TerrainKernels.wantsSplit
                TerrainKernels.markSplit(flags, D, k);
            }
        }
    }

    public static void apply(KernelContext c, int[] pa, int[] heap, int[] flags) {
        int D = pa[CbtTaskGraphs.DEPTH];
        int j = c.globalIdx;
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

    public static void merge(KernelContext c, int[] pa, int[] pb, int[] heap, float[] h, float[] cam) {
        int D = pa[CbtTaskGraphs.DEPTH];
        int l = c.globalIdx;
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
            info[0] = n;
            info[2] = pb[CbtTaskGraphs.SEQ];
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

    /** The frame graph over a packed heap of depth pa[DEPTH] ≥ 6 (set it first). */
    public static TaskGraph graph(String name, KernelContext c, int[] pa, int[] pb, int[] heap, int[] flags, float[] h, float[] cam,
            float[] tri, int[] node, int[] info, int[] infoB) {
        int D = pa[CbtTaskGraphs.DEPTH];
        TaskGraph g = new TaskGraph(name)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, heap, h, flags)
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, pa, pb, cam)
                .task("split", TerrainTaskGraphs::split, c, pa, heap, flags, h, cam)
                .task("apply", TerrainTaskGraphs::apply, c, pa, heap, flags);
        reduction(g, c, pa, heap, info, D, "A");
        g.task("merge", TerrainTaskGraphs::merge, c, pa, pb, heap, h, cam);
        reduction(g, c, pb, heap, infoB, D, "B");
        return g.task("emit", TerrainTaskGraphs::emit, c, pa, pb, heap, h, cam, tri, node, info)
                .transferToHost(DataTransferMode.UNDER_DEMAND, info, infoB, tri, node);
    }
}
