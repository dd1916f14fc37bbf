package org.accelgeom.terrain.tornado;

import java.util.ArrayList;
import java.util.List;

import org.accelgeom.engine.Tuning;
import org.accelgeom.cbt.Cbt;
import org.accelgeom.cbt.WordReduction;
import org.accelgeom.cbt.tornado.CbtTaskGraphs;
import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.tornado.GraphNames;
import org.accelgeom.engine.tornado.Plans;
import org.accelgeom.engine.tornado.TornadoDevices;
import org.accelgeom.terrain.TerrainBackend;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.KernelContext;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.common.TornadoDevice;

/**
 * The {@code tornado} terrain backend: one plan over {@link TerrainTaskGraphs#graph}; the heap, the flags and the
 * heights stay on the device; per frame two executions (split half, then merge half with the emission) upload
 * the camera and download L and the triangles.
 */
public final class TornadoTerrainBackend implements TerrainBackend {

    private static final int LOCAL = Tuning.CBT_LOCAL.intValue();

    private final TornadoDevice device;
    private final int topGroup;
    private PhaseTimings timings;
    private Cbt tree;
    private int D;
    private int capacity;
    private int leaves;
    private final int[] pa = new int[TerrainTaskGraphs.PARAMS];
    private final int[] pb = new int[TerrainTaskGraphs.PARAMS];
    private final float[] cam = new float[org.accelgeom.terrain.TerrainKernels.CAMERA_FLOATS];
    private final int[] info = new int[4];
    private final int[] infoB = new int[4];
    private float[] tri;
    private int[] node;
    private final List<String> tasks = new ArrayList<>();
    private final List<WorkerGrid1D> workers = new ArrayList<>();
    private TornadoExecutionPlan plan;
    private TornadoExecutionResult last;

    /** The tornado backend as a service of the tornado build (see {@link TerrainBackend.Factory}). */
    public static final class Factory implements TerrainBackend.Factory {
        @Override
        public TerrainBackend create(Execution execution) {
            return new TornadoTerrainBackend(execution.device());
        }
    }

    /** @param deviceIndex device of the default TornadoVM backend, -1 for the default device */
    public TornadoTerrainBackend(int deviceIndex) {
        this.device = TornadoDevices.device(deviceIndex);
        this.topGroup = CbtTaskGraphs.topGroup(device);
    }

    @Override
    public void load(Cbt t, float[] heights, int nx, int ny, int cap, PhaseTimings pt) {
        this.tree = t;
        this.timings = pt;
        this.D = t.maxDepth();
        this.capacity = cap;
        this.tri = new float[9 * cap];
        this.node = new int[cap];
        for (int[] p : new int[][] {pa, pb}) {
            p[CbtTaskGraphs.DEPTH] = D;
            p[CbtTaskGraphs.PACKED] = 1;
            p[CbtTaskGraphs.TOP] = Math.min(CbtTaskGraphs.TOP_LEVEL, D - 6);
            p[TerrainTaskGraphs.NX] = nx;
            p[TerrainTaskGraphs.NY] = ny;
        }
        leaves = t.leafCount();
        int[] flags = new int[1 << D];
        String name = GraphNames.unique("terrain");
        tasks.add("split");
        tasks.add("apply");
        tasks.addAll(List.of(TerrainTaskGraphs.reduceTasks(D, "A")));
        tasks.add("merge");
        tasks.addAll(List.of(TerrainTaskGraphs.reduceTasks(D, "B")));
        tasks.add("emit");
        GridScheduler gs = new GridScheduler();
        for (String task : tasks) {
            WorkerGrid1D w = new WorkerGrid1D(1);
            workers.add(w);
            gs.addWorkerGrid(name + "." + task, w);
        }
        timings.time("build task graph", Kind.HOST, () -> {
            plan = new TornadoExecutionPlan(TerrainTaskGraphs.graph(name, new KernelContext(), pa, pb, t.heap(), flags, heights, cam, tri,
                    node, info, infoB).snapshot());
            plan.withDevice(device).withGridScheduler(gs);
            if (Plans.PROFILE) {
                Plans.profiled(plan);
            }
        });
        pa[CbtTaskGraphs.MODE] = TerrainTaskGraphs.MODE_CLEAR; // first execution: upload, compile, zero the flags on the device
        pb[CbtTaskGraphs.MODE] = 0;
        execute("upload + clear flags");
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

    private void execute(String phase) {
        pb[CbtTaskGraphs.SEQ]++;
        for (int i = 0; i < tasks.size(); i++) {
            CbtTaskGraphs.size(workers.get(i), items(tasks.get(i)), tasks.get(i).startsWith("top") ? topGroup : LOCAL);
        }
        long t0 = System.nanoTime();
        last = Plans.execute(plan, device);
        last.transferToHost(info);
        long wall = System.nanoTime() - t0;
        if (info[2] != pb[CbtTaskGraphs.SEQ]) {
            throw new AccelGeomException("a TornadoVM kernel of the terrain did not run on " + device.getPhysicalDevice().getDeviceName()
                    + " during '" + phase + "'; try ACCELGEOM_JAVA_OPTS=-Daccelgeom.cbt.local=64, another --device or the jvm-parallel backend");
        }
        long kernel = Plans.kernelNanos(last); // read before the download above cleared TornadoVM's profiler
        if (kernel > 0) {
            timings.add(phase + " (kernels)", Kind.KERNEL, kernel);
            timings.add("launch overhead", Kind.HOST, Math.max(0, wall - kernel));
        } else {
            timings.add(phase + " (device, wall)", Kind.KERNEL, wall);
        }
        leaves = info[0];
    }

    @Override
    public int frame(float[] camera, float[] outTri, int[] outNode) {
        System.arraycopy(camera, 0, cam, 0, cam.length);
        pa[CbtTaskGraphs.MODE] = TerrainTaskGraphs.MODE_SPLIT | CbtTaskGraphs.MODE_REDUCE;
        pb[CbtTaskGraphs.MODE] = 0;
        execute("split + reduce");
        pa[CbtTaskGraphs.MODE] = 0;
        pb[CbtTaskGraphs.MODE] = TerrainTaskGraphs.MODE_MERGE | CbtTaskGraphs.MODE_REDUCE;
        int before = leaves; // the merge and emit grids cover the leaves after the split
        execute("merge + reduce + emit");
        int n = leaves;
        if (n > before) {
            throw new IllegalStateException("the merge pass cannot add leaves");
        }
        long t0 = System.nanoTime();
        last.transferToHost(tri, node);
        timings.add("download triangles", Kind.DOWNLOAD, System.nanoTime() - t0);
        int m = Math.min(n, capacity);
        System.arraycopy(tri, 0, outTri, 0, 9 * m);
        System.arraycopy(node, 0, outNode, 0, m);
        tree.markStale();
        return n;
    }

    @Override
    public void close() {
        if (plan != null) {
            try {
                plan.close();
            } catch (Exception e) {
                // device memory of a finished plan: nothing left to do
            }
            plan = null;
        }
    }

    @Override
    public String toString() {
        return "tornado (" + device.getPhysicalDevice().getDeviceName() + ")";
    }
}
