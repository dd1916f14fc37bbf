package org.accelgeom.spark;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** A small DCD file for the tests (CHARMM layout, little endian, no unit cell), as io.DcdReader reads it. */
final class TinyDcd {
    private TinyDcd() {
    }

    /** frames[f][axis][atom]. */
    static byte[] write(float[][][] frames, int atoms) {
        ByteOrder order = ByteOrder.LITTLE_ENDIAN;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer h = ByteBuffer.allocate(84).order(order);
        h.put("CORD".getBytes(StandardCharsets.US_ASCII));
        int[] icntrl = new int[20];
        icntrl[0] = frames.length;
        icntrl[1] = 1;
        icntrl[2] = 1;
        icntrl[3] = frames.length;
        icntrl[19] = 24;
        for (int v : icntrl) {
            h.putInt(v);
        }
        record(out, order, h.array());
        ByteBuffer t = ByteBuffer.allocate(4 + 80).order(order);
        t.putInt(1);
        byte[] title = new byte[80];
        java.util.Arrays.fill(title, (byte) ' ');
        t.put(title);
        record(out, order, t.array());
        record(out, order, ByteBuffer.allocate(4).order(order).putInt(atoms).array());
        for (float[][] f : frames) {
            for (int axis = 0; axis < 3; axis++) {
                ByteBuffer b = ByteBuffer.allocate(4 * atoms).order(order);
                for (int i = 0; i < atoms; i++) {
                    b.putFloat(f[axis][i]);
                }
                record(out, order, b.array());
            }
        }
        return out.toByteArray();
    }

    private static void record(ByteArrayOutputStream out, ByteOrder order, byte[] body) {
        byte[] len = ByteBuffer.allocate(4).order(order).putInt(body.length).array();
        out.writeBytes(len);
        out.writeBytes(body);
        out.writeBytes(len);
    }
}
