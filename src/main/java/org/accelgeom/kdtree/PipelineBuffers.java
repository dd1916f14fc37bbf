package org.accelgeom.kdtree;

/**
 * The arrays of one node's plane search ({@link PlanePipeline}) for up to {@code capacity} references: 6 event
 * slots and at most 6 planes per reference. A device backend keeps one set for the whole build (its task graphs
 * are bound to these arrays); the CPU backends take a fresh set per node.
 */
public final class PipelineBuffers {
    public final int capacity;
    /** Reference boxes, 6 floats each. */
    public final float[] box;
    public final float[] evPos;
    public final int[] evType;
    /** Event positions sorted per (axis, type); bucket b = 3·axis + type is {@code sorted[off[b] .. off[b+1]-1]}. */
    public final float[] sorted;
    public final int[] off = new int[10];
    public final float[] planePos;
    public final int[] planeAxis;
    public final int[] nl;
    public final int[] np;
    public final int[] nr;
    public final double[] cost;
    public final int[] side;
    /** The voxel, min x y z, max x y z. */
    public final float[] voxel = new float[6];
    /** K_T, K_I, λ. */
    public final double[] c = new double[3];

    public PipelineBuffers(int capacity) {
        this.capacity = capacity;
        int m = Math.max(1, 6 * capacity);
        box = new float[m];
        evPos = new float[m];
        evType = new int[m];
        sorted = new float[m];
        planePos = new float[m];
        planeAxis = new int[m];
        nl = new int[m];
        np = new int[m];
        nr = new int[m];
        cost = new double[m];
        side = new int[m];
    }
}
