package org.accelgeom.spark;

import java.nio.file.Path;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.DeviceSession;
import org.accelgeom.io.DcdReader;
import org.accelgeom.io.Formats;
import org.accelgeom.io.Molecule;
import org.accelgeom.io.VoronoiFiles;
import org.accelgeom.voronoi.AtomBalls;
import org.accelgeom.voronoi.Balls;
import org.accelgeom.voronoi.Voronoi;
import org.accelgeom.voronoi.VoronoiOptions;
import org.accelgeom.voronoi.VoronoiResult;

/**
 * {@code voronoi} for one work item, as {@code accelgeom voronoi} computes it: the molecule's selected atom balls
 * ({@code --radii}, {@code --hydrogens}, {@code --waters}, {@code --hetatm}), the diagram in the task's session, the
 * vertices in Voronota's format ({@link VoronoiFiles#writeVertices}, atomic).
 */
final class VoronoiWork {
    private VoronoiWork() {
    }

    /** A molecule file: one result file. */
    static int file(JobSettings s, WorkItem w, DeviceSession session) {
        AtomBalls.Selection sel = select(s, w.input());
        VoronoiResult r = Voronoi.compute(sel.balls(), options(session), session);
        writeVertices(Path.of(w.output()), r);
        return 1;
    }

    /**
     * Frames {@code firstFrame ..} of the trajectory: the selected atoms at each frame's coordinates, one result
     * file per frame (frames before the range are read and skipped; a DCD file has no index).
     *
     * @param written counts the files written so far, for the failure report
     */
    static int frames(JobSettings s, WorkItem w, DeviceSession session, int[] written) {
        Molecule m = Formats.readMolecule(Path.of(w.input()), s.model());
        AtomBalls.Selection sel = select(s, w.input(), m);
        Path output = Path.of(w.output());
        try (DcdReader dcd = DcdReader.open(Path.of(w.trajectory()))) {
            if (dcd.atoms() != m.size()) {
                throw new AccelGeomException(w.trajectory() + " has " + dcd.atoms() + " atoms per frame, " + w.input()
                        + " has " + m.size() + " (model " + s.model() + "): the trajectory must be of that molecule");
            }
            double[] x = new double[m.size()], y = new double[m.size()], z = new double[m.size()];
            for (int k = 1; k < w.firstFrame(); k++) {
                if (!dcd.next(x, y, z)) {
                    return written[0];
                }
            }
            int[] atoms = sel.atoms();
            double[] r = sel.balls().r();
            for (int k = w.firstFrame(); k < w.firstFrame() + w.frames() && dcd.next(x, y, z); k++) {
                double[] bx = new double[atoms.length], by = new double[atoms.length], bz = new double[atoms.length];
                for (int j = 0; j < atoms.length; j++) {
                    bx[j] = x[atoms[j]];
                    by[j] = y[atoms[j]];
                    bz[j] = z[atoms[j]];
                }
                VoronoiResult res = Voronoi.compute(new Balls(bx, by, bz, r.clone()), options(session), session);
                writeVertices(WorkPlan.frameOutput(output, k), res);
                written[0]++;
            }
        }
        return written[0];
    }

    private static VoronoiOptions options(DeviceSession session) {
        // the session's execution decides backend, threads, device and residency; the rest are the CLI's defaults
        return VoronoiOptions.of(session.execution().backend());
    }

    private static AtomBalls.Selection select(JobSettings s, String input) {
        return select(s, input, Formats.readMolecule(Path.of(input), s.model()));
    }

    private static AtomBalls.Selection select(JobSettings s, String input, Molecule m) {
        boolean fileRadii = carriesRadii(input);
        AtomBalls.Radii table = switch (s.radii()) {
            case "voronota" -> AtomBalls.Radii.VORONOTA;
            case "bondi" -> AtomBalls.Radii.BONDI;
            case "file" -> AtomBalls.Radii.FILE;
            default -> fileRadii ? AtomBalls.Radii.FILE : AtomBalls.Radii.VORONOTA;
        };
        Checks.finiteAtoms(input, m, table == AtomBalls.Radii.FILE && fileRadii);
        return AtomBalls.of(m, s.hydrogens(), s.waters(), s.hetatm(), table);
    }

    private static boolean carriesRadii(String input) {
        String lower = input.toLowerCase(java.util.Locale.ROOT);
        return lower.endsWith(".pqr") || lower.endsWith(".xyzr") || lower.endsWith(".pqr.gz") || lower.endsWith(".xyzr.gz");
    }

    private static void writeVertices(Path file, VoronoiResult r) {
        VoronoiFiles.writeVertices(file, r.vertexCount(), r.quads(), r.spheres());
    }
}
