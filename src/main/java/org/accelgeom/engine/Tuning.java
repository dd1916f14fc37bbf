package org.accelgeom.engine;

import java.util.Locale;

/**
 * Every system property accelgeom reads, in one place: its name (all under {@code accelgeom.}), default, range and
 * meaning. Code reads a switch only through its constant here ({@code Tuning.HULL_PASSES.intValue()}); a test checks
 * that no other code reads system properties, and that {@code docs/tuning.md} is {@link #markdown()} (regenerate it
 * with {@code java -cp target/classes org.accelgeom.engine.Tuning > docs/tuning.md}).
 *
 * <p>Two kinds: {@link Use#TUNING} changes how fast a result comes, never the result (every backend stays bit-identical
 * to the jvm reference for any value in range); {@link Use#DIAGNOSTIC} prints or samples, never changes a result. The
 * one switch that does change results on purpose ({@link #CBT_CHUNK_STOP}, a timing breakdown) is read only by the
 * {@code cbt --bench} experiments, never by the production path ({@link Use#BENCH_ONLY}).
 *
 * <p>Values that do not parse fall back to the default; numbers outside the range are clamped to it.
 */
public enum Tuning {

    // ---- engine
    TORNADO_PROFILER("accelgeom.tornado.profiler", Type.BOOLEAN, "false", 0, 0, Use.TUNING,
            "TornadoVM's profiler on every plan of the process, whatever the calls' timings: it splits each execution "
                    + "into upload, kernel and JIT time, and makes TornadoVM wait on every operation's event, so it is "
                    + "off unless a benchmark asks for it (the CLI sets it for --bench before the first plan; a value "
                    + "given on the command line wins). A call asks for it on its own plans with the execution's "
                    + "timings DEVICE (--timings). Off: an execution's wall time is one \"device\" phase."),
    PREWARM("accelgeom.prewarm", Type.BOOLEAN, "true", 0, 0, Use.TUNING,
            "hull, voronoi and ridge on tornado: start TornadoVM on a background thread first thing in main (beside "
                    + "picocli, the option checks and the read; ridge: and its host phases), and for the hull of a file "
                    + "build its execution plan there at the capacity the file's guessed point count needs and run it "
                    + "once on dummy points, so that the kernels "
                    + "are compiled when the points are in (a wrong guess costs time only). It crashed the JVM (SIGSEGV) "
                    + "before scripts/accelgeom preloaded libjsig.so (POCL's LLVM replaced the JVM's signal handlers) "
                    + "(docs/benchmarks.md, sessions 9 and 10). false: start and compile when needed."),
    PREWARM_PLAN("accelgeom.prewarm.plan", Type.BOOLEAN, "true", 0, 0, Use.TUNING, "with accelgeom.prewarm: also "
            + "compile the hull's plan ahead (false: only start TornadoVM); see docs/benchmarks.md, session 10."),
    PREWARM_ARRAYS("accelgeom.prewarm.arrays", Type.BOOLEAN, "true", 0, 0, Use.TUNING, "with accelgeom.prewarm.plan: "
            + "allocate the hull plan's host arrays on a thread of their own as soon as the point count is guessed "
            + "(beside TornadoVM's start and the read), not on the background thread after TornadoVM's start."),
    PREWARM_POINTS("accelgeom.prewarm.points", Type.BOOLEAN, "true", 0, 0, Use.TUNING, "with accelgeom.prewarm.arrays: "
            + "when the file is read and checked before the hull's plan first runs, the plan runs on its points instead "
            + "of dummy ones, and the hull finds them on the device (no second copy and upload after the start)."),
    PREWARM_READ_EARLY("accelgeom.prewarm.readEarly", Type.BOOLEAN, "true", 0, 0, Use.TUNING, "with accelgeom.prewarm: "
            + "hull --input FILE (one file) on tornado starts reading the file first thing in main, beside picocli, the "
            + "option checks and TornadoVM's start, with accelgeom.prewarm.readSpare threads fewer than cores."),
    PREWARM_JIT("accelgeom.prewarm.jit", Type.BOOLEAN, "true", 0, 0, Use.TUNING, "with accelgeom.prewarm.plan: while the "
            + "hull's plan is still being built when the file is read, run the host's part of a hull on a small input "
            + "so that the JIT has compiled it before the real hull (same result; its own is dropped)."),
    PREWARM_JIT_RUNS("accelgeom.prewarm.jitRuns", Type.INT, "8", 1, 1000, Use.TUNING, "with accelgeom.prewarm.jit: "
            + "the host's warm-up hull runs again while the plan is still being built, at most this many times in all."),
    PREWARM_READ_SPARE("accelgeom.prewarm.readSpare", Type.INT, "2", 0, 1024, Use.TUNING, "with accelgeom.prewarm.plan: "
            + "while TornadoVM starts and the hull's plan is built, the file is read by this many threads fewer than "
            + "there are cores (a pool of its own), so that the start is not slowed by the reading threads (on an H100 "
            + "host it took 1.5 s beside 16 of them, 0.7 s alone); 0: every core, as without a compile ahead."),
    PREWARM_VORONOI("accelgeom.prewarm.voronoi", Type.BOOLEAN, "true", 0, 0, Use.TUNING, "voronoi on tornado or "
            + "jvm-parallel: first thing in main, compute a small diagram (1000 random balls, one thread) and format its "
            + "vertex file into nothing on a thread of its own, so that the JIT has compiled the host's search, links "
            + "and formatting before the real diagram (same result; its own is dropped; voronoi/VoronoiWarmUp)."),
    PREWARM_TRACE("accelgeom.prewarm.trace", Type.BOOLEAN, "false", 0, 0, Use.DIAGNOSTIC,
            "hull on tornado: prints to stderr when each piece of the start ends (TornadoVM's start, the plan's host "
                    + "arrays, its graphs, their first executions, the read, the join), in ms since the JVM's start; "
                    + "like every accelgeom.prewarm switch, not part of the kernel cache's key."),
    FAST_EXIT("accelgeom.fastExit", Type.BOOLEAN, "true", 0, 0, Use.TUNING, "the CLI ends the JVM by Runtime.halt "
            + "once stdout and stderr are flushed: no shutdown hooks (TornadoVM's OpenCL clean-up: the process's exit "
            + "frees the same). false: System.exit, e.g. for -XX:StartFlightRecording, whose file a hook writes."),
    KERNEL_CACHE("accelgeom.kernelCache", Type.BOOLEAN, "true", 0, 0, Use.TUNING,
            "tornado: keep TornadoVM's generated OpenCL source of each task on disk and, in later processes, build the "
                    + "task from it (a pre-built task: no Graal compilation); the same source, so the same results. "
                    + "Keyed on the code, TornadoVM, the device, the properties and the task's scalar values and array "
                    + "lengths (engine/tornado/KernelCache)."),
    KERNEL_CACHE_DIR("accelgeom.kernelCache.dir", Type.STRING, "", 0, 0, Use.TUNING,
            "The kernel cache's directory; empty: $XDG_CACHE_HOME/accelgeom/kernels, else $HOME/.cache/accelgeom/kernels."),
    TORNADO_PROFILE_LOG("accelgeom.tornado.profileLog", Type.INT, "0", 0, Integer.MAX_VALUE, Use.DIAGNOSTIC,
            "N > 0: every N-th profiled execution prints TornadoVM's per-task profile (JSON) to stderr."),
    DEVICE_WORKERS("accelgeom.devices.workers", Type.STRING, "auto", 0, 0, Use.TUNING,
            "--devices with several devices: 'processes' starts one worker JVM per listed device (the parent's JVM flags "
                    + "and class path; the parent hands out the inputs and prints the reports in input order), "
                    + "'threads' runs one worker thread per device in this JVM, 'auto' processes (since session 15: "
                    + "with files in flight on each worker, one JVM of every worker's files is far slower), but threads "
                    + "for voronoi's frames and models (host work: one start instead of one per device) and for voronoi "
                    + "with accelgeom.devices.inFlight=1. The same result files either way; docs/scale-out.md has the "
                    + "measured difference."),
    DEVICE_WARMUP("accelgeom.devices.warmup", Type.BOOLEAN, "true", 0, 0, Use.TUNING, "--devices, worker processes, a batch "
            + "of files dealt in input order (accelgeom.devices.order=input): each worker not dealt the first input first computes it into a temporary directory, so its plans are sized "
            + "as a one-device run's and their kernels come from the kernel cache (keyed on sizes); false: no warm-up."),
    DEVICE_ORDER("accelgeom.devices.order", Type.STRING, "size", 0, 0, Use.TUNING, "--devices, a batch of files on "
            + "several workers: 'size' deals the largest inputs first (a structure's ATOM records, a point file's points, "
            + "else its bytes; each worker's first input sizes its plans for the rest: no warm-up, seldom a plan grown "
            + "mid-batch, the small inputs last), 'input' in input order; the reports are printed in input order "
            + "either way."),
    DEVICE_ISOLATION("accelgeom.devices.isolate", Type.BOOLEAN, "true", 0, 0, Use.TUNING,
            "--devices, worker processes, NVIDIA's OpenCL the only OpenCL platform (or POCL's CPU beside it): each worker process sees its GPU alone "
                    + "(CUDA_VISIBLE_DEVICES) as its device 0, so no process opens the other GPUs; false: each sees every GPU."),
    DEVICE_CHILD_CPUS("accelgeom.devices.childCpus", Type.STRING, "pin", 0, 0, Use.TUNING,
            "--devices, worker processes of a batch: 'pin' starts worker k under taskset on the k-th of as many contiguous "
                    + "shares of this process's CPUs as there are workers and sizes its JVM for them "
                    + "(-XX:ActiveProcessorCount: its GC and JIT threads, its loops' pool); 'count' only sizes the JVM; "
                    + "'off' neither (every worker sees every CPU). Left off with fewer than 2 CPUs a worker, or where the "
                    + "JVM flags already set ActiveProcessorCount."),
    DEVICE_WORKER_THREADS("accelgeom.devices.workerThreads", Type.INT, "0", -1, 4096, Use.TUNING,
            "--devices, worker threads (one JVM), --threads not given: host threads of each worker's loops; 0: every "
                    + "worker on the common pool of every core (a worker's idle cores serve the others: 22.1 against "
                    + "23.7 ms per DCD frame on 4 H200s, docs/scale-out.md, session 13); -1: the cores over the workers, "
                    + "a pool of its own per worker; N: N threads each."),
    DEVICE_IN_FLIGHT("accelgeom.devices.inFlight", Type.INT, "0", 0, 256, Use.TUNING,
            "--devices, a batch of files: inputs in flight at once on each device worker, sharing its session (worker "
                    + "threads: that many threads per worker; worker processes: that many numbers sent ahead, computed "
                    + "side by side in the child), reports in input order. 0: what the command's one-device batch keeps "
                    + "in flight on one worker's share of the cores (voronoi: half the share, 2 to 8, or "
                    + "accelgeom.voronoi.inFlight; hull: accelgeom.batch.inFlight), 1 for the other commands; 1: one "
                    + "input at a time per worker, as before session 15."),
    DEVICE_TIMELINE("accelgeom.devices.timeline", Type.BOOLEAN, "false", 0, 0, Use.DIAGNOSTIC,
            "--devices, worker processes: after the batch, one line per worker on stderr with its milestones in seconds "
                    + "from the parent JVM's start (started, its JVM up, its background TornadoVM start done, ready for inputs, first and last answer, end) and "
                    + "its inputs and busy time; docs/scale-out.md, \"Where the wall goes\"."),
    BATCH_IN_FLIGHT("accelgeom.batch.inFlight", Type.INT, "0", 0, 256, Use.TUNING,
            "hull batches on jvm-parallel and tornado (several --input files): inputs in flight at once, each reading, "
                    + "computing and writing beside the others (tornado: the device work one input at a time), reports "
                    + "in input order; fewer while their files' footprint would pass half the heap. 0: 3."),
    SAMPLE("accelgeom.sample", Type.STRING, "", 0, 0, Use.DIAGNOSTIC,
            "A file: a stack sampler writes the main thread's stacks there (a poor man's profiler); empty: off."),
    SAMPLE_AFTER("accelgeom.sample.after", Type.LONG, "0", 0, Long.MAX_VALUE, Use.DIAGNOSTIC,
            "Milliseconds after start before the stack sampler (accelgeom.sample) begins."),

    // ---- input
    IO_BLOCK("accelgeom.io.block", Type.INT, "8388608", 1, Integer.MAX_VALUE, Use.TUNING,
            "Text readers: bytes per block of a memory-mapped file parsed in parallel (each block ends at a line end); "
                    + "a file that would give fewer than 4 blocks per core gets smaller blocks, of at least 1 MiB."),

    // ---- hull
    HULL_ROUND_CAP("accelgeom.hull.roundCap", Type.INT, "65536", 64, 1 << 24, Use.TUNING,
            "tornado hull: the largest per-round delta (new faces, deleted cones, new vertices) the big round graph "
                    + "uploads."),
    HULL_SMALL_ROUND_CAP("accelgeom.hull.smallRoundCap", Type.INT, "4096", 64, 1 << 24, Use.TUNING,
            "tornado hull: the delta capacity of the small round graph (most rounds fit in it)."),
    HULL_INITIAL_FACES("accelgeom.hull.initialFaces", Type.INT, "0", 0, 1 << 26, Use.TUNING,
            "tornado hull: the face tables' size, fixed (a hull that needs more fails with a clear message); 0: "
                    + "16 + min(8n, accelgeom.hull.firstFaces) for n points, and once 16 + min(8n, 2^23) if that is not "
                    + "enough."),
    HULL_FIRST_FACES("accelgeom.hull.firstFaces", Type.INT, "1048576", 64, 1 << 23, Use.TUNING,
            "tornado hull (with accelgeom.hull.initialFaces unset): a plan's face tables first hold 16 + min(8n, this) "
                    + "faces; a hull that needs more starts again on tables of 16 + min(8n, 2^23) (host arrays and device "
                    + "memory in proportion: 2^23 faces are 503 MB, for the 28,424 of 10^7 points in a ball)."),
    HULL_PASSES("accelgeom.hull.passes", Type.INT, "4", 2, 16, Use.TUNING,
            "tornado hull: farthest-point passes per execution of a round graph."),
    HULL_ROUND_PHASES("accelgeom.hull.roundPhases", Type.BOOLEAN, "false", 0, 0, Use.DIAGNOSTIC,
            "tornado hull: each round's executions in a phase of their own in --timings (round r, its graph, active "
                    + "points, new faces), to find the rounds that take long."),
    HULL_SEEDED_MERGE("accelgeom.hull.seededMerge", Type.BOOLEAN, "false", 0, 0, Use.TUNING,
            "split hull (--devices LIST): true: the parts skip their facet merge (they send the points of their live "
                    + "faces) and the merge continues the first part's QuickHull history instead of inserting its "
                    + "vertices again (slower on 2 H200: its insertions delete the part's surplus faces again); false: "
                    + "each part's vertices, and the merge's hull from a tetrahedron. The same hull."),
    HULL_PARALLEL_INSERT("accelgeom.hull.parallelInsert", Type.BOOLEAN, "false", 0, 0, Use.TUNING,
            "hull (jvm-parallel, tornado): true: each QuickHull round inserts its points into the host topology on the "
                    + "backend's host threads, by deterministic reservations (the same topology for any thread count; "
                    + "slower than the serial loop on a 16-core H200 host, session 15); false: one after another on one "
                    + "thread, as the jvm backend always does. The same hull."),
    HULL_BALLS("accelgeom.hull.balls", Type.BOOLEAN, "true", 0, 0, Use.TUNING,
            "hull: ball pre-tests of the extreme points (jvm, jvm-parallel) and of interior culling (every backend; a "
                    + "point well inside a ball skips the 64 dot products, or the inner polytope's planes, whose answer the ball "
                    + "proves); false: every point takes the full tests. The same result either way."),

    // ---- ridge
    RIDGE_UNROLL("accelgeom.ridge.unroll", Type.INT, "8", 2, 10, Use.TUNING,
            "tornado ridge: evolution iterations per execution (even; odd values round down): fewer host round trips; "
                    + "iterations after convergence cost only their empty launches."),
    RIDGE_SPLIT_START("accelgeom.ridge.splitStart", Type.INT, "1", 0, 2, Use.TUNING,
            "ridge --tiled over several devices (TileSplit): how the parts start. 0: all at once; 1: their plans built "
                    + "one part at a time (TornadoVM sketches the kernels there), the JIT in parallel; 2: also their "
                    + "first execution (the JIT) one part at a time, on no representatives. A ConcurrentModification"
                    + "Exception met once on 4 GPUs with 0, not reproduced (session 16). The same result in every mode."),
    RIDGE_SPLIT_DEAL("accelgeom.ridge.splitDeal", Type.STRING, "work", 0, 0, Use.TUNING,
            "ridge --tiled over several devices (TileSplit): how the tiles are dealt to the parts. work (the default): "
                    + "at the first evolve, by each tile's points x representatives, largest first to the part with "
                    + "the least work so far (10^8 spiral3d on 4 H100s in worker processes: 49.9 s, where points did "
                    + "not end within 100 s; session 17); points: contiguous ranges of tiles balanced by points; "
                    + "interleave: the tiles in turn to the part with the fewest points: slower on 4 H200s at 10^8 "
                    + "(over 100 s against 79 s, session 16). Other text: work. The same result."),
    RIDGE_STRIPES("accelgeom.ridge.stripes", Type.INT, "16", 1, 64, Use.TUNING,
            "tornado ridge: copies of the per-representative accumulators (SpherePointCount, CordSums); work-item w of "
                    + "the closest kernel adds to copy w mod stripes and shift adds the copies, so a representative that "
                    + "most points of a large tile share takes 1/stripes of the atomic adds on one address. Integer sums: "
                    + "the same result."),
    RIDGE_SPLIT_STREAM("accelgeom.ridge.splitStream", Type.BOOLEAN, "true", 0, 0, Use.TUNING,
            "ridge --tiled over worker processes (SplitRidge): a worker reads its part's layout file tile by tile as "
                    + "the tornado backend computes each tile's device order, on its share of the host's cores (the "
                    + "cores over the processes); false: the whole file first, then the order over all cores "
                    + "(session 17). The same result."),
    RIDGE_CHUNK("accelgeom.ridge.chunk", Type.INT, "0", 0, 1 << 16, Use.TUNING,
            "tornado ridge: points per work-item of the closest kernel (Alg. 9), which adds each run of consecutive points "
                    + "with the same nearest representative with one atomic add per sum (the points in a per-tile spatial "
                    + "order); 0: by the layout's size (a power of two up to 64 that leaves 2^16 work-items); 1: one "
                    + "work-item per point. The same result."),
    RIDGE_ORDER("accelgeom.ridge.order", Type.BOOLEAN, "true", 0, 0, Use.TUNING,
            "tornado ridge: the device holds each tile's points in Morton order of cells of side R1/16 (long runs for "
                    + "the closest kernel); false: the layout's order. The same result."),

    // ---- voronoi
    VORONOI_CLFLAGS("accelgeom.voronoi.clflags", Type.STRING, "-w", 0, 0, Use.TUNING,
            "tornado voronoi: OpenCL compiler flags (commas for spaces), replacing TornadoVM's fast-math defaults, "
                    + "which change double results; for experiments only (POCL rejects -ffp-contract=off)."),
    VORONOI_HOST_BELOW("accelgeom.voronoi.hostBelow", Type.INT, "4096", 0, Integer.MAX_VALUE, Use.TUNING,
            "tornado voronoi: a tracing level of fewer edges is searched on the host cores, not the device (the device's "
                    + "cost per execution is more than the cores' search of so few edges; docs/voronoi.md); an input whose "
                    + "levels all stay under it builds no device plan. 0: every level on the device. Same output."),
    VORONOI_HOST_SHARE("accelgeom.voronoi.hostShare", Type.INT, "0", 0, 90, Use.TUNING,
            "tornado voronoi: percent of a device level's edges that the host cores search (and end) while the device "
                    + "searches the others. 0 (default): the device searches the whole level; 25 and 40 made 4JSV's device "
                    + "levels 4-5x slower on an H200 (the host then searched in two-phase). Same output."),
    VORONOI_IN_FLIGHT("accelgeom.voronoi.inFlight", Type.INT, "0", 0, 256, Use.TUNING,
            "voronoi batches on jvm-parallel and tornado (several --input files): inputs computed at once, their reports "
                    + "printed in input order; memory holds that many inputs and results (tornado: their device steps "
                    + "take turns). 0: half the cores, 2 to 8; jvm: one input at a time, or when set that many, each on one thread."),
    VORONOI_ONE_THREAD("accelgeom.voronoi.oneThreadPerInput", Type.BOOLEAN, "true", 0, 0, Use.TUNING,
            "jvm-parallel voronoi batches: while at least as many inputs remain as the batch has threads, each input is "
                    + "computed on one thread (the jvm-parallel algorithm, its loops on the caller), one input per thread "
                    + "at once; the last inputs each on all threads (frames and models in flight likewise, see "
                    + "accelgeom.voronoi.framesInFlight). false: every input on all threads, half the cores of inputs at "
                    + "once. Same output."),
    VORONOI_FRAMES_IN_FLIGHT("accelgeom.voronoi.framesInFlight", Type.INT, "0", 0, 256, Use.TUNING,
            "voronoi --trajectory and --all-models (one device or none): frames (models) computed at once, read in order, "
                    + "their reports printed in frame order; memory holds that many frames and results. Small frames (whose "
                    + "levels stay under accelgeom.voronoi.hostBelow) and, while at least as many frames remain, any frame on "
                    + "jvm-parallel, each on one thread; others on all threads (tornado: device steps take turns). 0: as many "
                    + "as the threads (at most 64) for frames on one thread, else half the cores (2 to 8); jvm: 1. Same output."),
    VORONOI_LEVELS("accelgeom.voronoi.levels", Type.BOOLEAN, "false", 0, 0, Use.DIAGNOSTIC,
            "The edge tracer prints each tracing level's edge count and the wall time of its search and end vertices to "
                    + "stderr (how hostBelow was measured)."),
    VORONOI_DEBUG("accelgeom.voronoi.debug", Type.BOOLEAN, "false", 0, 0, Use.DIAGNOSTIC,
            "The edge tracer prints its per-edge decisions to stderr (was voronoi.debug)."),

    // ---- kdtree and the ray caster
    KDTREE_REGION_FACTOR("accelgeom.kdtree.regionFactor", Type.INT, "16", 1, 1 << 16, Use.TUNING,
            "kd-tree small-node stage: a work region holds at most this many times the small-node threshold of "
                    + "references."),
    KDTREE_CLFLAGS("accelgeom.kdtree.clflags", Type.STRING, "", 0, 0, Use.TUNING,
            "tornado kd-tree level kernels: OpenCL compiler flags (commas for spaces); empty: the backend's own."),
    KDTREE_SUBTREE_ORDER("accelgeom.kdtree.subtreeOrder", Type.BOOLEAN, "true", 0, 0, Use.TUNING, "tornado kd-tree: the "
            + "subtree kernel's list of roots in 9 bands of reference counts, the most first; false: the nodes' order."),
    KDTREE_LOCAL_BINS("accelgeom.kdtree.localBins", Type.BOOLEAN, "true", 0, 0, Use.TUNING, "tornado kd-tree: the "
            + "level's bins counted per work-group (slots sorted in local memory, two atomics a run); false: six atomics a reference."),
    KDTREE_PIPELINED_DOWNLOAD("accelgeom.kdtree.pipelinedDownload", Type.BOOLEAN, "true", 0, 0, Use.TUNING, "tornado "
            + "kd-tree: each of the tree's three arrays copied to the heap while the next one downloads; false: after all."),
    RENDER_LOCAL_SIZE("accelgeom.render.localSize", Type.INT, "0", 0, 1024, Use.TUNING,
            "tornado ray caster: work-group size of the pixel kernels; 0: TornadoVM's choice."),

    // ---- cbt and terrain
    CBT_LOCAL("accelgeom.cbt.local", Type.INT, "256", 1, 1024, Use.TUNING,
            "tornado cbt and terrain: work-group size of the element kernels (at most the device's maximum)."),
    CBT_TOP_LEVEL("accelgeom.cbt.topLevel", Type.INT, "11", 0, 11, Use.TUNING,
            "tornado cbt: the top levels up to this one are reduced by one work-group."),
    CBT_TOP_GROUP("accelgeom.cbt.topGroup", Type.INT, "1024", 1, 1024, Use.TUNING,
            "tornado cbt: work-group size of the top reduction (at most the device's maximum)."),
    CBT_CHUNKED("accelgeom.cbt.chunked", Type.BOOLEAN, "true", 0, 0, Use.TUNING,
            "tornado cbt: the usage cycle in one kernel launch (ChunkCycle); false: one launch per level."),
    CBT_CHUNK_GROUP("accelgeom.cbt.chunkGroup", Type.INT, "256", 8, 1024, Use.TUNING,
            "tornado cbt: work-group size of the one-launch cycle (at least 8, at most the device's maximum)."),
    CBT_CHUNK_LOG("accelgeom.cbt.chunkLog", Type.INT, "10", 5, 10, Use.TUNING,
            "cbt: log2 of the leaves of a chunk subtree, the unit of the one-launch cycle."),
    CBT_CHUNK_STOP("accelgeom.cbt.chunkStop", Type.INT, "5", 1, 5, Use.BENCH_ONLY,
            "cbt --bench on tornado only: the one-launch cycle runs its phases up to P (1 copies the stored fields, "
                    + "2 also decodes and marks, 3 also sums, 4 also composes the words; 5: all) for a breakdown of "
                    + "its time; below 5 the heap is left unchanged, so its results are wrong on purpose. Never read "
                    + "outside the bench.");

    /** How a value is parsed. */
    public enum Type {
        BOOLEAN, INT, LONG, STRING
    }

    /** What a switch may change. */
    public enum Use {
        /** How fast, never what: results stay bit-identical. */
        TUNING,
        /** Prints or samples; never changes a result. */
        DIAGNOSTIC,
        /** Changes results on purpose; read only by a benchmark, never by the production path. */
        BENCH_ONLY
    }

    private final String property;
    private final Type type;
    private final String defaultValue;
    private final long min;
    private final long max;
    private final Use use;
    private final String meaning;

    Tuning(String property, Type type, String defaultValue, long min, long max, Use use, String meaning) {
        this.property = property;
        this.type = type;
        this.defaultValue = defaultValue;
        this.min = min;
        this.max = max;
        this.use = use;
        this.meaning = meaning;
    }

    public String property() {
        return property;
    }

    public Type type() {
        return type;
    }

    public String defaultValue() {
        return defaultValue;
    }

    public Use use() {
        return use;
    }

    public String meaning() {
        return meaning;
    }

    /** The text set with {@code -D}, or null. */
    public String raw() {
        return System.getProperty(property);
    }

    /** An {@link Type#INT} switch: its value, clamped to its range (the default where unset or unparsable). */
    public int intValue() {
        return (int) longValue();
    }

    /** A {@link Type#INT} or {@link Type#LONG} switch: its value, clamped to its range. */
    public long longValue() {
        if (type != Type.INT && type != Type.LONG) {
            throw new IllegalStateException(property + " is not a number");
        }
        long v = Long.parseLong(defaultValue);
        String s = raw();
        if (s != null) {
            try {
                v = Long.decode(s.trim());
            } catch (NumberFormatException e) {
                // not a number: the default, as Integer.getInteger does
            }
        }
        return Math.max(min, Math.min(max, v));
    }

    /** A {@link Type#BOOLEAN} switch: {@code true} or {@code false} (any other text: the default). */
    public boolean booleanValue() {
        if (type != Type.BOOLEAN) {
            throw new IllegalStateException(property + " is not a boolean");
        }
        String s = raw();
        if (s != null && (s.trim().equalsIgnoreCase("true") || s.trim().equalsIgnoreCase("false"))) {
            return Boolean.parseBoolean(s.trim());
        }
        return Boolean.parseBoolean(defaultValue);
    }

    /** A {@link Type#STRING} switch: its text, or {@code fallback} where unset or empty. */
    public String stringValue(String fallback) {
        String s = raw();
        if (s == null || s.isEmpty()) {
            return defaultValue.isEmpty() ? fallback : defaultValue;
        }
        return s;
    }

    /** The range as the page prints it. */
    String range() {
        return switch (type) {
            case BOOLEAN -> "true, false";
            case STRING -> "text";
            case INT, LONG -> max == Integer.MAX_VALUE || max == Long.MAX_VALUE ? ">= " + min : min + " .. " + max;
        };
    }

    /** The docs page: every switch with its name, default, range, kind and meaning. */
    public static String markdown() {
        StringBuilder b = new StringBuilder();
        b.append("# Tuning switches\n\n");
        b.append("Generated from `org.accelgeom.engine.Tuning` (a test fails when this page and the registry differ; "
                + "regenerate it with `java -cp target/classes org.accelgeom.engine.Tuning > docs/tuning.md`).\n\n");
        b.append("Set a switch with `-D<name>=<value>` (for the CLI: `ACCELGEOM_JAVA_OPTS=-D...`). Values that do not "
                + "parse fall back to the default; numbers outside the range are clamped to it. `tuning` switches change "
                + "how fast, never what: every backend stays bit-identical to the jvm reference. `diagnostic` switches "
                + "print or sample, never change a result. The one `bench-only` switch changes results on purpose and "
                + "is read only by `accelgeom cbt --bench`.\n\n");
        b.append("| name | default | range | kind | meaning |\n|---|---|---|---|---|\n");
        for (Tuning t : values()) {
            b.append(String.format(Locale.ROOT, "| `%s` | %s | %s | %s | %s |%n", t.property,
                    t.defaultValue.isEmpty() ? "(none)" : "`" + t.defaultValue + "`", t.range(),
                    t.use.name().toLowerCase(Locale.ROOT).replace('_', '-'), t.meaning.replace("|", "\\|")));
        }
        return b.toString();
    }

    /** Prints {@link #markdown()} (the content of docs/tuning.md). */
    public static void main(String[] args) {
        System.out.print(markdown());
    }
}
