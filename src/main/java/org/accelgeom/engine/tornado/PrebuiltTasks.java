package org.accelgeom.engine.tornado;

import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.util.List;

import uk.ac.manchester.tornado.api.AccessorParameters;
import uk.ac.manchester.tornado.api.TornadoTaskGraphInterface;
import uk.ac.manchester.tornado.api.common.Access;
import uk.ac.manchester.tornado.api.common.PrebuiltTaskPackage;
import uk.ac.manchester.tornado.api.common.SchedulableTask;
import uk.ac.manchester.tornado.api.common.TaskPackage;

/**
 * Adds a pre-built task to a TornadoVM graph, working around a TornadoVM 5.2 bug: {@code PrebuiltTask.equals} is
 * true only for a {@code CompilableTask}, never for itself, so the interpreter's {@code globalToLocalTaskIndex}
 * ({@code localTaskList.indexOf(task)}) finds no pre-built task and uses slot 0 for all of them: every pre-built task
 * of a graph after the first launches the kernel installed in slot 0, with its own arguments (observed on POCL:
 * {@code clSetKernelArg} CL_INVALID_ARG_SIZE, then a crash; with two pre-built tasks, the second ran the first's
 * kernel). {@code TaskGraph.prebuiltTask} is therefore only safe for a graph whose one pre-built task is its first.
 *
 * <p>The fix: a subclass of TornadoVM's {@code PrebuiltTask} whose {@code equals} compares task ids, as
 * {@code CompilableTask}'s does. The runtime module is not on accelgeom's compile class path, so the subclass is
 * generated once, at run time, with the JDK's class-file API (a constructor that calls the super constructor, and an
 * {@code equals} that calls {@link #sameTask}), and defined in this package. Tested by {@code KernelCacheTest}: a hull
 * whose graphs hold up to twelve pre-built tasks each equals the jvm reference.
 */
final class PrebuiltTasks {

    private static final String PREBUILT = "uk.ac.manchester.tornado.runtime.tasks.PrebuiltTask";
    private static final String CONTEXT = "uk.ac.manchester.tornado.runtime.tasks.meta.ScheduleContext";

    /** The generated subclass's constructor (ScheduleContext, id, entry point, file, args, accesses), or null. */
    private static volatile Constructor<?> constructor;
    private static volatile boolean failed;

    private PrebuiltTasks() {
    }

    /** {@code equals} of the generated task class: the same task id. */
    public static boolean sameTask(Object self, Object other) {
        return other instanceof SchedulableTask o && ((SchedulableTask) self).getId().equals(o.getId());
    }

    /**
     * Adds task {@code id} of {@code impl} (TornadoVM's graph object) as a pre-built task of {@code file}, as
     * {@code TaskGraph.prebuiltTask} would but with the fixed task class. False when that cannot be done here (then
     * nothing was added).
     */
    static boolean add(TornadoTaskGraphInterface impl, String id, String entryPoint, String file, Object[] args,
            Access[] accesses) {
        try {
            Constructor<?> c = constructor();
            if (c == null) {
                return false;
            }
            Object meta = impl.getClass().getMethod("meta").invoke(impl);
            Object task = c.newInstance(meta, id, entryPoint, file, args, accesses);
            AccessorParameters ap = new AccessorParameters(args.length);
            for (int i = 0; i < args.length; i++) {
                ap.set(i, args[i], accesses[i]);
            }
            PrebuiltTaskPackage pkg = TaskPackage.createPrebuiltTask(id, entryPoint, file, ap);
            Field packages = impl.getClass().getDeclaredField("taskPackages");
            packages.setAccessible(true);
            @SuppressWarnings("unchecked")
            List<TaskPackage> list = (List<TaskPackage>) packages.get(impl);
            list.add(pkg);
            impl.addInner((SchedulableTask) task);
            return true;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return false;
        }
    }

    private static Constructor<?> constructor() {
        Constructor<?> c = constructor;
        if (c != null || failed) {
            return c;
        }
        synchronized (PrebuiltTasks.class) {
            if (constructor == null && !failed) {
                try {
                    constructor = define();
                } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                    failed = true;
                }
            }
            return constructor;
        }
    }

    private static Constructor<?> define() throws ReflectiveOperationException {
        Class<?> prebuilt = Class.forName(PREBUILT, false, PrebuiltTasks.class.getClassLoader());
        Class<?> context = Class.forName(CONTEXT, false, PrebuiltTasks.class.getClassLoader());
        ClassDesc self = ClassDesc.of(PrebuiltTasks.class.getPackageName() + ".FixedPrebuiltTask");
        ClassDesc superDesc = ClassDesc.of(PREBUILT);
        ClassDesc accessDesc = ClassDesc.of(Access.class.getName());
        MethodTypeDesc init = MethodTypeDesc.of(ConstantDescs.CD_void, ClassDesc.of(CONTEXT), ConstantDescs.CD_String,
                ConstantDescs.CD_String, ConstantDescs.CD_String, ConstantDescs.CD_Object.arrayType(), accessDesc.arrayType());
        byte[] bytes = ClassFile.of().build(self, cb -> cb.withFlags(ClassFile.ACC_PUBLIC | ClassFile.ACC_FINAL | ClassFile.ACC_SUPER)
                .withSuperclass(superDesc)
                .withMethodBody(ConstantDescs.INIT_NAME, init, ClassFile.ACC_PUBLIC, code -> code.aload(0).aload(1).aload(2)
                        .aload(3).aload(4).aload(5).aload(6).invokespecial(superDesc, ConstantDescs.INIT_NAME, init).return_())
                .withMethodBody("equals", MethodTypeDesc.of(ConstantDescs.CD_boolean, ConstantDescs.CD_Object), ClassFile.ACC_PUBLIC,
                        code -> code.aload(0).aload(1).invokestatic(ClassDesc.of(PrebuiltTasks.class.getName()), "sameTask",
                                MethodTypeDesc.of(ConstantDescs.CD_boolean, ConstantDescs.CD_Object, ConstantDescs.CD_Object))
                                .ireturn()));
        Class<?> fixed = MethodHandles.lookup().defineClass(bytes);
        return fixed.getConstructor(context, String.class, String.class, String.class, Object[].class, Access[].class);
    }
}
