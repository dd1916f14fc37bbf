package org.accelgeom.ridge.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.ridge.EvolutionLayout;
import org.accelgeom.ridge.JvmRidgeBackend;
import org.accelgeom.ridge.Precision;
import org.accelgeom.ridge.RidgeBackend;
import org.accelgeom.ridge.RidgeKernels;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.annotations.Parallel;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;

/**
 * The example of docs/embedding.md, "Ridge detection", compiled and run: the user's own kernel makes the cloud on
 * the device, accelgeom's evolution graph takes it from there (consumeFromDevice) and leaves the representatives on
 * the device (persistOnDevice) for the user's next kernel. The result equals the JVM backend's evolve call.
 */
@Tag("tornado")
class EmbeddingExampleTest {

    /** The user's kernel: a noisy band along x, column-major (coordinate c of point i at p[c * n + i]). */
    static void band(double[] p, int n) {
        for (@Parallel int i = 0; i < n; i++) {
            p[i] = i * 0.001;
            p[n + i] = (i * 7919 % 101) * 0.002;
            p[2 * n + i] = (i * 104729 % 97) * 0.002;
        }
    }

    /** The user's next kernel: the distance² of every representative from the band's axis (y = z = 0.1). */
    static void offAxis(double[] s, double[] out, int ns) {
        for (@Parallel int k = 0; k < ns; k++) {
            double y = s[3 * k + 1] - 0.1;
            double z = s[3 * k + 2] - 0.1;
            out[k] = y * y + z * z;
        }
    }

    @Test
    void evolutionOnTheUsersCloudEqualsTheJvm() throws Exception {
        int n = 20_000;
        int d = 3;
        double r1 = 0.5;
        int ns = 50;
        double[] start = new double[ns * d];
        for (int k = 0; k < ns; k++) {
            start[k * d] = k * 0.4; // 50 seeds along the band, one tile
        }
        double[] p = new double[d * n];
        double[] reps = start.clone();
        double[] out = new double[ns];
        int iterations;
        // --- docs/embedding.md, begin
        var prm = new RidgeBackend.Parameters(d, r1, Precision.DOUBLE, RidgeKernels.fixedPointExponent(n, r1), 1000);
        RidgeBuffers b = new RidgeBuffers(new EvolutionLayout(d, n, p, new int[n], 1), Precision.DOUBLE, ns, 8);
        b.setParameters(prm);
        TaskGraph mine = new TaskGraph("mycloud")                       // the user's graph: the cloud, on the device
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, p)
                .task("band", EmbeddingExampleTest::band, p, n)
                .persistOnDevice(p);
        TaskGraph ridge = RidgeTaskGraphs.graph("ridge", b, "mycloud", true);  // consumes p, persists b.s
        TaskGraph next = new TaskGraph("next")                          // the user's next graph reads b.s there
                .consumeFromDevice("ridge", b.s)
                .transferToDevice(DataTransferMode.FIRST_EXECUTION, out)
                .task("offAxis", EmbeddingExampleTest::offAxis, b.s, out, ns)
                .transferToHost(DataTransferMode.EVERY_EXECUTION, out);
        try (TornadoExecutionPlan plan = new TornadoExecutionPlan(mine.snapshot(), ridge.snapshot(), next.snapshot())) {
            plan.withGridScheduler(RidgeTaskGraphs.grid("ridge", b));
            plan.withGraph(0).execute();
            b.start(reps, ns, new int[] {0, ns}, prm.maxIterations());   // one tile: representatives 0 .. ns-1
            TornadoExecutionResult r;
            do {                                                         // 8 iterations per execution
                r = plan.withGraph(1).execute();
                r.transferToHost(b.flags);
            } while (b.live());
            r.transferToHost(b.s, b.check.beat);
            b.verify("the default device");
            b.result(reps, ns);
            iterations = b.iterations();
            plan.withGraph(2).execute();                                 // out[k]: the user's kernel on b.s
        }
        // --- docs/embedding.md, end
        double[] pHost = new double[d * n];
        band(pHost, n);
        double[] ref = start.clone();
        int refIterations;
        try (JvmRidgeBackend jvm = new JvmRidgeBackend(prm, null)) {
            jvm.load(new EvolutionLayout(d, n, pHost, new int[n], 1), ns, new PhaseTimings());
            refIterations = jvm.evolve(ref, ns, new int[] {0, ns}, new PhaseTimings());
        }
        assertTrue(refIterations > 1, "the reference moved");
        assertEquals(refIterations, iterations, "iterations");
        assertArrayEquals(ref, reps, "representatives");
        double[] refOut = new double[ns];
        offAxis(ref, refOut, ns);
        assertArrayEquals(refOut, out, "the user's kernel on the persisted representatives");
    }
}
