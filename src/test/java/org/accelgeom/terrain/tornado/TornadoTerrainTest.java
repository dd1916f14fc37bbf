package org.accelgeom.terrain.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.accelgeom.engine.Backend;
import org.accelgeom.io.Grid;
import org.accelgeom.render.Camera;
import org.accelgeom.terrain.FlightPath;
import org.accelgeom.terrain.FractalTerrain;
import org.accelgeom.terrain.Terrain;
import org.accelgeom.terrain.TerrainOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The tornado terrain against the JVM reference along a flight: the same triangles every frame, conforming. */
@Tag("tornado")
class TornadoTerrainTest {

    @Test
    void sameMeshAsTheJvmEveryFrame() {
        Grid g = FractalTerrain.generate(5, 0.7, 3);
        FlightPath fp = new FlightPath(1000, 100, 30, 20, 60, 320, 240, 1);
        try (Terrain ref = Terrain.create(g, new TerrainOptions(14, 10, 1000, 100, Backend.JVM, 0, -1, 0));
                Terrain gpu = Terrain.create(g, new TerrainOptions(14, 10, 1000, 100, Backend.TORNADO, 0, -1, 0))) {
            int most = 0;
            for (int f = 0; f < 24; f++) {
                Camera c = fp.frame(Math.max(0, f - 14), 20);
                assertEquals(ref.frame(c).triangles(), gpu.frame(c).triangles(), "frame " + f);
                assertArrayEquals(ref.nodes(), gpu.nodes(), "frame " + f);
                assertArrayEquals(ref.triangles(), gpu.triangles(), 1e-3f, "frame " + f);
                assertEquals(0, Terrain.conformityDefects(gpu.nodes()), "frame " + f);
                most = Math.max(most, gpu.triangleCount());
            }
            assertTrue(most > 100, "refined: " + most);
        }
    }
}
