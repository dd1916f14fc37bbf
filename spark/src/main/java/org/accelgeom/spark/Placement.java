package org.accelgeom.spark;

import java.util.LinkedHashMap;
import java.util.Map;

import org.accelgeom.engine.AccelGeomException;
import org.accelgeom.engine.Backend;
import org.accelgeom.engine.Execution;
import org.accelgeom.engine.TornadoSupport;

/**
 * Where a task computes: the GPU that Spark's resource scheduling gave it ({@code TaskContext.resources()},
 * resource {@code gpu}) as a TornadoVM device, or the executor's cores.
 *
 * <p>A GPU address is what the discovery script listed ({@code spark/bin/discover-gpus.sh}: nvidia-smi's index,
 * or TornadoVM's device index). It is taken as the index of a device of TornadoVM's default backend, unless the
 * Spark setting {@code spark.accelgeom.gpuDevices} maps it ({@code "0=1,1=0"}: address 0 is TornadoVM device 1
 * ...), for machines where the two orders differ ({@code accelgeom devices} lists TornadoVM's).
 *
 * @param execution   what the task's inputs run on (resident: the batch keeps its plans between inputs)
 * @param gpu         the task's GPU address, or null
 * @param description the backend and device, as the job's summary shows them
 */
public record Placement(Execution execution, String gpu, String description) {

    /**
     * The placement of a task.
     *
     * @param gpus    the task's GPU addresses (empty: none)
     * @param tornado whether the tornado backend can run in this JVM ({@link TornadoSupport#available()})
     */
    static Placement of(JobSettings.BackendChoice choice, int threads, String[] gpus, String deviceMap, boolean tornado) {
        return of(choice, threads, -1, gpus, deviceMap, tornado);
    }

    /**
     * As {@link #of(JobSettings.BackendChoice, int, String[], String, boolean)}; {@code device} is the TornadoVM device
     * of {@code --backend tornado} for a task without GPU (local mode; -1: TornadoVM's default).
     */
    static Placement of(JobSettings.BackendChoice choice, int threads, int device, String[] gpus, String deviceMap,
            boolean tornado) {
        String gpu = gpus == null || gpus.length == 0 ? null : gpus[0];
        String given = gpu == null ? "" : " (gpu " + gpu + ")";
        return switch (choice) {
            case JVM -> new Placement(Execution.jvm().withResident(true), gpu, "jvm" + given);
            case JVM_PARALLEL -> parallel(threads, gpu, given);
            case AUTO, TORNADO -> {
                if (gpu == null && choice == JobSettings.BackendChoice.AUTO) {
                    yield parallel(threads, null, "");
                }
                if (!tornado) {
                    throw new AccelGeomException((gpu == null ? "backend tornado" : "the task was given GPU " + gpu)
                            + " but this executor cannot run TornadoVM: launch the executors with TornadoVM's JVM flags "
                            + "and the accelgeom jar built with -Ptornado (docs/scale-out.md, 'A cluster, through Apache "
                            + "Spark'), or run with --backend jvm-parallel");
                }
                int d = gpu == null ? device : device(gpu, deviceMap);
                yield new Placement(Execution.tornado(d).withThreads(threads).withResident(true), gpu,
                        "tornado " + (d < 0 ? "default device" : "device " + d) + given);
            }
        };
    }

    private static Placement parallel(int threads, String gpu, String given) {
        return new Placement(Execution.parallel(threads).withResident(true), gpu, "jvm-parallel" + given);
    }

    /** The TornadoVM device index of GPU address {@code gpu}: through the map, else the address itself. */
    static int device(String gpu, String deviceMap) {
        Map<String, Integer> map = parseDeviceMap(deviceMap);
        Integer d = map.get(gpu);
        if (d != null) {
            return d;
        }
        try {
            int i = Integer.parseInt(gpu.trim());
            if (i >= 0) {
                return i;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new AccelGeomException("GPU address '" + gpu + "' is no TornadoVM device index and spark.accelgeom.gpuDevices "
                + "does not map it (e.g. --conf spark.accelgeom.gpuDevices=" + gpu + "=0)");
    }

    /** {@code "a=1,b=0"} as a map; empty for null or "". */
    static Map<String, Integer> parseDeviceMap(String s) {
        Map<String, Integer> map = new LinkedHashMap<>();
        if (s == null || s.isBlank()) {
            return map;
        }
        for (String pair : s.split(",")) {
            String[] kv = pair.split("=", -1);
            try {
                if (kv.length != 2 || kv[0].isBlank() || Integer.parseInt(kv[1].trim()) < 0) {
                    throw new NumberFormatException();
                }
                map.put(kv[0].trim(), Integer.parseInt(kv[1].trim()));
            } catch (NumberFormatException e) {
                throw new JobSettings.UsageException("spark.accelgeom.gpuDevices '" + s
                        + "': expected ADDRESS=DEVICE pairs separated by commas, e.g. 0=1,1=0");
            }
        }
        return map;
    }

    /** The backend of the placement (for tests and the summary). */
    Backend backend() {
        return execution.backend();
    }
}
