package org.accelgeom.cli.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

import org.accelgeom.cli.Main;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch on the tornado backend (POCL in CI) keeps its execution plan between inputs: three structures of as many
 * balls (300 of 1UBQ's balls, two copies jiggled by 0.2 Å, so each has its own coordinates and grid) build one plan (one
 * JIT compilation), counted by the batch's device session (the summary line's "device plans built"), and each result has the vertices of the
 * jvm reference's single run on that file.
 */
@Tag("tornado")
class BatchPlansTest {

    @TempDir
    Path dir;

    /** Every tracing level on the device (the size rule keeps these inputs on the host), one input at a time. */
    @BeforeAll
    static void everyLevelOnTheDevice() {
        System.setProperty(org.accelgeom.engine.Tuning.VORONOI_HOST_BELOW.property(), "0");
        System.setProperty(org.accelgeom.engine.Tuning.VORONOI_IN_FLIGHT.property(), "1");
    }

    @AfterAll
    static void defaultsAgain() {
        System.clearProperty(org.accelgeom.engine.Tuning.VORONOI_HOST_BELOW.property());
        System.clearProperty(org.accelgeom.engine.Tuning.VORONOI_IN_FLIGHT.property());
    }

    @Test
    void voronoiBatchBuildsOnePlanForInputsOfOneSize() throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        List<String> base;
        try (var s = BatchPlansTest.class.getResourceAsStream("/voronoi/1ubq.xyzr")) {
            base = new String(s.readAllBytes()).lines().filter(l -> !l.isBlank() && !l.startsWith("#")).limit(300).toList();
        }
        Files.write(in.resolve("a.xyzr"), base);
        Random rnd = new Random(11);
        for (String name : List.of("b.xyzr", "c.xyzr")) {
            Files.write(in.resolve(name), base.stream().map(l -> jiggle(l, rnd)).toList());
        }
        String[] out = run("voronoi", "--input", in.toString(), "--output", dir.resolve("out").toString(), "--backend",
                "tornado", "--quiet");
        assertEquals("0", out[0], out[2]);
        assertTrue(out[1].contains("batch: 3 done, 0 failed,"), out[1]);
        assertTrue(out[1].contains(", 1 device plan built"), "one plan for the three inputs: " + out[1]);
        for (String name : List.of("a", "b", "c")) {
            Path ref = dir.resolve(name + "-jvm.vertices");
            String[] single = run("voronoi", "--input", in.resolve(name + ".xyzr").toString(), "--output", ref.toString(),
                    "--backend", "jvm", "--quiet");
            assertEquals("0", single[0], single[2]);
            Set<String> expected = quadruples(ref);
            assertTrue(expected.size() > 200, name + ": " + expected.size());
            assertEquals(expected, quadruples(dir.resolve("out/" + name + ".vertices")), name);
        }
    }

    /**
     * Inputs of different sizes reuse the plan while they fit: 300 balls build one, 450 grow it (twice the arrays:
     * room for 600), 250 and 550 fit; their results equal, byte for byte, the same files computed alone on tornado.
     */
    @Test
    void voronoiBatchGrowsItsPlanGeometricallyAcrossSizes() throws Exception {
        Path in = Files.createDirectories(dir.resolve("sizes"));
        List<String> all;
        try (var s = BatchPlansTest.class.getResourceAsStream("/voronoi/1ubq.xyzr")) {
            all = new String(s.readAllBytes()).lines().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        }
        List<String> names = List.of("a300", "b450", "c250", "d550");
        for (String name : names) {
            Files.write(in.resolve(name + ".xyzr"), all.subList(0, Integer.parseInt(name.substring(1))));
        }
        String[] out = run("voronoi", "--input", in.toString(), "--output", dir.resolve("grown").toString(), "--backend",
                "tornado", "--quiet");
        assertEquals("0", out[0], out[2]);
        assertTrue(out[1].contains("batch: 4 done, 0 failed,"), out[1]);
        assertTrue(out[1].contains(", 2 device plans built"), "300 builds, 450 grows, 250 and 550 fit: " + out[1]);
        for (String name : List.of("c250", "d550")) { // computed in a plan built for another size (each alone: a JIT)
            Path alone = dir.resolve(name + "-alone.vertices");
            String[] single = run("voronoi", "--input", in.resolve(name + ".xyzr").toString(), "--output", alone.toString(),
                    "--backend", "tornado", "--quiet");
            assertEquals("0", single[0], single[2]);
            assertEquals(Files.readString(alone), Files.readString(dir.resolve("grown/" + name + ".vertices")), name);
        }
    }

    private static String jiggle(String line, Random rnd) {
        String[] f = line.trim().split("\\s+");
        return String.format(Locale.ROOT, "%.4f %.4f %.4f %s", Double.parseDouble(f[0]) + 0.2 * rnd.nextGaussian(),
                Double.parseDouble(f[1]) + 0.2 * rnd.nextGaussian(), Double.parseDouble(f[2]) + 0.2 * rnd.nextGaussian(), f[3]);
    }

    /** The generator quadruples of a vertex file (the spheres may differ in the last bits between backends). */
    private static Set<String> quadruples(Path vertices) throws IOException {
        return Files.readAllLines(vertices).stream().map(l -> String.join(" ", List.of(l.split(" ")).subList(0, 4)))
                .collect(Collectors.toSet());
    }

    /** Runs the CLI in this JVM: {exit status, stdout, stderr}. */
    static String[] run(String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        var cl = Main.commandLine(args);
        cl.setOut(new PrintWriter(o, true));
        cl.setErr(new PrintWriter(e, true));
        int exit = cl.execute(args);
        return new String[] {Integer.toString(exit), o.toString(), e.toString()};
    }
}
