package org.accelgeom.kdtree.zhou.tornado;

import org.accelgeom.engine.tornado.JvmWorkGroups;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.kdtree.Triangles;
import org.accelgeom.kdtree.TreeArrays;
import org.accelgeom.kdtree.zhou.LevelBuffers;
import org.accelgeom.kdtree.zhou.ZhouBuilder;
import org.accelgeom.kdtree.zhou.ZhouBackend;
import org.accelgeom.kdtree.zhou.SmallBuffers;
import org.accelgeom.kdtree.zhou.SmallKernels;
import org.accelgeom.kdtree.zhou.SubtreeKernels;

import uk.ac.manchester.tornado.api.GridScheduler;
import uk.ac.manchester.tornado.api.KernelContext;
import uk.ac.manchester.tornado.api.WorkerGrid1D;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;
import uk.ac.manchester.tornado.api.types.arrays.IntArray;

/**
 * The device's task methods ({@link LevelTaskGraphs}, {@link SmallTaskGraphs}, {@link SubtreeGroup}) run on the JVM
 * in the order, with the launch sizes and heartbeat checks of {@link TornadoZhouBackend}: the work-group kernels
 * through {@link JvmWorkGroups}, the {@code @Parallel} loops as plain loops over their launch size. A build with
 * these steps must give the jvm backend's tree bit for bit: the work-group forms and the element kernels the jvm
 * backends run cannot drift apart.
 */
final class WorkGroupZhouBackend implements ZhouBackend {

    private final LevelBuffers b;
    private final int scanGroup;
    private float[] loaded;
    /** The device's tree arrays of this build, and whether the subtrees execution placed the tree in them. */
    private FloatArray split;
    private IntArray info;
    private IntArray leaf;
    private boolean placed;

    /** @param scanGroup the scan's work-group size (the device's maximum, at most {@link LevelTaskGraphs#SCAN_GROUP}) */
    WorkGroupZhouBackend(int n, int small, ZhouBuilder.SmallStage stage, int regionFactor, int scanGroup) {
        this.b = new LevelBuffers(n, small, stage, regionFactor);
        this.scanGroup = scanGroup;
    }

    @Override
    public LevelBuffers buffers() {
        return b;
    }

    @Override
    public void load(Triangles tris, PhaseTimings t) {
        if (loaded != tris.v()) {
            System.arraycopy(tris.v(), 0, b.v, 0, tris.v().length);
            tris.boxes(b.rootBox);
            loaded = tris.v();
        }
    }

    /** Both levels of the device's level graph, as one execution. */
    @Override
    public void level(PhaseTimings t) {
        int[] st = b.state;
        int r = st[LevelBuffers.P_R];
        int m = st[LevelBuffers.P_M];
        int seq = ++st[LevelBuffers.P_SEQ];
        level(sizes(r, m), LevelBuffers.C_BEAT);
        level(sizes((int) Math.min(b.rCap, 2L * r), (int) Math.min(b.mCap, 2L * m)), LevelBuffers.C_BEAT2);
        for (int j = 0; j < 2 * LevelTaskGraphs.levelTasks(); j++) {
            int slot = (j < LevelTaskGraphs.levelTasks() ? LevelBuffers.C_BEAT : LevelBuffers.C_BEAT2)
                    + j % LevelTaskGraphs.levelTasks();
            if (st[slot] != seq) {
                throw new IllegalStateException("task " + LevelTaskGraphs.tasks()[j] + " did not beat");
            }
        }
    }

    private void level(int[] size, int beat) {
        int[] st = b.state;
        if (LevelTaskGraphs.LOCAL_BINS) {
            JvmWorkGroups.run(size[2], LevelBuffers.CHUNK, kc -> LevelTaskGraphs.binsLocal(kc, st, b.rootBounds, b.rootBox,
                    b.refInt, b.refBox, b.vox, b.g, b.bins, beat));
        } else {
            LevelTaskGraphs.bins(JvmWorkGroups.atomics(), st, b.rootBounds, b.rootBox, b.refInt, b.refBox, b.vox, b.g,
                    b.bins, size[0], beat);
        }
        JvmWorkGroups.run(size[1], LevelBuffers.BINS, kc -> LevelTaskGraphs.split(kc, st, b.c, b.bins, b.vox, b.nodeInt,
                b.nodePos, b.gVox, b.gDepth, beat));
        JvmWorkGroups.run(size[2], LevelBuffers.CHUNK, kc -> LevelTaskGraphs.count(kc, st, b.refInt, b.refBox, b.nodeInt,
                b.nodePos, b.side, b.chunk, beat));
        JvmWorkGroups.run(size[3], size[3], kc -> LevelTaskGraphs.scan(kc, st, b.snap, b.nodeInt, b.chunk, beat));
        JvmWorkGroups.run(size[4], LevelBuffers.CHUNK, kc -> LevelTaskGraphs.scatter(kc, b.snap, b.v, b.refInt, b.refBox,
                b.side, b.nodeInt, b.nodePos, b.vox, b.g, b.chunk, b.doneInt, b.doneBox, b.gInt, b.gPos, st, beat));
    }

    /** {@link TornadoZhouBackend}'s launch sizes of one level of r references and m nodes. */
    private int[] sizes(int r, int m) {
        int cw = Math.max(1, (r + LevelBuffers.CHUNK - 1) / LevelBuffers.CHUNK) * LevelBuffers.CHUNK;
        return new int[] {Math.max(1, r), Math.max(1, m) * LevelBuffers.BINS, cw, scanGroup,
            Math.max(cw, (m + LevelBuffers.CHUNK - 1) / LevelBuffers.CHUNK * LevelBuffers.CHUNK)};
    }

    @Override
    public void download(PhaseTimings t) {
    }

    /**
     * One execution of a small-stage graph: {@code tasks} in their order, with {@link SmallTaskGraphs#size}'s launch
     * sizes (the layout one work-group of {@code scanGroup}); the place writes into {@link #split} ...
     */
    private void small(String[] tasks) {
        int[] st = b.state;
        SmallBuffers s = b.small;
        WorkerGrid1D[] w = SmallTaskGraphs.grids("wg", new GridScheduler(), tasks, scanGroup);
        SmallTaskGraphs.size(w, tasks, st);
        int seq = ++st[LevelBuffers.P_SEQ];
        for (int j = 0; j < tasks.length; j++) {
            int size = (int) w[j].getGlobalWork()[0];
            switch (tasks[j]) {
                case "sclear" -> SmallTaskGraphs.smallClear(st, s.gFirst, s.gEnd, size);
                case "sbounds" -> SmallTaskGraphs.smallBounds(st, b.doneInt, s.gFirst, s.gEnd, size);
                case "scands" -> SmallTaskGraphs.smallCands(st, b.doneInt, b.doneBox, s.gFirst, s.gEnd, s.cPos, s.cMask, size);
                case "sroots" -> JvmWorkGroups.run(size, size, kc -> SmallTaskGraphs.roots(kc, st, b.gInt, b.gDepth,
                        s.gFirst, s.gEnd, s.tStatus, s.tNodes, s.tWords, s.order));
                case "sbuild" -> JvmWorkGroups.run(size, SubtreeGroup.LANES, (KernelContext kc) -> SubtreeGroup.grow(kc, st,
                        b.c, b.v, b.gInt, b.doneInt, b.doneBox, b.gVox, b.gDepth, s.gFirst, s.gEnd, s.order, s.tStatus,
                        s.tNodes, s.tWords, s.rSplit, s.rInfo, s.rLeaf, s.masks ? 0 : 1));
                case "slayout" -> JvmWorkGroups.run(size, size, kc -> SmallTaskGraphs.layout(kc, st, b.gInt, b.gDepth,
                        s.gFirst, s.gEnd, s.tStatus, s.tNodes, s.tWords, s.size, s.words, s.at, s.off));
                case "splace" -> SmallTaskGraphs.place(st, b.gInt, b.gPos, s.gFirst, s.tStatus, s.tNodes, s.tWords, s.at,
                        s.off, s.rSplit, s.rInfo, s.rLeaf, split, info, leaf, size);
                default -> throw new IllegalStateException(tasks[j]);
            }
        }
        for (int j = 0; j < tasks.length; j++) {
            if (st[SmallTaskGraphs.beatSlot(tasks[j])] != seq) {
                throw new IllegalStateException("small task " + tasks[j] + " did not beat");
            }
        }
    }

    /** As the device: the whole stage in one execution, the tree placed when no root is left to the host. */
    @Override
    public long subtrees(PhaseTimings t) {
        int cap = (int) Math.min(Integer.MAX_VALUE - 64, (long) b.gCap + b.small.regionCap);
        split = new FloatArray(cap);
        info = new IntArray(cap);
        leaf = new IntArray(cap);
        int[] st = b.state;
        small(SmallTaskGraphs.subtreeTasks(b.small));
        if (st[SmallTaskGraphs.S_COVERED] != st[SmallKernels.S_D]) {
            throw new IllegalStateException("the runs cover " + st[SmallTaskGraphs.S_COVERED] + " of " + st[SmallKernels.S_D]);
        }
        placed = st[SmallTaskGraphs.S_HOST_ROOTS] == 0;
        return placed ? ((long) st[SmallTaskGraphs.S_NODES] << 32) | st[SmallTaskGraphs.S_WORDS] : -1;
    }

    @Override
    public void place(TreeArrays arrays, PhaseTimings t) {
        float[] split = arrays.split();
        int[] info = arrays.info();
        int[] leaf = arrays.leaf();
        if (arrays.nodes() > this.split.getSize() || arrays.words() > this.leaf.getSize()) {
            SmallBuffers s = b.small;
            for (int i = 0; i < b.state[SmallKernels.S_G]; i++) {
                SubtreeKernels.place(i, b.gInt, b.gPos, s.gFirst, s.tStatus, s.tNodes, s.tWords, s.at, s.off, s.rSplit,
                        s.rInfo, s.rLeaf, s.factor, split, info, leaf);
            }
            return;
        }
        if (!placed) {
            small(SmallTaskGraphs.placeTasks());
        }
        for (int j = 0; j < arrays.nodes(); j++) {
            split[j] = this.split.get(j);
            info[j] = this.info.get(j);
        }
        for (int j = 0; j < arrays.words(); j++) {
            leaf[j] = this.leaf.get(j);
        }
    }

    @Override
    public boolean accepts(Triangles tris) {
        return loaded == null || loaded == tris.v();
    }
}
