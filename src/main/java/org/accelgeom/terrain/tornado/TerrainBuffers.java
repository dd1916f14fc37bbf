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
 * The arrays of the terrain frame's two task graphs ({@link TerrainTaskGraphs#graphs(String, TerrainBuffers, String, boolean)}):
 * the packed CBT heap, the split flags and the heights (resident on the device); each graph's parameter array
 * ({@code pa}: split graph, {@code pb}: merge graph) and camera (uploaded every execution); each graph's info array
 * (L and the heartbeats, downloaded after each execution); the triangles and their heap nodes (downloaded per frame).
 * Also the launch grids, sized by {@link #split} and {@link #merge} for the next execution.
 */
public final class TerrainBuffers {

    private static final int LOCAL = Tuning.CBT_LOCAL.intValue();

    public final int D;
    public final int[] heap;
    public final float[] heights;
    public final int[] flags;
    public final int[] pa = new int[TerrainTaskGraphs.PARAMS];
    public final int[] pb = new int[TerrainTaskGraphs.PARAMS];
    /** The camera of the frame ({@link org.accelgeom.terrain.Terrain#kernelCamera}), for each graph ({@link #camera}). */
    public final float[] cam = new float[TerrainKernels.CAMERA_FLOATS];
    public final float[] camB = new float[TerrainKernels.CAMERA_FLOATS];
    /** info[0]: L after the split graph's execution; from info[INFO_BEATS]: its heartbeats. */
    public final int[] info = new int[TerrainTaskGraphs.INFO];
    /** infoB[0]: L after the merge graph's execution (the frame's triangles); from infoB[INFO_BEATS]: its heartbeats. */
    public final int[] infoB = new int[TerrainTaskGraphs.INFO];
    /** The two graphs' heartbeats, named ({@link TerrainTaskGraphs#splitCheck}, {@link TerrainTaskGraphs#mergeCheck}). */
    public final org.accelgeom.engine.tornado.LaunchCheck[] checks = {TerrainTaskGraphs.splitCheck(),
        TerrainTaskGraphs.mergeCheck()};
    /** Triangle l of the frame: 9 floats from tri[9 * l]; node[l]: its heap index (at most capacity of them). */
    public final float[] tri;
    public final int[] node;
    public final KernelContext context = new KernelContext();
    /** The work-group of reduceTop on the plan's device. */
    public final int topGroup;
    private final List<List<String>> tasks = List.of(new ArrayList<>(), new ArrayList<>());
    private final List<List<WorkerGrid1D>> workers = List.of(new ArrayList<>(), new ArrayList<>());
    private int leaves;
    private int seq;

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
        pb[CbtTaskGraphs.MODE] = CbtTaskGraphs.MODE_REDUCE; // the merge graph always reduces (CbtTaskGraphs' kernels read it)
        List<String> a = tasks.get(TerrainTaskGraphs.G_SPLIT);
        a.add("split");
        a.add("apply");
        a.addAll(List.of(TerrainTaskGraphs.reduceTasks(D, "A")));
        List<String> b = tasks.get(TerrainTaskGraphs.G_MERGE);
        b.add("merge");
        b.addAll(List.of(TerrainTaskGraphs.reduceTasks(D, "B")));
        b.add("emit");
    }

    /** The launch grids of the frame's graphs named after {@code name} (one work-item per task until sized). */
    public GridScheduler grid(String name) {
        GridScheduler gs = new GridScheduler();
        String[] graphs = {TerrainTaskGraphs.splitName(name), TerrainTaskGraphs.mergeName(name)};
        for (int g = 0; g < 2; g++) {
            workers.get(g).clear();
            for (String task : tasks.get(g)) {
                WorkerGrid1D w = new WorkerGrid1D(1);
                workers.get(g).add(w);
                gs.addWorkerGrid(graphs[g] + "." + task, w);
            }
        }
        return gs;
    }

    /** The camera of the next frame, into both graphs' arrays. */
    public void camera(float[] c) {
        System.arraycopy(c, 0, cam, 0, cam.length);
        System.arraycopy(c, 0, camB, 0, camB.length);
    }

    /**
     * Prepares the next execution of the split graph in {@code mode} ({@link TerrainTaskGraphs#MODE_SPLIT} |
     * MODE_REDUCE in a frame, {@link TerrainTaskGraphs#MODE_CLEAR} in the plan's first execution): a new sequence
     * number (returned) and the grids sized for the current L.
     */
    public int split(int mode) {
        pa[CbtTaskGraphs.MODE] = mode;
        pa[CbtTaskGraphs.SEQ] = ++seq;
        size(TerrainTaskGraphs.G_SPLIT);
        return seq;
    }

    /** Prepares the next execution of the merge graph (after the split graph's, {@link #leaves} set): its sequence number. */
    public int merge() {
        pb[CbtTaskGraphs.SEQ] = ++seq;
        size(TerrainTaskGraphs.G_MERGE);
        return seq;
    }

    private void size(int g) {
        for (int i = 0; i < tasks.get(g).size(); i++) {
            String task = tasks.get(g).get(i);
            CbtTaskGraphs.size(workers.get(g).get(i), items(task), task.startsWith("top") ? topGroup : LOCAL);
        }
    }

    /**
     * Throws, naming the first task that did not run, unless every task of graph {@code g}'s execution numbered
     * {@code seq} wrote its heartbeat to the graph's downloaded info array (copied into the check here, so the check
     * adds no transfer).
     */
    public void verify(int g, int seq, String device, String phase) {
        org.accelgeom.engine.tornado.LaunchCheck check = checks[g];
        int[] in = g == TerrainTaskGraphs.G_SPLIT ? info : infoB;
        for (int k = 0; k < check.size(); k++) {
            check.beat[k] = in[TerrainTaskGraphs.INFO_BEATS + k];
        }
        check.verifyRange(seq, device, phase, 0, check.size());
    }

    /** The leaf count after an execution (info[0], downloaded), which bounds the next execution's grids. */
    public void leaves(int l) {
        leaves = l;
    }

    private long items(String task) {
        int modeA = pa[CbtTaskGraphs.MODE];
        boolean a = (modeA & (TerrainTaskGraphs.MODE_SPLIT | TerrainTaskGraphs.MODE_CLEAR)) != 0;
        if (task.equals("split")) {
            return (modeA & TerrainTaskGraphs.MODE_SPLIT) != 0 ? leaves : 1;
        }
        if (task.equals("apply")) {
            return a ? 1L << (D - 5) : 1;
        }
        if (task.equals("merge") || task.equals("emit")) {
            return leaves;
        }
        if (task.startsWith("top")) {
            return topGroup;
        }
        boolean on = task.endsWith("A") || task.startsWith("levelA") ? (modeA & CbtTaskGraphs.MODE_REDUCE) != 0 : true;
        if (!on) {
            return 1;
        }
        if (task.startsWith("prepass")) {
            return WordReduction.prepass(D, 1) ? WordReduction.prepassWordCount(D) : 1L << (D - 5);
        }
        return 1L << Integer.parseInt(task.substring(6));
    }
}
