package org.accelgeom.kdtree.tornado;

import java.util.concurrent.atomic.AtomicInteger;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.tornado.Plans;
import org.accelgeom.engine.tornado.TornadoDevices;
import org.accelgeom.kdtree.LevelBuffers;
import org.accelgeom.kdtree.LevelBuilder;
import org.accelgeom.kdtree.SmallBuffers;
import org.accelgeom.kdtree.SmallKernels;
import org.accelgeom.kdtree.LevelSteps;
import org.accelgeom.kdtree.Triangles;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;

/**
 * The large-node stage on a TornadoVM device: {@link LevelTaskGraphs} in one execution plan, executed once per
 * level with the launch sizes of that level. The triangles go to the device with the plan's first execution and
 * stay there: the plan serves later builds of the same triangle array (same instance), as benchmarks repeat them.
 */
public final class TornadoLevelSteps implements LevelSteps {

    private static final AtomicInteger PLANS = new AtomicInteger();

    private final TornadoDevice device;
    private final LevelBuffers b;
    private final TornadoExecutionPlan plan;
    private final WorkerGrid1D[] grids;
    /** The work-group size of the scan kernels: {@link LevelTaskGraphs#SCAN_GROUP}, at most the device's maximum. */
    private final int scanGroup;
    private final String[] tasks;
    private float[] loaded;
    private TornadoExecutionResult last;
    /** The result of the level graph's last execution (its arrays download through it). */
    private TornadoExecutionResult lastLevel;

    /**
     * @param deviceIndex TornadoVM device (-1: default)
     * @param n           triangles
     * @param small       the small-node threshold
     */
    public TornadoLevelSteps(Integer deviceIndex, Integer n, Integer small, LevelBuilder.SmallStage stage) {
        device = TornadoDevices.device(deviceIndex == null ? -1 : deviceIndex);
        long need = LevelBuffers.bytes(n, small, stage);
        if (need > device.getMaxGlobalMemory() * 0.8) {
            throw new AccelGeomException(String.format("%d triangles need about %.1f GiB on the device, more than %s has",
                    n, need / 1073741824.0, device.getPhysicalDevice().getDeviceName()));
        }
        b = new LevelBuffers(n, small, stage);
        String name = "kdLevels" + PLANS.incrementAndGet();
        GridScheduler gs = new GridScheduler();
        tasks = LevelTaskGraphs.tasks(b);
        // two graphs in one plan when there is a small stage: the level graph and the small stage's, sharing the
        // level arrays on the device; grids[0..4] are the level graph's tasks, the rest the small graph's
        WorkerGrid1D[] level = LevelTaskGraphs.grids(name, gs, LevelTaskGraphs.TASKS);
        // the scans are one work-group each (local sums of at most SCAN_GROUP items)
        scanGroup = TornadoDevices.workGroup(device, LevelTaskGraphs.SCAN_GROUP);
        level[3].setGlobalWork(scanGroup, 1, 1);
        level[3].setLocalWork(scanGroup, 1, 1);
        // count and scatter: a work-group per chunk of references
        level[2].setLocalWork(LevelBuffers.CHUNK, 1, 1);
        level[4].setLocalWork(LevelBuffers.CHUNK, 1, 1);
        if (b.small != null) {
            WorkerGrid1D[] sm = LevelTaskGraphs.grids(name + "s", gs, SmallTaskGraphs.TASKS);
            grids = java.util.Arrays.copyOf(level, level.length + sm.length);
            System.arraycopy(sm, 0, grids, level.length, sm.length);
            grids[LevelTaskGraphs.TASKS.length + SmallTaskGraphs.SPLIT].setLocalWork(SmallSplitGroup.GROUP, 1, 1);
            grids[LevelTaskGraphs.TASKS.length + SmallTaskGraphs.SCAN].setGlobalWork(scanGroup, 1, 1);
            grids[LevelTaskGraphs.TASKS.length + SmallTaskGraphs.SCAN].setLocalWork(scanGroup, 1, 1);
            grids[LevelTaskGraphs.TASKS.length + SmallTaskGraphs.SCATTER].setLocalWork(LevelBuffers.CHUNK, 1, 1);
            plan = new TornadoExecutionPlan(LevelTaskGraphs.graph(name, b).snapshot(),
                    SmallTaskGraphs.graph(name + "s", name, b).snapshot());
        } else {
            grids = level;
            plan = new TornadoExecutionPlan(LevelTaskGraphs.graph(name, b).snapshot());
        }
        // strict IEEE arithmetic: TornadoVM's default OpenCL flags (-cl-mad-enable -cl-fast-relaxed-math) let the
        // driver fuse, reassociate and approximate divisions, and the tree would differ from the jvm's
        plan.withDevice(device).withGridScheduler(gs).withCompilerFlags(TornadoVMBackendType.OPENCL, "-w");
        if (Plans.PROFILE) {
            Plans.profiled(plan);
        }
    }

    @Override
    public LevelBuffers buffers() {
        return b;
    }

    @Override
    public boolean accepts(Triangles tris) {
        return loaded == null || loaded == tris.v();
    }

    @Override
    public void load(Triangles tris, PhaseTimings t) {
        if (loaded == tris.v()) {
            return; // on the device since the plan's first execution
        }
        if (loaded != null) {
            throw new IllegalStateException("these device arrays hold other triangles");
        }
        t.time("root references (host, first build)", Kind.HOST, () -> {
            System.arraycopy(tris.v(), 0, b.v, 0, tris.v().length);
            tris.boxes(b.rootBox); // into the plan's own array: the device buffer is bound to it
        });
        loaded = tris.v();
    }

    @Override
    public void level(PhaseTimings t) {
        int[] st = b.state;
        int r = st[LevelBuffers.P_R];
        int m = st[LevelBuffers.P_M];
        int chunks = st[LevelBuffers.P_CHUNKS];
        int cw = Math.max(1, chunks) * LevelBuffers.CHUNK;
        int[] sizes = {r, m, cw, scanGroup, Math.max(cw, (m + LevelBuffers.CHUNK - 1) / LevelBuffers.CHUNK * LevelBuffers.CHUNK)};
        for (int j = 0; j < sizes.length; j++) {
            grids[j].setGlobalWork(Math.max(1, sizes[j]), 1, 1);
        }
        int seq = ++st[LevelBuffers.P_SEQ];
        long t0 = System.nanoTime();
        if (b.small != null) {
            plan.withGraph(0);
        }
        last = Plans.execute(plan, device);
        lastLevel = last;
        long wall = System.nanoTime() - t0;
        for (int j = 0; j < LevelTaskGraphs.TASKS.length; j++) {
            if (st[LevelBuffers.C_BEAT + j] != seq) {
                throw new AccelGeomException("the TornadoVM kernel '" + LevelTaskGraphs.TASKS[j] + "' of the kd-tree levels "
                        + "did not run on " + device.getPhysicalDevice().getDeviceName()
                        + " (see the OpenCL error above); try another --device or the jvm-parallel backend");
            }
        }
        Plans.charge(t, "large-node levels", last, wall);
    }

    @Override
    public void small(PhaseTimings t) {
        int[] st = b.state;
        int[] sizes = SmallTaskGraphs.sizes(st);
        int five = LevelTaskGraphs.TASKS.length;
        for (int j = five; j < grids.length; j++) {
            int global = sizes[j - five];
            if (j == five + SmallTaskGraphs.SPLIT) {
                // SmallSplitGroup.LANES work-items per node
                long items = ((long) global + SmallSplitGroup.NODES - 1) / SmallSplitGroup.NODES * SmallSplitGroup.GROUP;
                if (items > Integer.MAX_VALUE) {
                    throw new AccelGeomException("a small-node level of " + global + " nodes is beyond one kernel launch");
                }
                global = (int) items;
            }
            if (j == five + SmallTaskGraphs.SCAN) {
                global = scanGroup;
            }
            if (j == five + SmallTaskGraphs.SCATTER) {
                global *= LevelBuffers.CHUNK; // a work-group per chunk
            }
            grids[j].setGlobalWork(global, 1, 1);
        }
        int seq = ++st[LevelBuffers.P_SEQ];
        long t0 = System.nanoTime();
        plan.withGraph(1);
        last = Plans.execute(plan, device);
        long wall = System.nanoTime() - t0;
        for (int j = 0; j < SmallTaskGraphs.TASKS.length; j++) {
            if (st[SmallKernels.S_BEAT + j] != seq) {
                throw new AccelGeomException("the TornadoVM kernel '" + SmallTaskGraphs.TASKS[j] + "' of the kd-tree's small "
                        + "nodes did not run on " + device.getPhysicalDevice().getDeviceName()
                        + " (see the OpenCL error above); try another --device or the jvm-parallel backend");
            }
        }
        Plans.charge(t, st[SmallKernels.S_MODE] == SmallKernels.MODE_SEED ? "small-node seed and level" : "small-node levels",
                last, wall);
    }

    @Override
    public void downloadSmall(boolean external, PhaseTimings t) {
        long t0 = System.nanoTime();
        SmallBuffers s = b.small;
        // the level arrays through the level graph's result (the small graph works on the same device buffers),
        // the small stage's own through its graph's
        if (external) {
            lastLevel.transferToHost(b.gVox, b.gDepth, b.doneBox);
        } else {
            lastLevel.transferToHost(b.gInt, b.doneInt);
            last.transferToHost(s.gFirst, s.gEnd, s.oInt, s.oPos, s.oMask);
        }
        t.add(external ? "download voxels and boxes of host roots" : "download node records", Kind.DOWNLOAD,
                System.nanoTime() - t0);
    }

    @Override
    public void download(PhaseTimings t) {
        long t0 = System.nanoTime();
        lastLevel.transferToHost(b.gInt, b.gPos, b.gVox, b.doneInt, b.doneBox);
        t.add("download node records and hand-off list", Kind.DOWNLOAD, System.nanoTime() - t0);
    }

    @Override
    public void close() {
        Plans.release(plan);
    }
}
