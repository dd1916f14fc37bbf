package org.accelgeom.io;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A tiny DCD writer for the tests (the layout {@link DcdReader} documents): CHARMM layout (ICNTRL[19] = 24) with
 * or without unit cell records, or the X-PLOR layout (ICNTRL[19] = 0), in either byte order. frames[f][0..2] are
 * the x, y, z arrays of frame f.
 */
public final class DcdWriter {
    private DcdWriter() {
    }

    public static byte[] write(ByteOrder order, boolean charmm, boolean unitCell, int fixed, float[][][] frames, int atoms) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer h = ByteBuffer.allocate(84).order(order);
        h.put("CORD".getBytes(StandardCharsets.US_ASCII));
        int[] icntrl = new int[20];
        icntrl[0] = frames.length;
        icntrl[1] = 1;
        icntrl[2] = 1;
        icntrl[3] = frames.length;
        icntrl[8] = fixed;
        icntrl[10] = unitCell ? 1 : 0;
        icntrl[19] = charmm ? 24 : 0;
        for (int v : icntrl) {
            h.putInt(v);
        }
        record(out, order, h.array());
        ByteBuffer t = ByteBuffer.allocate(4 + 2 * 80).order(order);
        t.putInt(2);
        t.put(pad("REMARKS accelgeom test trajectory"));
        t.put(pad("REMARKS written by DcdWriter"));
        record(out, order, t.array());
        record(out, order, ByteBuffer.allocate(4).order(order).putInt(atoms).array());
        for (float[][] f : frames) {
            if (unitCell && charmm) {
                ByteBuffer c = ByteBuffer.allocate(48).order(order);
                for (double v : new double[] {50, 90, 50, 90, 90, 50}) {
                    c.putDouble(v);
                }
                record(out, order, c.array());
            }
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

    private static byte[] pad(String s) {
        byte[] b = new byte[80];
        java.util.Arrays.fill(b, (byte) ' ');
        byte[] t = s.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(t, 0, b, 0, t.length);
        return b;
    }

    private static void record(ByteArrayOutputStream out, ByteOrder order, byte[] body) {
        byte[] len = ByteBuffer.allocate(4).order(order).putInt(body.length).array();
        out.writeBytes(len);
        out.writeBytes(body);
        out.writeBytes(len);
    }
}
