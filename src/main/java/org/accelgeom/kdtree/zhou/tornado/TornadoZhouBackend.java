package org.accelgeom.kdtree.zhou.tornado;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.Tuning;
import org.accelgeom.engine.tornado.GraphNames;
import org.accelgeom.engine.tornado.Plans;
import org.accelgeom.engine.tornado.TornadoDevices;
import org.accelgeom.kdtree.TreeArrays;
import org.accelgeom.kdtree.Triangles;
import org.accelgeom.kdtree.zhou.LevelBuffers;
import org.accelgeom.kdtree.zhou.ZhouBuilder;
import org.accelgeom.kdtree.zhou.ZhouBackend;
import org.accelgeom.kdtree.zhou.SmallBuffers;
import org.accelgeom.kdtree.zhou.SmallKernels;
import org.accelgeom.kdtree.zhou.SubtreeKernels;

import uk.ac.manchester.tornado.api.DataRange;
import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;
import uk.ac.manchester.tornado.api.types.arrays.IntArray;

/**
 * The large-node stage on a TornadoVM device: {@link LevelTaskGraphs} in one execution plan, executed once per
 * level with the launch sizes of that level. The triangles go to the device with the plan's first execution and
 * stay there: the plan serves later builds of the same triangle array (same instance), as benchmarks repeat them.
 */
public final class TornadoZhouBackend implements ZhouBackend {

    private final TornadoDevice device;
    private final LevelBuffers b;
    private final TornadoExecutionPlan plan;
    /** The level graph's grids, and the small stage's graphs' (subtrees; place) with their task names. */
    private final WorkerGrid1D[] grids;
    private final WorkerGrid1D[] subtreeGrids;
    private final WorkerGrid1D[] placeGrids;
    private final String[] subtreeTasks;
    /** The work-group size of the scan kernels: {@link LevelTaskGraphs#SCAN_GROUP}, at most the device's maximum. */
    private final int scanGroup;
    private float[] loaded;
    /** The bounds of the triangles {@code boundsOf} (the plan keeps its triangles, so their bounds hold too). */
    private float[] bounds;
    private float[] boundsOf;
    private TornadoExecutionResult last;
    /** The heartbeats of the level graph and of the small stage's graphs (in the state array, copied on the host). */
    private final org.accelgeom.engine.tornado.LaunchCheck levelCheck = LevelTaskGraphs.launchCheck();
    private final org.accelgeom.engine.tornado.LaunchCheck smallCheck = SmallTaskGraphs.launchCheck();
    /** The result of the level graph's last execution (its arrays download through it). */
    private TornadoExecutionResult lastLevel;
    /** The result of the subtrees graph's last execution (the stage's arrays and the tree download through it). */
    private TornadoExecutionResult lastSubtrees;
    /** Whether the subtrees execution placed the whole tree (no root left to the host). */
    private boolean placed;
    /**
     * The last tree's size ({@code nodes << 32 | words}; -1: none yet) and heap arrays of that size, allocated on other
     * threads while the subtrees execution runs (the dragon's 53 MB took 3-5 ms more than the download on the H100).
     */
    private long lastSize = -1;
    private TreeArrays spare;
    /** The tree's flat arrays on the device (the small stage's place writes them). */
    private final FloatArray split;
    private final IntArray info;
    private final IntArray leaf;
    /** The tree's three arrays copied to the heap each while the next downloads ({@link #place}); false: after all. */
    private static final boolean PIPELINED_DOWNLOAD = Tuning.KDTREE_PIPELINED_DOWNLOAD.booleanValue();
    /** The graph the plan has selected (-1: all, as built). */
    private int selected = -1;

    /**
     * @param deviceIndex TornadoVM device (-1: default)
     * @param n           triangles
     * @param small       the small-node threshold
     */
    /** The level kernels as a service of the tornado build (see {@link ZhouBackend.Factory}). */
    public static final class Factory implements ZhouBackend.Factory {
        @Override
        public ZhouBackend create(org.accelgeom.engine.Execution execution, int n, int small, ZhouBuilder.SmallStage stage) {
            return new TornadoZhouBackend(execution.device(), n, small, stage);
        }
    }

    public TornadoZhouBackend(Integer deviceIndex, Integer n, Integer small, ZhouBuilder.SmallStage stage) {
        this(deviceIndex, n, small, stage, -1);
    }

    /** As above, with {@code regionFactor} region slots per reference in the small stage (-1: the default; tests). */
    public TornadoZhouBackend(Integer deviceIndex, Integer n, Integer small, ZhouBuilder.SmallStage stage, int regionFactor) {
        device = TornadoDevices.device(deviceIndex == null ? -1 : deviceIndex);
        long need = LevelBuffers.bytes(n, small, stage);
        if (need > device.getMaxGlobalMemory() * 0.8) {
            throw new AccelGeomException(String.format("%d triangles need about %.1f GiB on the device, more than %s has",
                    n, need / 1073741824.0, device.getPhysicalDevice().getDeviceName()));
        }
        b = new LevelBuffers(n, small, stage, regionFactor);
        String name = GraphNames.unique("kdLevels");
        GridScheduler gs = new GridScheduler();
        // with a small stage, three graphs in one plan sharing the level arrays on the device: the level graph, the
        // small stage's subtrees graph (the whole stage in one execution) and its place graph (for roots left to the
        // host); the scans and the layout are one work-group each (local sums of at most SCAN_GROUP items)
        scanGroup = TornadoDevices.workGroup(device, LevelTaskGraphs.SCAN_GROUP);
        grids = LevelTaskGraphs.levelGrids(name, gs, scanGroup);
        if (b.small != null) {
            subtreeTasks = SmallTaskGraphs.subtreeTasks(b.small);
            subtreeGrids = SmallTaskGraphs.grids(name + "Subtrees", gs, subtreeTasks, scanGroup);
            placeGrids = SmallTaskGraphs.grids(name + "Place", gs, SmallTaskGraphs.placeTasks(), scanGroup);
            // the tree's flat arrays: at most the global nodes plus every region's slots
            int cap = (int) Math.min(Integer.MAX_VALUE - 64, (long) b.gCap + b.small.regionCap);
            split = new FloatArray(cap);
            info = new IntArray(cap);
            leaf = new IntArray(cap);
            plan = new TornadoExecutionPlan(LevelTaskGraphs.graph(name, b).snapshot(),
                    SmallTaskGraphs.subtrees(name + "Subtrees", name, b, split, info, leaf).snapshot(),
                    SmallTaskGraphs.place(name + "Place", name + "Subtrees", b, split, info, leaf).snapshot());
        } else {
            subtreeTasks = null;
            subtreeGrids = null;
            placeGrids = null;
            split = null;
            info = null;
            leaf = null;
            plan = new TornadoExecutionPlan(LevelTaskGraphs.graph(name, b).snapshot());
        }
        // strict IEEE arithmetic: TornadoVM's default OpenCL flags (-cl-mad-enable -cl-fast-relaxed-math) let the
        // driver fuse, reassociate and approximate divisions, and the tree would differ from the jvm's. On NVIDIA,
        // at most 96 registers per work-item: more subtree work-groups fit an SM (the dragon's subtree kernel on an
        // H200: 57 ms at the driver's choice, 45 ms at 96, 47 at 80, 50 at 112; the level kernels do not change).
        // -Daccelgeom.kdtree.clflags=-w,... (commas for spaces) sets other flags.
        String flags = "-w";
        if (device.getPhysicalDevice().getDeviceName().toUpperCase(java.util.Locale.ROOT).contains("NVIDIA")) {
            flags = "-w -cl-nv-maxrregcount=96";
        }
        plan.withDevice(device).withGridScheduler(gs).withCompilerFlags(TornadoVMBackendType.OPENCL,
                Tuning.KDTREE_CLFLAGS.stringValue(flags).replace(",", " "));
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
    public float[] bounds(Triangles tris, org.accelgeom.engine.ParallelLoops loops) {
        if (boundsOf != tris.v()) {
            bounds = tris.bounds(loops);
            boundsOf = tris.v();
        }
        return bounds.clone();
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
        LevelTaskGraphs.size(grids, st, scanGroup);
        int seq = ++st[LevelBuffers.P_SEQ];
        long t0 = System.nanoTime();
        if (b.small != null && selected != 0) {
            plan.withGraph(0);
            selected = 0;
        }
        last = Plans.execute(plan, device, t);
        lastLevel = last;
        long wall = System.nanoTime() - t0;
        LevelTaskGraphs.verify(levelCheck, st, seq, device.getPhysicalDevice().getDeviceName());
        Plans.charge(t, "large-node levels", last, wall);
    }

    /** One execution of graph {@code graph} of the small stage (its tasks' grids sized), its heartbeats checked. */
    private void small(int graph, WorkerGrid1D[] w, String[] tasks, String phase, PhaseTimings t) {
        int[] st = b.state;
        SmallTaskGraphs.size(w, tasks, st);
        int seq = ++st[LevelBuffers.P_SEQ];
        long t0 = System.nanoTime();
        if (selected != graph) {
            plan.withGraph(graph);
            selected = graph;
        }
        last = Plans.execute(plan, device, t);
        long wall = System.nanoTime() - t0;
        SmallTaskGraphs.verify(smallCheck, st, seq, device.getPhysicalDevice().getDeviceName(), phase, tasks);
        Plans.charge(t, phase, last, wall);
    }

    /**
     * The subtrees graph: the whole stage in one execution. With no root left to the host the tree is placed on the
     * device ({@link #place} only brings it back); else the stage's status, counts and runs and the global records
     * come to the host for its roots and its layout.
     */
    @Override
    public long subtrees(PhaseTimings t) {
        spare = lastSize < 0 ? null : new TreeArrays((int) (lastSize >>> 32), (int) lastSize);
        small(1, subtreeGrids, subtreeTasks, "small-node subtrees", t);
        lastSubtrees = last;
        int[] st = b.state;
        if (st[SmallTaskGraphs.S_COVERED] != st[SmallKernels.S_D]) {
            throw new IllegalStateException("hand-off list not grouped by node: runs cover " + st[SmallTaskGraphs.S_COVERED]
                    + " of " + st[SmallKernels.S_D]);
        }
        placed = st[SmallTaskGraphs.S_HOST_ROOTS] == 0;
        if (placed) {
            lastSize = ((long) st[SmallTaskGraphs.S_NODES] << 32) | st[SmallTaskGraphs.S_WORDS];
            return lastSize;
        }
        long t0 = System.nanoTime();
        SmallBuffers s = b.small;
        // the level arrays through the level graph's result (the small graphs work on the same device buffers)
        lastLevel.transferToHost(b.gInt, b.gPos);
        lastSubtrees.transferToHost(s.gFirst, s.gEnd, s.tStatus, s.tNodes, s.tWords);
        t.add("download status and counts", Kind.DOWNLOAD, System.nanoTime() - t0);
        return -1;
    }

    @Override
    public TreeArrays arrays(long size) {
        TreeArrays a = spare;
        spare = null;
        if (a != null && a.nodes() == (int) (size >>> 32) && a.words() == (int) size) {
            return a;
        }
        return ZhouBackend.super.arrays(size);
    }

    @Override
    public void downloadHostRoots(PhaseTimings t) {
        long t0 = System.nanoTime();
        lastLevel.transferToHost(b.gVox, b.gDepth, b.doneInt, b.doneBox);
        if (b.small.masks) {
            lastSubtrees.transferToHost(b.small.cPos, b.small.cMask);
        }
        t.add("download voxels and boxes of host roots", Kind.DOWNLOAD, System.nanoTime() - t0);
    }

    @Override
    public void place(TreeArrays arrays, PhaseTimings t) {
        if (arrays.nodes() > this.info.getSize() || arrays.words() > this.leaf.getSize()) {
            float[] split = arrays.split();
            int[] info = arrays.info();
            int[] leaf = arrays.leaf();
            // many roots beyond their regions, built on the host, make the tree longer than the device's arrays: the
            // regions come to the host and are placed there (the device's arrays hold every region's slots)
            long t0 = System.nanoTime();
            SmallBuffers s = b.small;
            lastSubtrees.transferToHost(s.rSplit, s.rInfo, s.rLeaf);
            for (int i = 0; i < b.state[SmallKernels.S_G]; i++) {
                SubtreeKernels.place(i, b.gInt, b.gPos, s.gFirst, s.tStatus, s.tNodes, s.tWords, s.at, s.off, s.rSplit,
                        s.rInfo, s.rLeaf, s.factor, split, info, leaf);
            }
            t.add("place on the host (the tree is longer than the device's arrays)", Kind.HOST, System.nanoTime() - t0);
            return;
        }
        if (!placed) { // the host's layout, with its subtrees' counts
            small(2, placeGrids, SmallTaskGraphs.placeTasks(), "small-node place", t);
        }
        long t0 = System.nanoTime();
        if (!PIPELINED_DOWNLOAD) {
            // whole ranges: in slices (18 transfers, each copied to the heap while the next came) the H100 took 7.6 ms
            // instead of 4.8 for the dragon's 53 MB
            lastSubtrees.transferToHost(new DataRange(this.split).withSize(arrays.nodes()));
            lastSubtrees.transferToHost(new DataRange(this.info).withSize(arrays.nodes()));
            lastSubtrees.transferToHost(new DataRange(this.leaf).withSize(arrays.words()));
            t.add("download the tree", Kind.DOWNLOAD, System.nanoTime() - t0);
            long t1 = System.nanoTime();
            arrays.split();
            arrays.info();
            arrays.leaf();
            t.add("place: heap arrays (allocated meanwhile)", Kind.HOST, System.nanoTime() - t1);
            t1 = System.nanoTime();
            for (int a = 0; a < 3; a++) {
                copy(a, arrays).run();
            }
            t.add("place: copy the tree to heap arrays", Kind.HOST, System.nanoTime() - t1);
            return;
        }
        // three whole transfers, each array copied to its heap array (on the common pool) while the next one comes
        java.util.concurrent.CompletableFuture<?> copies = java.util.concurrent.CompletableFuture.completedFuture(null);
        for (int a = 0; a < 3; a++) {
            DataRange range = a == 0 ? new DataRange(this.split) : a == 1 ? new DataRange(this.info) : new DataRange(this.leaf);
            lastSubtrees.transferToHost(range.withSize(a == 2 ? arrays.words() : arrays.nodes()));
            if (a < 2) {
                copies = java.util.concurrent.CompletableFuture.allOf(copies,
                        java.util.concurrent.CompletableFuture.runAsync(copy(a, arrays)));
            }
        }
        t.add("download the tree (the first two arrays copied to the heap meanwhile)", Kind.DOWNLOAD, System.nanoTime() - t0);
        long t1 = System.nanoTime();
        copy(2, arrays).run();
        copies.join();
        t.add("place: copy the tree to heap arrays (the rest)", Kind.HOST, System.nanoTime() - t1);
    }

    /**
     * The copy of the device's array {@code a} (0 split, 1 info, 2 leaf) to its heap array, in slices on the common
     * pool: one thread copies about 10 GB/s.
     */
    private Runnable copy(int a, TreeArrays arrays) {
        return () -> {
            int slices = 48;
            int length = a == 2 ? arrays.words() : arrays.nodes();
            float[] split = a == 0 ? arrays.split() : null;
            int[] info = a == 1 ? arrays.info() : null;
            int[] leaf = a == 2 ? arrays.leaf() : null;
            java.util.stream.IntStream.range(0, slices).parallel().forEach(j -> {
                int from = (int) ((long) length * j / slices);
                int to = (int) ((long) length * (j + 1) / slices);
                copy(a, from, to, split, info, leaf);
            });
        };
    }

    /** Entries {@code from .. to-1} of the device's array {@code a} (0 split, 1 info, 2 leaf) to the heap array. */
    private void copy(int a, int from, int to, float[] split, int[] info, int[] leaf) {
        if (a == 0) {
            MemorySegment.copy(this.split.getSegment(), ValueLayout.JAVA_FLOAT, 4L * from, split, from, to - from);
        } else if (a == 1) {
            MemorySegment.copy(this.info.getSegment(), ValueLayout.JAVA_INT, 4L * from, info, from, to - from);
        } else {
            MemorySegment.copy(this.leaf.getSegment(), ValueLayout.JAVA_INT, 4L * from, leaf, from, to - from);
        }
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
