package org.accelgeom.voronoi;

import java.util.function.Supplier;

import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.Tuning;

/**
 * The {@code tornado} end-vertex search with its size rule: a tracing level of fewer than {@link #hostBelow} edges is
 * searched on the host cores ({@link JvmVoronoiBackend}, as jvm-parallel), since the device's cost per execution
 * (the launch of its seven tasks, the transfers of frames and results, the wait) is more than the cores' search of so
 * few edges; a larger level goes to the device, and the host cores search {@link #hostShare} percent of its edges
 * (the last ones) meanwhile and compute their end vertices ({@link EdgeTracer}). Every edge has the same end ball on
 * either side (the device's two-phase search is rechecked in double where it is not sure), so the output does not
 * depend on the rule. The device is loaded at the first level that needs it: an input whose levels all stay under the
 * rule builds no plan and uploads nothing; a resident search keeps its device plan for the next input.
 */
final class HybridSearch implements VoronoiBackend {
    private final JvmVoronoiBackend host;
    private final Supplier<VoronoiBackend> deviceFactory;
    private final int hostBelow, hostShare;
    private VoronoiBackend device;
    private boolean deviceLoaded;
    private double[] bx, by, bz, br, p;
    private float[] fx, fy, fz, fr;
    private int[] cellStart, cellBalls, ip;
    private int capacity;

    /** The rule of the switches {@code accelgeom.voronoi.hostBelow} and {@code accelgeom.voronoi.hostShare}. */
    HybridSearch(ParallelLoops loops, Supplier<VoronoiBackend> deviceFactory) {
        this(loops, deviceFactory, Tuning.VORONOI_HOST_BELOW.intValue(), Tuning.VORONOI_HOST_SHARE.intValue());
    }

    /** Levels under {@code hostBelow} edges on the host; of the others, {@code hostShare} percent on the host. */
    HybridSearch(ParallelLoops loops, Supplier<VoronoiBackend> deviceFactory, int hostBelow, int hostShare) {
        this.host = new JvmVoronoiBackend(loops, 0);
        this.deviceFactory = deviceFactory;
        this.hostBelow = hostBelow;
        this.hostShare = hostShare;
    }

    @Override
    public void load(double[] bx, double[] by, double[] bz, double[] br, float[] fx, float[] fy, float[] fz,
            float[] fr, int[] cellStart, int[] cellBalls, double[] params, int[] iparams, int capacity) {
        host.load(bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, params, iparams, capacity);
        this.bx = bx;
        this.by = by;
        this.bz = bz;
        this.br = br;
        this.fx = fx;
        this.fy = fy;
        this.fz = fz;
        this.fr = fr;
        this.cellStart = cellStart;
        this.cellBalls = cellBalls;
        this.p = params;
        this.ip = iparams;
        this.capacity = capacity;
        deviceLoaded = false;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    /** The rule in words, for the phase table. */
    String rule() {
        return "levels under " + hostBelow + " edges";
    }

    /** How many of a level's {@code count} edges the device searches (the first ones): 0 under the size rule. */
    int deviceEdges(int count) {
        return count < hostBelow ? 0 : count - (int) ((long) count * hostShare / 100);
    }

    /** Whether the device holds this input's balls (else the next {@link #searchDevice} uploads them first). */
    boolean deviceReady() {
        return deviceLoaded;
    }

    /** Starts the device search (the plan, or the one kept) and uploads the balls, if not done for these balls. */
    void loadDevice() {
        if (deviceLoaded) {
            return;
        }
        if (device == null) {
            device = deviceFactory.get();
        }
        device.load(bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, p, ip, capacity);
        deviceLoaded = true;
    }

    /** The device's search of edges {@code 0 .. count-1}. */
    void searchDevice(int count, double[] frames, float[] framesF, int[] gates, int[] out) {
        loadDevice();
        device.search(count, frames, framesF, gates, out);
    }

    /** The host cores' search of edges {@code from .. to-1}. */
    void searchHost(int from, int to, double[] frames, float[] framesF, int[] gates, int[] out) {
        host.search(from, to, frames, framesF, gates, out);
    }

    /** The whole level on the side the rule gives it (no host share: {@link EdgeTracer} splits levels itself). */
    @Override
    public void search(int count, double[] frames, float[] framesF, int[] gates, int[] out) {
        if (count < hostBelow) {
            searchHost(0, count, frames, framesF, gates, out);
        } else {
            searchDevice(count, frames, framesF, gates, out);
        }
    }

    @Override
    public void close() {
        if (device != null) {
            device.close();
            device = null;
        }
        deviceLoaded = false;
    }
}
