package org.accelgeom.cli;

import java.util.Locale;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.hull.RandomPoints;
import org.accelgeom.io.Formats;
import org.accelgeom.io.PointCloud;
import org.accelgeom.io.PointParts;

/**
 * The input of a split hull ({@link SplitHull}) as parts: {@code --random N} (part k of K: points N·k/K .. N·(k+1)/K
 * - 1, generated alone, {@link RandomPoints#part}) or a file (part k read alone, {@link PointParts}).
 *
 * @param name         the input as the report names it
 * @param file         the file, or null for random points
 * @param distribution the distribution of random points
 * @param count        the number of random points
 * @param seed         their seed
 */
record HullParts(String name, String file, String distribution, int count, long seed) {

    static HullParts of(HullCommand c, String input) {
        if (c.random != null) {
            return new HullParts(String.format(Locale.ROOT, "%d random points (%s, seed %d)", c.random, c.distribution,
                    c.common.seed), null, c.distribution, c.random, c.common.seed);
        }
        return new HullParts(input, input, null, 0, 0);
    }

    /** A part's points and how they were made: generated, read by byte range, or read whole. */
    record Loaded(PointCloud points, String how) {
    }

    /** Part {@code k} of {@code parts}. */
    Loaded load(int k, int parts) {
        if (file == null) {
            int from = (int) ((long) count * k / parts);
            int to = (int) ((long) count * (k + 1) / parts);
            return new Loaded(RandomPoints.part(distribution, count, seed, from, to), "generated");
        }
        PointParts.Part p = PointParts.read(file, k, parts);
        return new Loaded(p.points(), p.ranged() ? "its byte range" : "the whole file");
    }

    /** All the points (the parent's, for --save-points and --picture). */
    PointCloud all() {
        return file == null ? HullCommand.generate(distribution, count, seed) : Formats.readPoints(file);
    }

    /** What making a part is called in the timings. */
    String verb() {
        return file == null ? "generate" : "read";
    }

    /** Part k's size where it is known before it is made (random points; a file's guess), else 0. */
    long guess(int k, int parts) {
        if (file == null) {
            return (long) count * (k + 1) / parts - (long) count * k / parts;
        }
        long all = PointCountGuess.points(file);
        return all > 0 ? all / parts : 0;
    }

    /**
     * The checks of the one-device run on a part: 3D points (else its error), and the index in the part of the first
     * point with a non-finite coordinate (-1 if none; the parent names it in the whole input).
     */
    int check(PointCloud points) {
        if (points.dimension() != 3) {
            throw new AccelGeomException(name + ": the points have " + points.dimension() + " coordinate"
                    + (points.dimension() == 1 ? "" : "s") + " each; the convex hull needs 3D points (x y z)");
        }
        return Check.firstNonFinite(points.coords(), points.size(), false);
    }
}
