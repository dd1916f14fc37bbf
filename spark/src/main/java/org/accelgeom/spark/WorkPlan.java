package org.accelgeom.spark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.accelgeom.io.DcdReader;
import org.accelgeom.io.InputFiles;

/**
 * The job's work items, made on the driver. Inputs and outputs are named as the CLI's batch names them
 * ({@code accelgeom COMMAND --input ... --output DIR}): files, directories (their regular files, sorted by name,
 * hidden ones left out) and globs with wildcards in the file name; each result is {@code DIR/<stem>.<ext>}, the
 * stem being the name without its extension (and a {@code .gz} before it), a second input of the same stem keeping
 * its whole name ({@code a.cif.<ext>}). A trajectory is cut into ranges of frames; frame {@code k} goes to
 * {@code DIR/<stem>-frame<k>.<ext>}. Every path must be readable (inputs) and writable (DIR) by every executor: a
 * file system that all nodes mount.
 *
 * @param items     in input order
 * @param unmatched inputs that named no file (each a failure of the job)
 */
public record WorkPlan(List<WorkItem> items, List<String> unmatched) {

    /**
     * The items of a job.
     *
     * @param slices the tasks the job is cut into (a trajectory without --frames-per-task: that many ranges)
     */
    static WorkPlan of(JobSettings s, int slices) {
        Path dir = Path.of(s.output());
        List<String> unmatched = new ArrayList<>();
        List<Path> files = InputFiles.expand(s.inputs(), unmatched);
        List<WorkItem> items = new ArrayList<>();
        String ext = s.extension();
        if (s.trajectory() != null) {
            if (files.isEmpty()) {
                return new WorkPlan(items, unmatched);
            }
            Path molecule = files.get(0);
            String output = dir.resolve(InputFiles.stem(molecule.getFileName().toString()) + "." + ext).toString();
            int frames = frameCount(Path.of(s.trajectory()));
            int n = Math.max(1, slices);
            int per = s.framesPerTask() > 0 ? s.framesPerTask() : Math.max(1, (frames + n - 1) / n);
            for (int first = 1; first <= frames; first += per) {
                items.add(WorkItem.frames(molecule.toString(), s.trajectory(), first, Math.min(per, frames - first + 1), output));
            }
            return new WorkPlan(items, unmatched);
        }
        Set<Path> used = new HashSet<>();
        for (Path in : files) {
            items.add(WorkItem.file(in.toString(), InputFiles.outputFor(dir, in, ext, used).toString()));
        }
        return new WorkPlan(items, unmatched);
    }

    /** The frames of a DCD file: its header's count, or (a header left at 0 by a stopped writer) the frames read. */
    static int frameCount(Path dcd) {
        try (DcdReader r = DcdReader.open(dcd)) {
            if (r.framesInHeader() > 0) {
                return r.framesInHeader();
            }
            double[] x = new double[r.atoms()], y = new double[r.atoms()], z = new double[r.atoms()];
            while (r.next(x, y, z)) {
                // count
            }
            return r.framesRead();
        }
    }

    /** FILE.ext to FILE-frame{k}.ext, as {@code accelgeom voronoi --trajectory} names a frame's result. */
    static Path frameOutput(Path p, int k) {
        String name = p.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String s = dot > 0 ? name.substring(0, dot) + "-frame" + k + name.substring(dot) : name + "-frame" + k;
        return p.resolveSibling(s);
    }
}
