package org.accelgeom.terrain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.io.Grid;
import org.accelgeom.io.Mesh;
import org.accelgeom.render.Camera;
import org.junit.jupiter.api.Test;

/** The terrain's conformity (no T-junctions) along a flight, backend agreement, refinement and coarsening. */
class TerrainTest {

    static final Grid HEIGHTS = FractalTerrain.generate(6, 0.7, 5);

    static FlightPath path() {
        return new FlightPath(1000, 100, 30, 20, 60, 640, 480, 1);
    }

    static TerrainOptions options(Backend b, int threads) {
        return new TerrainOptions(16, 12, 1000, 100, b, threads, -1, 0);
    }

    @Test
    void everyFrameOfAFlightIsConformingAndTheBackendsAgree() {
        FlightPath fp = path();
        try (Terrain ref = Terrain.create(HEIGHTS, options(Backend.JVM, 0));
                Terrain par = Terrain.create(HEIGHTS, options(Backend.JVM_PARALLEL, 4))) {
            int maxTriangles = 0;
            int deepest = 0;
            for (int f = 0; f < 40; f++) {
                Camera c = fp.frame(Math.max(0, f - 20), 40); // 20 frames of settling, then flying
                TerrainResult a = ref.frame(c);
                TerrainResult b = par.frame(c);
                assertEquals(a.triangles(), b.triangles(), "frame " + f);
                assertArrayEquals(ref.nodes(), par.nodes(), "frame " + f);
                assertArrayEquals(ref.triangles(), par.triangles(), "frame " + f);
                assertEquals(0, Terrain.conformityDefects(ref.nodes()), "T-junctions or gaps in frame " + f);
                maxTriangles = Math.max(maxTriangles, a.triangles());
                deepest = Math.max(deepest, a.deepest());
            }
            assertTrue(deepest >= 12, "refined near the camera: deepest " + deepest);
            assertTrue(maxTriangles > 200, "triangles " + maxTriangles);
            Mesh m = ref.mesh();
            assertEquals(ref.triangleCount(), m.faceCount());
            assertTrue(m.vertexCount() < 3 * m.faceCount(), "vertices are shared");
        }
    }

    @Test
    void movingAwayCoarsensByDiamondMerges() {
        try (Terrain t = Terrain.create(HEIGHTS, options(Backend.JVM_PARALLEL, 2))) {
            Camera near = Camera.lookAt(500, 500, 150, 500, 600, 0, 60, 640, 480);
            Camera far = Camera.lookAt(500, 500, 20000, 500, 500, 0, 60, 640, 480);
            int fine = 0;
            for (int f = 0; f < 20; f++) {
                fine = t.frame(near).triangles();
            }
            int coarse = fine;
            for (int f = 0; f < 30; f++) {
                coarse = t.frame(far).triangles();
                assertEquals(0, Terrain.conformityDefects(t.nodes()));
            }
            assertTrue(coarse < fine / 4, "coarsened from " + fine + " to " + coarse);
        }
    }

    @Test
    void conformityCheckFindsATJunction() {
        // node 2 split into 4 and 5 while its diamond partner 3 stays whole: the diagonal gets a T-junction
        assertTrue(Terrain.conformityDefects(new int[] {4, 5, 3}) > 0);
        assertEquals(0, Terrain.conformityDefects(new int[] {4, 5, 6, 7}));
        assertTrue(Terrain.conformityDefects(new int[] {4, 5}) > 0, "a gap");
    }

    @Test
    void badOptionsAreOneLineErrors() {
        assertThrows(AccelGeomException.class, () -> TerrainOptions.of(25, 8, Backend.JVM));
        assertThrows(AccelGeomException.class, () -> TerrainOptions.of(16, 0, Backend.JVM));
        assertThrows(AccelGeomException.class, () -> FractalTerrain.generate(20, 0.5, 1));
    }
}
