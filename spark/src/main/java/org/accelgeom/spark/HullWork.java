package org.accelgeom.spark;

import java.nio.file.Path;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.hull.Hull;
import org.accelgeom.hull.HullOptions;
import org.accelgeom.hull.HullResult;
import org.accelgeom.io.Formats;
import org.accelgeom.io.PointCloud;

/**
 * {@code hull} for one input (a point cloud, or one tile of a survey), as {@code accelgeom hull} computes it: the
 * exact hull in the task's session, written as a mesh by {@link Formats#writeMesh} (atomic; the format by the
 * result's extension).
 */
final class HullWork {
    private HullWork() {
    }

    static int file(JobSettings s, WorkItem w, DeviceSession session) {
        PointCloud points = Formats.readPoints(w.input());
        if (points.dimension() != 3) {
            throw new AccelGeomException(w.input() + ": the points have " + points.dimension() + " coordinate"
                    + (points.dimension() == 1 ? "" : "s") + " each; the convex hull needs 3D points (x y z)");
        }
        Checks.finitePoints(w.input(), points);
        HullOptions options = HullOptions.of(session.execution().backend()).withCullDirections(s.cullDirections());
        HullResult r = Hull.compute(points, options, session);
        Formats.writeMesh(Path.of(w.output()), r.toMesh(points));
        return 1;
    }
}
