package org.accelgeom.kdtree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;

import org.accelgeom.engine.ParallelLoops;
import org.junit.jupiter.api.Test;

class TrianglesTest {

    @Test
    void boundsInChunksEqualTheMinimaAndMaximaOfEveryVertex() {
        Random rnd = new Random(3);
        int n = 70_000; // above the size where the chunks start
        float[] v = new float[9 * n];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) (rnd.nextGaussian() * (1 + i % 3));
        }
        Triangles t = Triangles.of(v);
        float[] expect = {Float.MAX_VALUE, Float.MAX_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE, -Float.MAX_VALUE,
            -Float.MAX_VALUE};
        for (int i = 0; i < t.v().length; i += 3) {
            for (int k = 0; k < 3; k++) {
                expect[k] = Math.min(expect[k], t.v()[i + k]);
                expect[3 + k] = Math.max(expect[3 + k], t.v()[i + k]);
            }
        }
        assertArrayEquals(expect, t.bounds());
        ParallelLoops loops = new ParallelLoops(4);
        try {
            assertArrayEquals(expect, t.bounds(loops));
        } finally {
            loops.close();
        }
        assertEquals(6, Triangles.of(new float[0]).bounds().length);
    }
}
