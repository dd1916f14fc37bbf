package org.accelgeom.terrain.tornado;


import org.accelgeom.cbt.Cbt;
import org.accelgeom.cbt.tornado.CbtTaskGraphs;
import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.tornado.GraphNames;
import org.accelgeom.engine.tornado.Plans;
import org.accelgeom.engine.tornado.TornadoDevices;
import org.accelgeom.terrain.TerrainBackend;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.common.TornadoDevice;

/**
 * The {@code tornado} terrain backend: one plan over the two graphs of {@link TerrainTaskGraphs#graphs}; the heap,
 * the flags and the heights stay on the device; per frame two executions (the split graph, then the merge graph with
 * the emission) upload the camera and download L and the triangles.
 */
public final class TornadoTerrainBackend implements TerrainBackend {


    private final TornadoDevice device;
    private final int topGroup;
    private PhaseTimings timings;
    private Cbt tree;
    private int capacity;
    private TerrainBuffers b;
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
        this.capacity = cap;
        b = new TerrainBuffers(t.heap(), t.maxDepth(), t.leafCount(), heights, nx, ny, cap, topGroup);
        String name = GraphNames.unique("terrain");
        timings.time("build task graph", Kind.HOST, () -> {
            TaskGraph[] g = TerrainTaskGraphs.graphs(name, b);
            plan = new TornadoExecutionPlan(g[0].snapshot(), g[1].snapshot());
            plan.withDevice(device).withGridScheduler(b.grid(name));
        });
        // first execution: upload, compile the split graph, zero the flags on the device (the merge graph compiles in
        // the first frame: it has no idle mode, and any execution of it merges)
        execute("upload + clear flags", TerrainTaskGraphs.G_SPLIT, b.split(TerrainTaskGraphs.MODE_CLEAR));
    }

    /** Executes graph g (prepared as execution number seq), downloads its info array and checks its heartbeats. */
    private void execute(String phase, int g, int seq) {
        int[] in = g == TerrainTaskGraphs.G_SPLIT ? b.info : b.infoB;
        long t0 = System.nanoTime();
        plan.withGraph(g);
        last = Plans.execute(plan, device, timings);
        last.transferToHost(in);
        long wall = System.nanoTime() - t0;
        try {
            b.verify(g, seq, device.getPhysicalDevice().getDeviceName(), phase);
        } catch (AccelGeomException e) { // the reductions' work-group size is the usual cause
            throw new AccelGeomException(e.getMessage() + "; or ACCELGEOM_JAVA_OPTS=-Daccelgeom.cbt.local=64");
        }
        long kernel = Plans.kernelNanos(last); // read before the download above cleared TornadoVM's profiler
        if (kernel > 0) {
            timings.add(phase + " (kernels)", Kind.KERNEL, kernel);
            timings.add("launch overhead", Kind.HOST, Math.max(0, wall - kernel));
        } else {
            timings.add(phase + " (device, wall)", Kind.KERNEL, wall);
        }
    }

    @Override
    public int frame(float[] camera, float[] outTri, int[] outNode) {
        b.camera(camera);
        execute("split + reduce", TerrainTaskGraphs.G_SPLIT, b.split(TerrainTaskGraphs.MODE_SPLIT | CbtTaskGraphs.MODE_REDUCE));
        int before = b.info[CbtTaskGraphs.INFO_LEAVES];
        b.leaves(before); // the merge and emit grids cover the leaves after the split
        execute("merge + reduce + emit", TerrainTaskGraphs.G_MERGE, b.merge());
        int n = b.infoB[CbtTaskGraphs.INFO_LEAVES];
        b.leaves(n);
        if (n > before) {
            throw new IllegalStateException("the merge pass cannot add leaves");
        }
        long t0 = System.nanoTime();
        last.transferToHost(b.tri, b.node);
        timings.add("download triangles", Kind.DOWNLOAD, System.nanoTime() - t0);
        int m = Math.min(n, capacity);
        System.arraycopy(b.tri, 0, outTri, 0, 9 * m);
        System.arraycopy(b.node, 0, outNode, 0, m);
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
