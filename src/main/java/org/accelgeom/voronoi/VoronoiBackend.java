package org.accelgeom.voronoi;

import org.accelgeom.engine.DeviceSession;

/**
 * What a backend runs of the Voronoi diagram: its one data-parallel step, the end-vertex search of the edge tracing
 * (the end ball of every edge of a batch: {@link VoronoiKernels#searchEdge} for each edge, or the device's lane layout
 * of {@link EndVertexScans}), which is where the time goes. Implementations: {@link JvmVoronoiBackend} (jvm: one
 * thread; jvm-parallel: the session's pool; with lanes, the device's lane layout on the CPU) and
 * {@code voronoi.tornado.TornadoVoronoiBackend}. A backend owns the ball arrays and the grid (on a device they stay in
 * device memory). The other steps ({@link Voronoi}: grid and hidden balls, initial vertex, edge frames, VIDIC
 * links, untraced pieces, closed elliptic edges) are host code, the same for every backend (jvm-parallel and tornado
 * run their per-edge loops on the session's pool): they walk and change the topology one edge at a time, or are
 * small, so they are not backend steps.
 */
public interface VoronoiBackend extends AutoCloseable {

    /**
     * Makes the {@code tornado} search in a session (it counts its plans there); implemented in
     * {@code voronoi.tornado} and found as a service ({@link org.accelgeom.engine.TornadoSupport#factory}).
     */
    interface Factory {
        VoronoiBackend create(DeviceSession session);
    }

    /**
     * Takes the balls (double and float copies), the grid and the parameters; {@code capacity} is the most
     * edges a batch will hold (the frame arrays passed to {@link #search} have room for that many). May be called
     * again with other balls (the next frame of a trajectory): the backend keeps what it can (tornado: the compiled
     * plan and its device buffers, when the balls are as many and the grid and capacity fit) and uploads the rest.
     */
    void load(double[] bx, double[] by, double[] bz, double[] br, float[] fx, float[] fy, float[] fz, float[] fr,
            int[] cellStart, int[] cellBalls, double[] params, int[] iparams, int capacity);

    /** The most edges a batch may hold since the last {@link #load}: at least the capacity asked for. */
    int capacity();

    /**
     * Searches the end balls of edges {@code 0 .. count-1} of the frames; results in {@code out} (stride
     * {@link VoronoiKernels#OS}).
     */
    void search(int count, double[] frames, float[] framesF, int[] gates, int[] out);

    @Override
    void close();
}
