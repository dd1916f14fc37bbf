package org.accelgeom.voronoi;

import java.io.OutputStream;

import org.accelgeom.engine.Backend;
import org.accelgeom.io.VoronoiFiles;

/**
 * The host's part of a Voronoi diagram run once on a small input, so that the JIT has compiled it before the real
 * diagram needs it: a one-shot otherwise runs its first tracing levels, its links and the vertex file's formatting
 * cold on every core. The CLI runs it on a thread of its own while the JVM has idle cores: beside picocli, the option
 * checks, the read and TornadoVM's start ({@code accelgeom.prewarm.voronoi}). Its result is dropped; nothing of it
 * stays. The same idea as {@code hull.HullWarmUp}.
 */
public final class VoronoiWarmUp {

    /** Balls of the warm-up's diagram: about 6,000 vertices. */
    static final int BALLS = 1000;

    private VoronoiWarmUp() {
    }

    /**
     * The diagram of {@link #BALLS} random atom-like balls on the one-thread backend (the search the host runs on
     * every backend, in double), its vertex file written into nothing; returns its vertex count.
     */
    public static int run() {
        VoronoiResult r = Voronoi.compute(Balls.randomAtoms(BALLS, 1), VoronoiOptions.of(Backend.JVM));
        try {
            VoronoiFiles.writeVertices(OutputStream.nullOutputStream(), r.vertexCount(), r.quads(), r.spheres());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return r.vertexCount();
    }
}
