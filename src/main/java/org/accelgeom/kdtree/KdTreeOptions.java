package org.accelgeom.kdtree;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.Timings;

/**
 * How to build an SAH kd-tree.
 *
 * <p>Defaults and their sources: K_T = 15 and K_I = 20 are the costs of a traversal step and of a ray–triangle
 * intersection Wald &amp; Havran (2006, §5) used; the empty-space bonus λ = 0.8 is theirs and the thesis's
 * (eq. 3.7). Neither paper has a depth limit as a default; ours, {@code 8 + 1.3·log2 N} capped at
 * {@link #MAX_DEPTH_LIMIT}, is pbrt's rule (Pharr, Jakob &amp; Humphreys, "Physically Based Rendering", §4.4).
 *
 * @param backend        where the per-node work runs
 * @param variant        the jvm reference's algorithm (both give the same tree); ignored by other backends
 * @param kT             K_T, cost of one traversal step
 * @param kI             K_I, cost of one ray–triangle intersection
 * @param lambda         the empty-space bonus λ applied when one child is empty (1 = no bonus)
 * @param maxDepth       maximum depth (0: pbrt's rule for the number of triangles)
 * @param threads        threads for {@code jvm-parallel} (0: one per core)
 * @param device         TornadoVM device (-1: TornadoVM's default)
 * @param deviceMinRefs  tornado: nodes with fewer triangle references run on the host (the thesis's §6.3 crossover)
 * @param binnedMinRefs  nodes with at least this many references choose their plane by binned SAH
 *                       ({@link BinnedSah}), the others by the exact event SAH; 0: exact everywhere (the default)
 * @param timings        what the result's phase timings record ({@link Execution#timings()})
 */
public record KdTreeOptions(Backend backend, Variant variant, double kT, double kI, double lambda, int maxDepth,
        int threads, int device, int deviceMinRefs, int binnedMinRefs, Timings timings) {

    /** The per-ray traversal stack holds one entry per level, so no tree may be deeper. */
    public static final int MAX_DEPTH_LIMIT = KdTreeKernels.STACK_SIZE;

    /** The two exact algorithms of Wald &amp; Havran (2006). */
    public enum Variant {
        /** Events generated and sorted at every node (§4.2 of W&amp;H; the thesis's choice). */
        NLOG2N,
        /** Events sorted once; each split keeps the order and merges the clipped straddlers' events (§4.3 of W&amp;H). */
        NLOGN
    }

    public KdTreeOptions {
        if (!(kT > 0) || !(kI > 0) || Double.isInfinite(kT) || Double.isInfinite(kI)) {
            throw new AccelGeomException("K_T and K_I must be positive and finite, got " + kT + " and " + kI);
        }
        if (!(lambda > 0 && lambda <= 1)) {
            throw new AccelGeomException("the empty-space bonus lambda must be in (0, 1], got " + lambda);
        }
        if (maxDepth < 0 || maxDepth > MAX_DEPTH_LIMIT) {
            throw new AccelGeomException("maximum depth must be in 0.." + MAX_DEPTH_LIMIT + " (0: automatic), got " + maxDepth);
        }
        if (threads < 0) {
            throw new AccelGeomException("threads must be >= 0, got " + threads);
        }
        if (binnedMinRefs < 0) {
            throw new AccelGeomException("binnedMinRefs must be >= 0 (0: exact SAH everywhere), got " + binnedMinRefs);
        }
        if (deviceMinRefs < 1) {
            throw new AccelGeomException("deviceMinRefs must be >= 1, got " + deviceMinRefs);
        }
    }

    /** These options with the default timings ({@link Timings#PHASES}). */
    public KdTreeOptions(Backend backend, Variant variant, double kT, double kI, double lambda, int maxDepth,
            int threads, int device, int deviceMinRefs, int binnedMinRefs) {
        this(backend, variant, kT, kI, lambda, maxDepth, threads, device, deviceMinRefs, binnedMinRefs, Timings.PHASES);
    }

    /** Defaults on a backend. */
    public static KdTreeOptions of(Backend backend) {
        return new KdTreeOptions(backend, Variant.NLOG2N, 15, 20, 0.8, 0, 0, -1, 1 << 16, 0, Timings.PHASES);
    }

    /** The depth limit for n triangles: the option, or pbrt's {@code round(8 + 1.3 log2 n)} capped at the stack size. */
    public int depthLimit(int n) {
        if (maxDepth > 0) {
            return maxDepth;
        }
        return (int) Math.min(MAX_DEPTH_LIMIT, Math.round(8 + 1.3 * Math.log(Math.max(1, n)) / Math.log(2)));
    }

    public KdTreeOptions withBackend(Backend b) {
        return new KdTreeOptions(b, variant, kT, kI, lambda, maxDepth, threads, device, deviceMinRefs, binnedMinRefs, timings);
    }

    public KdTreeOptions withVariant(Variant v) {
        return new KdTreeOptions(backend, v, kT, kI, lambda, maxDepth, threads, device, deviceMinRefs, binnedMinRefs, timings);
    }

    public KdTreeOptions withCosts(double traversal, double intersection) {
        return new KdTreeOptions(backend, variant, traversal, intersection, lambda, maxDepth, threads, device, deviceMinRefs, binnedMinRefs, timings);
    }

    public KdTreeOptions withLambda(double l) {
        return new KdTreeOptions(backend, variant, kT, kI, l, maxDepth, threads, device, deviceMinRefs, binnedMinRefs, timings);
    }

    public KdTreeOptions withMaxDepth(int d) {
        return new KdTreeOptions(backend, variant, kT, kI, lambda, d, threads, device, deviceMinRefs, binnedMinRefs, timings);
    }

    public KdTreeOptions withThreads(int t) {
        return new KdTreeOptions(backend, variant, kT, kI, lambda, maxDepth, t, device, deviceMinRefs, binnedMinRefs, timings);
    }

    public KdTreeOptions withDevice(int d) {
        return new KdTreeOptions(backend, variant, kT, kI, lambda, maxDepth, threads, d, deviceMinRefs, binnedMinRefs, timings);
    }

    /** Binned SAH for nodes of at least m references (0: exact everywhere). */
    public KdTreeOptions withBinnedMinRefs(int m) {
        return new KdTreeOptions(backend, variant, kT, kI, lambda, maxDepth, threads, device, deviceMinRefs, m, timings);
    }

    public KdTreeOptions withDeviceMinRefs(int m) {
        return new KdTreeOptions(backend, variant, kT, kI, lambda, maxDepth, threads, device, m, binnedMinRefs, timings);
    }

    /** Where these options run: backend, threads, device and timings (a build reports no progress). */
    public Execution execution() {
        return Execution.of(backend).withThreads(threads).withDevice(device).withTimings(timings);
    }

    /** These options on {@code e} (its backend, threads, device and timings). */
    public KdTreeOptions withExecution(Execution e) {
        return new KdTreeOptions(e.backend(), variant, kT, kI, lambda, maxDepth, e.threads(), e.device(), deviceMinRefs,
                binnedMinRefs, e.timings());
    }
}
