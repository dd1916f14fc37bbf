package org.accelgeom.kdtree.tornado;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.PhaseTimings.Kind;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.engine.tornado.LaunchCheck;
import org.accelgeom.engine.tornado.TornadoDevices;
import org.accelgeom.kdtree.KdTreeKernels;
import org.accelgeom.kdtree.PipelineBuffers;
import org.accelgeom.kdtree.KdTreeBackend;

import uk.ac.manchester.tornado.api.common.TornadoDevice;

/**
 * The thesis's four per-node kernels on a TornadoVM device (§5.2): four execution plans over one set of
 * {@link PipelineBuffers} sized for the root, each copying its inputs in and its outputs out at every node, as
 * the thesis does. Kernel 4 runs its first pass on the device ({@link KdTreeTaskGraphs#GROUPS} partial arg-mins);
 * the host reduces the partials, as the thesis's second launch does.
 */
public final class TornadoKdTreeBackend implements KdTreeBackend {

    private final PipelineBuffers b;
    private final int[][] params = new int[4][KdTreeTaskGraphs.PARAMS];
    private final LaunchCheck[] checks = {KdTreeTaskGraphs.launchCheck(), KdTreeTaskGraphs.launchCheck(),
        KdTreeTaskGraphs.launchCheck(), KdTreeTaskGraphs.launchCheck()};
    private final int[] partial = new int[KdTreeTaskGraphs.GROUPS];
    private final TornadoPlans k1;
    private final TornadoPlans k2;
    private final TornadoPlans k3;
    private final TornadoPlans k4;

    /**
     * @param deviceIndex TornadoVM device (-1: default)
     * @param capacity    the most references of a node (the root's)
     */
    /** The per-node kernels as a service of the tornado build (see {@link KdTreeBackend.Factory}). */
    public static final class Factory implements KdTreeBackend.Factory {
        @Override
        public KdTreeBackend create(org.accelgeom.engine.Execution execution, int capacity) {
            return new TornadoKdTreeBackend(execution.device(), capacity);
        }
    }

    public TornadoKdTreeBackend(Integer deviceIndex, Integer capacity) {
        TornadoDevice device = TornadoDevices.device(deviceIndex == null ? -1 : deviceIndex);
        long need = 200L * capacity;
        if (need > device.getMaxGlobalMemory() * 0.8) {
            throw new AccelGeomException(String.format("%d triangles need about %.1f GiB on the device, more than %s has",
                    capacity, need / 1073741824.0, device.getPhysicalDevice().getDeviceName()));
        }
        b = new PipelineBuffers(capacity);
        int seq = KdTreeTaskGraphs.SEQ;
        k1 = new TornadoPlans(KdTreeTaskGraphs.eventsGraph(TornadoPlans.name("kdEvents"), params[0], b, checks[0].beat),
                device, capacity, params[0], seq, checks[0], KdTreeTaskGraphs.SLOT_EVENTS);
        k2 = new TornadoPlans(KdTreeTaskGraphs.countsGraph(TornadoPlans.name("kdCounts"), params[1], b, checks[1].beat),
                device, 6 * capacity, params[1], seq, checks[1], KdTreeTaskGraphs.SLOT_COUNTS);
        k3 = new TornadoPlans(KdTreeTaskGraphs.costsGraph(TornadoPlans.name("kdCosts"), params[2], b, checks[2].beat),
                device, 6 * capacity, params[2], seq, checks[2], KdTreeTaskGraphs.SLOT_COSTS);
        k4 = new TornadoPlans(KdTreeTaskGraphs.argminGraph(TornadoPlans.name("kdArgmin"), params[3], b, partial,
                checks[3].beat), device, KdTreeTaskGraphs.GROUPS, params[3], seq, checks[3], KdTreeTaskGraphs.SLOT_ARGMIN);
    }

    @Override
    public int capacity() {
        return b.capacity;
    }

    @Override
    public PipelineBuffers buffers(int n) {
        if (n > b.capacity) {
            throw new IllegalArgumentException("node of " + n + " references, buffers for " + b.capacity);
        }
        return b;
    }

    private void check(Object arrays) {
        if (arrays != b.box && arrays != b.sorted && arrays != b.cost) {
            throw new IllegalArgumentException("the tornado steps work on their own buffers (buffers(n))");
        }
    }

    @Override
    public void events(float[] box, int n, float[] evPos, int[] evType, PhaseTimings t) {
        check(box);
        params[0][KdTreeTaskGraphs.COUNT] = n;
        k1.execute("K1 events", n, t);
    }

    @Override
    public void counts(float[] sorted, int events, int[] off, int n, float[] planePos, int[] planeAxis, int planes,
            int[] nl, int[] np, int[] nr, PhaseTimings t) {
        check(sorted);
        params[1][KdTreeTaskGraphs.COUNT] = planes;
        params[1][KdTreeTaskGraphs.REFS] = n;
        k2.execute("K2 counts", planes, t);
    }

    @Override
    public void costs(float[] voxel, float[] planePos, int[] planeAxis, int[] nl, int[] np, int[] nr, int planes,
            double[] c, double[] cost, int[] side, PhaseTimings t) {
        check(cost);
        params[2][KdTreeTaskGraphs.COUNT] = planes;
        k3.execute("K3 SAH", planes, t);
    }

    @Override
    public int argmin(double[] cost, float[] planePos, int[] planeAxis, int planes, PhaseTimings t) {
        check(cost);
        params[3][KdTreeTaskGraphs.COUNT] = planes;
        k4.execute("K4 arg-min", KdTreeTaskGraphs.GROUPS, t);
        return t.time("K4 arg-min, second pass (host)", Kind.HOST, () -> {
            int best = -1;
            for (int g = 0; g < KdTreeTaskGraphs.GROUPS; g++) {
                int i = partial[g];
                if (i >= 0 && (best < 0
                        || KdTreeKernels.better(cost[i], planePos[i], planeAxis[i], cost[best], planePos[best], planeAxis[best]))) {
                    best = i;
                }
            }
            return best;
        });
    }

    @Override
    public void close() {
        k1.close();
        k2.close();
        k3.close();
        k4.close();
    }
}
