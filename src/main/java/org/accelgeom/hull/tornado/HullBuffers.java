package org.accelgeom.hull.tornado;

import org.accelgeom.hull.HullKernels;

/**
 * The arrays of one QuickHull execution plan (see {@link HullTaskGraphs}), sized by capacity, not by one input: the
 * point arrays have {@link #capacity} entries, of which the current input uses the first {@link #n}; the face tables
 * {@link #faceCapacity}. A {@link org.accelgeom.engine.DeviceSession} keeps them with their plan, and every input
 * that fits ({@link #fits}) is copied in ({@link #load}) and runs on the same plan: TornadoVM binds a plan to its
 * arrays, so the arrays, not the input's, are what stays. The points, labels, distances, index list and face
 * tables are shared by the plan's graphs on the device; every graph has its own small parameter, delta, flag,
 * output and heartbeat arrays ({@link PerGraph}), and the two round graphs differ in their delta capacity.
 *
 * <p>Points that a user's own task graph made on the device ({@link #onDevice}) are the user's arrays: the load graph
 * takes them with {@code consumeFromDevice} and copies them once to {@link #hx}, {@link #hy}, {@link #hz} for the
 * host's exact predicates.
 */
public final class HullBuffers {

    /** Points per block of the compaction kernels. */
    public static final int BLOCK = 1024;
    /** Largest number of work-groups of the arg-max passes. */
    static final int MAX_GROUPS = 8192;
    /**
     * Largest number of work-items of the farthest graph's partial arg-max (one value each, so more than the extremes'
     * 128 per group): 8192 work-items scanned 10^8 points in 5.9 ms per execution on an H100, too few to hide latency.
     */
    static final int MAX_FAR_GROUPS = 65536;

    /** Points the arrays hold; the current input has {@link #n} of them. */
    public final int capacity;
    public final int cap;
    public final int smallCap;
    public final int faceCapacity;
    /** Work-items of the arg-max passes and blocks of the compaction at capacity. */
    public final int groupsCapacity;
    public final int farGroupsCapacity;
    public final int blocksCapacity;
    /** The current input: its points, arg-max groups and compaction blocks (set by {@link #resize}). */
    public int n;
    public int groups;
    /** Work-items of the farthest graph's partial arg-max for the current input (its params[N_GROUPS]). */
    public int farGroups;
    public int blocks;
    public final double[] x;
    public final double[] y;
    public final double[] z;
    /** Host copies of device-made points ({@link #onDevice}); null when the points come from the host. */
    public final double[] hx;
    public final double[] hy;
    public final double[] hz;
    public final int[] active;
    public final int[] label;
    public final double[] dist;
    public final int[] labelOut;
    public final double[] plane;
    public final int[] coneFirst;
    public final int[] coneCount;
    /**
     * The farthest-point candidates of the round's new faces: {@link HullKernels#SLOTS} slots per new face, new face j
     * (face roundBase + j) at {@code SLOTS * j} ({@link HullKernels#farthestSlotPass}); at least as long as the face
     * tables.
     */
    public final int[] cand;
    /** Partial arg-max results of the extremes graph (128 directions per group) and of the farthest graph. */
    public final double[] bestVal;
    public final int[] bestIdx;
    public final double[] farVal;
    public final int[] farIdx;
    /** The first reduction stage's results (see {@link HullTaskGraphs#REDUCE_CHUNKS}) of each arg-max graph. */
    public final double[] midVal = new double[128 * HullTaskGraphs.REDUCE_CHUNKS];
    public final int[] midIdx = new int[128 * HullTaskGraphs.REDUCE_CHUNKS];
    public final double[] farMidVal = new double[HullTaskGraphs.REDUCE_CHUNKS];
    public final int[] farMidIdx = new int[HullTaskGraphs.REDUCE_CHUNKS];
    /** Survivors per block of {@link #BLOCK} points (compaction), and each block's first output slot. */
    public final int[] counts;
    public final int[] offsets;
    /** The load graph's (upload or take the points, init), the reset graph's (init of resident points). */
    public final PerGraph load;
    public final PerGraph reset;
    /** The extremes graph's (directions in dD, the extreme points in out) and the farthest graph's (line or plane). */
    public final PerGraph extremes;
    public final PerGraph farthest;
    /** The cull graph's (the inner polytope's planes, then a ball, in dD), the scatter and snapshot graphs'. */
    public final PerGraph cull;
    public final PerGraph scatter;
    public final PerGraph snapshot;
    /** The round graphs' (small and full delta capacity). */
    public final PerGraph round;
    public final PerGraph bigRound;
    /** Entries of the index list the per-point tasks of the round graphs visit (the compacted list). */
    public int nActive;
    /** Whether every graph of the plan over these buffers has run once (compiled, shared buffers taken over). */
    boolean started;
    /** Number of the last execution (the value its tasks write to their heartbeat slots). */
    public int seq;

    /** The per-graph arrays: parameters, delta (capacity entries per section), flags, output, launch check. */
    public static final class PerGraph {
        public final int cap;
        public final int[] params = new int[HullTaskGraphs.PARAMS];
        public final double[] dD;
        public final int[] dI;
        public final int[] flags = new int[HullKernels.FLAG_PASS + HullTaskGraphs.PASSES];
        public final int[] out;
        /** The graph's heartbeats, with the names of their slots ({@link HullTaskGraphs#launchCheck}). */
        public final org.accelgeom.engine.tornado.LaunchCheck check = HullTaskGraphs.launchCheck();
        public final int[] beat = check.beat;

        PerGraph(int cap, int doubles, int outs) {
            this.cap = cap;
            this.dD = new double[Math.max(1, doubles)];
            this.dI = new int[Math.max(1, 8 * cap)];
            this.out = new int[Math.max(1, outs)];
        }
    }

    /**
     * Arrays for up to {@code capacity} points, uploaded from the host by {@link #load}.
     *
     * @param cap      largest per-round delta (faces created, deleted, new vertices); {@code smallCap} the
     *                 delta of the round graph used when a round fits in it
     */
    public HullBuffers(int capacity, int faceCapacity, int cap, int smallCap) {
        this(new double[capacity], new double[capacity], new double[capacity], false, faceCapacity, cap, smallCap);
    }

    /**
     * Arrays over points that a user's task graph leaves on the device in {@code x}, {@code y}, {@code z} (all of
     * their entries are points); see {@link HullTaskGraphs#graphs(String, HullBuffers, String)}.
     */
    public static HullBuffers onDevice(double[] x, double[] y, double[] z, int faceCapacity, int cap, int smallCap) {
        if (y.length != x.length || z.length != x.length) {
            throw new IllegalArgumentException("coordinate arrays of different lengths");
        }
        HullBuffers b = new HullBuffers(x, y, z, true, faceCapacity, cap, smallCap);
        b.resize(x.length);
        return b;
    }

    /**
     * {@link #onDevice(double[], double[], double[], int, int, int)} with the tornado backend's sizes: face tables of
     * 16 + min(8n, 2^23) faces, round deltas of accelgeom.hull.roundCap and accelgeom.hull.smallRoundCap.
     */
    public static HullBuffers onDevice(double[] x, double[] y, double[] z) {
        int faces = org.accelgeom.engine.Tuning.HULL_INITIAL_FACES.intValue();
        return onDevice(x, y, z, faces > 0 ? faces : 16 + (int) Math.min(8L * x.length, 1 << 23),
                org.accelgeom.engine.Tuning.HULL_ROUND_CAP.intValue(), org.accelgeom.engine.Tuning.HULL_SMALL_ROUND_CAP.intValue());
    }

    private HullBuffers(double[] x, double[] y, double[] z, boolean device, int faceCapacity, int cap, int smallCap) {
        this.capacity = x.length;
        this.x = x;
        this.y = y;
        this.z = z;
        this.hx = device ? new double[capacity] : null;
        this.hy = device ? new double[capacity] : null;
        this.hz = device ? new double[capacity] : null;
        this.cap = cap;
        this.smallCap = Math.min(smallCap, cap);
        this.groupsCapacity = groupsFor(capacity);
        this.farGroupsCapacity = farGroupsFor(capacity);
        this.blocksCapacity = blocksFor(capacity);
        this.faceCapacity = faceCapacity;
        this.active = new int[capacity];
        this.label = new int[capacity];
        this.dist = new double[capacity];
        this.labelOut = new int[capacity];
        this.plane = new double[HullKernels.PLANE_STRIDE * faceCapacity];
        this.coneFirst = new int[faceCapacity];
        this.coneCount = new int[faceCapacity];
        this.cand = new int[Math.max(faceCapacity, HullKernels.SLOTS * cap)];
        this.bestVal = new double[groupsCapacity * 128];
        this.bestIdx = new int[groupsCapacity * 128];
        this.farVal = new double[farGroupsCapacity];
        this.farIdx = new int[farGroupsCapacity];
        this.counts = new int[blocksCapacity];
        this.offsets = new int[blocksCapacity];
        this.load = new PerGraph(0, 0, 0);
        this.reset = new PerGraph(0, 0, 0);
        this.extremes = new PerGraph(0, 3 * 128, 128);
        this.farthest = new PerGraph(0, 6, 1);
        this.cull = new PerGraph(0, HullTaskGraphs.CULL_BALL + 4, 0);
        this.scatter = new PerGraph(0, 0, 0);
        this.snapshot = new PerGraph(0, 0, 0);
        this.round = new PerGraph(this.smallCap, (HullKernels.PLANE_STRIDE + 1) * this.smallCap, this.smallCap);
        this.bigRound = new PerGraph(cap, (HullKernels.PLANE_STRIDE + 1) * cap, cap);
    }

    /** Work-items of the arg-max passes for n points (each scans about 256 points). */
    static int groupsFor(int n) {
        return Math.max(1, Math.min(MAX_GROUPS, n / 256));
    }

    /** Work-items of the farthest graph's partial arg-max for n points (each scans about 256 points). */
    static int farGroupsFor(int n) {
        return Math.max(1, Math.min(MAX_FAR_GROUPS, n / 256));
    }

    static int blocksFor(int n) {
        return Math.max(1, (n + BLOCK - 1) / BLOCK);
    }

    /** Whether n points fit. */
    public boolean fits(int n) {
        return n <= capacity;
    }

    /** Copies the input into the point arrays (host points only) and makes it the current one. */
    public void load(double[] px, double[] py, double[] pz) {
        if (hx != null) {
            throw new IllegalStateException("these buffers take their points from the device");
        }
        int m = px.length;
        if (!fits(m)) {
            throw new IllegalArgumentException(m + " points do not fit in buffers for " + capacity);
        }
        if (m < PARALLEL_COPY) {
            System.arraycopy(px, 0, x, 0, m);
            System.arraycopy(py, 0, y, 0, m);
            System.arraycopy(pz, 0, z, 0, m);
        } else { // 240 MB for 10^7 points: one thread took 52 ms of a one-shot's critical path on an H100 host
            int chunks = (m + PARALLEL_COPY - 1) / PARALLEL_COPY;
            java.util.stream.IntStream.range(0, 3 * chunks).parallel().forEach(k -> {
                int from = (k % chunks) * PARALLEL_COPY;
                int len = Math.min(PARALLEL_COPY, m - from);
                switch (k / chunks) {
                    case 0 -> System.arraycopy(px, from, x, from, len);
                    case 1 -> System.arraycopy(py, from, y, from, len);
                    default -> System.arraycopy(pz, from, z, from, len);
                }
            });
        }
        resize(m);
    }

    /** Points per chunk of {@link #load}'s copy on the common pool (inputs of fewer points are copied on one thread). */
    private static final int PARALLEL_COPY = 1 << 20;

    /** Makes the first m points the current input. */
    public void resize(int m) {
        n = m;
        nActive = m;
        groups = groupsFor(m);
        farGroups = farGroupsFor(m);
        blocks = blocksFor(m);
    }
}
