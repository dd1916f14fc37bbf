package org.accelgeom.hull;

import org.accelgeom.engine.DeviceSession;
import org.accelgeom.engine.PhaseTimings;

/**
 * The data-parallel steps of the QuickHull, as one backend runs them. The host orchestration
 * ({@link QuickHull}) owns the topology and calls these steps; a backend owns the point data, labels and
 * face tables (on the GPU they stay in device memory between calls).
 */
public interface HullBackend extends AutoCloseable {

    /**
     * Makes the {@code tornado} backend in a session; implemented in {@code hull.tornado} and found as a service
     * ({@link org.accelgeom.engine.TornadoSupport#factory}).
     */
    interface Factory {
        HullBackend create(DeviceSession session);

        /**
         * Builds ahead, in {@code session}, what a hull of about {@code points} points will use (a device plan, its
         * kernels compiled), so that the hull finds it ready; nothing by default. Only time depends on it.
         */
        default void prepare(DeviceSession session, int points) {
        }

        /**
         * {@link #prepare} in two parts: what needs no device starts now, on a thread of its own (the plan's host
         * arrays, beside TornadoVM's start and the read), and the returned part builds the plan over them once
         * TornadoVM has started. By default all of it is the returned part.
         */
        default Runnable prepareAhead(DeviceSession session, int points) {
            return () -> prepare(session, points);
        }

        /**
         * {@link #prepareAhead(DeviceSession, int)} whose plan, when {@code input} has the input's points by the time
         * the plan's graphs first run (their coordinate arrays x, y, z, read and checked, which must not change
         * afterwards; null while they are not), loads those instead of a few dummy points: a hull of exactly these
         * arrays in {@code session} then finds them on the device (no copy, no upload). {@code input} is asked once
         * and never waited for. By default the points are not used.
         */
        default Runnable prepareAhead(DeviceSession session, int points, java.util.function.Supplier<double[][]> input) {
            return prepareAhead(session, points);
        }

        /**
         * Whether {@code session} (a resident one, {@link org.accelgeom.engine.Execution#resident()}) holds these very
         * arrays on the device from its last hull: they were checked then and found in the direct range (scaled inputs
         * are held as scaled copies, never as the caller's arrays), and a resident session's arrays must not change,
         * so their check may be skipped. False by default.
         */
        default boolean holds(DeviceSession session, double[] x, double[] y, double[] z) {
            return false;
        }
    }

    /**
     * Thrown by a backend whose face tables are full where larger ones can be had: the hull starts again, asking
     * {@link #load} for {@link #faces()} faces (a rare input; the result is the same hull).
     */
    final class MoreFaces extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final int faces;

        public MoreFaces(int faces) {
            super("the face tables need " + faces + " faces", null, false, false);
            this.faces = faces;
        }

        /** The face capacity to ask the next {@link #load} for. */
        public int faces() {
            return faces;
        }
    }

    /** Takes the points (uploads them, for a device backend); every point starts with label 0 (the root face). */
    void load(double[] x, double[] y, double[] z, int faceCapacity, PhaseTimings timings);

    /** For each of the {@code nDirs} unit directions, the index of the point with the largest dot product. */
    int[] extremes(double[] dirs, int nDirs);

    /**
     * Arg-max of a distance over all points: {@code mode 0} squared distance to the line (a, u),
     * {@code mode 1} absolute distance to the plane through a with normal u; {@code geom = ax, ay, az, ux, uy, uz}.
     */
    int farthest(double[] geom, int mode);

    /** Marks the given points as no longer candidates (label -1). */
    void kill(int[] points);

    /** Interior culling against the inner polytope; returns the number of points it removed. */
    int cull(double[] innerPlanes, int nInner);

    /**
     * One round: applies the topology changes in {@code delta} (new face planes, deleted faces and their cones,
     * points that became hull vertices), reassigns the points of deleted faces, lets {@code resolver} decide the
     * uncertain ones exactly, and returns the farthest outside point of each new face (-1 if it has none).
     */
    int[] round(RoundDelta delta, UncertainResolver resolver);

    /**
     * The threads of this backend's host steps, on which each round inserts its points into the topology
     * ({@link ParallelInsertion}); null: one after another on the caller (the jvm backend, the serial reference).
     */
    default org.accelgeom.engine.ParallelLoops hostLoops() {
        return null;
    }

    /** Compacts the list of points still in play, where that pays (host backends); a device backend may ignore it. */
    void compact();

    @Override
    void close();

    /** Decides uncertain points exactly on the host. */
    interface UncertainResolver {
        /**
         * Point p was uncertain at the cone of the deleted face f: returns its face (or -1 when inside);
         * its kernel distance to that face goes to {@code distOut[0]}.
         */
        int resolve(int p, int f, double[] distOut);
    }
}
