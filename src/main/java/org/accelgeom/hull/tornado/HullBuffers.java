package org.accelgeom.hull.tornado;

import org.accelgeom.hull.HullKernels;

/**
 * The arrays of one QuickHull execution plan. Point arrays have n entries; face tables {@code faceCapacity};
 * the per-execution delta {@code cap} entries per section (see {@link HullTaskGraphs#applyDelta}).
 */
public final class HullBuffers {
    public final int n;
    public final int cap;
    public final int groups;
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
    public final int[] flags = new int[HullKernels.FLAG_PASS + HullTaskGraphs.PASSES];
    public final int[] params = new int[HullTaskGraphs.PARAMS];
    public final double[] dD;
    public final int[] dI;
    public final int[] out;
    public final double[] bestVal;
    public final int[] bestIdx;
    public final int[] red = new int[128];
    public final int[] beat = new int[HullTaskGraphs.BEATS];

    /**
     * @param groups work-items of the arg-max passes (each scans n / groups points)
     */
    public HullBuffers(double[] x, double[] y, double[] z, int faceCapacity, int cap, int groups) {
        this.n = x.length;
        this.x = x;
        this.y = y;
        this.z = z;
        this.cap = cap;
        this.groups = groups;
        this.faceCapacity = faceCapacity;
        this.active = new int[n];
        this.label = new int[n];
        this.dist = new double[n];
        this.labelOut = new int[n];
        this.plane = new double[HullKernels.PLANE_STRIDE * faceCapacity];
        this.coneFirst = new int[faceCapacity];
        this.coneCount = new int[faceCapacity];
        this.cand = new int[faceCapacity];
        this.dD = new double[(HullKernels.PLANE_STRIDE + 1) * cap];
        this.dI = new int[8 * cap];
        this.out = new int[cap];
        this.bestVal = new double[groups * 128];
        this.bestIdx = new int[groups * 128];
    }
}
