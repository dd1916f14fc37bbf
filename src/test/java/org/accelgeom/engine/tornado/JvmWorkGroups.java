package org.accelgeom.engine.tornado;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import uk.ac.manchester.tornado.api.KernelContext;

/**
 * A {@link KernelContext} stand-in that runs a TornadoVM work-group kernel on the JVM with OpenCL's semantics: the
 * work-groups one after another, the items of a group each on a thread of its own, {@code localBarrier} a barrier of
 * the group, the {@code allocate*LocalArray} calls of the group's items returning the same arrays (in call order), and
 * {@code atomicAdd} atomic. So the device's work-group form of a step runs on the JVM too, and a test checks it
 * against the JVM backends' plain loop (issue 15 item 3: the pair cannot drift).
 *
 * <p>KernelContext's index fields are final (TornadoVM replaces them in the generated code); each item's context gets
 * its own values by reflection, which the JDK allows for a public field of a public class.
 */
public final class JvmWorkGroups {

    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
    private static final String[] FIELDS = {"globalIdx", "groupIdx", "localIdx", "globalGroupSizeX", "localGroupSizeX"};

    private JvmWorkGroups() {
    }

    /** A context for a {@code @Parallel} loop that uses only atomics (run on the calling thread). */
    public static KernelContext atomics() {
        return new Item(null, null);
    }

    /** Runs {@code kernel} over {@code global} work-items in groups of {@code local} (global a multiple of local). */
    public static void run(int global, int local, Consumer<KernelContext> kernel) {
        if (global % local != 0) {
            throw new IllegalArgumentException("global size " + global + " is not a multiple of the group size " + local);
        }
        for (int g = 0; g < global / local; g++) {
            CyclicBarrier barrier = new CyclicBarrier(local);
            List<Object> arrays = new ArrayList<>();
            Thread[] items = new Thread[local];
            Throwable[] failure = new Throwable[1];
            for (int l = 0; l < local; l++) {
                Item c = new Item(barrier, arrays);
                set(c, g * local + l, g, l, global, local);
                items[l] = Thread.ofVirtual().unstarted(() -> {
                    try {
                        kernel.accept(c);
                    } catch (Throwable e) {
                        synchronized (failure) {
                            failure[0] = failure[0] == null ? e : failure[0];
                        }
                        barrier.reset(); // the others fail at their next barrier instead of waiting
                    }
                });
            }
            for (Thread t : items) {
                t.start();
            }
            for (Thread t : items) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            if (failure[0] != null) {
                throw new IllegalStateException("work-group " + g + " failed", failure[0]);
            }
        }
    }

    private static void set(KernelContext c, int... values) {
        try {
            for (int k = 0; k < FIELDS.length; k++) {
                Field f = KernelContext.class.getField(FIELDS[k]);
                f.setAccessible(true);
                f.set(c, values[k]);
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot set KernelContext's indices", e);
        }
    }

    /** One work-item's context. */
    private static final class Item extends KernelContext {
        private final CyclicBarrier barrier;
        private final List<Object> arrays;
        private int allocated;

        Item(CyclicBarrier barrier, List<Object> arrays) {
            this.barrier = barrier;
            this.arrays = arrays;
        }

        @Override
        public void localBarrier() {
            try {
                barrier.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                throw new IllegalStateException("a work-item left the group's barrier (divergent barrier?)", e);
            }
        }

        /** A barrier of the group with a fence on global memory (a CyclicBarrier fences all memory): the same here. */
        @Override
        public void globalBarrier() {
            localBarrier();
        }

        private Object local(java.util.function.Supplier<Object> make) {
            synchronized (arrays) {
                if (allocated == arrays.size()) {
                    arrays.add(make.get());
                }
                return arrays.get(allocated++);
            }
        }

        @Override
        public int[] allocateIntLocalArray(int size) {
            return (int[]) local(() -> new int[size]);
        }

        @Override
        public long[] allocateLongLocalArray(int size) {
            return (long[]) local(() -> new long[size]);
        }

        @Override
        public float[] allocateFloatLocalArray(int size) {
            return (float[]) local(() -> new float[size]);
        }

        @Override
        public double[] allocateDoubleLocalArray(int size) {
            return (double[]) local(() -> new double[size]);
        }

        @Override
        public byte[] allocateByteLocalArray(int size) {
            return (byte[]) local(() -> new byte[size]);
        }

        @Override
        public void atomicAdd(int[] a, int index, int value) {
            INTS.getAndAdd(a, index, value);
        }
    }
}
