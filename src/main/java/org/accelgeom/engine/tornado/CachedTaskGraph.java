package org.accelgeom.engine.tornado;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoTaskGraphInterface;
import uk.ac.manchester.tornado.api.common.TaskPackage;
import uk.ac.manchester.tornado.api.common.TornadoDevice;

/**
 * A {@link TaskGraph} whose tasks go through the {@link KernelCache}: written exactly as a TaskGraph ({@code new
 * CachedTaskGraph(name).transferToDevice(...).task(...)}), but built inside {@code KernelCache.onDevice(device)} a task
 * whose generated OpenCL source an earlier process saved becomes a pre-built task (no Graal), and any other is
 * compiled by TornadoVM as usual and its source saved after its first execution. Outside such a scope, or with
 * {@code -Daccelgeom.kernelCache=false}, it is a plain TaskGraph.
 *
 * <p>Contract: the plan that runs this graph gives each of its tasks a {@code WorkerGrid} (TornadoVM launches a
 * pre-built task without one on a single work-item).
 *
 * <p>How: every {@code task(...)} overload of TaskGraph hands a {@link TaskPackage} to TornadoVM's graph object
 * ({@code taskGraphImpl}, a protected field); this class puts a proxy in front of that object which routes
 * {@code addTask} through the cache and passes every other call on unchanged.
 */
public class CachedTaskGraph extends TaskGraph {

    public CachedTaskGraph(String name) {
        super(name);
        TornadoDevice device = KernelCache.scopeDevice();
        if (device != null && KernelCache.enabled()) {
            TornadoTaskGraphInterface real = taskGraphImpl;
            InvocationHandler h = (proxy, method, args) -> {
                if (method.getName().equals("addTask") && args != null && args.length == 1
                        && args[0] instanceof TaskPackage pkg && !pkg.isPrebuiltTask()) {
                    KernelCache.addTask(real, name, pkg, device);
                    return null;
                }
                try {
                    return method.invoke(real, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            };
            taskGraphImpl = (TornadoTaskGraphInterface) Proxy.newProxyInstance(CachedTaskGraph.class.getClassLoader(),
                    new Class<?>[] {TornadoTaskGraphInterface.class}, h);
        }
    }
}
