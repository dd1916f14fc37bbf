package org.accelgeom.hull.tornado;

import org.accelgeom.hull.HullKernels;

/**
 * The arrays of one QuickHull execution plan (see {@link HullTaskGraphs}). Point arrays have n entries; face
 * tables {@code faceCapacity}. The points, labels, distances, index list and face tables are shared by the plan's
 * graphs on the device; every graph has its own small parameter, delta, flag, output and heartbeat arrays
 * ({@link PerGraph}), and the two round graphs differ in their delta capacity ({@code smallCap}, {@code cap}).
 */
public final class HullBuffers {

    /** Points per block of the compaction kernels. */
    public static final int BLOCK = 1024;

    public final int n;
    public final int cap;
    public final int smallCap;
    public final int groups;
    public final int blocks;
    public final int faceCapacity;
    public final double[] x;
    public final double[] y;
    public final double[] z;
    public final int[] active;
    public final int[] label;
    public final double[] dist;
    public final int[] labelOut;
    public final double[] plane;
    public final int[] coneFirst;
    public final int[] coneCount;
    public final int[] cand;
    public final double[] bestVal;
    public final int[] bestIdx;
    public final int[] red = new int[128];
    /** Survivors per block of {@link #BLOCK} points (compaction), and each block's first output slot. */
    public final int[] counts;
    public final int[] offsets;
    /** The setup graph's: params, directions / line / plane / inner polytope in dD. */
    public final PerGraph setup;
    /** The round graphs (small and full delta capacity), and the extra farthest passes. */
    public final PerGraph round;
    public final PerGraph bigRound;
    public final PerGraph passes;
    /** The setup graph's own copy of params (the one its executions read). */
    public final int[] params;
    /** The setup graph's double parameters (directions, line or plane, the inner polytope's planes). */
    public final double[] dD;
    /** Number of the last execution (the value its tasks write to their heartbeat slots). */
    public int seq;

    /** The per-graph arrays: parameters, delta (capacity entries per section), flags, output, heartbeats. */
    public static final class PerGraph {
        public final int cap;
        public final int[] params = new int[HullTaskGraphs.PARAMS];
        public final double[] dD;
        public final int[] dI;
        public final int[] flags = new int[HullKernels.FLAG_PASS + HullTaskGraphs.PASSES];
        public final int[] out;
        public final int[] beat = new int[HullTaskGraphs.BEATS];

        PerGraph(int cap, int doubles) {
            this.cap = cap;
            this.dD = new double[doubles];
            this.dI = new int[8 * cap];
            this.out = new int[Math.max(1, cap)];
        }
    }

    /**
     * @param cap      largest per-round delta (faces created, deleted, new vertices); {@code smallCap} the
     *                 delta of the round graph used when a round fits in it
     * @param groups   work-items of the arg-max passes (each scans n / groups points)
     */
    public HullBuffers(double[] x, double[] y, double[] z, int faceCapacity, int cap, int smallCap, int groups) {
        this.n = x.length;
        this.x = x;
        this.y = y;
        this.z = z;
        this.cap = cap;
        this.smallCap = Math.min(smallCap, cap);
        this.groups = groups;
        this.blocks = Math.max(1, (n + BLOCK - 1) / BLOCK);
        this.faceCapacity = faceCapacity;
        this.active = new int[n];
        this.label = new int[n];
        this.dist = new double[n];
        this.labelOut = new int[n];
        this.plane = new double[HullKernels.PLANE_STRIDE * faceCapacity];
        this.coneFirst = new int[faceCapacity];
        this.coneCount = new int[faceCapacity];
        this.cand = new int[faceCapacity];
        this.bestVal = new double[groups * 128];
        this.bestIdx = new int[groups * 128];
        this.counts = new int[blocks];
        this.offsets = new int[blocks];
        this.setup = new PerGraph(0, HullKernels.PLANE_STRIDE * HullTaskGraphs.MAX_INNER);
        this.round = new PerGraph(this.smallCap, (HullKernels.PLANE_STRIDE + 1) * this.smallCap);
        this.bigRound = new PerGraph(cap, (HullKernels.PLANE_STRIDE + 1) * cap);
        this.passes = new PerGraph(cap, 1);
        this.params = setup.params;
        this.dD = setup.dD;
    }
}
