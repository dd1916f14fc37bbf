package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** {@code accelgeom kdtree build --builder zhou}: the breadth-first builder from the command line. */
class KdTreeZhouCommandTest {

    private static double sah(String out) {
        Matcher m = Pattern.compile("SAH cost ([0-9.]+)").matcher(out);
        assertTrue(m.find(), out);
        return Double.parseDouble(m.group(1));
    }

    @Test
    void zhouBuilderReportsItsTreeAndStages() {
        MainTest.Run exact = MainTest.run("kdtree", "build", "--scene", "sphere:3000", "--backend", "jvm", "--quiet");
        MainTest.Run zhou = MainTest.run("kdtree", "build", "--scene", "sphere:3000", "--builder", "zhou", "--small", "32",
                "--backend", "jvm-parallel", "--timings", "--quiet");
        assertEquals(0, zhou.exit(), zhou.err());
        assertTrue(zhou.out().contains("builder:      zhou"), zhou.out());
        assertTrue(zhou.out().contains("large nodes: "), zhou.out());
        assertTrue(zhou.out().contains("small nodes: ") && zhou.out().contains("bit masks"), zhou.out());
        assertTrue(zhou.out().contains("assemble: "), zhou.out());
        double ratio = sah(zhou.out()) / sah(exact.out());
        assertTrue(ratio > 0.9 && ratio < 1.1, "SAH ratio " + ratio);
        MainTest.Run host = MainTest.run("kdtree", "build", "--scene", "sphere:3000", "--builder", "zhou", "--small", "32",
                "--small-stage", "exact", "--backend", "jvm", "--timings", "--quiet");
        assertEquals(0, host.exit(), host.err());
        assertTrue(host.out().contains("small nodes: exact SAH subtrees"), host.out());
    }

    @Test
    void badBuilderOptionsAreOneLineErrors() {
        MainTest.assertOneLineError(MainTest.run("kdtree", "build", "--scene", "random:100", "--builder", "fast"));
        MainTest.assertOneLineError(MainTest.run("kdtree", "build", "--scene", "random:100", "--builder", "zhou", "--small", "0"));
        MainTest.assertOneLineError(MainTest.run("kdtree", "build", "--scene", "random:100", "--builder", "zhou", "--steps", "2"));
        MainTest.assertOneLineError(MainTest.run("kdtree", "build", "--scene", "random:100", "--builder", "zhou",
                "--small-stage", "gpu"));
        MainTest.assertOneLineError(MainTest.run("kdtree", "build", "--scene", "random:100", "--builder", "zhou",
                "--small", "65"));
    }
}
