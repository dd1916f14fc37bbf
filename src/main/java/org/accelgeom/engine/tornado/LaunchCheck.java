package org.accelgeom.engine.tornado;

import java.util.Arrays;

import org.accelgeom.engine.AccelGeomException;

/**
 * The heartbeat check of a task graph, with named slots. TornadoVM 5.2 reports a kernel that failed to launch
 * (CL_OUT_OF_RESOURCES, an invalid work-group size, ...) on stderr and goes on, so every task of our graphs writes
 * the execution's sequence number to its own slot of a small {@code int[]} (work-item 0 does); after the execution
 * the host compares each slot with the number it sent. A slot that did not change names its task in one line.
 *
 * <p>Kernels index the array with the family's {@code static final int} slot constants (Graal folds them); this
 * class holds the array and the names of those slots in the same order, so the constants and the names are
 * declared together by the family's task-graph class: {@code new LaunchCheck("hull", "init", "farthest", ...)}
 * makes slot 0 "init", slot 1 "farthest", and so on.
 */
public final class LaunchCheck {

    private final String family;
    private final String[] slots;
    /** The heartbeat array the tasks write: pass it to the graph's tasks and download it after each execution. */
    public final int[] beat;

    /** A check of {@code family}'s graphs whose slot {@code k} belongs to task {@code slots[k]}. */
    public LaunchCheck(String family, String... slots) {
        this.family = family;
        this.slots = slots.clone();
        this.beat = new int[Math.max(1, slots.length)];
        Arrays.fill(beat, Integer.MIN_VALUE);
    }

    /** Number of named slots. */
    public int size() {
        return slots.length;
    }

    /** Name of slot {@code k}. */
    public String name(int k) {
        return slots[k];
    }

    /** Slot of the task named {@code name}; an unknown name is a programming error. */
    public int slot(String name) {
        for (int k = 0; k < slots.length; k++) {
            if (slots[k].equals(name)) {
                return k;
            }
        }
        throw new IllegalArgumentException("no heartbeat slot '" + name + "' in " + family + ": " + Arrays.toString(slots));
    }

    /**
     * Throws, in one line naming the first task that did not run, unless every slot in {@code expected} holds
     * {@code seq}. {@code device} and {@code phase} go into the message.
     */
    public void verify(int seq, String device, String phase, int... expected) {
        for (int k : expected) {
            if (beat[k] != seq) {
                throw new AccelGeomException("the TornadoVM kernel '" + slots[k] + "' of the " + family
                        + " did not run on " + device + (phase == null ? "" : " during '" + phase + "'")
                        + " (see the OpenCL error above); try another --device or the jvm-parallel backend");
            }
        }
    }

    /** {@link #verify(int, String, String, int...)} over the slots {@code from .. to-1}. */
    public void verifyRange(int seq, String device, String phase, int from, int to) {
        for (int k = from; k < to; k++) {
            verify(seq, device, phase, k);
        }
    }
}
