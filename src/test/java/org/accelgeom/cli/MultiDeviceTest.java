package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** {@code --devices} outside the tornado backend: one line (the multi-device path itself: MultiDeviceTornadoTest). */
class MultiDeviceTest {

    @Test
    void devicesNeedTheTornadoBackend() {
        for (String backend : new String[] {"jvm", "jvm-parallel"}) {
            MainTest.Run r = MainTest.run("hull", "--random", "100", "--backend", backend, "--devices", "0,1");
            assertEquals(Main.EXIT_USAGE, r.exit(), r.err());
            assertEquals(1, r.errLines().size(), r.err());
            assertTrue(r.err().contains("--devices spreads work over TornadoVM devices: it needs --backend tornado"), r.err());
        }
        MainTest.Run t = MainTest.run("terrain", "--devices", "0,1");
        assertEquals(Main.EXIT_USAGE, t.exit(), t.err());
        assertEquals(1, t.errLines().size(), t.err());
        assertTrue(t.err().contains("--devices spreads a batch over devices: accelgeom terrain takes none"), t.err());
    }

    @Test
    void workerThreadsShareTheCoresUnlessTold() {
        String before = System.getProperty("accelgeom.devices.workerThreads");
        int cores = Runtime.getRuntime().availableProcessors();
        try {
            System.clearProperty("accelgeom.devices.workerThreads");
            assertEquals(0, MultiDevice.workerThreads(4), "the default: every worker on the common pool");
            System.setProperty("accelgeom.devices.workerThreads", "-1");
            assertEquals(Math.max(1, cores / 2), MultiDevice.workerThreads(2), "the cores over the workers");
            assertEquals(1, MultiDevice.workerThreads(cores + 1), "at least one thread each");
            assertEquals(0, MultiDevice.workerThreads(1), "one worker: the one-device run's pool");
            System.setProperty("accelgeom.devices.workerThreads", "5");
            assertEquals(5, MultiDevice.workerThreads(4));
        } finally {
            if (before == null) {
                System.clearProperty("accelgeom.devices.workerThreads");
            } else {
                System.setProperty("accelgeom.devices.workerThreads", before);
            }
        }
    }

    @Test
    void aWorkerProcessGetsTheCommandLineWithItsDevice() {
        assertEquals(List.of("voronoi", "--input", "d", "--devices", "3", "--quiet"),
                WorkerProcesses.withDevices(new String[] {"voronoi", "--input", "d", "--devices", "0,1,2,3", "--quiet"}, "3"));
        assertEquals(List.of("hull", "--devices=1", "--input", "--devices"),
                WorkerProcesses.withDevices(new String[] {"hull", "--devices=all", "--input", "--devices"}, "1"));
        assertTrue(WorkerProcesses.wanted(new int[] {0, 1}) != WorkerProcesses.isChild(), "a parent with two devices");
        assertEquals(false, WorkerProcesses.wanted(new int[] {0}), "one device: no process");
    }

    @Test
    void autoRunsFilesInProcessesAndVoronoisFramesOrOneInputAtATimeInThreads() {
        String before = System.getProperty("accelgeom.devices.workers");
        String inFlight = System.getProperty("accelgeom.devices.inFlight");
        try {
            int[] two = {0, 1};
            System.clearProperty("accelgeom.devices.workers"); // the default, auto
            System.clearProperty("accelgeom.devices.inFlight");
            assertEquals(!WorkerProcesses.isChild(), WorkerProcesses.wanted(two, "voronoi"), "voronoi in flight: processes");
            assertEquals(!WorkerProcesses.isChild(), WorkerProcesses.wanted(two, "hull"), "hull: processes");
            assertEquals(!WorkerProcesses.isChild(), Prewarm.parentOfWorkers("hull", "--devices", "0,1"));
            assertEquals(false, WorkerProcesses.wanted(two, "voronoi", true), "voronoi's frames and models: threads");
            assertEquals(false, Prewarm.parentOfWorkers("voronoi", "--input", "a.pdb", "--trajectory", "t.dcd", "--devices", "0,1"));
            assertEquals(!WorkerProcesses.isChild(), Prewarm.parentOfWorkers("voronoi", "--input", "d/", "--devices", "0,1"));
            assertEquals(true, WorkerProcesses.items("voronoi", "--all-models"));
            assertEquals(false, WorkerProcesses.items("voronoi", "--input", "x"));
            System.setProperty("accelgeom.devices.inFlight", "1");
            assertEquals(false, WorkerProcesses.wanted(two, "voronoi"), "voronoi one input at a time: threads");
            assertEquals(false, Prewarm.parentOfWorkers("voronoi", "--devices", "0,1"), "voronoi's parent computes");
            assertEquals(!WorkerProcesses.isChild(), WorkerProcesses.wanted(two, "hull"));
            System.clearProperty("accelgeom.devices.inFlight");
            System.setProperty("accelgeom.devices.workers", "processes");
            assertEquals(!WorkerProcesses.isChild(), WorkerProcesses.wanted(two, "voronoi"));
            System.setProperty("accelgeom.devices.workers", "threads");
            assertEquals(false, WorkerProcesses.wanted(two, "hull"));
        } finally {
            if (before == null) {
                System.clearProperty("accelgeom.devices.workers");
            } else {
                System.setProperty("accelgeom.devices.workers", before);
            }
            if (inFlight == null) {
                System.clearProperty("accelgeom.devices.inFlight");
            } else {
                System.setProperty("accelgeom.devices.inFlight", inFlight);
            }
        }
    }

    @Test
    void aWorkerProcessSeesItsGpuAloneOnlyWhereNvidiaIsTheOnlyOpenClPlatform(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        assertEquals("2", WorkerProcesses.visibleGpu(2, null));
        assertEquals("5", WorkerProcesses.visibleGpu(1, "4,5"), "the parent's own CUDA_VISIBLE_DEVICES, by position");
        assertEquals(null, WorkerProcesses.visibleGpu(2, "4,5"), "no such entry: the child sees every GPU");
        assertEquals("devices", WorkerProcesses.devicesValue(new String[] {"hull", "--devices", "devices"}));
        assertEquals("0,1", WorkerProcesses.devicesValue(new String[] {"hull", "--devices=0,1"}));
        assertEquals(false, WorkerProcesses.nvidiaOnly(dir), "no ICD");
        java.nio.file.Files.writeString(dir.resolve("nvidia.icd"), "libnvidia-opencl.so.1\n");
        boolean icdEnv = System.getenv("OCL_ICD_VENDORS") != null || System.getenv("OCL_ICD_FILENAMES") != null;
        assertEquals(!icdEnv, WorkerProcesses.nvidiaOnly(dir), "NVIDIA's alone");
        java.nio.file.Files.writeString(dir.resolve("pocl.icd"), "libpocl.so.2\n");
        assertEquals(!icdEnv, WorkerProcesses.nvidiaOnly(dir), "POCL beside it: CPUs, which TornadoVM lists after the GPUs");
        java.nio.file.Files.writeString(dir.resolve("intel.icd"), "libigdrcl.so\n");
        assertEquals(false, WorkerProcesses.nvidiaOnly(dir), "another vendor's platform may hold GPUs: no isolation");
        java.nio.file.Files.delete(dir.resolve("nvidia.icd"));
        java.nio.file.Files.delete(dir.resolve("intel.icd"));
        assertEquals(false, WorkerProcesses.nvidiaOnly(dir), "POCL alone");
    }

    @Test
    void aWorkerGivenItsGpuAloneChecksItIsItsDeviceZeroAndTheOnlyGpu() {
        MultiDevice.checkAlone(List.of("0: NVIDIA H200 (OpenCL, GPU, 139.8 GiB global memory, max allocation 35.0 GiB)",
                "1: cpu-skylake-avx512 (OpenCL, CPU, 5.0 GiB global memory, max allocation 2.0 GiB)"), "0,1,2,3", 2);
        MultiDevice.checkAlone(List.of("0: Tesla V100-SXM2-16GB (OpenCL, GPU, 15.8 GiB global memory, max allocation 3.9 GiB)",
                "1:0: Tesla V100-SXM2-16GB (PTX, GPU, 15.8 GiB global memory, max allocation 3.9 GiB)"), "0,1", 1); // another backend
        for (List<String> wrong : List.of(
                List.of("0: pthread-haswell (OpenCL, CPU, 12.5 GiB global memory, max allocation 4.0 GiB)"),
                List.of("0: NVIDIA H200 (OpenCL, GPU, 139.8 GiB)", "1: NVIDIA H200 (OpenCL, GPU, 139.8 GiB)"),
                List.of("0: pthread (OpenCL, CPU, 1 GiB)", "1: NVIDIA H200 (OpenCL, GPU, 139.8 GiB)"), List.<String>of())) {
            org.accelgeom.engine.AccelGeomException e = org.junit.jupiter.api.Assertions.assertThrows(
                    org.accelgeom.engine.AccelGeomException.class, () -> MultiDevice.checkAlone(wrong, "0,1,2,3", 3));
            assertTrue(e.getMessage().startsWith("--devices 0,1,2,3: the worker process of device 3 was given its GPU alone"),
                    e.getMessage());
        }
    }
}
