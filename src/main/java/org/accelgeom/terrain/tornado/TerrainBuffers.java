package org.accelgeom.terrain.tornado;

import java.util.ArrayList;
import java.util.List;

import org.accelgeom.cbt.WordReduction;
import org.accelgeom.cbt.tornado.CbtTaskGraphs;
import org.accelgeom.engine.Tuning;
import org.accelgeom.terrain.TerrainKernels;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.KernelContext;
import uk.ac.manchester.tornado.api.WorkerGrid1D;

/**
 * The arrays of the terrain frame's task graph ({@link TerrainTaskGraphs#graph(String, TerrainBuffers, String, boolean)}):
 * the packed CBT heap, the split flags and the heights (resident on the device); the two halves' parameter arrays
 * {@code pa} (split half) and {@code pb} (merge half) and the camera (uploaded every execution); the info arrays
 * (L and the heartbeat, downloaded after each execution); the triangles and their heap nodes (downloaded per frame).
 * Also the launch grids, sized by {@link #half} for the half an execution runs.
 */
public final class TerrainBuffers {

    private static final int LOCAL = Tuning.CBT_LOCAL.intValue();

    public final int D;
    public final int[] heap;
    public final float[] heights;
    public final int[] flags;
    public final int[] pa = new int[TerrainTaskGraphs.PARAMS];
    public final int[] pb = new int[TerrainTaskGraphs.PARAMS];
    /** The camera of the frame ({@link org.accelgeom.terrain.Terrain#kernelCamera}). */
    public final float[] cam = new float[TerrainKernels.CAMERA_FLOATS];
    /** info[0]: L after the execution; from info[INFO_BEATS]: the heartbeats ({@link #check}). */
    public final int[] info = new int[TerrainTaskGraphs.INFO];
    public final int[] infoB = new int[TerrainTaskGraphs.INFO];
    /** The frame graph's heartbeats, named ({@link TerrainTaskGraphs#launchCheck}); {@link #verify} fills them. */
    public final org.accelgeom.engine.tornado.LaunchCheck check = TerrainTaskGraphs.launchCheck();
    /** Triangle l of the frame: 9 floats from tri[9 * l]; node[l]: its heap index (at most capacity of them). */
    public final float[] tri;
    public final int[] node;
    public final KernelContext context = new KernelContext();
    /** The work-group of reduceTop on the plan's device. */
    public final int topGroup;
    private final List<String> tasks = new ArrayList<>();
    private final List<WorkerGrid1D> workers = new ArrayList<>();
    private int leaves;

    /**
     * Buffers over {@code heap}, a packed CBT heap of depth D ≥ 6 with {@code leaves} leaves (reduced), and the
     * heights (nx·ny, row major), for frames of at most {@code capacity} triangles.
     *
     * @param topGroup the work-group of reduceTop ({@link CbtTaskGraphs#topGroup} of the device)
     */
    public TerrainBuffers(int[] heap, int D, int leaves, float[] heights, int nx, int ny, int capacity, int topGroup) {
        this.D = D;
        this.heap = heap;
        this.heights = heights;
        this.leaves = leaves;
        this.flags = new int[1 << D];
        this.tri = new float[9 * capacity];
        this.node = new int[capacity];
        this.topGroup = topGroup;
        for (int[] p : new int[][] {pa, pb}) {
            p[CbtTaskGraphs.DEPTH] = D;
            p[CbtTaskGraphs.PACKED] = 1;
            p[CbtTaskGraphs.TOP] = Math.min(CbtTaskGraphs.TOP_LEVEL, D - 6);
            p[TerrainTaskGraphs.NX] = nx;
            p[TerrainTaskGraphs.NY] = ny;
        }
        tasks.add("split");
        tasks.add("apply");
        tasks.addAll(List.of(TerrainTaskGraphs.reduceTasks(D, "A")));
        tasks.add("merge");
        tasks.addAll(List.of(TerrainTaskGraphs.reduceTasks(D, "B")));
        tasks.add("emit");
    }

    /** The launch grid of the frame graph {@code name} (one work-item per task until {@link #half}). */
    public GridScheduler grid(String name) {
        GridScheduler gs = new GridScheduler();
        workers.clear();
        for (String task : tasks) {
            WorkerGrid1D w = new WorkerGrid1D(1);
            workers.add(w);
            gs.addWorkerGrid(name + "." + task, w);
        }
        return gs;
    }

    /**
     * Prepares the next execution: {@code modeA} for the split half and {@code modeB} for the merge half (0, or
     * {@link TerrainTaskGraphs#MODE_SPLIT} | MODE_REDUCE, {@link TerrainTaskGraphs#MODE_MERGE} | MODE_REDUCE, or
     * {@link TerrainTaskGraphs#MODE_CLEAR} on the first execution); a new sequence number (returned) and the grids
     * sized for the current L. The frame: {@code half(SPLIT | REDUCE, 0)}, execute, {@link #leaves(int)} from info;
     * {@code half(0, MERGE | REDUCE)}, execute, L from info, then the triangles.
     */
    public int half(int modeA, int modeB) {
        pa[CbtTaskGraphs.MODE] = modeA;
        pb[CbtTaskGraphs.MODE] = modeB;
        pb[CbtTaskGraphs.SEQ]++;
        pa[CbtTaskGraphs.SEQ] = pb[CbtTaskGraphs.SEQ];
        for (int i = 0; i < tasks.size(); i++) {
            String task = tasks.get(i);
            CbtTaskGraphs.size(workers.get(i), items(task), task.startsWith("top") ? topGroup : LOCAL);
        }
        return pb[CbtTaskGraphs.SEQ];
    }

    /**
     * Throws, naming the first task that did not run, unless every task of the execution numbered {@code seq} wrote
     * its heartbeat to the downloaded {@link #info} (copied into {@link #check} here, so the check adds no transfer).
     */
    public void verify(int seq, String device, String phase) {
        for (int k = 0; k < check.size(); k++) {
            check.beat[k] = info[TerrainTaskGraphs.INFO_BEATS + k];
        }
        check.verifyRange(seq, device, phase, 0, check.size());
    }

    /** The leaf count after an execution (info[0], downloaded), which bounds the next execution's grids. */
    public void leaves(int l) {
        leaves = l;
    }

    private long items(String task) {
        int modeA = pa[CbtTaskGraphs.MODE];
        int modeB = pb[CbtTaskGraphs.MODE];
        boolean a = (modeA & (TerrainTaskGraphs.MODE_SPLIT | TerrainTaskGraphs.MODE_CLEAR)) != 0;
        boolean b = (modeB & TerrainTaskGraphs.MODE_MERGE) != 0;
        if (task.equals("split")) {
            return a ? leaves : 1;
        }
        if (task.equals("apply")) {
            return a ? 1L << (D - 5) : 1;
        }
        if (task.equals("merge") || task.equals("emit")) {
            return b ? leaves : 1;
        }
        if (task.startsWith("top")) {
            return topGroup;
        }
        boolean on = task.endsWith("A") || task.startsWith("levelA") ? (modeA & CbtTaskGraphs.MODE_REDUCE) != 0
                : (modeB & CbtTaskGraphs.MODE_REDUCE) != 0;
        if (!on) {
            return 1;
        }
        if (task.startsWith("prepass")) {
            return WordReduction.prepass(D, 1) ? WordReduction.prepassWordCount(D) : 1L << (D - 5);
        }
        return 1L << Integer.parseInt(task.substring(6));
    }
}
