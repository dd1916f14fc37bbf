package org.accelgeom.engine.tornado;

import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.accelgeom.engine.Tuning;

import uk.ac.manchester.tornado.api.KernelContext;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoTaskGraphInterface;
import uk.ac.manchester.tornado.api.annotations.Reduce;
import uk.ac.manchester.tornado.api.common.Access;
import uk.ac.manchester.tornado.api.common.TaskPackage;
import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;
import uk.ac.manchester.tornado.api.types.arrays.TornadoNativeArray;

/**
 * A cache of TornadoVM's generated OpenCL C, so that a later process skips Graal. A fresh process pays TornadoVM's
 * compilation of every task: Graal (cold, much of it still interpreted bytecode) turns the task's Java into OpenCL
 * C, then the OpenCL driver builds it. The driver's stage is cached on disk by NVIDIA's driver and by POCL; nothing
 * kept Graal's. Here the first process saves each task's generated source after its first execution, and a later
 * process adds the task as a TornadoVM pre-built task (as {@code TaskGraph.prebuiltTask} does, through
 * {@link PrebuiltTasks}, which works around a TornadoVM 5.2 bug with several pre-built tasks in a graph) from that file: the same
 * OpenCL source, with the same compiler flags, so the same kernel and the same results.
 *
 * <p>The key of a task is everything Graal's output depends on: the task method and the bytecode it can reach (a
 * hash of the jar or class directory holding it), the TornadoVM runtime (its jars), the JVM, the device, every
 * {@code tornado.*} and {@code accelgeom.*} system property (static final fields read from them are constants in
 * kernels), and the task's arguments as TornadoVM specialises them: the value of each scalar and the length of each
 * array (TornadoVM 5.2 folds both into the kernel, see its {@code TornadoTaskSpecialisation}). So a later run on an
 * input of another size compiles its tasks once more and caches them as well.
 *
 * <p>Only tasks of a {@link CachedTaskGraph} built inside {@link #onDevice} are cached, and such a graph must give every
 * task a {@code WorkerGrid} (a pre-built task without one runs one work-item). Tasks with {@code @Reduce} parameters,
 * or arguments other than scalars, arrays and a {@code KernelContext}, are never cached, nor tasks on a backend other
 * than OpenCL. Files are written atomically (a temporary file renamed over the name): {@code <dir>/<device>/<kernel>-
 * <hash>.cl}, the source as TornadoVM gave it, and {@code .meta}, the full key, the entry point, the argument
 * accesses TornadoVM derived, and the source's SHA-256 (checked before use). {@code -Daccelgeom.kernelCache=false}
 * turns the cache off; {@code -Daccelgeom.kernelCache.dir} moves it (default {@code $XDG_CACHE_HOME/accelgeom/kernels}
 * or {@code $HOME/.cache/accelgeom/kernels}). Any failure of the cache (an unreadable file, a TornadoVM internal that
 * moved) falls back to TornadoVM's own compilation.
 */
public final class KernelCache {

    private static final String FORMAT = "accelgeom-kernel-cache 1";

    /** Tasks of this process found in the cache, compiled and saved, compiled without a save (for tests). */
    private static final AtomicLong HITS = new AtomicLong();
    private static final AtomicLong MISSES = new AtomicLong();
    private static final AtomicLong SAVES = new AtomicLong();

    /** Compiled tasks whose source is saved after the first execution of their plan. */
    private static final ConcurrentLinkedQueue<Pending> PENDING = new ConcurrentLinkedQueue<>();

    /** The device graphs built on this thread are for (see {@link #onDevice}). */
    private static final ThreadLocal<TornadoDevice> DEVICE = new ThreadLocal<>();

    /** Hashes of the jars and class directories of task classes, computed once per process. */
    private static final Map<Path, String> CODE_HASHES = new ConcurrentHashMap<>();

    private KernelCache() {
    }

    /** Counts of this process: cache hits, compiled tasks, saved sources. */
    public record Stats(long hits, long misses, long saves) {
    }

    public static Stats stats() {
        return new Stats(HITS.get(), MISSES.get(), SAVES.get());
    }

    /** True unless {@code -Daccelgeom.kernelCache=false}. */
    public static boolean enabled() {
        return Tuning.KERNEL_CACHE.booleanValue();
    }

    /**
     * Hashes the code that holds {@code c} (part of the key of its tasks) now, on the caller's thread, where the first
     * cached task of the process would otherwise hash it (the 4.5 MB jar: 30-100 ms on an H100 host, on the hull's
     * compile ahead after TornadoVM's start). Needs no device; a failure is left to the tasks' own keys.
     */
    public static void hashAhead(Class<?> c) {
        try {
            if (enabled()) {
                codeHash(c);
            }
        } catch (RuntimeException e) {
            // the task's key meets it again and leaves the task uncached
        }
    }

    /** The cache's root directory. */
    public static Path directory() {
        String dir = Tuning.KERNEL_CACHE_DIR.stringValue("");
        if (!dir.isEmpty()) {
            return Path.of(dir);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        String home = System.getenv("HOME");
        Path base = xdg != null && !xdg.isEmpty() ? Path.of(xdg)
                : home != null && !home.isEmpty() ? Path.of(home, ".cache") : Path.of(System.getProperty("java.io.tmpdir"));
        return base.resolve("accelgeom").resolve("kernels");
    }

    /** A scope: the {@link CachedTaskGraph}s built on this thread until it closes run on {@code device}. */
    public static Scope onDevice(TornadoDevice device) {
        TornadoDevice before = DEVICE.get();
        DEVICE.set(device);
        return () -> {
            if (before == null) {
                DEVICE.remove();
            } else {
                DEVICE.set(before);
            }
        };
    }

    /** The scope of {@link #onDevice}; closing it restores the thread's previous device. */
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /** The device of the current {@link #onDevice} scope, or null (then nothing is cached). */
    static TornadoDevice scopeDevice() {
        return DEVICE.get();
    }

    /**
     * Adds {@code pkg} to {@code impl}, TornadoVM's graph of {@code graphName}: as a pre-built task from the cache
     * when there is an entry for it, else as the compiled task it is (whose source is saved after its first run).
     */
    static void addTask(TornadoTaskGraphInterface impl, String graphName, TaskPackage pkg, TornadoDevice device) {
        Task t = enabled() && device != null ? describe(pkg, device) : null;
        if (t != null) {
            Entry e = read(t);
            if (e != null && PrebuiltTasks.add(impl, pkg.getId(), e.entryPoint, t.source.toString(), t.args, e.accesses)) {
                HITS.incrementAndGet();
                return;
            }
        }
        impl.addTask(pkg);
        if (t != null) {
            Access[] accesses = lastAccesses(impl, t.args.length);
            if (accesses != null) {
                MISSES.incrementAndGet();
                PENDING.add(new Pending(graphName + "." + pkg.getId(), t, accesses));
            }
        }
    }

    /**
     * After an execution of {@code plan} on {@code device}: saves the source of every task compiled for it that
     * waits for its save. Cheap when nothing waits.
     */
    public static void collect(TornadoExecutionPlan plan, TornadoDevice device) {
        if (PENDING.isEmpty() || device == null) {
            return;
        }
        for (Pending p : PENDING) {
            if (p.task.device != device && !describeDevice(p.task.device).equals(describeDevice(device))) {
                continue;
            }
            byte[] source = installedSource(device, plan.getId(), p.taskId, p.task.entryPoint);
            if (source != null && PENDING.remove(p) && read(p.task) == null) {
                write(p, source);
            }
        }
    }

    // ---- keys

    /** What the cache knows of one task: its argument values, key, and files. */
    private record Task(Object[] args, String key, String entryPoint, Path source, Path meta, TornadoDevice device) {
    }

    private record Pending(String taskId, Task task, Access[] accesses) {
    }

    private record Entry(String entryPoint, Access[] accesses) {
    }

    /** The task's key and files, or null when it is not cacheable. */
    private static Task describe(TaskPackage pkg, TornadoDevice device) {
        try {
            if (device.getTornadoVMBackend() != TornadoVMBackendType.OPENCL || pkg.isPrebuiltTask()) {
                return null;
            }
            Object[] params = pkg.getTaskParameters();
            Object[] args = new Object[params.length - 1];
            System.arraycopy(params, 1, args, 0, args.length);
            Method m = taskMethod(params[0]);
            if (m == null || m.getParameterCount() != args.length) {
                return null;
            }
            for (Annotation[] as : m.getParameterAnnotations()) {
                for (Annotation a : as) {
                    if (a instanceof Reduce) {
                        return null;
                    }
                }
            }
            StringBuilder key = new StringBuilder(FORMAT).append('\n');
            key.append("method ").append(m.toGenericString()).append('\n');
            key.append("code ").append(codeHash(m.getDeclaringClass())).append('\n');
            key.append("tornadovm ").append(tornadoIdentity(device)).append('\n');
            key.append("jvm ").append(System.getProperty("java.vm.version")).append('\n');
            key.append("device ").append(describeDevice(device)).append('\n');
            key.append("grid yes\n");
            for (Object a : args) {
                String d = describeArgument(a);
                if (d == null) {
                    return null;
                }
                key.append("arg ").append(d).append('\n');
            }
            Map<String, String> props = new TreeMap<>();
            System.getProperties().forEach((k, v) -> {
                String s = k.toString();
                if ((s.startsWith("tornado.") || s.startsWith("accelgeom.")) && !outputOnly(s)) {
                    props.put(s, v.toString());
                }
            });
            props.forEach((k, v) -> key.append("property ").append(k).append('=').append(v).append('\n'));
            String entry = m.getName().replace('$', '_');
            String hash = sha256(key.toString().getBytes(StandardCharsets.UTF_8)).substring(0, 40);
            Path dir = directory().resolve(safe(device.getPhysicalDevice().getDeviceName()));
            String base = safe(entry) + "-" + hash;
            return new Task(args, key.toString(), entry, dir.resolve(base + ".cl"), dir.resolve(base + ".meta"), device);
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** Properties that change what TornadoVM or accelgeom print or time, never a kernel. */
    private static boolean outputOnly(String property) {
        return property.startsWith("accelgeom.kernelCache") || property.startsWith("accelgeom.sample")
                || property.startsWith("accelgeom.devices.") // how --devices runs its workers, not what a kernel is
                || property.startsWith("accelgeom.prewarm") || property.equals("accelgeom.fastExit") // when, not what
                || property.startsWith("accelgeom.tornado.profile") || property.equals("tornado.printKernel")
                || property.equals("tornado.print.kernel.dir") || property.startsWith("tornado.profiler")
                || property.equals("tornado.log.profiler") || property.equals("tornado.debug")
                || property.equals("tornado.fullDebug") || property.equals("tornado.threadInfo")
                || property.equals("tornado.opencl.profiling.enable");
    }

    /** A scalar's type and bits, an array's type and length; null for anything else. */
    private static String describeArgument(Object a) {
        if (a == null) {
            return null;
        }
        if (a instanceof Double d) {
            return "double " + Long.toHexString(Double.doubleToRawLongBits(d));
        }
        if (a instanceof Float f) {
            return "float " + Integer.toHexString(Float.floatToRawIntBits(f));
        }
        if (a instanceof Number || a instanceof Boolean || a instanceof Character) {
            return a.getClass().getSimpleName() + " " + a;
        }
        if (a.getClass().isArray() && a.getClass().getComponentType().isPrimitive()) {
            return a.getClass().getComponentType() + "[] " + java.lang.reflect.Array.getLength(a);
        }
        if (a instanceof TornadoNativeArray n) {
            return a.getClass().getSimpleName() + " " + n.getSize();
        }
        if (a instanceof KernelContext) {
            return "KernelContext";
        }
        return null;
    }

    static String describeDevice(TornadoDevice device) {
        return device.getTornadoVMBackend() + " | " + device.getPlatformName() + " | "
                + device.getPhysicalDevice().getDeviceName() + " | " + device.getDeviceType() + " | "
                + device.getDeviceOpenCLCVersion() + " | " + device.getDescription();
    }

    /** The TornadoVM runtime and driver jars (path, size, time), which define its code generator. */
    private static String tornadoIdentity(TornadoDevice device) {
        StringBuilder s = new StringBuilder();
        for (Class<?> c : new Class<?>[] {tornadoClass("uk.ac.manchester.tornado.runtime.analyzer.TaskUtils"), device.getClass()}) {
            if (c == null) {
                continue;
            }
            try {
                Path p = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
                s.append(p).append(' ').append(Files.size(p)).append(' ').append(Files.getLastModifiedTime(p).toMillis()).append(';');
            } catch (IOException | URISyntaxException | RuntimeException e) {
                s.append(c.getName()).append(';');
            }
        }
        return s.toString();
    }

    /** SHA-256 of the jar (or of every class file of the directory) that holds {@code c}. */
    private static String codeHash(Class<?> c) {
        Path root;
        try {
            root = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new IllegalStateException("no code source for " + c, e);
        }
        return CODE_HASHES.computeIfAbsent(root, r -> {
            try {
                MessageDigest md = MessageDigest.getInstance("SHA-256");
                if (Files.isDirectory(r)) {
                    List<Path> files;
                    try (Stream<Path> s = Files.walk(r)) {
                        files = new ArrayList<>(s.filter(f -> f.toString().endsWith(".class")).sorted().toList());
                    }
                    for (Path f : files) {
                        md.update(r.relativize(f).toString().getBytes(StandardCharsets.UTF_8));
                        md.update(Files.readAllBytes(f));
                    }
                } else {
                    md.update(Files.readAllBytes(r));
                }
                return HexFormat.of().formatHex(md.digest());
            } catch (IOException | NoSuchAlgorithmException e) {
                throw new IllegalStateException("cannot hash " + r, e);
            }
        });
    }

    // ---- TornadoVM internals (the runtime module is open; every call is guarded, a failure means "not cached")

    private static Class<?> tornadoClass(String name) {
        try {
            return Class.forName(name, false, KernelCache.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /** The Java method of a task lambda, as TornadoVM resolves it. */
    private static Method taskMethod(Object code) {
        try {
            Class<?> utils = tornadoClass("uk.ac.manchester.tornado.runtime.analyzer.TaskUtils");
            return utils == null ? null : (Method) utils.getMethod("resolveMethodHandle", Object.class).invoke(null, code);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** The argument accesses TornadoVM derived (from its sketch) for the task {@code impl} added last. */
    private static Access[] lastAccesses(TornadoTaskGraphInterface impl, int n) {
        try {
            Field f = impl.getClass().getDeclaredField("accesses");
            f.setAccessible(true);
            Access[] a = (Access[]) f.get(impl);
            return a != null && a.length == n ? a.clone() : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** The OpenCL source TornadoVM installed for task {@code taskId} of plan {@code planId}, or null. */
    private static byte[] installedSource(TornadoDevice device, long planId, String taskId, String entryPoint) {
        try {
            Object context = device.getClass().getMethod("getDeviceContext").invoke(device);
            Object code = context.getClass().getMethod("getInstalledCode", long.class, String.class, String.class)
                    .invoke(context, planId, taskId, entryPoint);
            if (code == null) {
                return null;
            }
            Object valid = code.getClass().getMethod("isValid").invoke(code);
            Object bytes = code.getClass().getMethod("getCode").invoke(code);
            return Boolean.TRUE.equals(valid) && bytes instanceof byte[] b ? b : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    // ---- files

    /** The entry for {@code t}, or null when there is none or it does not check out. */
    private static Entry read(Task t) {
        try {
            if (!Files.isRegularFile(t.meta)) {
                return null;
            }
            List<String> lines = Files.readAllLines(t.meta, StandardCharsets.UTF_8);
            Map<String, String> fields = new TreeMap<>();
            StringBuilder key = new StringBuilder();
            for (String line : lines) {
                if (line.startsWith("key ")) {
                    key.append(line.substring(4)).append('\n');
                } else {
                    int sp = line.indexOf(' ');
                    if (sp > 0) {
                        fields.put(line.substring(0, sp), line.substring(sp + 1));
                    }
                }
            }
            if (!key.toString().equals(t.key) || !t.entryPoint.equals(fields.get("entry"))) {
                return null;
            }
            byte[] source = Files.readAllBytes(t.source);
            if (!sha256(source).equals(fields.get("sha256"))) {
                return null;
            }
            String[] names = fields.getOrDefault("access", "").split(",");
            if (names.length != t.args.length) {
                return null;
            }
            Access[] accesses = new Access[names.length];
            for (int i = 0; i < names.length; i++) {
                accesses[i] = Access.valueOf(names[i]);
            }
            return new Entry(t.entryPoint, accesses);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Writes the source, then its meta file, each atomically; a failure leaves the cache as it was. */
    private static void write(Pending p, byte[] source) {
        String signature = "__kernel void " + p.task.entryPoint + "(";
        if (!new String(source, StandardCharsets.UTF_8).contains(signature)) {
            return;
        }
        StringBuilder meta = new StringBuilder();
        for (String line : p.task.key.split("\n")) {
            meta.append("key ").append(line).append('\n');
        }
        meta.append("entry ").append(p.task.entryPoint).append('\n');
        StringBuilder acc = new StringBuilder();
        for (Access a : p.accesses) {
            acc.append(acc.isEmpty() ? "" : ",").append(a.name());
        }
        meta.append("access ").append(acc).append('\n');
        meta.append("sha256 ").append(sha256(source)).append('\n');
        try {
            Files.createDirectories(p.task.source.getParent());
            atomicWrite(p.task.source, source);
            atomicWrite(p.task.meta, meta.toString().getBytes(StandardCharsets.UTF_8));
            SAVES.incrementAndGet();
        } catch (IOException | RuntimeException e) {
            // a cache that cannot be written (read-only home, full disk) only costs the next process its compile
        }
    }

    private static void atomicWrite(Path target, byte[] bytes) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp" + ProcessHandle.current().pid() + "-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        try {
            Files.write(tmp, bytes);
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static String safe(String s) {
        String t = s.replaceAll("[^A-Za-z0-9._-]+", "_");
        return t.length() > 80 ? t.substring(0, 80) : t;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
