package org.accelgeom.render;

import java.awt.image.BufferedImage;
import java.util.Locale;

import org.accelgeom.engine.Backend;
import org.accelgeom.engine.PhaseTimings;
import org.accelgeom.kdtree.Triangles;

/**
 * A rendered image and its statistics.
 *
 * @param width     pixels per row
 * @param height    rows
 * @param hitId     per pixel, the hit triangle's index in the tree's {@link Triangles} (-1: background)
 * @param hitT      per pixel, the primary hit's distance in units of the ray direction (+∞: background)
 * @param rgb       per pixel, 0xRRGGBB
 * @param rays      rays traced (primary and shadow)
 * @param nodeVisits nodes visited by all rays
 * @param triangleTests ray–triangle tests of all rays
 * @param traceNanos time of the tracing step (kernel time on the device for tornado)
 * @param wallNanos  wall time of the tracing step, transfers to and from a device included (JIT compilation not)
 * @param timings   time per phase
 * @param backend   where it ran
 */
public record RenderResult(int width, int height, int[] hitId, double[] hitT, int[] rgb, long rays, long nodeVisits,
        long triangleTests, long traceNanos, long wallNanos, PhaseTimings timings, Backend backend) {

    public double raysPerSecond() {
        return traceNanos == 0 ? 0 : rays * 1e9 / traceNanos;
    }

    /** Rays per second of the tracing step with its transfers (the same as {@link #raysPerSecond} on the jvm backends). */
    public double raysPerSecondWithTransfers() {
        return wallNanos == 0 ? 0 : rays * 1e9 / wallNanos;
    }

    public double stepsPerRay() {
        return rays == 0 ? 0 : (double) nodeVisits / rays;
    }

    public double testsPerRay() {
        return rays == 0 ? 0 : (double) triangleTests / rays;
    }

    /** The image (for {@code io.Formats.writePng}). */
    public BufferedImage image() {
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        img.setRGB(0, 0, width, height, rgb, 0, width);
        return img;
    }

    public String format() {
        String transfers = backend == Backend.TORNADO ? String.format(Locale.ROOT,
                " (kernels; with transfers %.3f ms: %.2f Mrays/s)", wallNanos / 1e6, raysPerSecondWithTransfers() / 1e6) : "";
        return String.format(Locale.ROOT, "%dx%d, %d rays in %.3f ms: %.2f Mrays/s%s, %.2f nodes and %.2f triangle tests per ray",
                width, height, rays, traceNanos / 1e6, raysPerSecond() / 1e6, transfers, stepsPerRay(), testsPerRay());
    }
}
