package org.accelgeom.spark;

import java.io.Serializable;

/**
 * What became of one {@link WorkItem}, sent back to the driver.
 *
 * @param item    what was computed ({@link WorkItem#describe()})
 * @param ok      whether every result of the item was written
 * @param message the one-line error when not ok, else null
 * @param files   result files written
 * @param nanos   time of the item on the executor (reading, computing, writing)
 * @param ranOn   where it ran: the backend, device and the task's GPU address (e.g. {@code tornado device 1 (gpu 1)})
 */
public record Outcome(String item, boolean ok, String message, int files, long nanos, String ranOn) implements Serializable {

    private static final long serialVersionUID = 1L;

    static Outcome done(WorkItem w, int files, long nanos, String ranOn) {
        return new Outcome(w.describe(), true, null, files, nanos, ranOn);
    }

    static Outcome failed(WorkItem w, String message, int files, long nanos, String ranOn) {
        return new Outcome(w.describe(), false, message, files, nanos, ranOn);
    }
}
