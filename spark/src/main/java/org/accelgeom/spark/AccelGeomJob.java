package org.accelgeom.spark;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.accelgeom.engine.AccelGeomException;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * accelgeom over a Spark cluster: {@code voronoi} or {@code hull} of many inputs (files, directories, globs, point
 * cloud tiles) or of a DCD trajectory's frames, one result file per input, each written atomically with the bytes
 * {@code accelgeom COMMAND --input ... --output DIR} writes. The inputs are cut into partitions; each task computes
 * its partition through the library in one device session on the GPU that Spark's resource scheduling gave it
 * ({@code spark.executor.resource.gpu.amount}, {@code spark.task.resource.gpu.amount}, the discovery script
 * {@code spark/bin/discover-gpus.sh}), or on the executor's cores (jvm-parallel) where it has none; see
 * {@link Placement}. The driver prints one line per failed input on stderr and a summary on stdout; the exit status
 * is 0 when every input was written, 1 when some failed, 2 for bad usage.
 *
 * <pre>
 * spark-submit --class org.accelgeom.spark.AccelGeomJob accelgeom-spark.jar voronoi --input DIR --output OUT
 * </pre>
 *
 * (docs/scale-out.md, "A cluster, through Apache Spark".)
 */
public final class AccelGeomJob {

    /** Spark setting: GPU address to TornadoVM device index, {@code "0=1,1=0"} (default: the address is the index). */
    public static final String GPU_DEVICES = "spark.accelgeom.gpuDevices";

    private AccelGeomJob() {
    }

    public static void main(String[] args) {
        int code;
        try (JavaSparkContext sc = new JavaSparkContext(new SparkConf().setAppName("accelgeom " + String.join(" ",
                args.length > 0 ? args[0] : "")))) {
            code = run(sc, args, System.out, System.err);
        }
        System.exit(code);
    }

    /** The job in a running Spark context; returns the exit status. */
    public static int run(JavaSparkContext sc, String[] args, PrintStream out, PrintStream err) {
        JobSettings s;
        WorkPlan plan;
        int slices;
        try {
            s = JobSettings.parse(args, sc.getConf().get(GPU_DEVICES, ""));
            slices = s.partitions() > 0 ? s.partitions() : sc.defaultParallelism();
            plan = WorkPlan.of(s, slices);
        } catch (JobSettings.UsageException e) {
            err.println("accelgeom-spark: error: " + e.getMessage());
            return 2;
        } catch (AccelGeomException e) {
            err.println("accelgeom-spark: error: " + e.getMessage());
            return 1;
        }
        try {
            Files.createDirectories(Path.of(s.output()));
        } catch (IOException e) {
            err.println("accelgeom-spark: error: cannot make the output directory " + s.output() + ": " + e);
            return 1;
        }
        for (String u : plan.unmatched()) {
            err.println("accelgeom-spark: error: " + u + ": no such file, directory or matching file");
        }
        if (plan.items().isEmpty()) {
            if (plan.unmatched().isEmpty()) {
                err.println("accelgeom-spark: error: " + (s.trajectory() != null ? s.trajectory() + " has no frames"
                        : "no input files in " + String.join(" ", s.inputs())));
            }
            return 1;
        }
        long t0 = System.nanoTime();
        JavaRDD<WorkItem> items = sc.parallelize(plan.items(), Math.min(slices, plan.items().size()));
        JobSettings settings = s;
        List<Outcome> outcomes = items.mapPartitions(it -> PartitionWorker.run(settings, it)).collect();
        double secs = (System.nanoTime() - t0) / 1e9;
        int done = 0, failed = plan.unmatched().size(), files = 0;
        Map<String, Integer> where = new TreeMap<>();
        for (Outcome o : outcomes) {
            files += o.files();
            where.merge(o.ranOn(), 1, Integer::sum);
            if (o.ok()) {
                done++;
            } else {
                failed++;
                err.println("accelgeom-spark: error: " + o.item() + ": " + o.message());
            }
        }
        StringBuilder on = new StringBuilder();
        where.forEach((k, v) -> on.append(on.length() > 0 ? ", " : "").append(k).append(": ").append(v));
        out.printf(Locale.ROOT, "spark: %d done, %d failed, %d files written to %s, %.3f s, %.2f items/s, %d partitions; ran on %s%n",
                done, failed, files, s.output(), secs, secs > 0 ? done / secs : 0.0, items.getNumPartitions(), on);
        out.flush();
        return failed > 0 ? 1 : 0;
    }
}
