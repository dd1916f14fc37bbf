package org.accelgeom.voronoi;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.accelgeom.engine.Backend;
import org.junit.jupiter.api.Test;

class VoronoiTest {

    static List<String> keys(VoronoiResult res) {
        List<String> k = new ArrayList<>();
        for (int v = 0; v < res.vertexCount(); v++) {
            k.add(key(res.quads()[4 * v], res.quads()[4 * v + 1], res.quads()[4 * v + 2], res.quads()[4 * v + 3],
                    res.spheres()[4 * v], res.spheres()[4 * v + 1], res.spheres()[4 * v + 2]));
        }
        k.sort(null);
        return k;
    }

    static String key(int a, int b, int c, int d, double x, double y, double z) {
        return a + " " + b + " " + c + " " + d + String.format(" %.5f %.5f %.5f", x, y, z);
    }

    @Test
    void randomBallsMatchBruteForce() {
        Random rnd = new Random(7);
        int mismatches = 0;
        long total = 0;
        long infinite = 0;
        for (int t = 0; t < 40; t++) {
            Balls b = VoronoiChecks.random(rnd, 8 + rnd.nextInt(18), 10, 0.2, 2.5);
            VoronoiResult res = Voronoi.compute(b, VoronoiOptions.of(Backend.JVM));
            List<String> want = new ArrayList<>();
            for (BruteForceVertices.Vertex v : BruteForceVertices.of(b, 1e-9)) {
                want.add(key(v.a(), v.b(), v.c(), v.d(), v.x(), v.y(), v.z()));
            }
            want.sort(null);
            List<String> got = keys(res);
            total += got.size();
            infinite += res.stats().infiniteEdges();
            if (!want.equals(got)) {
                mismatches++;
                System.out.println("case " + t + " n=" + b.size() + " want " + want.size() + " got " + got.size() + " "
                        + res.stats());
            }
        }
        assertEquals(0, mismatches);
        assertTrue(total > 500 && infinite > 100, "vertices " + total + ", infinite edges " + infinite);
        System.out.println("brute force: " + total + " vertices, " + infinite + " infinite edges");
    }
}
