package org.accelgeom.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.accelgeom.cbt.Cbt;
import org.accelgeom.cbt.CbtBench;
import org.accelgeom.cbt.CbtResult;
import org.accelgeom.cbt.CbtLayout;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.TornadoSupport;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code accelgeom cbt}: the concurrent binary tree's experiments and an inspection of its layout. */
@Command(name = "cbt", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The concurrent binary tree (Grachev & Ushakov 2023; Dupuy 2020): the article's experiments",
            "as Markdown table rows (--bench), its memory table (--memory), or an inspection of one tree (default)."},
        footer = {"", "Examples:",
            "  accelgeom cbt --depth 4 --init 2    # the layout, sums and leaves of a small tree",
            "  accelgeom cbt --bench decode,reduce --depths 10,15,20 --backend jvm-parallel --thread-counts 1,2,4,8,16",
            "  accelgeom cbt --bench cycle,update --depths 17 --fill 0.25 --backend tornado",
            "  accelgeom cbt --memory --depths 10,15,17,20,25,30"})
final class CbtCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--bench", paramLabel = "LIST", split = ",",
            description = "Experiments to time: decode, reduce, cycle, update, scan (see docs/cbt.md).")
    List<String> bench;

    @Option(names = "--memory", description = "Print the memory table (packed against unpacked) for --depths.")
    boolean memory;

    @Option(names = "--depth", paramLabel = "D", defaultValue = "4", description = "Maximum depth D of the inspected tree (default: ${DEFAULT-VALUE}).")
    int depth;

    @Option(names = "--init", paramLabel = "d", defaultValue = "2", description = "Initial depth of the inspected tree (default: ${DEFAULT-VALUE}).")
    int init;

    @Option(names = "--split", paramLabel = "K", split = ",", description = "Split these nodes of the inspected tree, in order.")
    int[] split;

    @Option(names = "--merge", paramLabel = "K", split = ",", description = "Then merge the children of these nodes.")
    int[] merge;

    @Option(names = "--depths", paramLabel = "LIST", split = ",", defaultValue = "10,15,20",
            description = "Depths D of --bench and --memory (default: ${DEFAULT-VALUE}).")
    int[] depths;

    @Option(names = "--layout", paramLabel = "L", defaultValue = "packed",
            description = "packed, unpacked or both (default: ${DEFAULT-VALUE}).")
    String layout;

    @Option(names = "--backend", paramLabel = "NAME", defaultValue = "jvm-parallel", converter = CommonOptions.BackendConverter.class,
            description = "jvm, jvm-parallel or tornado (default: ${DEFAULT-VALUE}).")
    Backend backend;

    @Option(names = "--thread-counts", paramLabel = "LIST", split = ",", defaultValue = "0",
            description = "jvm-parallel: one row per thread count, 0 = one per core (default: ${DEFAULT-VALUE}).")
    int[] threadCounts;

    @Option(names = "--threads", paramLabel = "N",
            description = "jvm-parallel: one thread count, as --thread-counts N (0 = one per core).")
    Integer threads;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "" + CbtBench.DEFAULT_SEED,
            description = "Seed of the random splits and merges of cycle and update (default: ${DEFAULT-VALUE}).")
    int seed;

    @Option(names = "--device", paramLabel = "N", defaultValue = "-1", description = "TornadoVM device (default: TornadoVM's default).")
    int device;

    @Option(names = {"-q", "--quiet"}, description = "No progress on stderr (cbt prints none; accepted as by every command).")
    boolean quiet;

    @Option(names = "--fill", paramLabel = "F", defaultValue = "0.25",
            description = "Fill of cycle, update and scan: a tree initialised at depth D + log2(F) (default: ${DEFAULT-VALUE}).")
    double fill;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "3", description = "Untimed passes first (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--reps", paramLabel = "N", defaultValue = "30", description = "At most N timed passes (default: ${DEFAULT-VALUE}).")
    int reps;

    @Option(names = "--budget-ms", paramLabel = "MS", defaultValue = "3000",
            description = "Stop timing once the timed passes took this long; one pass always runs (default: ${DEFAULT-VALUE}).")
    double budgetMs;

    @Option(names = "--cycles-per-launch", paramLabel = "LIST", split = ",", defaultValue = "1",
            description = "cycle on tornado: one row per K, K usage cycles per execution, figures per cycle (default: ${DEFAULT-VALUE}).")
    int[] cyclesPerLaunch;

    @Option(names = "--no-header", description = "Omit the table header (to append rows of several runs).")
    boolean noHeader;

    @Mixin
    DebugOption debug;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Check.atLeast(spec, "--warmup", warmup, 0);
        Check.atLeast(spec, "--reps", reps, 1);
        Check.interval(spec, "--budget-ms", budgetMs, 0, true, Double.POSITIVE_INFINITY, false);
        Check.interval(spec, "--fill", fill, 0, false, 1, true);
        Check.atLeast(spec, "--device", device, -1);
        boolean[] layouts = switch (Check.oneOf(spec, "--layout", layout, "packed", "unpacked", "both")) {
            case "packed" -> new boolean[] {true};
            case "unpacked" -> new boolean[] {false};
            default -> new boolean[] {true, false};
        };
        int maxDepth = layouts[layouts.length - 1] ? CbtLayout.MAX_DEPTH : CbtLayout.MAX_DEPTH_UNPACKED;
        for (int D : depths) {
            Check.range(spec, "--depths", D, 1, maxDepth);
        }
        if (threads != null) {
            if (spec.commandLine().getParseResult().hasMatchedOption("--thread-counts")) {
                throw Check.usage(spec, "give either --threads N or --thread-counts LIST, not both");
            }
            threadCounts = new int[] {threads};
        }
        for (int t : threadCounts) {
            Check.range(spec, "--thread-counts", t, 0, Check.MAX_THREADS);
        }
        if (bench != null) {
            for (String e : bench) {
                Check.oneOf(spec, "--bench", e, CbtBench.EXPERIMENTS.toArray(String[]::new));
            }
        }
        Check.onlyWith(spec, bench != null, "--bench", "--backend", "--thread-counts", "--threads", "--seed", "--device",
                "--fill", "--warmup", "--reps", "--budget-ms", "--no-header", "--cycles-per-launch");
        for (int k : cyclesPerLaunch) {
            Check.range(spec, "--cycles-per-launch", k, 1, 8);
        }
        Check.onlyWith(spec, bench != null || memory, "--bench or --memory", "--depths");
        Check.onlyWith(spec, bench == null && !memory, "no --bench or --memory (the inspection)", "--depth", "--init",
                "--split", "--merge");
        if (memory) {
            out.print(CbtBench.memoryTable(depths));
            out.flush();
        }
        if (bench != null) {
            if (backend == Backend.TORNADO) {
                TornadoSupport.require();
            }
            if (!noHeader) {
                out.println(CbtResult.header());
            }
            for (String e : bench) {
                for (int D : depths) {
                    for (boolean packed : layouts) {
                        int[] tc = backend == Backend.JVM_PARALLEL ? threadCounts : new int[] {0};
                        for (int t : tc) {
                            for (int k : e.equals("cycle") ? cyclesPerLaunch : new int[] {1}) {
                                Cbt.checkDepths(D, 0, packed);
                                out.println(CbtBench.run(e, D, packed, backend, t, device, fill, warmup, reps, budgetMs, seed, k).markdown());
                                out.flush();
                            }
                        }
                    }
                }
            }
        }
        if (!memory && bench == null) {
            inspect(out);
        }
        out.flush();
        return 0;
    }

    private void inspect(PrintWriter out) {
        boolean packed = !layout.equalsIgnoreCase("unpacked");
        Check.range(spec, "--depth", depth, 1, packed ? CbtLayout.MAX_DEPTH : CbtLayout.MAX_DEPTH_UNPACKED);
        Check.range(spec, "--init", init, 0, depth);
        long nodes = (2L << depth) - 1;
        for (int k : split == null ? new int[0] : split) {
            Check.range(spec, "--split", k, 1, nodes);
        }
        for (int k : merge == null ? new int[0] : merge) {
            Check.range(spec, "--merge", k, 1, nodes);
        }
        Cbt t = Cbt.create(depth, init, packed);
        try {
            if (split != null) {
                for (int k : split) {
                    if (!t.isLeaf(k)) {
                        throw Check.usage(spec, "--split " + k + ": node " + k + " is not a leaf of the tree (only leaves split)");
                    }
                    t.split(k);
                }
            }
            if (merge != null) {
                for (int k : merge) {
                    t.merge(k);
                }
            }
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw Check.usage(spec, e.getMessage());
        }
        int D = depth;
        out.printf(Locale.ROOT, "CBT D=%d, %s: %d words, %d bytes (packed: 2^(D+2) = %d bits)%n", D, packed ? "packed" : "unpacked",
                t.heap().length, t.memoryBytes(), CbtLayout.packedBits(D));
        out.printf(Locale.ROOT, "leaves L = %d%n", t.leafCount());
        int[] leaves = t.leaves();
        out.println("leaves (heap indices, Fig. 8 decoding): " + head(leaves, 64));
        StringBuilder bits = new StringBuilder();
        for (long x = 0; x < Math.min(1L << D, 256); x++) {
            bits.append(t.bit(x) ? '1' : '0');
        }
        out.println("bitfield (bit 0 first" + ((1L << D) > 256 ? ", first 256" : "") + "): " + bits);
        if (D <= 6) {
            out.println("  k  depth  bit offset  width  value");
            for (int k = 1; k < (2 << D); k++) {
                out.printf(Locale.ROOT, "%3d  %5d  %10d  %5d  %5d%n", k, CbtLayout.depth(k), CbtLayout.bitOffset(D, k),
                        CbtLayout.width(D, k), t.get(k));
            }
        }
    }

    private static String head(int[] a, int n) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < Math.min(a.length, n); i++) {
            sb.append(i > 0 ? ", " : "").append(a[i]);
        }
        return sb.append(a.length > n ? ", ... (" + a.length + ")]" : "]").toString();
    }
}
