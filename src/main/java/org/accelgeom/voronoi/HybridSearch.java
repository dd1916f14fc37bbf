package org.accelgeom.voronoi;

import java.util.function.Supplier;

import org.accelgeom.engine.ParallelLoops;
import org.accelgeom.engine.Tuning;

/**
 * The {@code tornado} end-vertex search with its size rule: a tracing level of fewer than {@link #hostBelow} edges is
 * searched on the host cores ({@link JvmVoronoiBackend}, in double as jvm-parallel), since the device's cost per
 * execution (the launch of its seven tasks, the transfers of frames and results, the wait) is more than the cores'
 * search of so few edges; a larger level goes to the device, and with {@link #hostShare} the host cores search that
 * percent of its edges (the last ones) meanwhile and compute their end vertices ({@link EdgeTracer}). Every edge has
 * the same end ball on either side (the device's two-phase search is rechecked in double where it is not sure), so the
 * output does not depend on the rule. The device is loaded at the first level that needs it, or in the background from
 * the start when the input is large enough that its levels will reach the rule: an input whose levels all stay under
 * the rule builds no plan and uploads nothing. The diagrams of a session share one device search ({@link Device}).
 */
final class HybridSearch implements VoronoiBackend {

    /**
     * The device search of a session, shared by the diagrams computed at once (a batch's inputs in flight): one plan,
     * used by one diagram at a time (this object is the lock), loaded with the balls of the diagram that uses it.
     */
    static final class Device implements AutoCloseable {
        private final Supplier<VoronoiBackend> factory;
        private VoronoiBackend search;
        /** The diagram whose balls the device holds (null: none). */
        private HybridSearch owner;
        private boolean closed;

        Device(Supplier<VoronoiBackend> factory) {
            this.factory = factory;
        }

        @Override
        public synchronized void close() {
            closed = true;
            if (search != null) {
                search.close();
                search = null;
            }
            owner = null;
        }
    }

    private final JvmVoronoiBackend host;
    private final Device device;
    private final int hostBelow, hostShare;
    /** Loads the device with the balls of the last {@link #load}. */
    private java.util.function.Consumer<VoronoiBackend> loader;
    private int capacity;
    /** Whether the shared device holds these balls since the last {@link #load}. */
    private volatile boolean deviceLoaded;
    /** Whether the background start of the last {@link #load} is still running (TornadoVM's start, plan, upload). */
    private volatile boolean starting;

    /** The rule of the switches {@code accelgeom.voronoi.hostBelow} and {@code accelgeom.voronoi.hostShare}. */
    HybridSearch(ParallelLoops loops, Device device) {
        this(loops, device, Tuning.VORONOI_HOST_BELOW.intValue(), Tuning.VORONOI_HOST_SHARE.intValue());
    }

    /** Levels under {@code hostBelow} edges on the host; of the others, {@code hostShare} percent on the host. */
    HybridSearch(ParallelLoops loops, Device device, int hostBelow, int hostShare) {
        this.host = new JvmVoronoiBackend(loops, 0);
        this.device = device;
        this.hostBelow = hostBelow;
        this.hostShare = hostShare;
    }

    @Override
    public void load(double[] bx, double[] by, double[] bz, double[] br, float[] fx, float[] fy, float[] fz,
            float[] fr, int[] cellStart, int[] cellBalls, double[] params, int[] iparams, int capacity) {
        // the host searches in double, as jvm-parallel (the two-phase search is the device's; it ends at the same
        // balls, and the JVM's double sweep skips candidates by ArcSweep); float stays float (the error studies)
        int[] hostIp = iparams.clone();
        if (hostIp[VoronoiKernels.I_MODE] == VoronoiKernels.MODE_TWO_PHASE) {
            hostIp[VoronoiKernels.I_MODE] = VoronoiKernels.MODE_DOUBLE;
        }
        host.load(bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, params, hostIp, capacity);
        synchronized (device) { // a background start of the previous balls still running loads all old or all new
            loader = d -> d.load(bx, by, bz, br, fx, fy, fz, fr, cellStart, cellBalls, params, iparams, capacity);
            this.capacity = capacity;
            deviceLoaded = false;
        }
        if (hostBelow > 0 && capacity >= 2L * hostBelow) {
            // levels hold about 0.6-1.2 x the visible balls (the capacity is 1.5 x): some will reach the rule, so the
            // device starts (plan, or the one kept, and the upload) on a thread of its own while the host searches the
            // first levels; a failure here is met again, and reported, by the first device level
            starting = true;
            Thread.ofPlatform().daemon().name("accelgeom-voronoi-device").start(() -> {
                try {
                    searchDevice(0, null, null, null, null);
                } catch (RuntimeException | LinkageError e) {
                    // the first device level loads again
                } finally {
                    starting = false;
                }
            });
        }
    }

    @Override
    public int capacity() {
        return capacity;
    }

    /**
     * Whether no tracing level of {@code balls} balls should reach the size rule: a level holds up to about 1.2 times
     * the visible balls (1UBQ; random balls and larger proteins 0.6-0.8), an estimate, not a bound.
     */
    static boolean staysOnHost(int balls) {
        long below = Tuning.VORONOI_HOST_BELOW.intValue();
        return below > 0 && 6L * balls < 5L * below;
    }

    /** The rule in words, for the phase table. */
    String rule() {
        return "levels under " + hostBelow + " edges";
    }

    /** How many of a level's {@code count} edges the device searches (the first ones): 0 under the size rule. */
    int deviceEdges(int count) {
        return count < hostBelow ? 0 : count - (int) ((long) count * hostShare / 100);
    }

    /** Whether the device has held these balls since the last {@link #load} (the first device level uploads them). */
    boolean deviceReady() {
        return deviceLoaded;
    }

    /**
     * Whether the device is still being started in the background for these balls: a level meanwhile goes to the host
     * cores rather than wait (the same end balls either side), so a one-shot run computes while TornadoVM starts.
     */
    boolean deviceStarting() {
        return starting && !deviceLoaded;
    }

    /**
     * The device's search of edges {@code 0 .. count-1}: it waits while another diagram uses the device, and uploads
     * these balls first when the device holds others (the first use builds the plan, or a larger one).
     */
    void searchDevice(int count, double[] frames, float[] framesF, int[] gates, int[] out) {
        synchronized (device) {
            if (device.closed) {
                throw new IllegalStateException("the device search was closed with its session");
            }
            if (device.search == null) {
                device.search = device.factory.get();
            }
            if (!deviceLoaded || device.owner != this) {
                loader.accept(device.search);
                device.owner = this;
                deviceLoaded = true;
            }
            if (count > 0) {
                device.search.search(count, frames, framesF, gates, out);
            }
        }
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

    /** Leaves the device to the others (the session closes it). */
    @Override
    public void close() {
        synchronized (device) {
            if (device.owner == this) {
                device.owner = null;
            }
        }
        deviceLoaded = false;
    }
}
