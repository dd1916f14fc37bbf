package org.accelgeom.spark;

import java.io.Serializable;

/**
 * One unit of a job, computed by one task: an input file and the file its result goes to, or a range of a DCD
 * trajectory's frames (of the molecule {@code input}), whose frame {@code k} (from 1) goes to {@code output} with
 * {@code -frame<k>} before its extension, as the CLI's {@code voronoi --trajectory} names them.
 *
 * @param input      the input file (for frames: the molecule of the trajectory)
 * @param output     the result file (for frames: the name the per-frame names are made from)
 * @param trajectory the DCD file, or null for a plain input
 * @param firstFrame the first frame of the range, from 1 (frames only)
 * @param frames     how many frames from {@code firstFrame} (frames only; fewer where the file ends first)
 */
public record WorkItem(String input, String output, String trajectory, int firstFrame, int frames) implements Serializable {

    private static final long serialVersionUID = 1L;

    /** A plain input and its result. */
    public static WorkItem file(String input, String output) {
        return new WorkItem(input, output, null, 0, 0);
    }

    /** Frames {@code first .. first + count - 1} of {@code trajectory}. */
    public static WorkItem frames(String molecule, String trajectory, int first, int count, String output) {
        return new WorkItem(molecule, output, trajectory, first, count);
    }

    public boolean isFrames() {
        return trajectory != null;
    }

    /** How the item is named in messages: the input, or the trajectory with its frame range. */
    public String describe() {
        return isFrames() ? trajectory + " frames " + firstFrame + ".." + (firstFrame + frames - 1) : input;
    }
}
