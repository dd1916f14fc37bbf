package org.accelgeom.examples;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.accelgeom.engine.Backend;
import org.accelgeom.hull.Hull;
import org.accelgeom.hull.HullOptions;
import org.accelgeom.hull.HullResult;
import org.accelgeom.hull.tornado.HullBuffers;
import org.accelgeom.hull.tornado.HullTaskGraphs;
import org.accelgeom.hull.tornado.TornadoHullBackend;

import uk.ac.manchester.tornado.api.ImmutableTaskGraph;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.annotations.Parallel;

/**
 * A TornadoVM program whose own kernel makes points on the GPU and hands them to accelgeom's convex hull where they
 * are: the hull's task graphs take them with {@code consumeFromDevice}, no upload (docs/embedding.md, "Convex hull").
 * Self-check: the points equal the same kernel run as plain Java, and the hull equals the {@code jvm} backend's; exit
 * status 1 otherwise. Points: {@code -Dexamples.points=N} (default 20000).
 */
public final class DeviceHull {

    private DeviceHull() {
    }

    /**
     * The user's kernel: point i of a scrambled lattice in a cube, bent into a saddle (z + x·y). Every operation is
     * exact in double (multiples of 2^-20 below 1, their products and sums fit in 53 bits), so the device and the JVM
     * agree to the bit whether or not the OpenCL compiler fuses the multiply-add.
     */
    static void saddle(double[] x, double[] y, double[] z) {
        for (@Parallel int i = 0; i < x.length; i++) {
            double px = ((7919L * i) % 1000003L - 500001L) * 0x1p-20;
            double py = ((104729L * i) % 1000033L - 500016L) * 0x1p-20;
            double pz = ((1299709L * i) % 1000037L - 500018L) * 0x1p-20;
            x[i] = px;
            y[i] = py;
            z[i] = pz + px * py;
        }
    }

    /** The facets as sorted strings, each a vertex cycle starting at its smallest vertex (order-independent). */
    static List<String> facets(HullResult h) {
        List<String> out = new ArrayList<>();
        for (int f = 0; f + 1 < h.facetStart().length; f++) {
            int[] c = Arrays.copyOfRange(h.facetIndex(), h.facetStart()[f], h.facetStart()[f + 1]);
            int m = 0;
            for (int k = 1; k < c.length; k++) {
                m = c[k] < c[m] ? k : m;
            }
            StringBuilder s = new StringBuilder();
            for (int k = 0; k < c.length; k++) {
                s.append(c[(m + k) % c.length]).append(' ');
            }
            out.add(s.toString());
        }
        out.sort(null);
        return out;
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.getInteger("examples.points", 20_000);
        double[] x = new double[n];
        double[] y = new double[n];
        double[] z = new double[n];
        TaskGraph points = new TaskGraph("points")
                .task("saddle", DeviceHull::saddle, x, y, z)
                .persistOnDevice(x, y, z);                                   // the points stay on the GPU
        HullBuffers b = HullBuffers.onDevice(x, y, z);
        List<ImmutableTaskGraph> graphs = new ArrayList<>(List.of(points.snapshot()));
        for (TaskGraph g : HullTaskGraphs.graphs("hull", b, "points")) {     // consumeFromDevice("points", x, y, z)
            graphs.add(g.snapshot());
        }
        HullTaskGraphs.Grid grid = HullTaskGraphs.grid("hull", b);
        HullResult h;
        long t0 = System.nanoTime();
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(graphs.toArray(new ImmutableTaskGraph[0]))) {
            plan.withGridScheduler(grid.scheduler());
            plan.withGraph(0).execute();                                     // our kernel
            h = TornadoHullBackend.onDevice(plan, 1, b, grid, HullOptions.of(Backend.TORNADO));
        }
        long t1 = System.nanoTime();

        double[] hx = new double[n];
        double[] hy = new double[n];
        double[] hz = new double[n];
        saddle(hx, hy, hz);                                                  // the same kernel on the JVM
        boolean samePoints = Arrays.equals(hx, b.hx) && Arrays.equals(hy, b.hy) && Arrays.equals(hz, b.hz);
        HullResult ref = Hull.compute(hx, hy, hz, HullOptions.of(Backend.JVM));
        boolean sameHull = Arrays.equals(ref.vertices(), h.vertices()) && facets(ref).equals(facets(h));
        System.out.printf("DeviceHull: %d points made on the device, hull of %d vertices and %d facets in %.1f ms "
                + "(plan build and JIT included); points %s, hull %s the jvm backend's%n", n, h.vertices().length,
                h.facetStart().length - 1, (t1 - t0) / 1e6, samePoints ? "equal" : "DIFFER from", sameHull ? "equals" : "DIFFERS from");
        if (!samePoints || !sameHull) {
            System.exit(1);
        }
    }
}
