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

import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.common.TornadoDevice;

/**
 * The {@code tornado} terrain backend: one plan over {@link TerrainTaskGraphs#graph}; the heap, the flags and the
 * heights stay on the device; per frame two executions (split half, then merge half with the emission) upload
 * the camera and download L and the triangles.
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
            plan = new TornadoExecutionPlan(TerrainTaskGraphs.graph(name, b).snapshot());
            plan.withDevice(device).withGridScheduler(b.grid(name));
            if (Plans.PROFILE) {
                Plans.profiled(plan);
            }
        });
        // first execution: upload, compile, zero the flags on the device
        execute("upload + clear flags", TerrainTaskGraphs.MODE_CLEAR, 0);
    }

    private void execute(String phase, int modeA, int modeB) {
        int seq = b.half(modeA, modeB);
        long t0 = System.nanoTime();
        last = Plans.execute(plan, device);
        last.transferToHost(b.info);
        long wall = System.nanoTime() - t0;
        try {
            b.verify(seq, device.getPhysicalDevice().getDeviceName(), phase);
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
        b.leaves(b.info[0]);
    }

    @Override
    public int frame(float[] camera, float[] outTri, int[] outNode) {
        System.arraycopy(camera, 0, b.cam, 0, b.cam.length);
        execute("split + reduce", TerrainTaskGraphs.MODE_SPLIT | CbtTaskGraphs.MODE_REDUCE, 0);
        int before = b.info[0]; // the merge and emit grids cover the leaves after the split
        execute("merge + reduce + emit", 0, TerrainTaskGraphs.MODE_MERGE | CbtTaskGraphs.MODE_REDUCE);
        int n = b.info[0];
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
