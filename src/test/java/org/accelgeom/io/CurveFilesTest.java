package org.accelgeom.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.accelgeom.engine.AccelGeomException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A curve's files from plain arrays: CSV rows in polyline order, PLY vertices and edges, PLY refused beyond 3D. */
class CurveFilesTest {

    private static final double[] S = {0, 0, 1, 0, 1, 1, 5, 5}; // four 2D points, s[k * d + c]

    @Test
    void csvFollowsThePolylinesOrEveryPointWithoutAnOrder(@TempDir Path dir) throws IOException {
        Path ordered = dir.resolve("o.csv");
        CurveFiles.write(ordered, 2, S, null, new int[][] {{2, 1, 0}, {3}}, new boolean[] {true, false});
        assertEquals(List.of("polyline,closed,representative,x1,x2", "0,1,2,1.0,1.0", "0,1,1,1.0,0.0", "0,1,0,0.0,0.0",
                "1,0,3,5.0,5.0"), Files.readAllLines(ordered));
        Path plain = dir.resolve("p.csv");
        CurveFiles.write(plain, 2, S, null, null, null);
        List<String> rows = Files.readAllLines(plain);
        assertEquals(5, rows.size());
        assertEquals("0,0,3,5.0,5.0", rows.get(4));
    }

    @Test
    void plyHoldsTheVerticesAndEdges(@TempDir Path dir) throws IOException {
        Path ply = dir.resolve("c.ply");
        CurveFiles.write(ply, 2, S, new int[][] {{0, 1}, {1, 2}}, null, null);
        Mesh m = Formats.readMesh(ply);
        assertEquals(4, m.vertexCount());
        assertEquals(5.0, m.y()[3]);
        String text = Files.readString(ply);
        assertTrue(text.contains("element edge 2"), text);
        AccelGeomException e = assertThrows(AccelGeomException.class,
                () -> CurveFiles.write(dir.resolve("d.ply"), 4, S, null, null, null));
        assertTrue(e.getMessage().contains("dimension 4"), e.getMessage());
    }
}
